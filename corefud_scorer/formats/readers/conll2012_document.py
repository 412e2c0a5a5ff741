"""One document of a CoNLL-2012 file as the reader keeps it: its entities'
token spans, and its sentences as ranges of the file's lines, whose columns
are split only when they are asked for (word forms, tags, parse bits).

The format has no syntactic heads: a mention's head is its first word, so
only exact matching is meaningful. A document is identified by the text
after ``#begin document `` (name and part), as ``scorer.pl`` names it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..problems import STOP, Problems
from ...model import Document, DocumentText, Entity, Mention, Sentence, SourceDocument, Word, position

RE_NAME_PART = re.compile(r"^\((.*)\)(?:;\s*part\s+(\d+))?\s*$")


def conll_identity(name: str):
    """A document's name ``(NAME); part PART`` as ``(NAME, PART)``, the part
    an integer (``(NAME)`` alone is part 0): what pairs it with a document
    of another format."""
    m = RE_NAME_PART.match(name)
    if m:
        return m.group(1), int(m.group(2) or 0)
    return name, 0


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


class TextPiece:
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


class LazySentence(Sentence):
    """A sentence whose word forms are read from its lines only when asked
    for: most runs compare the number of words, not their forms, and
    splitting every line would be most of the reading time."""

    def __init__(self, line: int, word_lines, piece: TextPiece):
        self.line, self.sent_id, self.newdoc = line, None, None
        self.word_lines = word_lines  # a range where no comment interrupts the sentence
        self._piece: TextPiece | None = piece
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



def token_fields(doc: ConllDocument):
    """(line number, columns) of each token line of a document, read again
    from the file's text only when asked for."""
    for sentence in doc.sentences:
        line = sentence._piece.line
        for n in sentence.word_lines:
            yield n, line(n - 1).split()
