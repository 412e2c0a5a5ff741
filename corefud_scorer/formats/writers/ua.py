"""Write Universal Anaphora files (CoNLL-U Plus with IDENTITY, BRIDGING and
DISCOURSE_DEIXIS columns): a markable a mention, opened with its
``EntityID``, ``MarkableID`` and ``Min`` (its minimum span, or its head as
one word) and closed by ``)`` (by ``MarkableID)`` where another markable
opened since is still open); a discontinuous mention is one markable
opened again for each part; a zero is a markable on its empty node;
``ElementOf`` names the plural entities a markable's entity is an element
of; non-referring markables are ``-Pseudo`` entities. The source's own
lines are kept (:mod:`.rows`).

Markables opening on one line are written in the model's order (entities
as listed, each one's mentions as listed), which is the order the UA
reader gives them back: a span in two entities is then read as it was."""

from __future__ import annotations

from itertools import count

from ..readers.source_text import generated_sent_id
from . import BRIDGING, SPLIT_ANTECEDENTS, TextDocument, layers, rows, spaceless
from ..readers.ua import SUFFIXES  # noqa: F401  (the writer is chosen by the reader's file names)

FORMAT = "ua"
HOLDS = layers.CONLLU
COLUMNS = "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS"
# A UA markable holds words from its first to its last, and a zero one empty node.
EMPTY_EDGES = "mentions' empty nodes at their edges (a UA markable begins and ends on words; a zero is one node)"


class _Column:
    """The bracket cells of one markable column, slot by slot."""

    def __init__(self, size: int):
        self.opens: list[list] = [[] for _ in range(size)]
        self.closes: list[list[str]] = [[] for _ in range(size)]

    def add(self, key, attributes: str, mid: str, parts) -> None:
        for first, last in parts:
            self.opens[first].append((key, f"({attributes}" + (")" if first == last else ""), mid, first == last))
            if first != last:
                self.closes[last].append(mid)

    def cells(self) -> list[str]:
        """Each slot's cell: closings (``)`` for the innermost open markable,
        ``ID)`` for another), then openings in the model's order."""
        stack: list[str] = []
        out = []
        for opens, closes in zip(self.opens, self.closes):
            text = []
            pending = list(closes)
            while pending:
                if stack and stack[-1] in pending:
                    pending.remove(stack.pop())
                    text.append(")")
                    continue
                mid = max(pending, key=lambda m: len(stack) - 1 - stack[::-1].index(m))
                pending.remove(mid)
                del stack[len(stack) - 1 - stack[::-1].index(mid)]
                text.append(f"{mid})")
            for _, opening, mid, single in sorted(opens, key=lambda item: item[0]):
                text.append(opening)
                if not single:
                    stack.append(mid)
            out.append("".join(text) or "_")
        return out


def _parts(mention, order: dict[int, int], words: list[bool]) -> tuple[list[tuple[int, int]], bool]:
    """The mention's continuous runs of slots as (first, last) slot indices,
    each trimmed to begin and end on a word; whether any empty node went."""
    indices = sorted(order[p] for p in mention.words if p in order)
    runs: list[list[int]] = []
    for i in indices:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    parts, trimmed = [], len(indices) != len(mention.words)
    for first, last in runs:
        while first <= last and not words[first]:
            first, trimmed = first + 1, True
        while last >= first and not words[last]:
            last, trimmed = last - 1, True
        if first <= last:
            parts.append((first, last))
    return parts, trimmed


def write(documents, handle, lost) -> None:
    handle.write(f"# global.columns = {COLUMNS}\n")
    numbering = count(1)
    for index, doc in enumerate(documents):
        _write_document(doc, index, handle, lost, numbering)


def _element_of(entities, lost) -> dict[str, list[str]]:
    """Each element entity's plural entities (ElementOf); an element that is
    no entity of the document cannot be named."""
    names = {e.eid for e in entities}
    element_of: dict[str, list[str]] = {}
    for entity in entities:
        for element in entity.split_antecedents:
            if element in names:
                element_of.setdefault(element, []).append(entity.eid)
            else:
                lost[SPLIT_ANTECEDENTS] += 1
    return element_of


def _write_document(doc: TextDocument, index: int, handle, lost, numbering) -> None:
    d = doc.document
    sentences = rows.sentences(doc)
    slots = [row for sentence in sentences for row in sentence.rows if row.position is not None]
    order = {row.position: i for i, row in enumerate(slots)}
    is_word = [row.is_word for row in slots]
    numbers = rows.word_numbers(sentences)
    identity, deixis = _Column(len(slots)), _Column(len(slots))
    ids: dict[int, str] = {}

    def add(column, key, eid, mention, element_of, kind=None):
        mid = f"markable_{next(numbering)}"
        attributes = [f"EntityID={eid}", f"MarkableID={mid}"]
        if mention.is_zero:
            parts = [(order[mention.head], order[mention.head])] if mention.head in order else []
            trimmed = mention.words != (mention.head,)
        else:
            parts, trimmed = _parts(mention, order, is_word)
            minimum = [numbers[p] for p in (mention.min if mention.min is not None else (mention.head,))
                       if p in numbers]
            if minimum:
                attributes.append(f"Min={minimum[0]}" + (f",{minimum[-1]}" if len(minimum) > 1 else ""))
        if trimmed:
            lost[EMPTY_EDGES] += 1
        if not parts:
            return
        if element_of.get(eid):
            attributes.append(f"ElementOf={','.join(element_of[eid])}")
        if kind:
            attributes.append(f"NonReferringType={kind}")
        ids[id(mention)] = mid
        column.add(key, "|".join(attributes), mid, parts)

    element_of = _element_of(d.entities, lost)
    for e, entity in enumerate(d.entities):
        for m, mention in enumerate(entity.mentions):
            add(identity, (0, e, m), entity.eid, mention, element_of)
    for n, item in enumerate(d.non_referring, 1):
        add(identity, (1, n, 0), f"nr{n}-Pseudo", item.mention, {}, item.kind)
    element_of = _element_of(d.discourse_deixis, lost)
    for e, entity in enumerate(d.discourse_deixis):
        for m, mention in enumerate(entity.mentions):
            add(deixis, (e, m), entity.eid, mention, element_of)
    bridging = _bridging(d, ids, order, len(slots), lost)
    _write_rows(doc, index, sentences, handle, (identity.cells(), bridging, deixis.cells()), lost)


def _bridging(d, ids, order, size: int, lost) -> list[str]:
    """Each slot's BRIDGING cell: a link at its anaphor's first slot."""
    cells = [[] for _ in range(size)]
    first_mention = {e.eid: e.mentions[0] for e in d.entities if e.mentions}
    for link in d.bridging:
        anchor = link.antecedent if link.antecedent is not None else first_mention.get(link.antecedent_eid)
        if id(link.anaphor) not in ids or anchor is None or id(anchor) not in ids:
            lost[BRIDGING] += 1
            continue
        relation = f"|Rel={link.relation}" if link.relation else ""
        cells[order[link.anaphor.words[0]]].append(
            f"(MarkableID={ids[id(link.anaphor)]}|MentionAnchor={ids[id(anchor)]}{relation})")
    return ["".join(cell) or "_" for cell in cells]


def _write_rows(doc: TextDocument, index: int, sentences, handle, columns, lost) -> None:
    identity, bridging, deixis = columns
    at = 0
    newdoc = doc.names_or_default(index).plain
    for s, sentence in enumerate(sentences):
        sent_id = doc.sentence_ids[s] if s < len(doc.sentence_ids) else None
        for line in rows.comments(sentence, sent_id or generated_sent_id(index, s), newdoc if s == 0 else None):
            handle.write(line + "\n")
        for row in sentence.rows:
            cells = [spaceless(cell, lost) for cell in row.cells]
            if row.position is None:
                cells += ["_", "_", "_"]
            else:
                cells += [identity[at], bridging[at], deixis[at]]
                at += 1
            handle.write("\t".join(cells) + "\n")
        handle.write("\n")
