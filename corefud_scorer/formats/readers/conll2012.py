"""Read CoNLL-2011/2012 files (the format of the reference scorer ``scorer.pl``).

A file holds documents, each between ``#begin document (NAME); part NNN`` and
``#end document`` (the part may be missing). Inside, one token a line
(whitespace-separated columns: document, part, word number, word form, ...)
and a blank line between sentences. The last column holds the coreference
brackets: ``(12`` opens a mention of entity 12, ``12)`` closes the latest
open mention of 12, ``(12)`` is a one-token mention; several are joined by
``|`` (or written side by side), ``-`` or ``_`` means none.

This module reads the lines and assembles the documents; the column's
brackets are read in the reference scorer's order by
:mod:`.conll2012_column`, and a document is kept as
:mod:`.conll2012_document` describes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...errors import ScorerError
from ..problems import STOP, Problems
from .profiles import PROFILES
# conll_order and coreference_column: the format's, as the writer and the jsonlines reader take them.
from .conll2012_column import ColumnMentions, conll_order, coreference_column  # noqa: F401
from .conll2012_document import ConllDocument, LazySentence, TextPiece, token_fields
from .files import read_text

FORMAT = "conll"
# How a document starts (counted for a progress bar).
DOCUMENT_START = b"#begin document"
# The file names of the format (bench pairs folders of them, convert writes them).
SUFFIXES = (".conll", ".gold_conll", ".auto_conll", ".conll12", ".v4_gold_conll")
PROFILE = PROFILES[FORMAT]

RE_BEGIN = re.compile(r"^#\s*begin document (.*)$")
RE_END = re.compile(r"#\s*end document")


def sniff(head: str) -> bool:
    """A CoNLL-2012 file has a ``#begin document`` line."""
    return any(RE_BEGIN.match(line) for line in head.splitlines())


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
    reading = _Reading(path, words, parses, problems)
    text = _text(path)
    base = 0  # index in the file of the piece's first line
    for piece_start, piece_end in _pieces(text):
        piece = TextPiece(text, piece_start, piece_end, base)
        lines = piece.lines()
        yield from reading.lines(lines, base, piece)
        base += len(lines)
    yield from reading.end(text, base, piece)


class _Reading:
    """The state of reading one file, line by line: the document being read,
    its mentions, and the sentence being read. :meth:`lines` keeps the state
    it changes at every line in local variables (the loop runs once a line)
    and hands the rare lines (comments, a token outside a document) to methods
    that change it here."""

    def __init__(self, path: str, words: bool, parses: bool, problems: Problems):
        self.path, self.words, self.parses, self.problems = path, words, parses, problems
        self.seen: dict[str, int] = {}  # document name -> line of its '#begin document'
        self.count = 0
        self.doc: ConllDocument | None = None
        self.mentions: ColumnMentions | None = None
        self.tokens = 0          # tokens of the document before the current sentence
        self.start = -1          # index of the current sentence's first line, -1 between sentences
        self.skipped: list[int] = []  # comment lines inside the current sentence
        self.shift = 0           # a line's index less its token's number, in the current sentence

    def lines(self, lines: list[str], base: int, piece: TextPiece) -> Iterator[ConllDocument]:
        """The documents completed in a piece of the file (its lines from index ``base``)."""
        doc, mentions, skipped = self.doc, self.mentions, self.skipped
        start, shift, tokens = self.start, self.shift, self.tokens
        by_id, opened = (mentions.by_id, mentions.open) if mentions is not None else (None, None)
        for index, line in enumerate(lines, base):
            # Most lines: a token without a mention, one test each.
            if line.endswith(NO_MENTION) and line[0] != "#":
                if start < 0:
                    if doc is None:
                        self._outside(index)
                        continue
                    start, shift = index, index - tokens
                continue
            if not line or line.isspace():
                if start >= 0:
                    # The usual sentence end, kept in the loop.
                    word_lines = self._without_comments(start, index) if skipped else range(start + 1, index + 1)
                    doc.sentences.append(LazySentence(start + 1, word_lines, piece))
                    tokens += len(word_lines)
                    start = -1
                continue
            if line[0] == "#":
                self.start, self.shift, self.tokens = start, shift, tokens
                yield from self._comment(line, index, piece)
                doc, mentions, start, shift, tokens = self.doc, self.mentions, self.start, self.shift, self.tokens
                if mentions is not None:
                    by_id, opened = mentions.by_id, mentions.open
                continue
            if start < 0:
                if doc is None:
                    self._outside(index)
                    continue
                start, shift = index, index - tokens
            value = line.rsplit(None, 1)[-1]
            if value == "-" or value == "_":
                continue
            token = index - shift
            # One bracket, the usual value, is read here; anything else by the general reading.
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
        self.start, self.shift, self.tokens = start, shift, tokens

    def _outside(self, index: int) -> None:
        self.problems.error("document", ScorerError(
            "token line outside a document (no '#begin document' before it)", (self.path, index + 1)))

    def _without_comments(self, start: int, stop: int) -> list[int]:
        """The lines of a sentence's tokens (numbered from 1): lines start..stop-1 but the comments."""
        skipped = self.skipped
        word_lines = [n for n in range(start + 1, stop + 1) if n - 1 not in skipped]
        skipped.clear()
        return word_lines

    def _end_sentence(self, stop: int, piece: TextPiece) -> None:
        start = self.start
        word_lines = self._without_comments(start, stop) if self.skipped else range(start + 1, stop + 1)
        self.doc.sentences.append(LazySentence(start + 1, word_lines, piece))
        self.tokens += len(word_lines)
        self.start = -1

    def _comment(self, line: str, index: int, piece: TextPiece) -> Iterator[ConllDocument]:
        """A comment line: a document begins or ends; any other comment is skipped, inside a sentence too."""
        m = RE_BEGIN.match(line)
        if m:
            yield from self._begin(m.group(1), index, piece)
        elif RE_END.search(line):
            if self.doc is None:
                self.problems.error("document", ScorerError("'#end document' without '#begin document'",
                                                            (self.path, index + 1)))
                return
            if self.start >= 0:
                self._end_sentence(index, piece)
            yield self._finish(index + 1)
            self.doc = self.mentions = None
        elif self.start >= 0:
            self.skipped.append(index)
            self.shift += 1

    def _begin(self, name: str, index: int, piece: TextPiece) -> Iterator[ConllDocument]:
        path, problems, doc = self.path, self.problems, self.doc
        if doc is not None:
            problems.error("document", ScorerError(
                f"'#begin document' inside document {doc.doc_id!r} "
                f"(begun at line {doc.first_line}, never ended)", (path, index + 1)))
            if self.start >= 0:
                self._end_sentence(index, piece)
            yield self._finish(index + 1)
        if name in self.seen:
            problems.error("document", ScorerError(f"document {name!r} begins a second time "
                                                   f"(first at line {self.seen[name]})", (path, index + 1)))
        self.seen[name] = index + 1
        self.doc = ConllDocument(path, self.count, name, name, [], "document", index + 1)
        self.mentions = ColumnMentions(path, problems)
        self.tokens = 0
        self.count += 1

    def end(self, text: str, base: int, piece: TextPiece) -> Iterator[ConllDocument]:
        """At the end of the file: the document never ended, or the file held none."""
        doc = self.doc
        if doc is not None:
            self.problems.error("document", ScorerError(
                f"document {doc.doc_id!r} is never ended ('#end document' missing)", (self.path, doc.first_line)))
            if self.start >= 0:
                self._end_sentence(len(text.split("\n")) - (1 if text.endswith("\n") else 0), piece)
            yield self._finish(base)
        if self.count == 0:
            raise ScorerError("holds no '#begin document': not a CoNLL-2012 file", (self.path, None))

    def _finish(self, lineno: int) -> ConllDocument:
        """The document read, once what is left open is reported."""
        doc, mentions, problems = self.doc, self.mentions, self.problems
        for line, eid in mentions.unclosed():
            problems.error("brackets", ScorerError(
                f"mention of entity {eid} opened here is never closed (document {doc.doc_id!r} ends at line {lineno})",
                (doc.path, line)))
        if not doc.sentences:
            problems.error("document", ScorerError(f"document {doc.doc_id!r} has no token",
                                                   (doc.path, doc.first_line)))
        doc.entity_ids = list(mentions.by_id)
        doc.entities = [spans for spans, _ in mentions.by_id.values()]
        doc.mention_lines = [lines for _, lines in mentions.by_id.values()]
        if self.words:
            doc.words = [(fields[3] if len(fields) >= 5 else "?", fields[4] if len(fields) >= 6 else None)
                         for _, fields in token_fields(doc)]
        if self.parses:
            from ..mention_filters import missing_parse, parse_bit

            doc.parses = []
            for n, fields in token_fields(doc):
                bit = parse_bit(fields)
                if bit is None:
                    raise missing_parse(doc.path, n, fields)
                doc.parses.append((fields[3], bit))
        return doc


def read_file(path: str) -> list[ConllDocument]:
    return list(read_documents(path))
