"""The statistics of several systems over the same documents, stacked as
arrays, and the scores of their sums: what intervals and tests resample
(:mod:`.significance`).

Each document's statistics flatten into a row (each measure's columns, one
after another: :class:`Layout`); a group of documents is a ``(systems,
documents, columns)`` array, and a sum of rows scores through each
measure's figures function on arrays (:mod:`~corefud_scorer.measures.figures`),
the function that gives the reported score on one plain row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..measures.figures import ARRAYS, columns, mean_f1, row as statistics_row
from ..measures.registry import MEASURES
from ..results import CONLL_PARTS, CONLL_SCORE


def not_resampled(metrics: Sequence[str]) -> list[str]:
    """The metrics asked for that resampling refuses (the registry's
    ``resampled``: the agreement coefficients, one number each, whose
    intervals and tests would need their own definition)."""
    return [name for name in dict.fromkeys(metrics) if not MEASURES[name].resampled]


def _statistics(name: str) -> tuple[tuple[str | None, str], ...]:
    """A metric's columns (:func:`~corefud_scorer.measures.figures.columns`
    of its empty statistics)."""
    return columns(MEASURES[name].empty())


@dataclass(frozen=True)
class Layout:
    """Where each metric's statistics stand in a row of a document matrix:
    four columns (recall and precision numerators and denominators, or
    entropy's four sums), eight for BLANC (its coreference part, then its
    non-coreference part), twelve for bridging (anaphor recognition, then
    the markable and the entity levels)."""

    metrics: tuple[str, ...]
    columns: dict

    @classmethod
    def of(cls, metrics: Sequence[str]) -> "Layout":
        refused = not_resampled(metrics)
        if refused:
            raise ValueError(f"{', '.join(refused)}: agreement coefficients are not resampled")
        columns, start = {}, 0
        for name in dict.fromkeys(metrics):
            width = len(_statistics(name))
            columns[name] = slice(start, start + width)
            start += width
        return cls(tuple(columns), columns)

    @property
    def width(self) -> int:
        return max((s.stop for s in self.columns.values()), default=0)

    @property
    def has_conll(self) -> bool:
        return all(name in self.columns for name in CONLL_PARTS)

    @property
    def names(self) -> tuple[str, ...]:
        """The figures scored: the metrics, then CoNLL when it applies."""
        return self.metrics + ((CONLL_SCORE,) if self.has_conll else ())


def document_matrix(documents, layout: Layout) -> np.ndarray:
    """Documents' statistics (:class:`~corefud_scorer.results.DocumentResult`
    objects) as a (documents, columns) array; a metric a document could not
    give counts as zeros here (see :func:`applicable`)."""
    rows = []
    for document in documents:
        row = []
        for name in layout.metrics:
            counts = document.counts.get(name)
            row += statistics_row(counts) if counts is not None else [0.0] * len(_statistics(name))
        rows.append(row)
    return np.array(rows, dtype=np.float64).reshape(len(rows), layout.width)


def applicable(documents, layout: Layout) -> np.ndarray:
    """Per metric, whether every document gave its statistics (MOR with
    split antecedents gives None: not applicable to the whole group, as
    the reported total is not)."""
    return np.array([all(not (name in d.counts and d.counts[name] is None) for d in documents)
                     for name in layout.metrics], dtype=bool)


# --- scores of summed statistics, as arrays (each measure's figures) ---

def scores(sums: np.ndarray, layout: Layout, usable: np.ndarray | None = None) -> dict:
    """Recall, precision and F1 arrays per metric (and CoNLL's F1) from
    summed statistics of shape ``(..., layout.width)``; the same operations,
    in the same order, as the reported scores. ``usable`` (shape ``(...,
    metrics)`` or broadcastable to it) marks where a metric is applicable;
    elsewhere its figures are NaN."""
    out = {}
    for index, name in enumerate(layout.metrics):
        block = sums[..., layout.columns[name]]
        figures = MEASURES[name].figures(block, ARRAYS)
        if usable is not None:
            figures = tuple(np.where(usable[..., index], f, np.nan) for f in figures)
        out[name] = figures
    if layout.has_conll:
        parts = [name for name in layout.metrics if name in CONLL_PARTS]
        out[CONLL_SCORE] = (None, None, mean_f1([out[name][2] for name in parts]))
    return out


def macro_average(per_group: list[dict]) -> dict:
    """The mean over groups of each figure, leaving out groups where it is
    undefined (NaN where it is undefined in every group); one group is its
    own mean."""
    out = {}
    for name, figures in per_group[0].items():
        averaged = []
        for k, first in enumerate(figures):
            if first is None:
                averaged.append(None)
                continue
            total, count = 0.0, 0.0
            for group in per_group:
                value = group[name][k]
                defined = ~np.isnan(value)
                total = total + np.where(defined, value, 0.0)
                count = count + defined
            with np.errstate(divide="ignore", invalid="ignore"):
                averaged.append(np.where(count == 0, np.nan, total / np.maximum(count, 1)))
        out[name] = tuple(averaged)
    return out


# --- the systems' statistics ---

class Statistics:
    """Per-document statistics of several systems over the same documents.

    ``groups[g]`` is an array ``(systems, documents of group g, columns)``;
    the first system is the baseline of the tests. ``usable[g]``, an array
    ``(systems, metrics)``, marks where a metric is applicable to a
    system's group (every metric everywhere by default).
    """

    def __init__(self, groups: list[np.ndarray], layout: Layout, usable: list[np.ndarray] | None = None):
        if not groups:
            raise ValueError("no group of documents")
        systems = {g.shape[0] for g in groups}
        if len(systems) != 1 or any(g.ndim != 3 or g.shape[2] != layout.width for g in groups):
            raise ValueError("every group needs (systems, documents, columns) statistics")
        self.groups = [np.asarray(g, dtype=np.float64) for g in groups]
        self.layout = layout
        self.systems = systems.pop()
        if usable is None:
            usable = [np.ones((self.systems, len(layout.metrics)), dtype=bool) for _ in groups]
        if len(usable) != len(groups) or any(u.shape != (self.systems, len(layout.metrics)) for u in usable):
            raise ValueError("every group needs (systems, metrics) applicability")
        self.usable = [np.asarray(u, dtype=bool) for u in usable]

    @classmethod
    def from_documents(cls, systems: list[list[list]], metrics: Sequence[str]) -> "Statistics":
        """``systems[s][g]`` the :class:`~corefud_scorer.results.DocumentResult`
        list of system ``s`` in group ``g`` (one group for a file pair, one
        per dataset for a benchmark)."""
        layout = Layout.of(metrics)
        groups, usable = [], []
        for g in range(len(systems[0])):
            sizes = {len(system[g]) for system in systems}
            if len(sizes) != 1:
                raise ValueError(f"group {g}: the systems have different numbers of documents")
            groups.append(np.stack([document_matrix(system[g], layout) for system in systems]))
            usable.append(np.stack([applicable(system[g], layout) for system in systems]))
        return cls(groups, layout, usable)

    def observed(self) -> dict:
        """Each figure over all documents: arrays of shape (systems,)."""
        # Documents added in order, as the reported sums are added.
        totals = [np.cumsum(g, axis=1)[:, -1, :] if g.shape[1] else np.zeros((self.systems, self.layout.width))
                  for g in self.groups]
        return macro_average([scores(t, self.layout, u) for t, u in zip(totals, self.usable)])
