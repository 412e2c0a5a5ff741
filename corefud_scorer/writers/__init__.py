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

from ..errors import ScorerError
from ..model import Document, position

_MODULES = {"conll": "conll2012", "jsonlines": "jsonlines"}

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
