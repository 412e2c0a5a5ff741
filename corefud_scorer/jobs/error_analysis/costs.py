"""What each category costs: a document's response with the corrections of
one category, and of the categories up to it, rescored with the score's own
function (or v8.01's reading, for a CoNLL-2012 pair)."""

from __future__ import annotations

from ...model import Document, Entity, Mention
from .classify import CATEGORIES, DocumentErrors
from .corrections import corrected


def corrected_document(doc_id, entities: list[list[Mention]], empty_nodes=()) -> Document:
    # The corrections are of mentions and entities: the response's empty nodes stay as they are.
    return Document(doc_id, [Entity(f"c{i}", mentions) for i, mentions in enumerate(entities)],
                    empty_nodes=list(empty_nodes))


def _score_sync(options):
    """The synchronisation the printed score reads (``all`` prints the
    unsynchronised score, with the four beside it)."""
    return None if options.sync == "all" else options.sync


class Rescorer:
    """Scores corrected responses against one key document with the score's
    own function (:func:`...measures.document.document_counts`, with the options' sync and
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
        from ...measures.document import document_counts

        # The same call as core.document_result's: the printed score's statistics.
        options = self.options
        return document_counts(self.p, options.metric_list, _score_sync(options), options.only_split_antecedent)

    def counts(self, entities) -> dict:
        from ...measures.document import document_counts
        from ...alignment.match import align
        from ...measures.mentions import mention_overlap
        from ...alignment.contingency import partition, prepare

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


class V8Rescorer:
    """A CoNLL-2012 pair is scored by the reference scorer v8.01's reading
    (:mod:`~corefud_scorer.v801.scoring`), not by the model's, and so is its analysis's baseline:
    the same call as the score's. The errors are classified on the model
    (exact matching, as v8.01 matches), and each corrected response is
    rescored by v8.01's reading too, its mentions taken back to their token
    spans; singletons go unless kept, as :func:`...v801.scoring.prepare_chains` drops them."""

    def __init__(self, key_source, response_source, options):
        from ...v801 import scoring

        self.options = options
        self.prepared = scoring.prepare_chains(key_source, response_source, options.keep_singletons)
        self.key_spans = scoring.entity_spans(key_source, options.keep_singletons)[0]
        positions = key_source.positions()
        self.span_of = {tuple(positions[start:end + 1]): (start, end)
                        for source in (key_source, response_source)
                        for spans in source.entities for start, end in spans}
        self.mentions: dict | None = None

    def baseline(self) -> dict:
        from ...v801 import scoring

        return scoring.chains_counts(self.prepared, self.options.metric_list, _score_sync(self.options))

    def counts(self, entities) -> dict:
        from types import SimpleNamespace

        from ...v801 import chains, scoring

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
    return rescorer.counts(corrected(errors, effective))


def cost_counts(errors: DocumentErrors, rescorer, jobs: int = 1) -> dict:
    """Each metric's statistics for the response as it is (``baseline``: the
    score's own), with one category corrected (``("alone", category)``) and
    with the categories up to one corrected (``("cumulative", category)``)."""
    from ..parallel import shared_map

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
