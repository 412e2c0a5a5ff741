"""The Universal Anaphora (UA) format: CoNLL-U Plus with anaphora columns.

A file declares its columns in ``# global.columns``; the ones read here are
IDENTITY (coreference markables), BRIDGING, DISCOURSE_DEIXIS and REFERENCE.
A markable is opened by ``(EntityID=..|MarkableID=..|...`` and closed by
``)`` (the innermost open markable) or ``MarkableID)`` (that markable, which
may cross the boundaries of others); one opened and closed on the same line
is written ``(...)``. A MarkableID opened again continues a discontinuous
markable. ``Min=a[,b]`` gives the minimum span as 1-based token numbers of
the document, ``ElementOf=E1,E2`` makes the markable's entity an element of
the plural entities E1, E2, and an EntityID ending in ``-Pseudo`` marks a
non-referring markable. Lines whose ID has a dot are empty nodes: one-line
markables there are zeros.

Words are numbered as :mod:`~corefud_scorer.model` numbers them: the k-th token of the
i-th sentence is ``position(i, k)``, the empty nodes after it
``position(i, k) + 1, + 2, ...``.

The file is read in one pass, line by line, a document at a time: a token
line keeps its word form and, only where they are not ``_``, its anaphora
cells (with where they stand); :mod:`.ua_markables` turns the cells into
entities when the document is loaded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from operator import itemgetter

from ...errors import ScorerError
from ..problems import STOP, Problems
from .profiles import PROFILES
from ...model import (ORD_SCALE, SENTENCE_STRIDE, Document, DocumentText, EmptyNode, Sentence, SourceDocument,
                     Word)
from .files import text_batches

FORMAT = "ua"
# How a document starts (counted for a progress bar).
DOCUMENT_START = b"# newdoc"
# The file names of the format (bench pairs folders of them, convert writes them).
SUFFIXES = (".conllua", ".ua.conllu", ".ua")
PROFILE = PROFILES[FORMAT]
RE_COLUMNS = re.compile(r"^#\s*global\.columns\s*=\s*(.+)$")
RE_NEWDOC = re.compile(r"^#\s*newdoc(?:\s+id\s*=\s*(.+))?$")
RE_SENT_ID = re.compile(r"^#\s*sent_id\s*=?\s*(\S+)")
# CoNLL-U's ten columns and the UA ones; other names must be namespaced (NS:NAME).
KNOWN_COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
                 "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS", "REFERENCE", "NOM_SEM")
ANAPHORA_COLUMNS = ("IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS", "REFERENCE")
# The columns of an empty node the empty-node evaluation compares, in EmptyNode's order.
NODE_COLUMNS = ("FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "DEPS")


def sniff(head: str) -> bool:
    """A UA file declares an IDENTITY column in ``# global.columns``."""
    for line in head.splitlines():
        found = RE_COLUMNS.match(line.strip())
        if found:
            return "IDENTITY" in found.group(1).split()
        if line and not line.startswith("#"):
            return False
    return False


@dataclass
class UADocument(SourceDocument):
    """One document of a UA file, read and checked line by line but not yet
    turned into entities (that is :meth:`load`, run in a worker). Entity
    ids are the document's own.

    ``cells``: per anaphora column, its cells other than ``_`` in document
    order, each as ``(cell, line, position, word)`` (``word``: the word's
    0-based number in the document, None on an empty node)."""

    cells: dict[str, list[tuple]] = field(default_factory=dict)
    empty_nodes: list[EmptyNode] = field(default_factory=list)
    # With deps asked for (conversion): a zero carries its DEPS as CorefUD's do (line -> DEPS).
    zero_deps: dict[int, str] | None = None
    # With words asked for (error analysis): each word's and empty node's Word by position,
    # and whether any carries a UPOS (the tags then come from UPOS and FEATS, else from XPOS).
    words: dict[int, Word] | None = None
    upos: bool = False

    def load(self, problems: Problems = STOP) -> Document:
        from .ua_markables import build

        document = build(self, problems)
        if self.words is not None:
            document.text = DocumentText([s.sent_id for s in self.sentences], self.words, trees=self.upos)
        return document


class _Columns:
    """Where the columns read are, in a file's declared order."""

    def __init__(self, names: list[str]):
        self.count = len(names)
        self.form = names.index("FORM") if "FORM" in names else None
        self.deps = names.index("DEPS") if "DEPS" in names else None
        self.anaphora = [(name, names.index(name)) for name in ANAPHORA_COLUMNS if name in names]
        places = [i for _, i in self.anaphora]
        # The anaphora cells of a line at once, to tell a line without markables by one comparison.
        self.marks = itemgetter(*places) if len(places) > 1 else (lambda cells: (cells[places[0]],))
        self.blank = ("_",) * len(places)
        self.node = [names.index(name) if name in names else None for name in NODE_COLUMNS]
        self.tags = [names.index(name) if name in names else None for name in ("UPOS", "XPOS", "FEATS")]
        # The fewest cells a token line holding every column read has; a
        # file without FORM has its lines read by the general path.
        self.least = max(places + [self.form]) + 1 if self.form is not None else self.count + 1

    def empty_node(self, sentence: int, cells: list[str], token_id: str) -> EmptyNode:
        word = token_id.partition(".")[0]
        return EmptyNode(sentence, int(word) if word.isdigit() else word,
                         *(cells[i] if i is not None else "_" for i in self.node))

    def word(self, cells: list[str]) -> tuple[Word, bool]:
        """The Word of a token line, and whether it has a UPOS."""
        upos, xpos, feats = (cells[i] if i is not None else "_" for i in self.tags)
        form = cells[self.form] if self.form is not None else "_"
        if upos != "_":
            return Word(form, upos, feats), True
        return Word(form, xpos if xpos != "_" else None, feats), False


# Bounds no token line meets: what :meth:`_Reader.read` reads where no line can be read the quick way.
_NO_QUICK = (1, 0, None, None, None, None, None, 0, 0, None)


class _Reader:
    """The state of one pass over a file: the document and sentence being read."""

    def __init__(self, path: str, deps: bool, words: bool, problems: Problems):
        self.path, self.deps, self.words, self.problems = path, deps, words, problems
        self.columns: list[str] | None = None
        self.places: _Columns | None = None
        self.doc: UADocument | None = None
        self.finished: UADocument | None = None  # handed over when the sentence that ends it closes
        self.count = 0
        self.comments: list[tuple[int, str]] = []
        self.started = False  # the sentence has a token
        self.forms: list[str] = []
        self.word_lines: list[int] = []
        self.sent_id: str | None = None
        self.newdoc: str | bool | None = None
        self.first = 0
        self.sentence = 0  # the sentence's index in its document
        self.doc_words = 0  # the words of the document's sentences closed so far
        self.word = 0  # the sentence's first word's number in the document
        self.empty_after = -1  # the words of the sentence before its last empty node so far
        self.empty_count = 0  # empty nodes since that word

    def comment(self, text: str, lineno: int) -> None:
        if self.started:
            self.problems.error("columns", ScorerError("comment line inside a sentence", (self.path, lineno)))
            return
        if "global.columns" in text:
            found = RE_COLUMNS.match(text.strip())
            if found:
                self.columns = _columns(found.group(1).split(), self.path, lineno, self.columns, self.problems)
                self.places = _Columns(self.columns)
                return
        self.comments.append((lineno, text.strip()))

    def blank(self, lineno: int) -> UADocument | None:
        """A blank line: the sentence read closes; the document it ended, if any."""
        if self.started:
            return self.close()
        if self.comments:
            self.problems.error("token-id", ScorerError("sentence without tokens", (self.path, lineno)))
            self.comments = []
        return None

    def start(self, lineno: int) -> None:
        """A sentence's first token: its comments say which document it is in."""
        newdoc = sent_id = None
        for _, text in self.comments:
            if "newdoc" in text:
                found = RE_NEWDOC.match(text)
                if found:
                    newdoc = found.group(1).strip() if found.group(1) else True
            if "sent_id" in text:
                found = RE_SENT_ID.match(text)
                if found:
                    sent_id = found.group(1)
        self.first = self.comments[0][0] if self.comments else lineno
        self.newdoc, self.sent_id = newdoc, sent_id
        if newdoc or self.doc is None:
            self.finished = self.doc
            self.count += 1
            doc_id = newdoc if isinstance(newdoc, str) else (self.count if newdoc else None)
            self.doc = UADocument(self.path, self.count - 1, doc_id, newdoc, entity_scope="document",
                                  cells={name: [] for name, _ in self.places.anaphora},
                                  zero_deps={} if self.deps else None, words={} if self.words else None)
            self.doc_words = 0
        self.sentence = len(self.doc.sentences)
        self.word = self.doc_words
        self.empty_after = -1
        self.started = True

    def close(self) -> UADocument | None:
        self.doc.sentences.append(Sentence(self.first, self.sent_id, self.newdoc, self.forms, self.word_lines))
        self.doc_words += len(self.forms)
        self.comments, self.forms, self.word_lines = [], [], []
        self.started = False
        finished, self.finished = self.finished, None
        return finished

    def _quick(self) -> tuple:
        """What the common token line needs (:meth:`read`): a word of a
        sentence started, with the columns read (those after them are often
        left out); where no line can be read so (before the columns, between
        sentences, with words kept), bounds no line meets."""
        places = self.places
        if places is None or not self.started or self.words:
            return _NO_QUICK
        return (places.least, places.count, places.form, places.marks, places.blank, self.forms,
                self.word_lines, self.sentence * SENTENCE_STRIDE, self.word - 1,
                [self.doc.cells[name] for name, _ in places.anaphora])

    def read(self, texts: list[str], first: int) -> Iterator[UADocument]:
        """Read lines (the first numbered ``first``); yield each document
        they end. A token line is read the quick way while it can be; a
        token line that is not may start a sentence, so what that needs is
        asked again after it; a blank line ends the sentence, so no line
        is read the quick way until one starts again, and a comment changes
        nothing the quick way reads (one inside a sentence is refused, and
        columns are declared only between sentences)."""
        least, count, form, marks, blank, forms, word_lines, base, before, columns = self._quick()
        for lineno, text in enumerate(texts, first):
            cells = text.split()
            if least <= len(cells) <= count and cells[0].isdigit():
                forms.append(cells[form])
                word_lines.append(lineno)
                found = marks(cells)
                if found != blank:
                    words = len(forms)
                    position, word = base + words * ORD_SCALE, before + words
                    for kept, cell in zip(columns, found):
                        if cell != "_":
                            kept.append((cell, lineno, position, word))
            elif not cells:
                finished = self.blank(lineno)
                least, count, form, marks, blank, forms, word_lines, base, before, columns = _NO_QUICK
                if finished is not None:
                    yield finished
            elif text[0] == "#":
                self.comment(text, lineno)
            else:
                self._token(cells, lineno)
                least, count, form, marks, blank, forms, word_lines, base, before, columns = self._quick()

    def _token(self, cells: list[str], lineno: int) -> None:
        """Any token line: checked, mended when problems are collected."""
        places = self.places
        if places is None:
            raise ScorerError("token line before '# global.columns' "
                              "(a UA file declares its columns first)", (self.path, lineno))
        if len(cells) != places.count:
            # Trailing empty columns are often left out; more cells than
            # columns is an error.
            if len(cells) > places.count or len(cells) <= min(1, places.count - 1):
                self.problems.error("columns", ScorerError(
                    f"{len(cells)} columns, but '# global.columns' declares {places.count}", (self.path, lineno)))
                cells = cells[:places.count]
            cells += ["_"] * (places.count - len(cells))
        token_id = cells[0]
        if "-" in token_id:  # a multiword token's range line: no markables
            return
        if not self.started:
            self.start(lineno)
        doc = self.doc
        words = len(self.forms)
        if "." in token_id:
            # The z-th empty node after the sentence's k-th word (k = 0: before the first).
            self.empty_count = self.empty_count + 1 if self.empty_after == words else 1
            self.empty_after = words
            position, word = self.sentence * SENTENCE_STRIDE + words * ORD_SCALE + self.empty_count, None
            doc.empty_nodes.append(places.empty_node(self.sentence, cells, token_id))
            if doc.zero_deps is not None:
                doc.zero_deps[lineno] = cells[places.deps] if places.deps is not None else "_"
        else:
            word = self.word + words
            position = self.sentence * SENTENCE_STRIDE + (words + 1) * ORD_SCALE
            self.forms.append(cells[places.form] if places.form is not None else "_")
            self.word_lines.append(lineno)
        if doc.words is not None:
            doc.words[position], upos = places.word(cells)
            doc.upos = doc.upos or upos
        if places.marks(cells) != places.blank:
            self._mark(cells, lineno, position, word)

    def _mark(self, cells: list[str], lineno: int, position: int, word: int | None) -> None:
        """Keep a token's anaphora cells that are not ``_`` (as :meth:`read` does)."""
        doc_cells = self.doc.cells
        for name, i in self.places.anaphora:
            if cells[i] != "_":
                doc_cells[name].append((cells[i], lineno, position, word))


def read_documents(path: str, side: str = "key", deps: bool = False, words: bool = False,
                   problems: Problems = STOP) -> Iterator[UADocument]:
    """Yield the documents of a UA file; malformed lines are ``FILE:LINE``
    errors, reported to ``problems`` (the first raised, unless they are
    collected: the line at fault is then mended or left out). With ``deps``,
    a zero mention keeps its empty node's enhanced dependencies (what
    converting to CorefUD writes; scoring reads none); with ``words``, the
    loaded documents carry their words (``Document.text``) for error
    analysis: UPOS and FEATS where the file gives a UPOS, else its XPOS as
    the tag."""
    reader = _Reader(path, deps, words, problems)
    for first, texts in text_batches(path, "UA", problems):
        yield from reader.read(texts, first)
    if reader.started:
        finished = reader.close()
        if finished is not None:
            yield finished
    if reader.doc is None:
        raise ScorerError("holds no sentence: not a UA file", (path, None))
    yield reader.doc


def _columns(names: list[str], path: str, lineno: int, previous, problems: Problems = STOP) -> list[str]:
    for name in names:
        if name not in KNOWN_COLUMNS and ":" not in name:
            problems.error("header", ScorerError(
                f"unknown column {name!r} in '# global.columns' (known: "
                f"{' '.join(KNOWN_COLUMNS)}, or a namespaced NS:NAME)", (path, lineno)))
    if "IDENTITY" not in names:
        # Nothing can be read without it.
        raise ScorerError("'# global.columns' has no IDENTITY column: not a UA file", (path, lineno))
    if previous is not None and previous != names:
        problems.error("header", ScorerError("'# global.columns' differs from the one declared before",
                                             (path, lineno)))
        return previous
    return names
