"""Generated annotations for the matrix test, written in the formats.

One model (documents of sentences of slots, a slot being a word or an empty
node) is written as CorefUD CoNLL-U, as Universal Anaphora, as
CoNLL-2012 and as jsonlines, so that one annotation can be scored in every
format and the figures compared. What a format cannot hold is left out of
it: CoNLL-2012 and jsonlines get neither zeros nor discontinuous mentions, split antecedents, bridging,
non-referring markables or discourse deixis; CorefUD gets no non-referring
markables nor discourse deixis.

Everything is drawn from ``random.Random(seed)``: a seed always gives the
same files.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

UA_COLUMNS = ("ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC "
              "IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE")
WORDS = ("house", "river", "city", "report", "year", "people", "company", "door", "station", "idea")
PRONOUNS = ("he", "she", "it", "they")


@dataclass
class Sentence:
    # ("w", k) is word k (1-based), ("e", k, sub) the empty node k.sub.
    slots: list
    forms: dict


@dataclass
class Markable:
    mid: str
    entity: str
    sent: int
    parts: list  # (first slot, last slot), in slot order, within the sentence
    head: int  # a slot of the markable
    non_referring: bool = False
    deixis: bool = False

    def slots(self):
        return [s for a, b in self.parts for s in range(a, b + 1)]

    def overlaps(self, other) -> bool:
        return self.sent == other.sent and bool(set(self.slots()) & set(other.slots()))


@dataclass
class Doc:
    doc_id: str
    sentences: list
    markables: list = field(default_factory=list)
    # entity -> the plural entities it is an element of
    element_of: dict = field(default_factory=dict)
    # anaphor markable id -> (anchor markable id, relation)
    bridging: dict = field(default_factory=dict)

    def is_zero(self, m: Markable) -> bool:
        return all(self.sentences[m.sent].slots[s][0] == "e" for s in m.slots())

    def coref(self):
        return [m for m in self.markables if not m.non_referring and not m.deixis]

    def entities(self):
        out: dict = {}
        for m in self.coref():
            out.setdefault(m.entity, []).append(m)
        return out


# --- generation ---

def _sentence(rng, n, empties):
    slots, forms = [], {}
    for k in range(1, n + 1):
        slots.append(("w", k))
        forms[("w", k)] = rng.choice(PRONOUNS if rng.random() < 0.2 else WORDS)
        for sub in range(1, empties.get(k, 0) + 1):
            slots.append(("e", k, sub))
            forms[("e", k, sub)] = "pro"
    return Sentence(slots, forms)


def _word_runs(sentence):
    """Maximal runs of consecutive word slots (an empty node breaks a run), so
    that no multi-word mention has an empty node inside it."""
    runs, current = [], []
    for i, slot in enumerate(sentence.slots):
        if slot[0] == "w":
            current.append(i)
        else:
            if current:
                runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


def _laminar(candidate, markables):
    """Nested or disjoint with every other markable of its sentence, no span
    given twice: what every format writes without ambiguity."""
    cs = set(candidate.slots())
    for m in markables:
        if m.sent != candidate.sent:
            continue
        ms = set(m.slots())
        if ms == cs or (cs & ms and not (cs <= ms or ms <= cs)):
            return False
    return True


def _free_for(entity, candidate, markables):
    """No two markables of one entity overlap (CoNLL-2012 and CorefUD close
    a mention by its entity's id)."""
    return not any(m.entity == entity and m.overlaps(candidate) for m in markables)


class _Builder:
    def __init__(self, rng, doc_id, plain):
        self.rng, self.doc_id, self.plain = rng, doc_id, plain
        self.count = 0
        self.entity_count = 0

    def mid(self):
        self.count += 1
        return f"{self.doc_id}m{self.count}"

    def entity(self):
        self.entity_count += 1
        return f"{self.doc_id}e{self.entity_count}"


def _document(rng: random.Random, doc_id: str, sentences: int, plain: bool, shared: bool = False) -> Doc:
    """A document with nested, discontinuous and zero mentions (with
    ``shared``, a span in two entities), plurals (one of whose elements is
    a singleton, one plural an element of another), bridging, non-referring
    markables and discourse deixis; ``plain``: contiguous word mentions and
    singletons only, each span in one entity, what all formats hold alike."""
    b = _Builder(rng, doc_id, plain)
    sents = []
    for s in range(sentences):
        n = rng.randint(5, 11)
        empties = {}
        if not plain and (s < 2 or rng.random() < 0.4):
            empties[rng.randint(1, n)] = 1 if s else 2
        sents.append(_sentence(rng, n, empties))
    doc = Doc(doc_id, sents)
    ms = doc.markables
    recent: list = []
    for si, sentence in enumerate(sents):
        runs = _word_runs(sentence)
        for _ in range(len(sentence.slots) // 2):
            run = rng.choice(runs)
            start = rng.randrange(len(run))
            length = min(rng.choice((1, 1, 1, 2, 2, 3)), len(run) - start)
            parts = [(run[start], run[start + length - 1])]
            if not plain and rng.random() < 0.15 and start + length + 1 < len(run):
                gap_end = run[rng.randrange(start + length + 1, len(run))]
                parts.append((gap_end, gap_end))
            slots = [i for a, z in parts for i in range(a, z + 1)]
            candidate = Markable(b.mid(), "", si, parts, rng.choice(slots))
            if not _laminar(candidate, ms):
                continue
            choices = [e for e in recent[-6:] if _free_for(e, candidate, ms)]
            if choices and rng.random() < 0.6:
                candidate.entity = rng.choice(choices)
            else:
                candidate.entity = b.entity()
                recent.append(candidate.entity)
            ms.append(candidate)
    if plain:
        return doc
    # Zeros join word entities (entities of zeros only are the ``zeros``
    # kind's, so that what goes wrong with them is told apart).
    for si, sentence in enumerate(sents):
        for i, slot in enumerate(sentence.slots):
            if slot[0] == "e":
                ms.append(Markable(b.mid(), rng.choice(recent), si, [(i, i)], i))
    # A span in two entities.
    words = [m for m in ms if not doc.is_zero(m)] if shared else []
    for m in rng.sample(words, len(words)):
        others = [e for e in recent if e != m.entity and _free_for(e, m, ms)]
        if others:
            ms.append(Markable(b.mid(), rng.choice(others), m.sent, list(m.parts), m.head))
            break
    # Plurals: P = {A, B} with A and B singletons, Q = {P, C}.
    def singleton():
        for _ in range(50):
            si = rng.randrange(len(sents))
            run = rng.choice(_word_runs(sents[si]))
            i = rng.choice(run)
            candidate = Markable(b.mid(), b.entity(), si, [(i, i)], i)
            if _laminar(candidate, ms):
                ms.append(candidate)
                return candidate.entity
        raise RuntimeError("no room for a singleton")

    entities = doc.entities()
    plural_p = max(entities, key=lambda e: len(entities[e]))
    a, c = singleton(), singleton()
    single = [e for e, group in entities.items() if len(group) == 1 and e != plural_p]
    b_entity = single[0] if single else singleton()
    doc.element_of = {a: [plural_p], b_entity: [plural_p]}
    plural_q = next(e for e in doc.entities() if e not in (plural_p, a, b_entity, c))
    doc.element_of.setdefault(plural_p, []).append(plural_q)
    doc.element_of.setdefault(c, []).append(plural_q)
    # Bridging: an anaphor and, as anchor, the last markable of another
    # entity starting before it (how a CorefUD Bridge names its antecedent).
    order = sorted((m for m in doc.coref() if not doc.is_zero(m)), key=lambda m: (m.sent, m.parts[0]))
    for anaphor in rng.sample(order[3:], min(2, len(order) - 3)):
        before = [m for m in order if (m.sent, m.parts[0]) < (anaphor.sent, anaphor.parts[0])
                  and m.entity != anaphor.entity]
        if before:
            ante_entity = before[-1].entity
            anchor = [m for m in before if m.entity == ante_entity][-1]
            doc.bridging[anaphor.mid] = (anchor.mid, rng.choice(("part", "subset", "other")))
    # Non-referring markables and discourse deixis (UA only).
    for _ in range(2):
        si = rng.randrange(len(sents))
        i = rng.choice(rng.choice(_word_runs(sents[si])))
        candidate = Markable(b.mid(), f"{doc_id}nr{b.count}-Pseudo", si, [(i, i)], i, non_referring=True)
        if _laminar(candidate, ms):
            ms.append(candidate)
    deixis = f"{doc_id}dd1"
    for si in (0, len(sents) - 1):
        run = _word_runs(sents[si])[0]
        ms.append(Markable(b.mid(), deixis, si, [(run[0], run[-1])], run[0], deixis=True))
    return doc


def annotation(kind: str, seed: int) -> list:
    """The documents of one kind of file:

    - ``rich``: two documents with every construction, a one-word document
      and a document with no entity;
    - ``shared``: a document as rich ones, with a span in two entities;
    - ``plain``: what the three formats hold alike (see ``_document``);
    - ``zeros``: a document with entities made of zeros only (one of them an
      element of a plural) beside a word entity;
    - ``tiny``: a one-word document alone;
    - ``no-entity``: documents without any markable;
    - ``empty-doc``: a document with no sentence between two others.
    """
    rng = random.Random(seed)
    if kind == "rich":
        one_word = Doc("one", [Sentence([("w", 1)], {("w", 1): "Hello"})])
        one_word.markables.append(Markable("onem1", "onee1", 0, [(0, 0)], 0))
        blank = Doc("blank", [_sentence(rng, 6, {}), _sentence(rng, 4, {})])
        return [_document(rng, "d1", 4, False), one_word, _document(rng, "d2", 5, False), blank]
    if kind == "shared":
        return [_document(rng, "s1", 3, False, shared=True)]
    if kind == "plain":
        return [_document(rng, f"p{i}", rng.randint(3, 5), True) for i in range(1, 4)]
    if kind == "zeros":
        doc = Doc("z", [_sentence(rng, 6, {2: 2, 5: 1}), _sentence(rng, 5, {1: 1, 4: 2})])
        count = 0
        for si, sentence in enumerate(doc.sentences):
            for i, slot in enumerate(sentence.slots):
                if slot[0] == "e":
                    count += 1
                    # Three entities of two zeros each.
                    entity = "ze%d" % min(3, (count + 1) // 2)
                    doc.markables.append(Markable(f"zm{count}", entity, si, [(i, i)], i))
        # A word entity beside them, with a zero, so that dropping zeros
        # leaves something to score; the lone zero an element of a plural.
        first, second = ([i for i, slot in enumerate(s.slots) if slot[0] == "w"] for s in doc.sentences)
        doc.markables += [Markable("zw1", "zw", 0, [(first[0], first[0])], first[0]),
                          Markable("zw2", "zw", 1, [(second[0], second[0])], second[0]),
                          Markable("zw3", "zw", 1, [(second[2], second[2])], second[2])]
        doc.element_of = {"ze3": ["ze1"]}
        return [doc]
    if kind == "tiny":
        doc = Doc("tiny", [Sentence([("w", 1)], {("w", 1): "Yes"})])
        doc.markables.append(Markable("tm1", "te1", 0, [(0, 0)], 0))
        return [doc]
    if kind == "no-entity":
        return [Doc("n1", [_sentence(rng, 5, {})]), Doc("n2", [_sentence(rng, 3, {2: 1})])]
    if kind == "empty-doc":
        first = _document(rng, "a", 2, True)
        last = _document(rng, "c", 2, True)
        return [first, Doc("empty", []), last]
    raise ValueError(kind)


KINDS = ("rich", "shared", "plain", "zeros", "tiny", "no-entity", "empty-doc")


# --- a system's response ---

def perturbed(docs: list, seed: int, plain: bool = False) -> list:
    """A response: markables dropped, moved to another entity, stretched by
    a word, added; entities split; heads moved; plural elements, bridging
    links and non-referring markables lost or changed. ``plain`` keeps to
    contiguous word mentions, each span in one entity."""
    rng = random.Random(seed)
    out = []
    for doc in docs:
        doc = copy.deepcopy(doc)
        ms = []
        for m in doc.markables:
            r = rng.random()
            if r < 0.1:
                continue
            if r < 0.2 and not m.non_referring and not m.deixis:
                others = [e for e in {x.entity for x in doc.coref()} if e != m.entity]
                if others:
                    target = rng.choice(sorted(others))
                    if _free_for(target, m, ms + [x for x in doc.markables if x is not m]):
                        m.entity = target
            elif r < 0.3 and not doc.is_zero(m):
                a, z = m.parts[-1]
                slots = doc.sentences[m.sent].slots
                if z + 1 < len(slots) and slots[z + 1][0] == "w":
                    stretched = Markable(m.mid, m.entity, m.sent, m.parts[:-1] + [(a, z + 1)], m.head)
                    rest = [x for x in doc.markables if x is not m]
                    if _laminar(stretched, ms + rest) and _free_for(m.entity, stretched, rest):
                        m.parts = stretched.parts
            elif r < 0.4 and len(m.slots()) > 1:
                m.head = rng.choice(m.slots())
            ms.append(m)
        # Spurious markables, one word each.
        for si, sentence in enumerate(doc.sentences):
            if rng.random() < 0.5:
                runs = _word_runs(sentence)
                i = rng.choice(rng.choice(runs))
                entities = sorted({x.entity for x in ms if not x.non_referring and not x.deixis})
                entity = rng.choice(entities) if entities and rng.random() < 0.5 else f"{doc.doc_id}x{si}"
                candidate = Markable(f"{doc.doc_id}xm{si}", entity, si, [(i, i)], i)
                if _laminar(candidate, ms) and _free_for(entity, candidate, ms):
                    ms.append(candidate)
        # One entity split in two.
        groups: dict = {}
        for m in ms:
            if not m.non_referring and not m.deixis:
                groups.setdefault(m.entity, []).append(m)
        big = [e for e, g in groups.items() if len(g) >= 3]
        if big and rng.random() < 0.7:
            entity = rng.choice(sorted(big))
            for m in groups[entity][len(groups[entity]) // 2:]:
                m.entity = entity + "split"
        doc.markables = ms
        present = {m.entity for m in doc.coref()}
        doc.element_of = {e: [p for p in plurals if p in present and rng.random() < 0.8]
                          for e, plurals in doc.element_of.items() if e in present}
        doc.element_of = {e: p for e, p in doc.element_of.items() if p}
        kept = {m.mid: m for m in doc.coref()}
        bridging = {}
        for anaphor, (anchor, relation) in doc.bridging.items():
            if anaphor in kept and anchor in kept and rng.random() < 0.8:
                if rng.random() < 0.3:
                    relation = "other"
                bridging[anaphor] = (anchor, relation)
        doc.bridging = bridging
        if plain:
            assert all(len(m.parts) == 1 and not doc.is_zero(m) for m in doc.markables)
        out.append(doc)
    return out


# --- writers ---

def _word_number(doc: Doc, sent: int, slot: int) -> int:
    """1-based number of a word in its document (UA's Min)."""
    before = sum(sum(1 for s in sentence.slots if s[0] == "w") for sentence in doc.sentences[:sent])
    return before + doc.sentences[sent].slots[slot][1]


def _in_order(markables):
    return sorted(markables, key=lambda m: (m.sent, m.parts[0][0], -m.parts[0][1]))


def _node_id(slot) -> str:
    return str(slot[1]) if slot[0] == "w" else f"{slot[1]}.{slot[2]}"


def _token_columns(sentence, slot):
    """ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS: every word on word 1,
    each empty node an nsubj of the word before it."""
    form = sentence.forms[slot]
    upos = "PRON" if form in PRONOUNS or slot[0] == "e" else "NOUN"
    if slot[0] == "e":
        return [_node_id(slot), form, form, upos, "_", "_", "_", "_", f"{slot[1]}:nsubj"]
    head, rel = (0, "root") if slot[1] == 1 else (1, "dep")
    return [_node_id(slot), form, form, upos, "_", "_", str(head), rel, f"{head}:{rel}"]


def _bracket_cells(doc: Doc, markables, opening, single, closing):
    """Per (sentence, slot) the bracket items of the markables: closings of
    inner markables first, then openings (longer first), then one-slot ones."""
    cells: dict = {}
    for m in markables:
        for k, (a, z) in enumerate(m.parts):
            if a == z:
                cells.setdefault((m.sent, a), {"close": [], "open": [], "single": []})["single"].append(
                    single(m, k))
            else:
                cells.setdefault((m.sent, a), {"close": [], "open": [], "single": []})["open"].append(
                    (z - a, opening(m, k)))
                cells.setdefault((m.sent, z), {"close": [], "open": [], "single": []})["close"].append(
                    (a, closing(m, k)))
    out = {}
    for place, items in cells.items():
        closes = [text for _, text in sorted(items["close"], key=lambda t: -t[0])]
        opens = [text for _, text in sorted(items["open"], key=lambda t: -t[0])]
        out[place] = (closes + opens + items["single"]) if opens else (items["single"] + closes)
    return out


def write_corefud(docs: list, path) -> None:
    lines = []
    first = True
    for doc in docs:
        lines.append(f"# newdoc id = {doc.doc_id}")
        if first:
            lines.append("# global.Entity = eid-etype-head-other")
            first = False
        markables = doc.coref()

        def label(m, k):
            return m.entity if len(m.parts) == 1 else f"{m.entity}[{k + 1}/{len(m.parts)}]"

        def opening(m, k):
            return f"({label(m, k)}-thing-{m.slots().index(m.head) + 1}"

        cells = _bracket_cells(doc, markables, opening, lambda m, k: opening(m, k) + ")",
                               lambda m, k: label(m, k) + ")")
        firsts: dict = {}
        for m in _in_order(markables):
            firsts.setdefault(m.entity, m)
        extra: dict = {}
        by_mid = {m.mid: m for m in markables}
        for anaphor, (anchor, relation) in doc.bridging.items():
            m = by_mid[anaphor]
            extra.setdefault((m.sent, m.parts[0][0]), {}).setdefault("Bridge", []).append(
                f"{by_mid[anchor].entity}<{m.entity}:{relation}")
        plurals: dict = {}
        for element, of in doc.element_of.items():
            for plural in of:
                plurals.setdefault(plural, []).append(element)
        for plural, elements in plurals.items():
            m = firsts[plural]
            extra.setdefault((m.sent, m.parts[0][0]), {}).setdefault("SplitAnte", []).extend(
                f"{e}<{plural}" for e in elements)
        for si, sentence in enumerate(doc.sentences):
            lines.append(f"# sent_id = {doc.doc_id}-{si + 1}")
            lines.append("# text = " + " ".join(sentence.forms[s] for s in sentence.slots if s[0] == "w"))
            for i, slot in enumerate(sentence.slots):
                misc = {key: ",".join(value) for key, value in extra.get((si, i), {}).items()}
                if (si, i) in cells:
                    misc["Entity"] = "".join(cells[(si, i)])
                text = "|".join(f"{key}={misc[key]}" for key in sorted(misc)) or "_"
                lines.append("\t".join(_token_columns(sentence, slot) + [text]))
            lines.append("")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def write_ua(docs: list, path) -> None:
    lines = [f"# global.columns = {UA_COLUMNS}"]
    for doc in docs:
        lines.append(f"# newdoc id = {doc.doc_id}")
        elements: dict = {}
        firsts: dict = {}
        for m in _in_order(doc.coref()):
            firsts.setdefault(m.entity, m.mid)

        def attributes(m):
            text = f"EntityID={m.entity}|MarkableID={m.mid}"
            if not doc.is_zero(m):
                text += f"|Min={_word_number(doc, m.sent, m.head)}"
            if firsts.get(m.entity) == m.mid and doc.element_of.get(m.entity):
                text += "|ElementOf=" + ",".join(doc.element_of[m.entity])
            return text

        identity = _bracket_cells(doc, [m for m in doc.markables if not m.deixis],
                                  lambda m, k: "(" + attributes(m), lambda m, k: "(" + attributes(m) + ")",
                                  lambda m, k: m.mid + ")")
        deixis = _bracket_cells(doc, [m for m in doc.markables if m.deixis],
                                lambda m, k: "(" + attributes(m), lambda m, k: "(" + attributes(m) + ")",
                                lambda m, k: m.mid + ")")
        by_mid = {m.mid: m for m in doc.markables}
        for anaphor, (anchor, relation) in doc.bridging.items():
            m = by_mid[anaphor]
            elements.setdefault((m.sent, m.parts[0][0]), []).append(
                f"(MarkableID={anaphor}|MentionAnchor={anchor}|Rel={relation})")
        for si, sentence in enumerate(doc.sentences):
            lines.append(f"# sent_id = {doc.doc_id}-{si + 1}")
            lines.append("# text = " + " ".join(sentence.forms[s] for s in sentence.slots if s[0] == "w"))
            for i, slot in enumerate(sentence.slots):
                cells = ["".join(identity.get((si, i), [])) or "_",
                         "".join(elements.get((si, i), [])) or "_",
                         "".join(deixis.get((si, i), [])) or "_", "_"]
                lines.append("\t".join(_token_columns(sentence, slot) + ["_"] + cells))
            lines.append("")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def write_conll(docs: list, path) -> None:
    lines = []
    numbers: dict = {}
    for doc in docs:
        markables = [m for m in doc.coref() if len(m.parts) == 1 and not doc.is_zero(m)]
        for m in markables:
            numbers.setdefault((doc.doc_id, m.entity), len(numbers))

        def number(m):
            return numbers[(doc.doc_id, m.entity)]

        cells = _bracket_cells(doc, markables, lambda m, k: f"({number(m)}",
                               lambda m, k: f"({number(m)})", lambda m, k: f"{number(m)})")
        lines.append(f"#begin document ({doc.doc_id}); part 000")
        for si, sentence in enumerate(doc.sentences):
            for i, slot in enumerate(sentence.slots):
                if slot[0] != "w":
                    continue
                column = "|".join(cells.get((si, i), [])) or "-"
                lines.append(f"{doc.doc_id}\t0\t{slot[1] - 1}\t{sentence.forms[slot]}\tNN\t{column}")
            lines.append("")
        lines.append("#end document")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def write_jsonlines(docs: list, path) -> None:
    """What CoNLL-2012 holds, as e2e-coref's jsonlines: tokens by sentence,
    clusters of inclusive document offsets."""
    import json

    lines = []
    for doc in docs:
        clusters: dict = {}
        for m in doc.coref():
            if len(m.parts) == 1 and not doc.is_zero(m):
                (a, z), = m.parts
                span = [_word_number(doc, m.sent, a) - 1, _word_number(doc, m.sent, z) - 1]
                clusters.setdefault(m.entity, []).append(span)
        sentences = [[sentence.forms[slot] for slot in sentence.slots if slot[0] == "w"]
                     for sentence in doc.sentences]
        lines.append(json.dumps({"doc_key": f"{doc.doc_id}_0", "sentences": sentences,
                                 "clusters": list(clusters.values())}))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


WRITERS = {"corefud": write_corefud, "ua": write_ua, "conll": write_conll, "jsonlines": write_jsonlines}
SUFFIX = {"corefud": ".conllu", "ua": ".ua.conllu", "conll": ".conll", "jsonlines": ".jsonl"}


def write_pair(directory, fmt: str, kind: str, seed: int = 1):
    """Key, a byte copy of it and a perturbed response of one kind, in one
    format, under ``directory``; returns the three paths."""
    docs = annotation(kind, seed)
    response = perturbed(docs, seed + 1000, plain=kind in ("plain", "empty-doc"))
    base = f"{directory}/{kind}"
    key, copy_, system = (base + name + SUFFIX[fmt] for name in (".key", ".copy", ".response"))
    WRITERS[fmt](docs, key)
    with open(key, "rb") as src, open(copy_, "wb") as dst:
        dst.write(src.read())
    WRITERS[fmt](response, system)
    return key, copy_, system


if __name__ == "__main__":
    # python tests/matrix_files.py DIR [SEED]: every kind in every format, as
    # the matrix test writes them, to reproduce one of its runs by hand.
    import os
    import sys

    folder, seed = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 7
    os.makedirs(folder, exist_ok=True)
    for fmt in WRITERS:
        for kind in KINDS:
            print(*write_pair(folder, fmt, kind, seed), sep="\n")
