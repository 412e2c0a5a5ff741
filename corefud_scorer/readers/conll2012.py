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

from ..errors import ScorerError
from ..model import Document, DocumentText, Entity, Mention, Sentence, SourceDocument, Word, position

FORMAT = "conll"

RE_BEGIN = re.compile(r"^#\s*begin document (.*)$")
RE_END = re.compile(r"#\s*end document")
RE_DOUBLE_ANTECEDENT = re.compile(r"\((\d+\+\d)\)")
RE_SINGLE = re.compile(r"\((\d+)\)")
RE_OPEN = re.compile(r"\((\d+)")
RE_CLOSE = re.compile(r"(\d+)\)")
# The usual value: brackets joined by '|', read part by part.
RE_SIMPLE = re.compile(r"(?:\(\d+\)?|\d+\))(?:\|(?:\(\d+\)?|\d+\)))*")


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
    entity_ids: list[str] = field(default_factory=list)
    entities: list[list[tuple[int, int]]] = field(default_factory=list)
    mention_lines: list[list[int]] = field(default_factory=list)

    # Scored with the reference scorer v8.01's reading of repeated spans
    # (:mod:`corefud_scorer.conll`), not scorer 1.2's.
    scored_as = "v8.01"

    @property
    def first_line(self) -> int:
        return self.begin_line

    @property
    def sentence_lengths(self) -> list[int]:
        return [len(s.word_lines) for s in self.sentences]

    def positions(self) -> list[int]:
        """Each token's model position: (sentence, word number from 1)."""
        out = []
        for s, length in enumerate(self.sentence_lengths):
            out.extend(position(s, w) for w in range(1, length + 1))
        return out

    def load(self) -> Document:
        """The document in the format-free model; a mention's head is its first word."""
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


class _DocumentBuilder:
    """Collects one document's tokens and mentions as its lines come."""

    def __init__(self, path: str, index: int, doc_id: str, line: int):
        self.doc = ConllDocument(path, index, doc_id, doc_id, [], "document", line)
        self.path = path
        self.entity_index: dict[str, int] = {}
        self.open: dict[str, list[tuple[int, int]]] = {}  # id -> stack of (token, line)
        self.token = 0
        self.sentence: Sentence | None = None

    def _entity(self, eid: str) -> int:
        index = self.entity_index.get(eid)
        if index is None:
            index = self.entity_index[eid] = len(self.doc.entities)
            self.doc.entity_ids.append(eid)
            self.doc.entities.append([])
            self.doc.mention_lines.append([])
        return index

    def _add(self, eid: str, start: int, end: int, line: int) -> None:
        index = self._entity(eid)
        self.doc.entities[index].append((start, end))
        self.doc.mention_lines[index].append(line)

    def coreference(self, value: str, lineno: int) -> None:
        """The brackets of the current token's last column."""
        if RE_SIMPLE.fullmatch(value):
            self._simple(value, lineno)
        else:
            self._brackets(value, lineno)

    def _open_mention(self, eid: str, lineno: int) -> None:
        self._entity(eid)
        stack = self.open.get(eid)
        if stack is None:
            stack = self.open[eid] = []
        stack.append((self.token, lineno))

    def _close_mention(self, eid: str, lineno: int) -> None:
        stack = self.open.get(eid)
        if not stack:
            raise ScorerError(f"'{eid})' closes a mention of entity {eid}, but none is open",
                              (self.path, lineno))
        start, start_line = stack.pop()
        self._add(eid, start, self.token, start_line)

    def _simple(self, value: str, lineno: int) -> None:
        """Brackets joined by '|': the same reading as :meth:`_brackets`, part by part."""
        if "|" not in value:
            if value[0] == "(":
                if value[-1] == ")":
                    self._add(value[1:-1], self.token, self.token, lineno)
                else:
                    self._open_mention(value[1:], lineno)
            else:
                self._close_mention(value[:-1], lineno)
            return
        parts = value.split("|")
        for part in parts:
            if part[0] == "(" and part[-1] == ")":
                self._add(part[1:-1], self.token, self.token, lineno)
        for part in parts:
            if part[0] == "(" and part[-1] != ")":
                self._open_mention(part[1:], lineno)
        for part in parts:
            if part[0] != "(":
                self._close_mention(part[:-1], lineno)

    def _brackets(self, value: str, lineno: int) -> None:
        token = self.token
        rest = RE_DOUBLE_ANTECEDENT.sub("", value)
        # Each pattern is taken out of the value one match at a time, leftmost
        # first, as the reference scorer does (a removal can join what is left).
        while True:
            m = RE_SINGLE.search(rest)
            if m is None:
                break
            rest = rest[:m.start()] + rest[m.end():]
            self._add(m.group(1), token, token, lineno)
        while True:
            m = RE_OPEN.search(rest)
            if m is None:
                break
            rest = rest[:m.start()] + rest[m.end():]
            self._open_mention(m.group(1), lineno)
        while True:
            m = RE_CLOSE.search(rest)
            if m is None:
                break
            rest = rest[:m.start()] + rest[m.end():]
            self._close_mention(m.group(1), lineno)
        if rest.strip("|"):
            raise ScorerError(f"malformed coreference value {value!r} (expected '-' or brackets "
                              "such as '(12', '12)', '(12)' joined by '|')", (self.path, lineno))

    def end_sentence(self) -> None:
        if self.sentence is not None:
            self.doc.sentences.append(self.sentence)
            self.sentence = None

    def finish(self, lineno: int) -> ConllDocument:
        self.end_sentence()
        unclosed = [(line, eid) for eid, stack in self.open.items() for _, line in stack]
        if unclosed:
            line, eid = min(unclosed)
            raise ScorerError(f"mention of entity {eid} opened here is never closed "
                              f"(document {self.doc.doc_id!r} ends at line {lineno})",
                              (self.path, line))
        if not self.doc.sentences:
            raise ScorerError(f"document {self.doc.doc_id!r} has no token", (self.path, self.doc.first_line))
        return self.doc


def _open(path: str):
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise ScorerError("no such file", (path, None)) from None
    except IsADirectoryError:
        raise ScorerError("is a directory, not a CoNLL-2012 file", (path, None)) from None
    except OSError as err:
        raise ScorerError(f"cannot open: {err.strerror}", (path, None)) from None


def read_documents(path: str, side: str = "key", words: bool = False) -> Iterator[ConllDocument]:
    """Yield the documents of a CoNLL-2012 file in order, validated line by line;
    with ``words``, each document keeps its tokens' forms and part-of-speech
    tags (the fifth column) for error analysis.

    Errors (``FILE:LINE: problem``): a token outside a document, a document
    begun inside another or never ended, a document name used twice, a
    closing bracket with no open mention, a mention never closed, a
    malformed coreference column, a file without documents.
    """
    handle = _open(path)
    try:
        with handle:
            data = handle.read()
    except OSError as err:
        raise ScorerError(f"cannot read: {err.strerror or err}", (path, None)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ScorerError(f"not UTF-8 text ({err.reason})", (path, data.count(b"\n", 0, err.start) + 1)) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    builder: _DocumentBuilder | None = None
    seen: dict[str, int] = {}
    count = 0
    for lineno, line in enumerate(text.split("\n"), 1):
        fields = line.split()
        if not fields:
            if builder is not None:
                builder.end_sentence()
            continue
        if line[0] == "#":
            m = RE_BEGIN.match(line)
            if m:
                if builder is not None:
                    raise ScorerError(
                        f"'#begin document' inside document {builder.doc.doc_id!r} "
                        f"(begun at line {builder.doc.first_line}, never ended)", (path, lineno))
                name = m.group(1).rstrip("\r")
                if name in seen:
                    raise ScorerError(f"document {name!r} begins a second time "
                                      f"(first at line {seen[name]})", (path, lineno))
                seen[name] = lineno
                builder = _DocumentBuilder(path, count, name, lineno)
                if words:
                    builder.doc.words = []
                count += 1
                continue
            if RE_END.search(line):
                if builder is None:
                    raise ScorerError("'#end document' without '#begin document'", (path, lineno))
                yield builder.finish(lineno)
                builder = None
            # Any other comment line is skipped.
            continue
        if builder is None:
            raise ScorerError("token line outside a document (no '#begin document' before it)",
                              (path, lineno))
        # One token; kept in this loop rather than a method, as it runs once per token.
        sentence = builder.sentence
        if sentence is None:
            sentence = builder.sentence = Sentence(lineno, None, None, [], [])
        sentence.forms.append(fields[3] if len(fields) >= 5 else None)
        sentence.word_lines.append(lineno)
        if words:
            builder.doc.words.append((fields[3] if len(fields) >= 5 else "?",
                                      fields[4] if len(fields) >= 6 else None))
        value = fields[-1]
        if value != "-" and value != "_":
            builder.coreference(value, lineno)
        builder.token += 1
    if builder is not None:
        raise ScorerError(f"document {builder.doc.doc_id!r} is never ended ('#end document' missing)",
                          (path, builder.doc.first_line))
    if count == 0:
        raise ScorerError("holds no '#begin document': not a CoNLL-2012 file", (path, None))


def read_file(path: str) -> list[ConllDocument]:
    return list(read_documents(path))
