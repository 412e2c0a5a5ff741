"""Error analysis: the corrections that turn a response into its key.

After Kummerfeld & Klein (2013, "Error-driven analysis of challenges in
coreference resolution"). The response is transformed into the key step by
step, and each step is an error of one category, in this order:

1. **span error**: a response mention paired with a key mention whose words
   differ (the scoring alignment's non-identical pairs; then, among mentions
   left unpaired, equal spans once punctuation and articles at the edges are
   set aside, and a lone key and response mention sharing a head word);
2. **conflated entities**: a part of a response entity that belongs to
   another key entity than the entity's anchor part is split off;
3. **extra mention**: a response mention in no key entity is removed;
4. **extra entity**: a response entity with no non-pronoun key mention
   loses its two or more mentions outside the key at once;
5. **divided entity**: a part of a key entity found in another response
   entity than the key entity's anchor part is merged into it;
6. **missing mention**: a key mention the response lacks is added;
7. **missing entity**: a key entity of which the response found at most
   pronouns, with two or more mentions missing, is added at once.

A *part* is the set of mentions a response entity and a key entity share.
The *anchor* part of an entity stays put: the part holding the entity's
earliest non-pronoun mention (pronouns and zeros have no lexical content to
anchor an entity), else its earliest mention. Mentions that have to be
removed or added never anchor an entity, so a spurious or dropped mention is
charged as such wherever it stands (the original analyser lets a spurious
first mention anchor its entity and charges the rest as conflated).

Every response mention is charged to at most one of the response-side
categories (extra mention, extra entity, conflated entities) and every key
mention to at most one of the key-side ones (missing mention, missing entity,
divided entity); span errors pair mentions one to one. A part moved from one
entity into another is one split and one merge, as in the procedure.

"Pronoun" means a one-word mention headed by ``PRON`` or by ``DET`` with
``PronType`` in the dependency trees, not a word list; zeros (mentions headed
by empty nodes) are a kind of their own, treated like pronouns. A format
without trees uses the procedure's token rules and an English pronoun list:
its reader takes ``words`` in ``read_documents`` and fills ``Document.text``
with ``trees=False`` and its part-of-speech tags (Penn Treebank for
CoNLL-2012) as ``upos``; a reader that gives no words is analysed with
spans as they are and no pronoun known, and the report says so.

The cost of a category is the score after correcting it, alone and
cumulatively in the order above; correcting all seven gives the key.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import partial

from ..model import ORD_SCALE, SENTENCE_STRIDE, Document, DocumentText, Entity, Mention

# The order in which corrections are applied (the procedure's).
CATEGORIES = ("span_error", "conflated_entities", "extra_mention", "extra_entity",
              "divided_entity", "missing_mention", "missing_entity")
# The order in which counts are reported.
REPORT_ORDER = ("span_error", "missing_mention", "extra_mention", "missing_entity",
                "extra_entity", "divided_entity", "conflated_entities")
LABELS = {
    "span_error": "Span Error",
    "missing_mention": "Missing Mention",
    "extra_mention": "Extra Mention",
    "missing_entity": "Missing Entity",
    "extra_entity": "Extra Entity",
    "divided_entity": "Divided Entity",
    "conflated_entities": "Conflated Entities",
}

# Without trees: the forms the procedure's pronoun test accepts (English),
# and the Penn Treebank tags of pronouns and names.
ENGLISH_PRONOUNS = frozenset("""
i me my mine myself we us our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their theirs
themselves one oneself this that these those who whom whose which what
whoever whomever whatever whichever where when how
someone somebody something anyone anybody anything everyone everybody
everything noone nobody nothing none all some many most few several
""".split())
PTB_PRONOUN_TAGS = frozenset({"PRP", "PRP$", "WP", "WP$", "WDT", "WRB", "DT"})
PTB_NAME_TAGS = frozenset({"NNP", "NNPS"})
PRONOUN_LIKE = frozenset({"pronoun", "zero"})


# --- what a mention is: kind, core span ---

def mention_kind(mention: Mention, text: DocumentText | None) -> str:
    """``zero``, ``pronoun``, ``name`` or ``nominal``."""
    if mention.is_zero:
        return "zero"
    head = text.words.get(mention.head) if text is not None else None
    if head is None:
        return "nominal"
    one_word = len(mention.words) == 1
    if text.trees:
        if one_word and (head.upos == "PRON" or (head.upos == "DET" and "PronType=" in (head.feats or ""))):
            return "pronoun"
        return "name" if head.upos == "PROPN" else "nominal"
    if one_word and (head.upos in PTB_PRONOUN_TAGS or head.form.lower() in ENGLISH_PRONOUNS):
        return "pronoun"
    return "name" if head.upos in PTB_NAME_TAGS else "nominal"


def _strippable(word, first: bool, trees: bool) -> bool:
    if word is None:
        return False
    if trees:
        if word.upos in ("PUNCT", "SYM"):
            return True
        feats = word.feats or ""
        if first:
            return word.upos == "DET" and "PronType=Art" in feats   # an article
        return word.upos == "PART" and "Poss=Yes" in feats          # a possessive marker
    form = word.form
    if len(form) == 1 and not form.isalpha():
        return True
    return form.lower() == ("the" if first else "'s")


def core_span(mention: Mention, text: DocumentText | None) -> tuple[int, ...]:
    """The mention's words without punctuation at either edge, a leading
    article or a trailing possessive marker (at least one word is kept)."""
    words = mention.words
    if text is None or mention.is_zero:
        return words
    start, end = 0, len(words)
    while end - start > 1 and _strippable(text.words.get(words[start]), True, text.trees):
        start += 1
    while end - start > 1 and _strippable(text.words.get(words[end - 1]), False, text.trees):
        end -= 1
    return words[start:end]


# --- the analysis of one document ---

@dataclass
class Part:
    """Mentions shared by response entity ``response`` and key entity ``key``:
    response mention indices, in position order."""

    response: int
    key: int
    mentions: list[int]


@dataclass
class DocumentErrors:
    """One document's errors, and what applying their corrections needs."""

    doc_id: object
    counts: dict[str, int]
    occurrences: list[dict]
    key_mentions: list[Mention]
    response_mentions: list[Mention]
    response_entities: list[list[int]]          # response mention indices
    key_of: list                                # response index -> key index or None
    found_of: list                              # key index -> response index or None
    span_errors: list[tuple[int, int]]          # (response index, key index)
    conflated: list[Part]
    extra_mentions: list[int]
    extra_entities: list[list[int]]
    divided: list[tuple[int, Part]]             # (response index of the key entity's anchor, part)
    missing_mentions: list[tuple[int, int | None]]  # (key index, response index of its anchor)
    missing_entities: list[tuple[list[int], list[int]]]  # (missing key indices, found response indices)

    def corrected(self, applied) -> list[list[Mention]]:
        """The response entities after applying the corrections of the
        categories in ``applied``, in the procedure's order."""
        applied = set(applied)
        entities: dict[int, dict] = {j: dict.fromkeys(items) for j, items in enumerate(self.response_entities)}
        where: dict = {}
        for j, items in entities.items():
            for item in items:
                where[item] = j
        fresh = [len(entities)]

        def new_entity():
            fresh[0] += 1
            entities[fresh[0]] = {}
            return fresh[0]

        def move(item, target):
            source = where.get(item)
            if source is not None:
                del entities[source][item]
            entities[target][item] = None
            where[item] = target

        def remove(item):
            del entities[where.pop(item)][item]

        def union(first, second):
            if first != second:
                for item in list(entities[second]):
                    move(item, first)

        # Key mentions added by the corrections are items ("k", index).
        if "conflated_entities" in applied:
            for part in self.conflated:
                target = new_entity()
                for item in part.mentions:
                    move(item, target)
        if "extra_mention" in applied:
            for item in self.extra_mentions:
                remove(item)
        if "extra_entity" in applied:
            for items in self.extra_entities:
                for item in items:
                    remove(item)
        if "divided_entity" in applied:
            for anchor, part in self.divided:
                union(where[anchor], where[part.mentions[0]])
        if "missing_mention" in applied:
            alone: dict = {}
            for key_index, anchor in self.missing_mentions:
                if anchor is not None:
                    target = where[anchor]
                else:  # a key entity of one mention (singletons kept)
                    target = alone.setdefault(key_index, new_entity())
                move(("k", key_index), target)
        if "missing_entity" in applied:
            for missing, found in self.missing_entities:
                target = new_entity()
                for item in found:
                    move(item, target)
                for key_index in missing:
                    move(("k", key_index), target)

        # Corrected spans take the key mention's words and head, and the
        # dependencies of its zeros, so that the rescoring aligns them alike.
        relabel = ({r: k for r, k in enumerate(self.key_of) if k is not None}
                   if "span_error" in applied else {})
        out = []
        for items in entities.values():
            if not items:
                continue
            mentions = []
            for item in items:
                if isinstance(item, tuple):
                    mentions.append(self.key_mentions[item[1]])
                elif item in relabel:
                    mentions.append(self.key_mentions[relabel[item]])
                else:
                    mentions.append(self.response_mentions[item])
            out.append(mentions)
        return out


def _disjoint(entities, entity_of, identity):
    """Each mention once, in the entity the scorer's lookup gives it (the last)."""
    mentions, entity_index, members, seen = [], [], [], {}
    for index, entity in enumerate(entities):
        own = []
        for mention in entity:
            ident = identity(mention)
            if entity_of.get(ident) != index or ident in seen:
                continue
            seen[ident] = len(mentions)
            own.append(len(mentions))
            mentions.append(mention)
            entity_index.append(index)
        members.append(own)
    return mentions, entity_index, members, seen


def _pair_leftovers(key_mentions, response_mentions, key_of, found_of, text):
    """Step 1's own pairing of mentions the alignment left alone: equal core
    spans, then one key and one response mention alone with their head."""
    pairs = []
    free_key = [k for k in range(len(key_mentions)) if found_of[k] is None]
    free_response = [r for r in range(len(response_mentions)) if key_of[r] is None]
    if not free_key or not free_response:
        return pairs
    by_core = defaultdict(list)
    for k in sorted(free_key, key=lambda k: key_mentions[k].sort_key()):
        by_core[core_span(key_mentions[k], text)].append(k)
    for r in sorted(free_response, key=lambda r: response_mentions[r].sort_key()):
        candidates = by_core.get(core_span(response_mentions[r], text))
        while candidates and found_of[candidates[0]] is not None:
            candidates.pop(0)
        if candidates:
            k = candidates.pop(0)
            key_of[r], found_of[k] = k, r
            pairs.append((r, k))
    by_head = defaultdict(lambda: ([], []))
    for k in free_key:
        if found_of[k] is None:
            by_head[key_mentions[k].head][0].append(k)
    for r in free_response:
        if key_of[r] is None:
            by_head[response_mentions[r].head][1].append(r)
    for head in sorted(by_head):
        keys, responses = by_head[head]
        if len(keys) == 1 and len(responses) == 1:
            k, r = keys[0], responses[0]
            key_of[r], found_of[k] = k, r
            pairs.append((r, k))
    return pairs


def analyse(key: list[list[Mention]], response: list[list[Mention]], key_entity_of: dict,
            response_entity_of: dict, alignment, identity, zero_method: str = "dependent",
            text: DocumentText | None = None, doc_id=None, key_eids=None,
            response_eids=None) -> DocumentErrors:
    """Classify the errors of one document.

    ``key`` and ``response`` are the entities as scored (singletons dropped
    unless kept), ``*_entity_of`` the scorer's identity -> entity lookups,
    ``alignment`` its (key identity, response identity) pairs, ``identity``
    its mention identity; ``text`` gives words and parts of speech.
    """
    key_mentions, key_entity, key_members, key_index = _disjoint(key, key_entity_of, identity)
    response_mentions, response_entity, response_members, response_index = _disjoint(
        response, response_entity_of, identity)
    key_eids = key_eids or [str(i) for i in range(len(key))]
    response_eids = response_eids or [str(j) for j in range(len(response))]

    # Step 1: pair response mentions with key mentions.
    key_of: list = [None] * len(response_mentions)
    found_of: list = [None] * len(key_mentions)
    span_errors = []
    for key_ident, response_ident in alignment:
        k, r = key_index.get(key_ident), response_index.get(response_ident)
        if k is None or r is None or key_of[r] is not None or found_of[k] is not None:
            continue
        key_of[r], found_of[k] = k, r
        if key_ident != response_ident:
            km, rm = key_mentions[k], response_mentions[r]
            # Zeros paired by their dependencies are found, wherever the empty node stands.
            if not (zero_method == "dependent" and km.is_zero and rm.is_zero and km.head != rm.head):
                span_errors.append((r, k))
    for r, k in _pair_leftovers(key_mentions, response_mentions, key_of, found_of, text):
        span_errors.append((r, k))

    kinds_key = [mention_kind(m, text) for m in key_mentions]
    order_key = [m.sort_key() for m in key_mentions]

    def anchor(parts: list[Part]) -> Part:
        """The part holding the earliest non-pronoun key mention, else the earliest."""
        def rank(part):
            keys = [key_of[r] for r in part.mentions]
            lexical = [order_key[k] for k in keys if kinds_key[k] not in PRONOUN_LIKE]
            return (0, min(lexical)) if lexical else (1, min(order_key[k] for k in keys))
        return min(parts, key=rank)

    # Parts: response entity x key entity.
    parts_of_response: list[list[Part]] = [[] for _ in response]
    extras_of_response: list[list[int]] = [[] for _ in response]
    parts_of_key: list[list[Part]] = [[] for _ in key]
    for j, members in enumerate(response_members):
        by_key: dict[int, Part] = {}
        for r in sorted(members, key=lambda r: response_mentions[r].sort_key()):
            k = key_of[r]
            if k is None:
                extras_of_response[j].append(r)
                continue
            g = key_entity[k]
            if g not in by_key:
                by_key[g] = Part(j, g, [])
                parts_of_response[j].append(by_key[g])
                parts_of_key[g].append(by_key[g])
            by_key[g].mentions.append(r)

    occurrences: list[dict] = []
    counts = dict.fromkeys(CATEGORIES, 0)
    describe = _Describer(doc_id, text, key_mentions, response_mentions, kinds_key)

    def record(category, mentions, key_entities, response_entities):
        counts[category] += 1
        occurrences.append(describe.occurrence(category, mentions, [key_eids[g] for g in key_entities],
                                               [response_eids[j] for j in response_entities]))

    for r, k in span_errors:
        record("span_error", [("response", r), ("key", k)], [key_entity[k]], [response_entity[r]])

    conflated = []
    for j, parts in enumerate(parts_of_response):
        if len(parts) > 1:
            kept = anchor(parts)
            for part in parts:
                if part is not kept:
                    conflated.append(part)
                    record("conflated_entities", [("response", r) for r in part.mentions],
                           [kept.key, part.key], [j])

    extra_mentions, extra_entities = [], []
    for j, extras in enumerate(extras_of_response):
        lexical_key = any(kinds_key[key_of[r]] not in PRONOUN_LIKE
                          for part in parts_of_response[j] for r in part.mentions)
        if len(extras) > 1 and not lexical_key:
            extra_entities.append((j, extras))
        else:
            extra_mentions.extend((j, r) for r in extras)
    for j, r in extra_mentions:
        record("extra_mention", [("response", r)], [], [j])
    for j, extras in extra_entities:
        record("extra_entity", [("response", r) for r in extras], [], [j])

    divided = []
    anchors_of_key: list = [None] * len(key)
    for g, parts in enumerate(parts_of_key):
        if not parts:
            continue
        kept = anchor(parts)
        anchors_of_key[g] = kept
        for part in parts:
            if part is not kept:
                divided.append((kept.mentions[0], part))
                record("divided_entity", [("response", r) for r in part.mentions],
                       [g], [kept.response, part.response])

    missing_mentions, missing_entities = [], []
    entity_records = []
    for g, members in enumerate(key_members):
        missing = [k for k in sorted(members, key=lambda k: order_key[k]) if found_of[k] is None]
        if not missing:
            continue
        found = [found_of[k] for k in members if found_of[k] is not None]
        if len(missing) > 1 and all(kinds_key[key_of[r]] in PRONOUN_LIKE for r in found):
            missing_entities.append((missing, sorted(found, key=lambda r: response_mentions[r].sort_key())))
            entity_records.append((g, missing, found))
            continue
        kept = anchors_of_key[g]
        for k in missing:
            missing_mentions.append((k, kept.mentions[0] if kept else None))
            record("missing_mention", [("key", k)], [g], [kept.response] if kept else [])
    for g, missing, found in entity_records:
        record("missing_entity", [("key", k) for k in missing], [g],
               sorted({response_entity[r] for r in found}))

    return DocumentErrors(doc_id, counts, occurrences, key_mentions, response_mentions,
                          response_members, key_of, found_of, span_errors, conflated,
                          [r for _, r in extra_mentions], [extras for _, extras in extra_entities],
                          divided, missing_mentions, missing_entities)


class _Describer:
    """Occurrences as plain data: document, sentence, words, entity ids."""

    def __init__(self, doc_id, text, key_mentions, response_mentions, kinds_key):
        self.doc_id = doc_id
        self.text = text
        self.mentions = {"key": key_mentions, "response": response_mentions}
        self.kinds = {"key": kinds_key}

    def sentence(self, pos: int):
        index = pos // SENTENCE_STRIDE
        if self.text is not None and index < len(self.text.sentence_ids) and self.text.sentence_ids[index]:
            return self.text.sentence_ids[index]
        return index + 1

    @staticmethod
    def _ord(pos: int) -> str:
        value = pos % SENTENCE_STRIDE
        return str(value // ORD_SCALE) if value % ORD_SCALE == 0 else f"{value / ORD_SCALE:g}"

    def words(self, mention: Mention) -> str:
        if self.text is None:
            return ""
        out, previous = [], None
        for pos in mention.words:
            if previous is not None and ORD_SCALE < pos - previous < SENTENCE_STRIDE // 2:
                out.append("…")  # a gap in a discontinuous mention
            word = self.text.words.get(pos)
            out.append(word.form if word is not None else "_")
            previous = pos
        return " ".join(out)

    def mention(self, side: str, index: int) -> dict:
        mention = self.mentions[side][index]
        kinds = self.kinds.get(side)
        kind = kinds[index] if kinds is not None else mention_kind(mention, self.text)
        first, last = self._ord(mention.words[0]), self._ord(mention.words[-1])
        return {"side": side, "sentence": self.sentence(mention.words[0]),
                "tokens": first if first == last else f"{first}-{last}",
                "words": self.words(mention), "kind": kind}

    def occurrence(self, category, mentions, key_entities, response_entities) -> dict:
        described = [self.mention(side, index) for side, index in mentions]
        return {"category": category, "document": self.doc_id,
                "sentence": described[0]["sentence"],
                "words": [m["words"] for m in described],
                "key_entities": key_entities, "response_entities": response_entities,
                "mentions": described}


def kept_entity_ids(doc: Document, identity, options) -> list[str]:
    """The ids of the entities the scorer keeps, in its order
    (:func:`..alignment.contingency.prepare` drops singletons unless kept, and reads the
    discourse-deixis entities instead with ``discourse_deixis``)."""
    out = []
    for entity in doc.discourse_deixis if options.discourse_deixis else doc.entities:
        distinct = {identity(m) for m in entity.mentions}
        if options.keep_singletons or len(distinct) > 1:
            out.append(entity.eid)
    return out


def corrected_document(doc_id, entities: list[list[Mention]], empty_nodes=()) -> Document:
    # The corrections are of mentions and entities: the response's empty nodes stay as they are.
    return Document(doc_id, [Entity(f"c{i}", mentions) for i, mentions in enumerate(entities)],
                    empty_nodes=list(empty_nodes))


# --- costs: rescoring corrected responses ---

def _score_sync(options):
    """The synchronisation the printed score reads (``all`` prints the
    unsynchronised score, with the four beside it)."""
    return None if options.sync == "all" else options.sync


def refusal(options) -> str | None:
    """Why the analysis cannot honour the options (None if it can): it reads
    the mentions as written and every mention of the score, so that its
    baseline is the score."""
    if options.only_split_antecedent:
        return ("--only-split-antecedent scores the split antecedents alone, which no error category "
                "describes; analyse without it")
    if options.np_only or options.remove_nested:
        return "it reads the mentions as written, not with --np-only or --remove-nested-mentions"
    return None


def refused(options) -> None:
    """Options the analysis cannot honour, refused rather than answered with
    a baseline other than the score."""
    from ..errors import ScorerError

    why = refusal(options)
    if why is not None:
        raise ScorerError(f"error analysis: {why}")


class _Rescorer:
    """Scores corrected responses against one key document with the score's
    own function (:func:`..measures.document.document_counts`, with the options' sync and
    split-antecedent setting) on the prepared key side.

    The corrections move mentions of the sides as prepared (repeats, zeros,
    discourse deixis already settled by ``options.preparation()``), so a
    corrected response is indexed as it is rather than prepared a second
    time: preparing again would drop the zero-less remainders the score
    keeps, or look for discourse-deixis entities a corrected document does
    not hold. Only entities the corrections leave with one mention go, as a
    response scored afresh would lose them (unless singletons are kept).

    Mention overlap is given a memo of its sentences' values, so a sentence
    whose mentions a correction left as they were is not paired again."""

    def __init__(self, p, options):
        self.p = p
        self.key = p.key
        self.identity = p.identity
        self.options = options
        self.metrics = options.metric_list
        self.alone = {p.identity(e[0]) for side in (p.key, p.response) for e in side.entities if len(e) == 1}
        self.overlap: dict = {}  # mention overlap's memo

    def baseline(self) -> dict:
        from ..measures.document import document_counts

        # The same call as core.document_result's: the printed score's statistics.
        options = self.options
        return document_counts(self.p, options.metric_list, _score_sync(options), options.only_split_antecedent)

    def counts(self, entities) -> dict:
        from ..measures.document import document_counts
        from ..alignment.match import align
        from ..measures.mentions import mention_overlap
        from ..alignment.contingency import partition, prepare

        options = self.options
        identity = self.identity
        kept = [e for e in entities
                if options.keep_singletons or len(e) > 1 or identity(e[0]) in self.alone]
        source = self.p.response.document
        response = prepare(corrected_document(self.p.doc_id, kept, source.empty_nodes if source else ()),
                           identity, True)
        alignment = align(self.key.distinct, response.distinct, options.match, options.zero_match)
        p = partition(self.p.doc_id, self.key, response, alignment, identity)
        out = document_counts(p, [m for m in self.metrics if m != "mor"], _score_sync(options),
                              options.only_split_antecedent)
        if "mor" in self.metrics:
            out["mor"] = mention_overlap(p, self.overlap)
        return {name: out[name] for name in self.metrics}


class _V8Rescorer:
    """A CoNLL-2012 pair is scored by the reference scorer v8.01's reading
    (:mod:`~corefud_scorer.v801.scoring`), not by the model's, and so is its analysis's baseline:
    the same call as the score's. The errors are classified on the model
    (exact matching, as v8.01 matches), and each corrected response is
    rescored by v8.01's reading too, its mentions taken back to their token
    spans; singletons go unless kept, as :func:`..v801.scoring.prepare_chains` drops them."""

    def __init__(self, key_source, response_source, options):
        from ..v801 import scoring

        self.options = options
        self.prepared = scoring.prepare_chains(key_source, response_source, options.keep_singletons)
        self.key_spans = scoring.entity_spans(key_source, options.keep_singletons)[0]
        positions = key_source.positions()
        self.span_of = {tuple(positions[start:end + 1]): (start, end)
                        for source in (key_source, response_source)
                        for spans in source.entities for start, end in spans}
        self.mentions: dict | None = None

    def baseline(self) -> dict:
        from ..v801 import scoring

        return scoring.chains_counts(self.prepared, self.options.metric_list, _score_sync(self.options))

    def counts(self, entities) -> dict:
        from types import SimpleNamespace

        from ..v801 import chains, scoring

        response = []
        for entity in entities:
            spans = [self.span_of[m.words] for m in entity]
            if self.options.keep_singletons or len(set(spans)) > 1:
                response.append(spans)
        if self.mentions is None:
            self.mentions = self.prepared.mention_of() if "mor" in self.options.metric_list else {}
        mentions = self.mentions
        prepared = SimpleNamespace(chains=chains.identify(self.key_spans, response), mention_of=lambda: mentions)
        return scoring.chains_counts(prepared, self.options.metric_list, _score_sync(self.options))


# A document with at least this many mentions has its corrected responses
# rescored in parallel (with jobs > 1, when it is not itself in a worker).
PARALLEL_MENTIONS = 4000


def _rescore_variant(shared, effective):
    errors, rescorer = shared
    return rescorer.counts(errors.corrected(effective))


def cost_counts(errors: DocumentErrors, rescorer, jobs: int = 1) -> dict:
    """Each metric's statistics for the response as it is (``baseline``: the
    score's own), with one category corrected (``("alone", category)``) and
    with the categories up to one corrected (``("cumulative", category)``)."""
    from .parallel import shared_map

    done = {frozenset(): rescorer.baseline()}
    # Correcting spans also puts zeros paired by their dependencies on the
    # key's empty nodes (not errors, but what mention overlap reads).
    moved = any(errors.key_mentions[k] is not errors.response_mentions[r]
                and (errors.key_mentions[k].words, errors.key_mentions[k].head_deps)
                != (errors.response_mentions[r].words, errors.response_mentions[r].head_deps)
                for r, k in enumerate(errors.key_of) if k is not None)

    def effective(applied):
        return frozenset(c for c in applied if errors.counts[c] or (c == "span_error" and moved))

    wanted = {"baseline": frozenset()}
    for i, category in enumerate(CATEGORIES):
        wanted["alone", category] = effective({category})
        wanted["cumulative", category] = effective(CATEGORIES[:i + 1])
    todo = list(dict.fromkeys(v for v in wanted.values() if v not in done))
    large = len(errors.key_mentions) + len(errors.response_mentions) >= PARALLEL_MENTIONS
    done.update(zip(todo, shared_map(_rescore_variant, (errors, rescorer), todo, jobs if large else 1)))
    return {name: done[variant] for name, variant in wanted.items()}


@dataclass
class DocumentOutcome:
    """What analysing one document sends back (from a worker process too)."""

    doc_id: object
    counts: dict[str, int]
    occurrences: list[dict]
    metric_counts: dict
    text_kind: str


def v8_analysis_options(options):
    """What the model's analysis of a CoNLL-2012 pair follows: v8.01 matches
    exactly and reads none of the CorefUD/UA preparation or sync options
    (its score does not either)."""
    from dataclasses import replace

    return replace(options, match="exact", sync=None, keep_zeros=True, keep_split_antecedents=False,
                   discourse_deixis=False, only_split_antecedent=False)


def analyse_loaded(key_doc: Document, response_doc: Document, options, jobs: int = 1,
                   rescorer_of=None) -> DocumentOutcome:
    """Errors and costs of one pair of loaded documents, matched as the score
    matches; ``jobs`` > 1 rescores a large document's corrections in parallel.
    ``rescorer_of`` (Partition -> rescorer) replaces the model's rescoring."""
    from ..errors import ScorerError
    from .pipeline import align_documents

    refused(options)
    p = align_documents(key_doc, response_doc, options)
    if p.has_plurals:
        raise ScorerError(f"error analysis: document {key_doc.doc_id!r} has split antecedents (-l), "
                          "which the error categories do not cover; analyse without -l")
    identity = p.identity
    errors = analyse(p.key.entities, p.response.entities, p.key.entity_of, p.response.entity_of,
                     p.alignment, identity, options.zero_match, key_doc.text, key_doc.doc_id,
                     kept_entity_ids(key_doc, identity, options),
                     kept_entity_ids(response_doc, identity, options))
    text_kind = "none" if key_doc.text is None else "trees" if key_doc.text.trees else "tokens"
    rescorer = rescorer_of(p) if rescorer_of is not None else _Rescorer(p, options)
    return DocumentOutcome(key_doc.doc_id, errors.counts, errors.occurrences,
                           cost_counts(errors, rescorer, jobs), text_kind)


def _v8_rescorer(key_source, response_source, options):
    """The rescorer of a CoNLL-2012 pair, whatever the model's partition."""
    return lambda p: _V8Rescorer(key_source, response_source, options)


def analyse_against_key(key_source, response_sources, settings, jobs: int = 1) -> list[list[DocumentOutcome]]:
    """Load (with their words) and analyse a checked key document and its
    responses' documents under each setting: the pipeline's work
    (:func:`.pipeline.work_keyed`) for the error analysis; per setting, one
    outcome per response."""
    from .. import memory
    from .pipeline import reads_as_v8

    memory.between_documents()
    key_doc = key_source.load()
    response_docs = [source.load() for source in response_sources]
    out = []
    for options in settings:
        if reads_as_v8(options):
            out.append([analyse_loaded(key_doc, response_doc, v8_analysis_options(options), jobs,
                                       _v8_rescorer(key_source, source, options))
                        for source, response_doc in zip(response_sources, response_docs)])
        else:
            out.append([analyse_loaded(key_doc, response_doc, options, jobs) for response_doc in response_docs])
    return out


# --- the report over all documents ---

@dataclass
class ErrorReport:
    counts: dict[str, int]
    per_document: list[dict]
    occurrences: list[dict]
    cost: dict
    text_kind: str = "trees"
    format: str | None = None  # the files' format, when read from files

    def to_json(self) -> dict:
        from ..measures.totals import CONLL_SCORE, primary_name

        baseline = self.cost.get("baseline", {})
        return {"counts": {c: self.counts[c] for c in REPORT_ORDER},
                "cost": self.cost,
                # The key of the figure the cost is shown in (the text's and the page's columns).
                "primary": primary_name(baseline.get(CONLL_SCORE), baseline),
                "method": METHODS[self.text_kind],
                "occurrences": self.occurrences,
                "per_document": self.per_document}


METHODS = {
    "trees": {"heads": "dependency trees", "pronouns": "UPOS PRON, or DET with PronType",
              "span_rules": "punctuation at the edges, a leading article, a trailing possessive (UPOS, FEATS)"},
    "tokens": {"heads": "the format's head word (no trees)",
               "pronouns": "English pronoun list and Penn Treebank tags",
               "span_rules": "leading 'the', trailing \"'s\", one-character non-letter tokens at the edges"},
    # A reader that gives no words: no pronoun is known, spans are compared as they are.
    "none": {"heads": "the format's head word", "pronouns": "none known (the reader gives no words)",
             "span_rules": "none"},
}


def _scores(documents_counts: list[dict], options) -> dict:
    from ..measures.totals import headline, summarize_statistics
    from ..results import CONLL_SCORE

    metrics, conll = summarize_statistics(documents_counts, options.metric_list)
    return {CONLL_SCORE: conll, **{name: headline(score) for name, score in metrics.items()}}


def report_of(outcomes: list[DocumentOutcome], options) -> ErrorReport:
    """Sum the documents' errors; score every correction variant from the
    documents' summed statistics, as the score itself is computed."""
    counts = dict.fromkeys(CATEGORIES, 0)
    per_document, occurrences = [], []
    for outcome in outcomes:
        for category, n in outcome.counts.items():
            counts[category] += n
        per_document.append({"document": outcome.doc_id,
                             "counts": {c: outcome.counts[c] for c in REPORT_ORDER}})
        occurrences.extend(outcome.occurrences)
    cost = {"baseline": _scores([o.metric_counts["baseline"] for o in outcomes], options),
            "alone": {}, "cumulative": {}}
    for category in CATEGORIES:
        for mode in ("alone", "cumulative"):
            cost[mode][category] = _scores([o.metric_counts[mode, category] for o in outcomes], options)
    kinds = {o.text_kind for o in outcomes}
    text_kind = next((k for k in ("none", "tokens") if k in kinds), "trees")
    return ErrorReport(counts, per_document, occurrences, cost, text_kind)


def analyse_files(key, response, options=None, jobs: int = 1) -> ErrorReport:
    """The errors of a response file against its key file (paths, ``"-"``
    or file-like objects), with the score's matching (``options``: match,
    zero_match, keep_singletons, metrics, format), read as the score reads
    them (:func:`.pipeline.opened`)."""
    from ..results import Options
    from .pipeline import keyed_streams, opened, work_keyed

    with opened([(key, [response])], [options or Options()]) as (groups, (options,), _):
        refused(options)
        # Words and parts of speech are read from the key only: the check
        # makes the response's words the same.
        work = partial(analyse_against_key, jobs=jobs)
        outcomes = [per_setting[0][0] for _, per_setting in
                    work_keyed(keyed_streams(groups, [options], words=True), [options], work, jobs)]
    report = report_of(outcomes, options)
    report.format = options.format
    return report


def analyse_documents(key: list[Document], response: list[Document], options=None,
                      jobs: int = 1) -> ErrorReport:
    """The errors of documents already in the model (with their ``text`` for
    words and parts of speech), paired by position as :func:`~corefud_scorer.api.score_documents`
    pairs them (their number and ids must agree)."""
    from ..results import Options
    from .pipeline import in_memory

    options = options or Options()
    return report_of([analyse_loaded(k.load(), r.load(), options, jobs)
                      for k, (r,) in in_memory(key, response).documents], options)
