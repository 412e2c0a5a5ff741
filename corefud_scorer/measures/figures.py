"""From summed statistics to a measure's figures: one function per measure
that serves the reported score and every resample alike.

A measure's statistics flatten into a row of numbers (:func:`columns`:
recall and precision numerators and denominators, part after part, or a
measure's own sums). Its figures function takes such sums and a set of
operations: :data:`PLAIN` for one row of plain floats (the reported score,
numpy-free, so the ``conll-scorer`` stand-in starts without numpy) and
:data:`ARRAYS` for arrays whose last axis is the row (every bootstrap sample
and system at once, :mod:`~corefud_scorer.jobs.significance`). The two sets
of operations do the same IEEE arithmetic in the same order, so a resample
equal to the data gives the reported figures bit for bit.

>>> sums = [3.0, 4.0, 3.0, 6.0]   # recall 3/4, precision 3/6
>>> prf(sums, PLAIN)
(0.75, 0.5, 0.6)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

from .statistics import f1, ratio

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from typing import Any


class _Plain:
    """One row of plain floats; an undefined figure is None."""

    undefined = None

    @staticmethod
    def column(sums, k: int):
        return sums[k]

    ratio = staticmethod(ratio)
    f1 = staticmethod(f1)

    @staticmethod
    def both_zero(a, b):
        return a == 0 and b == 0

    @staticmethod
    def where(condition, a, b):
        return a if condition else b

    @staticmethod
    def negate(condition):
        return not condition

    @staticmethod
    def mean(total, count):
        return 0.0 if count == 0 else total / count

    @staticmethod
    def each(function: Callable, sums, width: int):
        return function(*sums[:width])


class _Arrays:
    """Arrays of rows (the last axis); an undefined figure is NaN. numpy is
    imported on first use, where arrays are made."""

    @property
    def undefined(self):
        import numpy as np
        return np.nan

    @staticmethod
    def column(sums, k: int):
        return sums[..., k]

    @staticmethod
    def ratio(num, den):
        import numpy as np
        out = np.zeros(np.broadcast(num, den).shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            np.divide(num, den, out=out, where=num != 0)
        return out

    @staticmethod
    def f1(precision, recall):
        import numpy as np
        total = precision + recall
        out = np.zeros(total.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            np.divide(2 * precision * recall, total, out=out, where=total != 0)
        return out

    @staticmethod
    def both_zero(a, b):
        return (a == 0) & (b == 0)

    @staticmethod
    def where(condition, a, b):
        import numpy as np
        return np.where(condition, a, b)

    @staticmethod
    def negate(condition):
        return ~condition

    @staticmethod
    def mean(total, count):
        import numpy as np
        return np.where(count == 0, 0.0, total / np.maximum(count, 1.0))

    @staticmethod
    def each(function: Callable, sums, width: int):
        # The plain function element by element: the same bits as the
        # reported figures, one call per sample and system.
        import numpy as np
        figures = np.frompyfunc(function, width, 3)(*(sums[..., k] for k in range(width)))
        return tuple(np.asarray(f, dtype=np.float64) for f in figures)


PLAIN = _Plain()
ARRAYS = _Arrays()


def columns(empty: Any) -> tuple[tuple[str | None, str], ...]:
    """The columns of a measure's statistics, read off its empty statistics:
    (part, field) for each field of each part (parts of Counts, in order),
    or (None, field) for plain fields."""
    parts = getattr(empty, "parts", None)
    if parts is not None:
        return tuple((part, f.name) for part, counts in parts.items() for f in fields(counts))
    return tuple((None, f.name) for f in fields(empty))


def row(statistics: Any) -> list[float]:
    """A measure's statistics as one row of floats, in :func:`columns` order."""
    return [float(getattr(statistics if part is None else getattr(statistics, part), name))
            for part, name in columns(statistics)]


# --- each measure's figures: (recall, precision, F1) from its sums ---

def prf(sums, ops, at: int = 0):
    """Recall, precision and F1 of one Counts' four columns (from ``at``)."""
    recall = ops.ratio(ops.column(sums, at), ops.column(sums, at + 1))
    precision = ops.ratio(ops.column(sums, at + 2), ops.column(sums, at + 3))
    return recall, precision, ops.f1(precision, recall)


def _empty(sums, ops, at: int = 0):
    return ops.both_zero(ops.column(sums, at + 1), ops.column(sums, at + 3))


def undefined_when_empty(sums, ops, at: int = 0):
    """Recall, precision and F1, undefined with nothing on either side (the
    zero score: no zero anaphor in the key or the response; no
    non-referring markable; no bridging anaphor)."""
    empty = _empty(sums, ops, at)
    return tuple(ops.where(empty, ops.undefined, figure) for figure in prf(sums, ops, at))


def blanc(sums, ops):
    """BLANC: the mean of its two parts (coreference links, then
    non-coreference links) over those with links on either side; 0 with
    none (scorer 1.2's rule)."""
    parts = (prf(sums, ops, 0), prf(sums, ops, 4))
    used = (ops.negate(_empty(sums, ops, 0)), ops.negate(_empty(sums, ops, 4)))
    count = used[0] * 1.0 + used[1]
    return tuple(ops.mean(ops.where(used[0], first, 0.0) + ops.where(used[1], second, 0.0), count)
                 for first, second in zip(*parts))


def bridging(sums, ops):
    """Bridging's own figures: its markable level's (the second of its
    three parts), undefined with no bridging anaphor on either side."""
    return undefined_when_empty(sums, ops, 4)


def mean_f1(f1s):
    """The CoNLL score: the mean of its parts' F1, added left to right in
    the order given (scorer 1.2's order of addition)."""
    total = f1s[0]
    for value in f1s[1:]:
        total = total + value
    return total / len(f1s)
