"""Writers: one module per output format, each behind the same seam.

A writer module has ``FORMAT`` (the reader's name for the format),
``SUFFIXES`` (the file names it is chosen by) and ``write(documents, handle,
lost)``, which writes :class:`TextDocument` objects and adds to ``lost``
(a :class:`collections.Counter`) what the format cannot hold, by kind.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

from ...errors import ScorerError
from ...model import ORD_SCALE, SENTENCE_STRIDE, Document, position

_MODULES = {"ua": "ua", "conll": "conll2012", "jsonlines": "jsonlines", "corefud": "corefud"}

# What a target without zeros, plural entities or further layers leaves out.
ZEROS = "zero mentions (empty nodes)"
DISCONTINUOUS = "discontinuous mentions"
SPLIT_ANTECEDENTS = "split-antecedent links"
BRIDGING = "bridging links"
NON_REFERRING = "non-referring markables"
DISCOURSE_DEIXIS = "discourse-deixis entities"


@dataclass
class TextDocument:
    """One document to write: its name, its sentences (id and word forms)
    and its annotation in the format-free model (words at
    :func:`~corefud_scorer.model.position` (sentence, word number))."""

    name: str | None
    sentence_ids: list
    forms: list[list[str]]
    document: Document


def formats() -> tuple[str, ...]:
    return tuple(_MODULES)


def writer(fmt: str) -> ModuleType:
    if fmt not in _MODULES:
        raise ScorerError(f"cannot write the {fmt} format (written: {', '.join(_MODULES)})")
    return import_module(f".{_MODULES[fmt]}", __name__)


def format_of_name(path: str) -> str | None:
    """The format a file name asks for, by its ending (None if none does)."""
    lower = path.lower()
    for fmt in _MODULES:
        if lower.endswith(writer(fmt).SUFFIXES):
            return fmt
    return None


def plain_name(name, index: int) -> str:
    """A document's name outside CoNLL-2012: ``NAME_PART`` for a CoNLL-2012
    name ``(NAME); part PART`` (or ``(NAME)``, part 0), as the systems name
    OntoNotes documents; any other name as it is."""
    from ..readers.conll2012 import conll_identity

    if not isinstance(name, str):
        return f"document_{index + 1}"
    if name.startswith("("):
        found, part = conll_identity(name)
        return f"{found}_{part}"
    return name


def token_spans(doc: TextDocument, lost: Counter) -> list[list[tuple[int, int]]]:
    """The entities as lists of (first, last) word spans, words numbered
    from 0 across the document, for a format of continuous word spans and
    identity alone; what it cannot hold is counted in ``lost``."""
    index, at = {}, 0
    for s, forms in enumerate(doc.forms):
        for k in range(1, len(forms) + 1):
            index[position(s, k)] = at
            at += 1
    d = doc.document
    lost[BRIDGING] += len(d.bridging)
    lost[NON_REFERRING] += len(d.non_referring)
    lost[DISCOURSE_DEIXIS] += len(d.discourse_deixis)
    entities = []
    for entity in d.entities:
        lost[SPLIT_ANTECEDENTS] += len(entity.split_antecedents)
        spans = []
        for mention in entity.mentions:
            words = [index[p] for p in mention.words if p in index]
            if mention.is_zero or not words:
                lost[ZEROS] += 1
            elif words[-1] - words[0] + 1 != len(words):
                lost[DISCONTINUOUS] += 1
            else:
                spans.append((words[0], words[-1]))
        if spans:
            entities.append(spans)
    return entities


@dataclass
class Slot:
    """A word or empty node of a sentence as written: its model position
    and its CoNLL-U ID (``3``, or ``3.1`` for the first empty node after 3)."""

    position: int
    ord: str
    word: int | None  # the word's number in the document from 1; None for an empty node


def slots(doc: TextDocument) -> list[list[Slot]]:
    """Each sentence's words and the empty nodes the annotation stands on
    (numbered after the word before them, in position order)."""
    empties: dict[int, set] = {}
    words = {position(s, k) for s, forms in enumerate(doc.forms) for k in range(1, len(forms) + 1)}
    d = doc.document
    for entity in [*d.entities, *d.discourse_deixis]:
        for mention in entity.mentions:
            for p in mention.words:
                if p not in words:
                    empties.setdefault(p // SENTENCE_STRIDE, set()).add(p)
    for item in d.non_referring:
        for p in item.mention.words:
            if p not in words:
                empties.setdefault(p // SENTENCE_STRIDE, set()).add(p)
    out, number = [], 0
    for s, forms in enumerate(doc.forms):
        sentence = []
        extra = sorted(empties.get(s, ()))
        for k in range(0, len(forms) + 1):
            if k:
                number += 1
                sentence.append(Slot(position(s, k), str(k), number))
            after = [p for p in extra if position(s, k) < p < position(s, k + 1)]
            sentence.extend(Slot(p, f"{k}.{i}", None) for i, p in enumerate(after, 1))
        out.append(sentence)
    return out


def deps_text(mention) -> str:
    """A zero's enhanced dependencies (``parent:relation`` pairs) as DEPS."""
    pairs = []
    for parent, relation in mention.head_deps:
        k = parent / ORD_SCALE
        pairs.append(f"{int(k) if k == int(k) else k}:{relation}")
    return "|".join(pairs) or "_"
