"""The sufficient statistics of a score: numerators and denominators that
add across documents, and the two functions that turn sums into a score.

Kept apart from :mod:`.metrics` because every path needs them, the
``conll-scorer`` stand-in included. Free of numpy, with the sums numpy's
arrays make (:func:`ordered_sum`, :func:`group_sums`, :func:`array_sum`):
the metrics compute in plain Python, each float operation the one, and in
the order, that their former array formulas made, so that every figure is
the same to the bit and scoring a pair needs no numpy.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Counts:
    """Recall and precision numerators and denominators."""

    recall_num: float = 0.0
    recall_den: float = 0.0
    precision_num: float = 0.0
    precision_den: float = 0.0

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(self.recall_num + other.recall_num, self.recall_den + other.recall_den,
                      self.precision_num + other.precision_num,
                      self.precision_den + other.precision_den)

    @property
    def empty(self) -> bool:
        """No denominator on either side: nothing to score."""
        return self.recall_den == 0 and self.precision_den == 0


@dataclass
class BlancCounts:
    """BLANC's statistics: its coreference-link and non-coreference-link parts."""

    coreference: Counts = field(default_factory=Counts)
    non_coreference: Counts = field(default_factory=Counts)

    def __add__(self, other: "BlancCounts") -> "BlancCounts":
        return BlancCounts(self.coreference + other.coreference,
                           self.non_coreference + other.non_coreference)

    @property
    def parts(self) -> dict[str, Counts]:
        return {"coreference": self.coreference, "non_coreference": self.non_coreference}


@dataclass
class BridgingCounts:
    """Bridging's statistics in the UA scorer's three parts."""

    anaphor_recognition: Counts = field(default_factory=Counts)
    markable: Counts = field(default_factory=Counts)  # full bridging, antecedent markable
    entity: Counts = field(default_factory=Counts)    # full bridging, antecedent entity

    def __add__(self, other: "BridgingCounts") -> "BridgingCounts":
        return BridgingCounts(self.anaphor_recognition + other.anaphor_recognition,
                              self.markable + other.markable, self.entity + other.entity)

    @property
    def parts(self) -> dict[str, Counts]:
        return {"anaphor_recognition": self.anaphor_recognition, "markable": self.markable,
                "entity": self.entity}


def ratio(num: float, den: float) -> float:
    """num/den, and 0 whenever num is 0 (including 0/0), as scorer 1.2."""
    return 0.0 if num == 0 else num / float(den)


def f1(precision: float, recall: float) -> float:
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def ordered_sum(values) -> float:
    """Left-to-right float addition, as 1.2's accumulating loops add (numpy's
    pairwise summation and the compensated ``sum`` of Python 3.12+ can differ
    from it in the last bit, which can move a rounded percentage): the last
    of numpy's ``cumsum``. Takes a list or an array."""
    values = values.tolist() if hasattr(values, "tolist") else values
    if not len(values):
        return 0.0
    total = values[0]
    for value in values[1:]:
        total += value
    return float(total)


def group_sums(groups: list, weights, length: int) -> list:
    """numpy's ``bincount`` with weights: each group's weights added in order."""
    out = [0.0] * length
    for group, weight in zip(groups, weights):
        out[group] += weight
    return out


# numpy's pairwise summation: blocks of at most this many, added in 8 lanes.
_BLOCK = 128


def _pairwise(values: list, start: int, n: int):
    if n < 8:
        total = 0.0
        for i in range(start, start + n):
            total += values[i]
        return total
    if n <= _BLOCK:
        r0, r1, r2, r3, r4, r5, r6, r7 = values[start:start + 8]
        end = start + n - n % 8
        for i in range(start + 8, end, 8):
            r0 += values[i]
            r1 += values[i + 1]
            r2 += values[i + 2]
            r3 += values[i + 3]
            r4 += values[i + 4]
            r5 += values[i + 5]
            r6 += values[i + 6]
            r7 += values[i + 7]
        total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        for i in range(end, start + n):
            total += values[i]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise(values, start, half) + _pairwise(values, start + half, n - half)


def array_sum(values: list) -> float:
    """The float sum numpy's ``np.array(values, dtype=float64).sum()`` gives,
    to the bit, without numpy: its pairwise summation (the sum of whole
    numbers is exact in any order; that of fractions is not)."""
    return 0.0 + _pairwise(values, 0, len(values))
