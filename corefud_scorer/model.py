"""The document model every reader fills: documents, entities, mentions.

A mention is identified by the positions of its words. A position is an
integer that sorts like the (sentence, word order) pair it encodes, so that
empty nodes (``5.1``) fall between the words around them::

    position = sentence_index * SENTENCE_STRIDE + round(word_ord * 1000)

Readers of other formats need only produce the same objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SENTENCE_STRIDE = 10**9
ORD_SCALE = 1000


def position(sentence_index: int, word_ord: float) -> int:
    """Encode a word (or empty node) of a document as one sortable integer."""
    return sentence_index * SENTENCE_STRIDE + round(word_ord * ORD_SCALE)


def sentence_of(pos: int) -> int:
    return pos // SENTENCE_STRIDE


class Mention:
    """A mention: the sorted positions of its words, its head, and for zeros
    (mentions headed by an empty node) the enhanced dependencies of the head
    as ``(parent position within the sentence, relation)`` pairs."""

    __slots__ = ("words", "head", "is_zero", "head_deps", "line")

    def __init__(self, words, head, is_zero=False, head_deps=(), line=None):
        self.words: tuple[int, ...] = words
        self.head: int = head
        self.is_zero: bool = is_zero
        self.head_deps: tuple[tuple[int, str], ...] = head_deps
        self.line: int | None = line

    @property
    def start(self) -> int:
        return self.words[0]

    @property
    def end(self) -> int:
        return self.words[-1]

    def sort_key(self):
        """The linear order of mentions: start, then end, then length."""
        return (self.words[0], self.words[-1], len(self.words))

    def __repr__(self) -> str:
        return f"Mention(words={self.words}, head={self.head}, zero={self.is_zero})"


@dataclass
class Entity:
    """An entity of one document: its id in the file and its mentions in order."""

    eid: str
    mentions: list[Mention]


@dataclass
class Document:
    """One document (``# newdoc``) of a file: its entities and its size."""

    doc_id: str | int | None
    entities: list[Entity] = field(default_factory=list)
    sentences: int = 0
    tokens: int = 0
    first_line: int | None = None
    warnings: list[str] = field(default_factory=list)  # what the reader noticed but accepted
