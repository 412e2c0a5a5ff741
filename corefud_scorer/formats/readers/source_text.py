"""What a source file holds beside the annotation the model keeps, read
again next to its reader, so that a conversion's writer keeps what its
format has a place for and names the rest (:mod:`..writers.layers`).

For CorefUD and UA files: each sentence's comments and token lines
(multiword tokens and empty nodes included) as the ten CoNLL-U cells,
numbered sentence by sentence (a UA file may number its words across the
document) and with MISC's coreference attributes taken out; for
CoNLL-2012 files each word's columns between its form and the coreference
(part of speech, parse bit, ...); for jsonlines files the forms. Each row
carries its model position as the source's reader numbers words and empty
nodes (:mod:`...model`: an empty node ``k.m`` of a CorefUD file at ``k.m``,
the m-th after word k of a UA file at ``k`` and m thousandths)."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field

from ...model import SourceDocument, position
from .corefud_sentence import COREFERENCE_MISC
from .files import open_bytes
from .jsonlines import STYLES

# The text layers counted, by kind.
SENTENCE_IDS = "sentence ids"
EMPTY_NODES = "empty nodes"
MULTIWORD = "multiword tokens"
COMMENTS = "comment lines"
TREES = "dependency trees"
WORD_COLUMNS = "words' LEMMA, UPOS, FEATS, DEPS or MISC"
POS_TAGS = "part-of-speech tags"
PARSES = "parse trees"
CONLL_COLUMNS = "words' CoNLL-2012 columns after the parse"
# What only the source's own format holds: attributes the model has no place for.
MARKABLE_ATTRIBUTES = "markable attributes other than EntityID, MarkableID, Min and ElementOf"
LINK_ATTRIBUTES = "bridging attributes other than MarkableID, MentionAnchor and Rel"

CONLLU_COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")
ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(10)
# The UA columns of the annotation the model keeps, and the markable and
# link attributes it reads (EntityAnchor is the anchor markable's entity).
UA_MARKABLE_COLUMNS = ("IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS")
UA_READ_ATTRIBUTES = frozenset({"EntityID", "MarkableID", "Min", "MIN", "ElementOf", "NonReferringType",
                                "Reference", "Type", "MentionAnchor", "EntityAnchor", "Rel", "Relation"})
JSONLINES_READ_FIELDS = frozenset(name for fields in STYLES.values() for name in fields) | {"sent_id"}
RE_HEADER = re.compile(r"^#\s*(?:newdoc\b|sent_id\b|global\.)")
RE_COLUMNS = re.compile(r"^#\s*global\.columns\s*=\s*(.+)$")
RE_GLOBAL_ENTITY = re.compile(r"^#\s*global\.Entity\s*=\s*(\S+)")
RE_OPENING = re.compile(r"\(([^()]*)")


@dataclass
class Row:
    """A token line: its model position (None for a multiword token's
    range), its ten CoNLL-U cells, and for a CoNLL-2012 source its columns
    between the form and the coreference."""

    position: int | None
    cells: list[str]
    conll: list[str] | None = None

    @property
    def is_word(self) -> bool:
        return self.position is not None and "." not in self.cells[ID]


@dataclass
class SentenceText:
    comments: list[str]  # as written (a writer puts its own document, sentence-id and global lines)
    rows: list[Row]


@dataclass
class SourceText:
    """One document's text: its sentences, the text layers it has
    (the kinds above, counted) and what only a file of its own
    format can hold (attributes the model has no place for), by kind."""

    sentences: list[SentenceText]
    layers: Counter = field(default_factory=Counter)
    unkept: Counter = field(default_factory=Counter)
    # The mentions hold words only, whatever empty nodes lie between (UA's reading).
    words_only: bool = False


def generated_sent_id(document: int, sentence: int) -> str:
    """The id a writer gives the ``sentence``-th sentence (from 0) of the
    ``document``-th document where the source has none."""
    return f"{document + 1}-{sentence + 1}"


def flat_head(k: int) -> tuple[str, str]:
    """HEAD and DEPREL of word k in the flat tree written where a source has
    no tree (every word on the first)."""
    return ("0", "root") if k == 1 else ("1", "dep")


def word_row(k: int, form: str, pos: str = "_", at: int = 0) -> Row:
    """A word of a source without trees (nor CoNLL-U columns)."""
    return Row(position(at, k), [str(k), form, "_", "_", pos, "_", *flat_head(k), "_", "_"])


class _Lines:
    """The source's text forward line by line, numbered from 1 as the
    readers number them; ``header`` sees each line passed over."""

    def __init__(self, path: str, header):
        self.handle = open_bytes(path, "file")
        self.data = iter(self.handle)
        self.number = 0
        self.header = header

    def line(self, number: int) -> str | None:
        text = None
        while self.number < number:
            data = next(self.data, None)
            if data is None:
                return None
            self.number += 1
            text = data.decode("utf-8", errors="replace").rstrip("\r\n")
            if self.number == 1:
                text = text.lstrip("\ufeff")
            if self.number < number:
                self.header(text)
        return text

    def close(self) -> None:
        self.handle.close()


class SourceReader:
    """The text of each document of a file in the format ``fmt``, asked for
    in order, as its reader yields them."""

    def __init__(self, path: str, fmt: str):
        self.fmt = fmt
        self.columns: list[str] = list(CONLLU_COLUMNS)
        self.entity_fields: list[str] = []
        self.lines = _Lines(path, self._header)

    def close(self) -> None:
        self.lines.close()

    def _header(self, text: str) -> None:
        found = RE_COLUMNS.match(text)
        if found:
            self.columns = found.group(1).split()
        found = RE_GLOBAL_ENTITY.match(text)
        if found:
            self.entity_fields = found.group(1).split("-")

    def text(self, doc: SourceDocument) -> SourceText:
        out = SourceText([], words_only=self.fmt == "ua")
        if self.fmt == "jsonlines":
            self._jsonlines(doc, out)
        elif self.fmt == "conll":
            for s, sentence in enumerate(doc.sentences):
                out.sentences.append(self._conll_sentence(s, sentence.word_lines, out))
        else:
            markables: set = set()
            for s, sentence in enumerate(doc.sentences):
                out.sentences.append(self._conllu_sentence(s, sentence.line, out, markables))
                # Not counted: an id as a writer numbers a sentence without one.
                out.layers[SENTENCE_IDS] += sentence.sent_id not in (None, generated_sent_id(doc.index, s))
        return out

    def _jsonlines(self, doc: SourceDocument, out: SourceText) -> None:
        line = self.lines.line(doc.sentences[0].line) if doc.sentences else None
        try:
            fields = json.loads(line) if line else {}
        except ValueError:
            fields = {}
        for name in fields:
            if name not in JSONLINES_READ_FIELDS:
                out.unkept[f"jsonlines '{name}' fields"] += 1
        for s, sentence in enumerate(doc.sentences):
            out.sentences.append(SentenceText([], [word_row(k, form, at=s)
                                                   for k, form in enumerate(sentence.forms, 1)]))

    def _conll_sentence(self, s: int, word_lines, out: SourceText) -> SentenceText:
        rows, parsed = [], False
        for k, number in enumerate(word_lines, 1):
            fields = (self.lines.line(number) or "").split()
            middle = fields[4:-1]
            pos = middle[0] if middle and middle[0] not in ("-", "_") else "_"
            row = word_row(k, fields[3] if len(fields) > 3 else "_", pos, s)
            row.conll = middle
            rows.append(row)
            # A parse bit (the sixth of at least seven columns) holds a '*'.
            parsed = parsed or (len(fields) > 6 and "*" in fields[5])
            out.layers[POS_TAGS] += pos != "_"
            out.layers[CONLL_COLUMNS] += any(c not in ("-", "*", "_") for c in middle[2:])
        out.layers[PARSES] += parsed
        return SentenceText([], rows)

    def _conllu_sentence(self, s: int, start: int, out: SourceText, markables: set) -> SentenceText:
        """The comments and token lines from ``start`` to the blank line."""
        comments, lines = [], []
        text = self.lines.line(start)
        while text is not None and text.strip():
            if text.startswith("#"):
                self._header(text)
                comments.append(text)
            else:
                lines.append(text.split("\t") if self.fmt == "corefud" else text.split())
            text = self.lines.line(self.lines.number + 1)
        rows = self._rows(s, lines, out, markables)
        out.layers[COMMENTS] += sum(not RE_HEADER.match(c) and not c.startswith("# text") for c in comments)
        return SentenceText(comments, rows)

    def _rows(self, s: int, lines: list[list[str]], out: SourceText, markables: set) -> list[Row]:
        places = {name: i for i, name in enumerate(self.columns)}
        numbers, rows, k, m = {}, [], 0, 0
        for cells in lines:
            cells = cells + ["_"] * (len(self.columns) - len(cells))
            ten = cells[:10] if self.fmt == "corefud" else [
                cells[places[name]] if name in places else "_" for name in CONLLU_COLUMNS]
            written = ten[ID]
            if "-" in written:
                rows.append(Row(None, ten))
                continue
            if "." in written:
                m += 1
                numbers[written] = f"{k}.{m}"
                at = (position(s, float(f"{k}.{m}")) if self.fmt == "corefud"
                      else position(s, k) + m)
                out.layers[EMPTY_NODES] += 1
            else:
                k, m = k + 1, 0
                numbers[written] = str(k)
                at = position(s, k)
            rows.append(Row(at, ten))
            self._unkept(cells, ten, out, markables)
        for row in rows:
            _renumber(row.cells, numbers)
        self._count_words(rows, out)
        return rows

    def _unkept(self, cells: list[str], ten: list[str], out: SourceText, markables: set) -> None:
        """Count what no other format holds; take MISC's coreference out."""
        misc = ten[MISC]
        if self.fmt == "corefud" and "Entity=" in misc:
            _entity_attributes(misc, self.entity_fields, out.unkept)
        if misc != "_":
            ten[MISC] = "|".join(i for i in misc.split("|") if not i.startswith(COREFERENCE_MISC)) or "_"
        if self.fmt != "ua":
            return
        for name, cell in zip(self.columns, cells):
            if cell == "_" or name in CONLLU_COLUMNS:
                continue
            if name not in UA_MARKABLE_COLUMNS:
                out.unkept[f"{name} cells"] += 1
                continue
            for opening in RE_OPENING.findall(cell):
                attributes = dict(item.partition("=")[::2] for item in opening.split("|"))
                mid = (name == "BRIDGING", attributes.get("MarkableID"))
                if mid not in markables and set(attributes) - UA_READ_ATTRIBUTES:
                    out.unkept[LINK_ATTRIBUTES if mid[0] else MARKABLE_ATTRIBUTES] += 1
                markables.add(mid)

    @staticmethod
    def _count_words(rows: list[Row], out: SourceText) -> None:
        words = [row for row in rows if row.is_word]
        out.layers[MULTIWORD] += sum(row.position is None for row in rows)
        out.layers[POS_TAGS] += sum(row.cells[XPOS] != "_" or row.cells[UPOS] != "_" for row in words)
        out.layers[WORD_COLUMNS] += sum(
            any(row.cells[c] != "_" for c in (LEMMA, UPOS, FEATS, DEPS, MISC)) for row in words)
        tree = [(row.cells[HEAD], row.cells[DEPREL]) for row in words]
        flat = [flat_head(k) for k in range(1, len(words) + 1)]
        out.layers[TREES] += tree != flat and any(head != "_" for head, _ in tree)


def _renumber(cells: list[str], numbers: dict[str, str]) -> None:
    """IDs, HEAD and DEPS numbered sentence by sentence (``numbers``: as
    written -> from 1 in the sentence)."""
    written = cells[ID]
    if "-" in written:
        first, _, last = written.partition("-")
        cells[ID] = f"{numbers.get(first, first)}-{numbers.get(last, last)}"
    else:
        cells[ID] = numbers[written]
    cells[HEAD] = numbers.get(cells[HEAD], cells[HEAD])
    if cells[DEPS] != "_":
        pairs = (item.partition(":") for item in cells[DEPS].split("|"))
        cells[DEPS] = "|".join(f"{numbers.get(head, head)}{colon}{relation}" for head, colon, relation in pairs)


def _entity_attributes(misc: str, fields: list[str], unkept: Counter) -> None:
    """Count the mentions of an Entity= value with attributes beside the id
    and the head (etype and the others its header names)."""
    named = {i: name for i, name in enumerate(fields) if name not in ("eid", "GRP", "head")}
    if not named:
        return
    kind = f"Entity attributes ({', '.join(named.values())})"
    for item in misc.split("|"):
        if not item.startswith("Entity="):
            continue
        for chunk in RE_OPENING.findall(item):
            values = chunk.split("-")
            if "[" in values[0] and "[1/" not in values[0]:
                continue  # a later part of a discontinuous mention
            if any(values[i] for i in named if i < len(values)):
                unkept[kind] += 1

