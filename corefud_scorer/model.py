"""The document model every reader fills: documents, entities, mentions.

A mention is identified by the positions of its words. A position is an
integer that sorts like the (sentence, word order) pair it encodes, so that
empty nodes (``5.1``) fall between the words around them::

    position = sentence_index * SENTENCE_STRIDE + round(word_ord * 1000)

Every reader yields :class:`SourceDocument` objects: what the alignment
check compares (documents, sentence ids, word forms, lines) and a ``load()``
that builds the :class:`Document` to score, in a worker process if need be.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, field

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Literal

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

    __slots__ = ("words", "head", "is_zero", "head_deps", "line", "min", "spans")

    def __init__(self, words, head, is_zero=False, head_deps=(), line=None, min=None, spans=None):
        self.words: tuple[int, ...] = words
        self.head: int = head
        self.is_zero: bool = is_zero
        self.head_deps: tuple[tuple[int, str], ...] = head_deps
        self.line: int | None = line
        # The minimum span (UA's MIN): the words partial matching requires;
        # None where the format marks a head instead, () where it marks neither.
        self.min: tuple[int, ...] | None = min
        # (first, last) word of each continuous part, in the order annotated;
        # None for a mention of one part.
        self.spans: tuple[tuple[int, int], ...] | None = spans

    @property
    def parts(self) -> tuple[tuple[int, int], ...]:
        """The (first, last) words of the mention's continuous parts."""
        return self.spans or ((self.words[0], self.words[-1]),)

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
    """An entity of one document: its id in the file and its mentions in order.

    A plural entity lists the ids of the entities it is made of (its split
    antecedents: UA's ``ElementOf``, CorefUD's ``SplitAnte``)."""

    eid: str
    mentions: list[Mention]
    split_antecedents: tuple[str, ...] = ()
    # Elements that are not entities of the document: non-referring
    # markables (UA's ``-Pseudo``), grouped by their id, named in
    # ``split_antecedents`` too. The UA library keeps them in the set.
    non_referring_elements: tuple["Entity", ...] = ()


@dataclass
class Bridging:
    """A bridging link: an anaphor mention and the entity it is anchored to,
    with the antecedent mention where the format names one (UA's
    ``MentionAnchor``; for CorefUD the antecedent entity's closest mention
    before the anaphor)."""

    anaphor: Mention
    antecedent_eid: str
    antecedent: Mention | None = None
    relation: str | None = None


@dataclass
class NonReferring:
    """A non-referring markable (expletive, predicative, ...) and its type."""

    mention: Mention
    kind: str | None = None


@dataclass
class Document:
    """One document (``# newdoc``) of a file: its entities and its size."""

    doc_id: str | int | None
    entities: list[Entity] = field(default_factory=list)
    sentences: int = 0
    tokens: int = 0
    first_line: int | None = None
    # What the reader noticed but accepted: (kind, example) pairs, counted by
    # kind, or (kind, example, breakdown): a Counter of what was counted, by name.
    warnings: list[tuple] = field(default_factory=list)
    text: "DocumentText | None" = None  # words and sentence ids, when a reader is asked for them
    bridging: list[Bridging] = field(default_factory=list)
    non_referring: list[NonReferring] = field(default_factory=list)
    discourse_deixis: list[Entity] = field(default_factory=list)
    empty_nodes: list["EmptyNode"] = field(default_factory=list)  # where the format has them


def breakdown(counts) -> str:
    """A count of several things by name, as a warning says it: ``3 words
    inserted, 1 tag dropped``."""
    return ", ".join(f"{n} {name}" for name, n in counts.items() if n)


class EmptyNode(namedtuple("EmptyNode", "sentence word_order form lemma upos xpos feats deps")):
    """An empty node as the CRAC empty-node evaluation compares it: its
    sentence (0-based in the document), the word it follows (``N`` of
    ``N.M``), both ints, and its FORM, LEMMA, UPOS, XPOS, FEATS and DEPS as
    written."""

    __slots__ = ()


class Word(namedtuple("Word", "form upos feats", defaults=(None, None))):
    """A word (or empty node) as error analysis shows and classifies it:
    its form, its part of speech (UPOS, or the format's tag) and features
    (None where there are none)."""

    __slots__ = ()


@dataclass
class DocumentText:
    """The words of one document by position, and its sentences' ids.

    ``trees`` says whether heads and parts of speech come from dependency
    trees and UPOS (CorefUD) or not (a format without trees, where error
    analysis falls back on token rules)."""

    sentence_ids: list
    words: dict[int, Word]
    trees: bool = True


@dataclass
class Sentence:
    """What the alignment check compares, with where it stands in the file."""

    line: int  # first line of the sentence (its first comment or word)
    sent_id: str | None
    newdoc: str | bool | None  # the document start it carries, if any
    forms: list[str]
    word_lines: list[int]


@dataclass
class SourceDocument:
    """One document of a file as a reader yields it, before it is scored.

    ``entity_scope`` says whether an entity id names one entity across the
    whole file (``"file"``) or only within its document (``"document"``).
    Subclasses override :meth:`load`, which must be picklable: it runs in
    the worker process that scores the document.
    """

    path: str
    index: int  # 0-based position of the document in its file
    doc_id: str | int | None
    newdoc: str | bool | None
    sentences: list[Sentence] = field(default_factory=list)
    entity_scope: Literal["file", "document"] = "file"
    # What the alignment check noticed without refusing: (kind, first place, count).
    # A class attribute, not a field, so not annotated: a dataclass knows a
    # ClassVar written as a string only once typing is imported.
    check_notes = ()

    @property
    def first_line(self) -> int | None:
        return self.sentences[0].line if self.sentences else None

    @property
    def tokens(self) -> int:
        return sum(len(s.word_lines) for s in self.sentences)

    def identity(self):
        """What pairs the document with its counterpart in the other file."""
        return self.newdoc

    def regroup(self, lengths: list[int]) -> bool:
        """Take these sentence lengths, where the file keeps no sentences
        and the words add up; whether it did (most formats never do)."""
        return False

    def drop_forms(self) -> None:
        """Forget the word forms once checked: workers do not need them."""
        for sentence in self.sentences:
            sentence.forms = []

    def load(self, problems=None) -> Document:
        """The document to score; what its parse refuses goes to ``problems``
        (a :class:`~corefud_scorer.formats.problems.Problems`, raising by default)."""
        raise NotImplementedError


class PluralMention(Mention):
    """A split antecedent as scored: the plural entity's extra mention that
    stands for the set of entities the plural is made of. Two are the same
    when they stand for the same entities (each as its mentions' identities).
    It has no words: word-based matching and MOR pass it by."""

    __slots__ = ("antecedents",)

    def __init__(self, antecedents: frozenset):
        super().__init__((), -1)
        self.antecedents: frozenset = antecedents

    def sort_key(self):
        return (float("inf"), float("inf"), 0)

    def __repr__(self) -> str:
        return f"PluralMention({len(self.antecedents)} entities)"
