"""Read CoNLL-2011/2012 files (the format of the reference scorer ``scorer.pl``).

A file holds documents, each between ``#begin document (NAME); part NNN`` and
``#end document`` (the part may be missing). Inside, one token a line
(whitespace-separated columns: document, part, word number, word form, ...)
and a blank line between sentences. The last column holds the coreference
brackets: ``(12`` opens a mention of entity 12, ``12)`` closes the latest
open mention of 12, ``(12)`` is a one-token mention; several are joined by
``|`` (or written side by side), ``-`` or ``_`` means none.

A token's brackets are read in the reference scorer's order: one-token
mentions, then openings, then closings, so the same file gives the same
mentions (and the same errors) as ``scorer.pl`` v8.01. Entities are
numbered in the order their ids first appear, mentions listed in the order
they are completed, as the reference scorer lists them.

The format has no syntactic heads: a mention's head is its first word, so
only exact matching is meaningful. A document is identified by the text
after ``#begin document `` (name and part), as ``scorer.pl`` names it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from ...errors import ScorerError
from ..problems import STOP, Problems
from ..profile import FormatProfile, spans_only_refusals
from ...model import Document, DocumentText, Entity, Mention, Sentence, SourceDocument, Word, position
from .files import read_text
from .limits import limits, nesting_error

FORMAT = "conll"
# How a document starts (counted for a progress bar).
DOCUMENT_START = b"#begin document"
# The file names of the format (bench pairs folders of them, convert writes them).
SUFFIXES = (".conll", ".gold_conll", ".auto_conll", ".conll12", ".v4_gold_conll")
NO_HEADS = "needs mention heads, and the CoNLL-2012 format has none (no column gives syntactic heads); use -a exact"
PROFILE = FormatProfile(
    name=FORMAT, title="CoNLL-2012",
    # exact: no heads; word forms compared with a warning, as scorer.pl compares only tokens.
    defaults={"metrics": ("all",), "match": "exact", "zero_match": "dependent", "keep_zeros": True,
              "check_forms": "warn"},
    all_metrics=("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"),
    matching_modes=("exact",),
    features=frozenset({"np_only", "remove_nested"}),
    repeated_spans="v8.01",
    pairs_with=("jsonlines",),
    why_not={"head": NO_HEADS, "partial": NO_HEADS, **spans_only_refusals("the CoNLL-2012 format", "has"),
             "shared_task": "the CRAC presets are for CorefUD files, not CoNLL-2012"},
)

RE_BEGIN = re.compile(r"^#\s*begin document (.*)$")
RE_NAME_PART = re.compile(r"^\((.*)\)(?:;\s*part\s+(\d+))?\s*$")
RE_END = re.compile(r"#\s*end document")
RE_DOUBLE_ANTECEDENT = re.compile(r"\((\d+\+\d)\)")
RE_SINGLE = re.compile(r"\((\d+)\)")
RE_OPEN = re.compile(r"\((\d+)")
RE_CLOSE = re.compile(r"(\d+)\)")
# The usual value: brackets joined by '|', read part by part.
RE_SIMPLE = re.compile(r"(?:\(\d+\)?|\d+\))(?:\|(?:\(\d+\)?|\d+\)))*")


def conll_identity(name: str):
    """A document's name ``(NAME); part PART`` as ``(NAME, PART)``, the part
    an integer (``(NAME)`` alone is part 0): what pairs it with a document
    of another format."""
    m = RE_NAME_PART.match(name)
    if m:
        return m.group(1), int(m.group(2) or 0)
    return name, 0


def _column_orders(entities):
    """Each mention as ``(entity, mention)`` indices in its group of the
    coreference column at a token: one-token mentions, openings (the longer
    first, so that a mention of an entity inside another of the same
    entity closes first), closings (the later start first)."""
    singles, opens, closes = {}, {}, {}
    for e, spans in enumerate(entities):
        for m, (start, end) in enumerate(spans):
            if start == end:
                singles.setdefault(start, []).append(((e, m), (e, m)))
            else:
                opens.setdefault(start, []).append(((-end, e, m), (e, m)))
                closes.setdefault(end, []).append(((-start, e, m), (e, m)))
    return [{t: [em for _, em in sorted(group)] for t, group in table.items()}
            for table in (singles, opens, closes)]


def coreference_column(tokens: int, entities) -> list[str]:
    """The last column of a document's token lines for its entities, given
    as ``(id, [(first token, last token), ...])`` pairs."""
    singles, opens, closes = _column_orders([spans for _, spans in entities])
    column = []
    for t in range(tokens):
        parts = [f"({entities[e][0]})" for e, _ in singles.get(t, ())]
        parts += [f"({entities[e][0]}" for e, _ in opens.get(t, ())]
        parts += [f"{entities[e][0]})" for e, _ in closes.get(t, ())]
        column.append("|".join(parts) or "-")
    return column


def conll_order(entities) -> tuple[list[list[tuple[int, int]]], list[int]]:
    """The entities (lists of (first, last) token spans) in the order this
    reader gives the same mentions written as :func:`coreference_column`
    writes them (entities by their id's first bracket, mentions as they
    are completed), and the entities' indices in that order.

    The column's groups (:func:`_column_orders`) as sort keys: an entity's
    first bracket is its earliest start, a one-token mention before an
    opening there and the longer opening first, ties by entity; a
    mention is completed at its end, a one-token mention before a closing
    there and the later start first, ties in the given order (a stable
    sort). An empty entity has no bracket and is left out."""
    firsts = sorted((min((s, s != t, -t) for s, t in spans), e) for e, spans in enumerate(entities) if spans)
    order = [e for _, e in firsts]
    return [sorted(entities[e], key=_completed) for e in order], order


def _completed(span: tuple[int, int]) -> tuple[int, int]:
    return span[1], -span[0]


def sniff(head: str) -> bool:
    """A CoNLL-2012 file has a ``#begin document`` line."""
    return any(RE_BEGIN.match(line) for line in head.splitlines())


@dataclass
class ConllDocument(SourceDocument):
    """One document of a CoNLL-2012 file, parsed while it is validated.

    ``entities`` lists, per entity in the order its id first appears, the
    ``(first token, last token)`` spans of its mentions (tokens numbered
    from 0 across the document), in the order the reference scorer lists
    them; ``mention_lines`` the line where each mention starts.
    """

    begin_line: int = 0
    # With words asked for (error analysis): each token's (form, part-of-speech tag).
    words: list[tuple[str, str | None]] | None = None
    # With the parse asked for (NP-only): each token's (form, parse bit).
    parses: list[tuple[str, str]] | None = None
    entity_ids: list[str] = field(default_factory=list)
    entities: list[list[tuple[int, int]]] = field(default_factory=list)
    mention_lines: list[list[int]] = field(default_factory=list)

    @property
    def first_line(self) -> int:
        return self.begin_line

    def identity(self):
        return conll_identity(self.newdoc)

    @property
    def sentence_lengths(self) -> list[int]:
        return [len(s.word_lines) for s in self.sentences]

    def positions(self) -> list[int]:
        """Each token's model position: (sentence, word number from 1)."""
        out = []
        for s, length in enumerate(self.sentence_lengths):
            out.extend(position(s, w) for w in range(1, length + 1))
        return out

    def load(self, problems: Problems = STOP) -> Document:
        """The document in the format-free model; a mention's head is its first
        word. Nothing is left to report: the file was checked as it was read."""
        positions = self.positions()
        entities = []
        for eid, spans, lines in zip(self.entity_ids, self.entities, self.mention_lines):
            mentions = []
            for (start, end), line in zip(spans, lines):
                words = tuple(positions[start:end + 1])
                mentions.append(Mention(words, words[0], line=line))
            entities.append(Entity(eid, mentions))
        document = Document(self.doc_id, entities, len(self.sentences), self.tokens, self.first_line)
        if self.words is not None:
            # No trees: error analysis falls back on token rules and the tags.
            document.text = DocumentText([None] * len(self.sentences),
                                         {p: Word(form, tag) for p, (form, tag) in zip(positions, self.words)},
                                         trees=False)
        return document


def _form(line: str) -> str | None:
    fields = line.split()
    return fields[3] if len(fields) >= 5 else None


class _Piece:
    """A stretch of the file's text (``text[start:end]``, kept as offsets in
    the whole text, not copied) and the index of its first line, split into
    lines again only if a line's columns are asked for (word forms)."""

    def __init__(self, text: str, start: int, end: int, base: int):
        self.text, self.start, self.end, self.base = text, start, end, base
        self._lines: list[str] | None = None

    def lines(self) -> list[str]:
        return self.text[self.start:self.end].split("\n")

    def line(self, index: int) -> str:
        """The line at ``index`` (from 0, in the file)."""
        if self._lines is None:
            self._lines = self.lines()
        return self._lines[index - self.base]


class _Sentence(Sentence):
    """A sentence whose word forms are read from its lines only when asked
    for: most runs compare the number of words, not their forms, and
    splitting every line would be most of the reading time."""

    def __init__(self, line: int, word_lines, piece: _Piece):
        self.line, self.sent_id, self.newdoc = line, None, None
        self.word_lines = word_lines  # a range where no comment interrupts the sentence
        self._piece: _Piece | None = piece
        self._forms: list | None = None

    @property
    def forms(self) -> list:
        if self._forms is None:
            line = self._piece.line
            self._forms = [_form(line(n - 1)) for n in self.word_lines]
        return self._forms

    @forms.setter
    def forms(self, value: list) -> None:
        self._forms, self._piece = value, None

    def __getstate__(self):
        # Never the file's text in a pickle: the forms themselves.
        state = dict(self.__dict__)
        state["_forms"], state["_piece"] = self.forms, None
        return state


class _Mentions:
    """One document's entities and open mentions, bracket by bracket."""

    def __init__(self, path: str, problems: Problems = STOP):
        self.path = path
        self.problems = problems
        # id -> its mentions' (first token, last token) spans and their lines,
        # in the order the ids first appear (a dict keeps it).
        self.by_id: dict[str, tuple[list[tuple[int, int]], list[int]]] = {}
        self.open: dict[str, list[tuple[int, int]]] = {}  # id -> stack of (token, line)
        self.depth = 0  # mentions open (opened before the token being read, not yet closed)
        self.most = limits().mentions_per_word

    def add(self, eid: str, start: int, end: int, line: int) -> None:
        entity = self.by_id.get(eid)
        if entity is None:
            entity = self.by_id[eid] = ([], [])
        entity[0].append((start, end))
        entity[1].append(line)

    def open_mention(self, eid: str, token: int, lineno: int) -> None:
        if eid not in self.by_id:
            self.by_id[eid] = ([], [])
        stack = self.open.get(eid)
        if stack is None:
            stack = self.open[eid] = []
        stack.append((token, lineno))
        self.depth += 1

    def close_mention(self, eid: str, token: int, lineno: int) -> None:
        stack = self.open.get(eid)
        if not stack:
            self.problems.error("brackets", ScorerError(
                f"'{eid})' closes a mention of entity {eid}, but none is open", (self.path, lineno)))
            return
        start, start_line = stack.pop()
        self.depth -= 1
        self.add(eid, start, token, start_line)

    def brackets(self, value: str, token: int, lineno: int) -> None:
        """A token's coreference column: one-token mentions, then openings, then closings.
        More mentions on the token than the limit is refused before any is
        read (no valid value closes more than are open)."""
        covering = max(self.depth + value.count("("), value.count(")"))
        if covering > self.most:
            self.problems.error("limit", nesting_error(covering, (self.path, lineno)))
            return
        if "|" not in value:
            # One bracket, the usual value: read here without a pattern
            # (``isdecimal`` is what ``\d`` matches).
            if value[0] == "(":
                if value[-1] == ")":
                    eid = value[1:-1]
                    if eid.isdecimal():
                        self.add(eid, token, token, lineno)
                        return
                else:
                    eid = value[1:]
                    if eid.isdecimal():
                        self.open_mention(eid, token, lineno)
                        return
            elif value[-1] == ")":
                eid = value[:-1]
                if eid.isdecimal():
                    self.close_mention(eid, token, lineno)
                    return
            self._general(value, token, lineno)
        elif RE_SIMPLE.fullmatch(value):
            parts = value.split("|")
            for part in parts:
                if part[0] == "(" and part[-1] == ")":
                    self.add(part[1:-1], token, token, lineno)
            for part in parts:
                if part[0] == "(" and part[-1] != ")":
                    self.open_mention(part[1:], token, lineno)
            for part in parts:
                if part[0] != "(":
                    self.close_mention(part[:-1], token, lineno)
        else:
            self._general(value, token, lineno)

    def _general(self, value: str, token: int, lineno: int) -> None:
        rest = RE_DOUBLE_ANTECEDENT.sub("", value)
        # Each pattern is taken out of the value one match at a time, leftmost
        # first, as the reference scorer does (a removal can join what is left).
        for pattern, found in ((RE_SINGLE, lambda eid: self.add(eid, token, token, lineno)),
                               (RE_OPEN, lambda eid: self.open_mention(eid, token, lineno)),
                               (RE_CLOSE, lambda eid: self.close_mention(eid, token, lineno))):
            while (m := pattern.search(rest)) is not None:
                rest = rest[:m.start()] + rest[m.end():]
                found(m.group(1))
        if rest.strip("|"):
            self.problems.error("entity-id", ScorerError(
                f"malformed coreference value {value!r} (expected '-' or brackets "
                "such as '(12', '12)', '(12)' joined by '|')", (self.path, lineno)))

    def unclosed(self) -> list[tuple[int, str]]:
        """The mentions left open, in file order: (line, entity id)."""
        return sorted((line, eid) for eid, stack in self.open.items() for _, line in stack)


def _text(path: str) -> str:
    """The file as text, line ends as ``\n``."""
    text = read_text(path, "CoNLL-2012")
    return text.replace("\r\n", "\n") if "\r" in text else text


def _pieces(text: str) -> Iterator[tuple[int, int]]:
    """The text in pieces (start and end offsets) that end with a line
    ``#end document`` (so one document a piece, as a rule), without the line
    break between pieces: one piece's lines are in memory at a time."""
    start = 0
    while True:
        end = text.find("#end document", start)
        while end > 0 and text[end - 1] != "\n":
            end = text.find("#end document", end + 1)
        end = text.find("\n", end) if end >= 0 else -1
        if end < 0:
            yield start, len(text)
            return
        yield start, end
        start = end + 1


# How a token line without a mention ends: its last column '-' or '_'.
NO_MENTION = ("\t-", " -", "\t_", " _")


def read_documents(path: str, side: str = "key", words: bool = False,
                   parses: bool = False, problems: Problems = STOP) -> Iterator[ConllDocument]:
    """Yield the documents of a CoNLL-2012 file in order, validated line by line;
    with ``words``, each document keeps its tokens' forms and part-of-speech
    tags (the fifth column) for error analysis; with ``parses``, their forms
    and parse bits (the sixth column), which every token line must then have.

    Errors (``FILE:LINE: problem``): a token outside a document, a document
    begun inside another or never ended, a document name used twice, a
    closing bracket with no open mention, a mention never closed, a
    malformed coreference column, a file without documents. They go to
    ``problems``: the first is raised, unless they are collected, when the
    reader leaves out the line or bracket at fault and goes on.
    """
    seen: dict[str, int] = {}
    count = 0
    doc: ConllDocument | None = None
    mentions: _Mentions | None = None
    tokens = 0          # tokens of the document before the current sentence
    start = -1          # index of the current sentence's first line, -1 between sentences
    skipped: list[int] = []  # comment lines inside the current sentence
    shift = 0           # a line's index less its token's number, in the current sentence

    def end_sentence(stop: int) -> None:
        # The sentence's tokens are the lines start..stop-1 but the comments.
        nonlocal tokens, start
        if skipped:
            word_lines = [n for n in range(start + 1, stop + 1) if n - 1 not in skipped]
            skipped.clear()
        else:
            word_lines = range(start + 1, stop + 1)
        doc.sentences.append(_Sentence(start + 1, word_lines, piece))
        tokens += len(word_lines)
        start = -1

    base = 0  # index in the file of the piece's first line
    text = _text(path)
    for piece_start, piece_end in _pieces(text):
        piece = _Piece(text, piece_start, piece_end, base)
        lines = piece.lines()
        for index, line in enumerate(lines, base):
            # Most lines: a token without a mention, one test each.
            if line.endswith(NO_MENTION) and line[0] != "#":
                if start < 0:
                    if doc is None:
                        problems.error("document", ScorerError(
                            "token line outside a document (no '#begin document' before it)", (path, index + 1)))
                        continue
                    start, shift = index, index - tokens
                continue
            if not line or line.isspace():
                if start >= 0:
                    if skipped:
                        end_sentence(index)
                    else:
                        # The usual sentence end, kept in the loop.
                        doc.sentences.append(_Sentence(start + 1, range(start + 1, index + 1), piece))
                        tokens += index - start
                        start = -1
                continue
            if line[0] == "#":
                m = RE_BEGIN.match(line)
                if m:
                    if doc is not None:
                        problems.error("document", ScorerError(
                            f"'#begin document' inside document {doc.doc_id!r} "
                            f"(begun at line {doc.first_line}, never ended)", (path, index + 1)))
                        if start >= 0:
                            end_sentence(index)
                        yield _finish(doc, mentions, index + 1, words, parses, problems)
                    name = m.group(1)
                    if name in seen:
                        problems.error("document", ScorerError(f"document {name!r} begins a second time "
                                                               f"(first at line {seen[name]})", (path, index + 1)))
                    seen[name] = index + 1
                    doc = ConllDocument(path, count, name, name, [], "document", index + 1)
                    mentions = _Mentions(path, problems)
                    by_id, opened = mentions.by_id, mentions.open
                    tokens = 0
                    count += 1
                elif RE_END.search(line):
                    if doc is None:
                        problems.error("document", ScorerError("'#end document' without '#begin document'",
                                                               (path, index + 1)))
                        continue
                    if start >= 0:
                        end_sentence(index)
                    yield _finish(doc, mentions, index + 1, words, parses, problems)
                    doc = mentions = None
                elif start >= 0:
                    # Any other comment is skipped, inside a sentence too.
                    skipped.append(index)
                    shift += 1
                continue
            if start < 0:
                if doc is None:
                    problems.error("document", ScorerError(
                        "token line outside a document (no '#begin document' before it)", (path, index + 1)))
                    continue
                start, shift = index, index - tokens
            value = line.rsplit(None, 1)[-1]
            if value == "-" or value == "_":
                continue
            token = index - shift
            # One bracket, the usual value, is read here (the loop runs once a
            # line); anything else by the general reading.
            head = value[0]
            tail = value[-1]
            if head == "(" and tail != ")" and value[1:].isdecimal():
                eid = value[1:]
                if eid not in by_id:
                    by_id[eid] = ([], [])
                stack = opened.get(eid)
                if stack is None:
                    opened[eid] = [(token, index + 1)]
                else:
                    stack.append((token, index + 1))
            elif head == "(" and value[1:-1].isdecimal():
                entity = by_id.get(value[1:-1])
                if entity is None:
                    by_id[value[1:-1]] = ([(token, token)], [index + 1])
                else:
                    entity[0].append((token, token))
                    entity[1].append(index + 1)
            elif tail == ")" and opened.get(value[:-1]) and value[:-1].isdecimal():
                first, first_line = opened[value[:-1]].pop()
                entity = by_id[value[:-1]]
                entity[0].append((first, token))
                entity[1].append(first_line)
            else:
                mentions.brackets(value, token, index + 1)
        base += len(lines)
    if doc is not None:
        problems.error("document", ScorerError(f"document {doc.doc_id!r} is never ended ('#end document' missing)",
                                               (path, doc.first_line)))
        if start >= 0:
            end_sentence(len(text.split("\n")) - (1 if text.endswith("\n") else 0))
        yield _finish(doc, mentions, base, words, parses, problems)
    if count == 0:
        raise ScorerError("holds no '#begin document': not a CoNLL-2012 file", (path, None))


def _finish(doc: ConllDocument, mentions: _Mentions, lineno: int,
            words: bool, parses: bool = False, problems: Problems = STOP) -> ConllDocument:
    for line, eid in mentions.unclosed():
        problems.error("brackets", ScorerError(f"mention of entity {eid} opened here is never closed "
                                               f"(document {doc.doc_id!r} ends at line {lineno})", (doc.path, line)))
    if not doc.sentences:
        problems.error("document", ScorerError(f"document {doc.doc_id!r} has no token",
                                               (doc.path, doc.first_line)))
    doc.entity_ids = list(mentions.by_id)
    doc.entities = [spans for spans, _ in mentions.by_id.values()]
    doc.mention_lines = [lines for _, lines in mentions.by_id.values()]
    if words:
        doc.words = [(fields[3] if len(fields) >= 5 else "?", fields[4] if len(fields) >= 6 else None)
                     for _, fields in _token_fields(doc)]
    if parses:
        from ..mention_filters import missing_parse, parse_bit

        doc.parses = []
        for n, fields in _token_fields(doc):
            bit = parse_bit(fields)
            if bit is None:
                raise missing_parse(doc.path, n, fields)
            doc.parses.append((fields[3], bit))
    return doc


def _token_fields(doc: ConllDocument):
    """(line number, columns) of each token line of a document, read again
    from the file's text only when asked for."""
    for sentence in doc.sentences:
        line = sentence._piece.line
        for n in sentence.word_lines:
            yield n, line(n - 1).split()


def read_file(path: str) -> list[ConllDocument]:
    return list(read_documents(path))
