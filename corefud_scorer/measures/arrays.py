"""Scores of summed statistics as arrays: what intervals and tests compute
for every resample and system at once (:mod:`~corefud_scorer.jobs.significance`).

``sums`` holds a measure's statistics in its last axis, flattened as
:mod:`~corefud_scorer.jobs.significance` flattens them (recall and precision numerators and
denominators, part after part). Each function does the same operations,
in the same order, as the reported score of the same statistics, so that
a resample equal to the data gives the reported figures bit for bit. A
measure's registry entry names its function (``resampled_score``).
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np

from . import empty_nodes as nodes
from .further import EntropyCounts, entropy_score


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.zeros(np.broadcast(num, den).shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(num, den, out=out, where=num != 0)
    return out


def _f1(precision: np.ndarray, recall: np.ndarray) -> np.ndarray:
    total = precision + recall
    out = np.zeros(total.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(2 * precision * recall, total, out=out, where=total != 0)
    return out


def prf(sums: np.ndarray):
    """Recall, precision and F1 of one Counts' four columns."""
    recall = _ratio(sums[..., 0], sums[..., 1])
    precision = _ratio(sums[..., 2], sums[..., 3])
    return recall, precision, _f1(precision, recall)


def _empty(sums: np.ndarray) -> np.ndarray:
    return (sums[..., 1] == 0) & (sums[..., 3] == 0)


def _undefined_when_empty(sums: np.ndarray, figures):
    undefined = _empty(sums)
    return tuple(np.where(undefined, np.nan, f) for f in figures)


def zero(sums: np.ndarray):
    """Recall, precision and F1, undefined (NaN) with nothing on either side."""
    return _undefined_when_empty(sums, prf(sums))


def blanc(sums: np.ndarray):
    """The mean of the parts with links on either side; 0 with none."""
    parts = [sums[..., :4], sums[..., 4:]]
    used = [~_empty(p) for p in parts]
    count = used[0].astype(np.float64) + used[1]
    figures = []
    for a, b in zip(prf(parts[0]), prf(parts[1])):
        total = np.where(used[0], a, 0.0) + np.where(used[1], b, 0.0)
        figures.append(np.where(count == 0, 0.0, total / np.maximum(count, 1.0)))
    return tuple(figures)


_ENTROPY_FIELDS = tuple(f.name for f in fields(EntropyCounts))


def _entropy_one(*sums):
    s = entropy_score(EntropyCounts(*sums))
    return s.recall, s.precision, s.f1


# The reported function itself, element by element: the same bits as the
# reported score, and one call per sample and system, not per document.
_entropy_each = np.frompyfunc(_entropy_one, len(_ENTROPY_FIELDS), 3)


def entropy(sums: np.ndarray):
    figures = _entropy_each(*(sums[..., k] for k in range(len(_ENTROPY_FIELDS))))
    return tuple(np.asarray(f, dtype=np.float64) for f in figures)


def bridging(sums: np.ndarray):
    """The markable level's figures (its three parts' second)."""
    return prf(sums[..., 4:8])


_ALL_NODES = 4 * nodes.PARTS.index(nodes.ALL)


def empty_nodes(sums: np.ndarray):
    """The ALL part's figures, undefined with no empty node on either side."""
    return zero(sums[..., _ALL_NODES:_ALL_NODES + 4])
