"""Writers: one module per output format, each behind the same seam.

A writer module has ``FORMAT`` (the reader's name for the format),
``SUFFIXES`` (the file names it is chosen by), ``HOLDS`` (the source's text
layers it keeps, :mod:`.layers`; none if it has no such name) and
``write(documents, handle, lost)``, which writes :class:`TextDocument`
objects and adds to ``lost`` (a :class:`collections.Counter`) what of the
annotation the format cannot hold, by kind. A writer that can leave the
annotation out takes ``blind``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

from ...errors import ScorerError
from ...model import Document, position
from .names import DocumentName, document_name
from ..readers.source_text import SourceText

_MODULES = {"ua": "ua", "conll": "conll2012", "jsonlines": "jsonlines", "plaintext": "plaintext",
            "corefud": "corefud"}

# What a target without zeros, plural entities or further layers leaves out.
ZEROS = "zero mentions (empty nodes)"
DISCONTINUOUS = "discontinuous mentions"
SPLIT_ANTECEDENTS = "split-antecedent links"
BRIDGING = "bridging links"
NON_REFERRING = "non-referring markables"
DISCOURSE_DEIXIS = "discourse-deixis entities"
HEADS = "mention heads (or minimum spans)"
SPACES = "cells with spaces, written with _ (the format splits its columns at whitespace)"
_SPACE = re.compile(r"\s").search


def spaceless(cell: str, lost: Counter) -> str:
    """A cell of a format whose columns are split at whitespace."""
    if cell and not _SPACE(cell):
        return cell
    lost[SPACES] += 1
    return "_".join(cell.split()) or "_"


@dataclass
class TextDocument:
    """One document to write: its name, its sentences (id and word forms)
    and its annotation in the format-free model (words at
    :func:`~corefud_scorer.model.position` (sentence, word number))."""

    name: str | None
    sentence_ids: list
    forms: list[list[str]]
    document: Document
    # The source's own text (rows, comments, columns) and its names in each
    # format, where the document comes from a file.
    text: SourceText | None = None
    names: DocumentName | None = None

    def names_or_default(self, index: int) -> DocumentName:
        return self.names or document_name(self.name, None, index)


def formats() -> tuple[str, ...]:
    return tuple(_MODULES)


def writer(fmt: str) -> ModuleType:
    if fmt not in _MODULES:
        raise ScorerError(f"cannot write the {fmt} format (written: {', '.join(_MODULES)})")
    return import_module(f".{_MODULES[fmt]}", __name__)


def format_of_name(path: str) -> str | None:
    """The format a file name asks for, by its ending, ``.gz`` aside (None
    if none does)."""
    lower = path.lower().removesuffix(".gz")
    for fmt in _MODULES:
        if lower.endswith(writer(fmt).SUFFIXES):
            return fmt
    return None


def plain_name(name, index: int) -> str:
    """A document's name outside CoNLL-2012 and jsonlines (:mod:`.names`)."""
    return document_name(name, None, index).plain


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
                # A span's head is its first word (a UA markable's Min that word alone).
                first = min(p for p in mention.words if p in index)
                if (mention.head != first) if mention.min is None else (mention.min != (first,)):
                    lost[HEADS] += 1
        if spans:
            entities.append(spans)
    return entities
