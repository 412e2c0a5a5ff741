"""The sufficient statistics of a score: numerators and denominators that
add across documents, and the two functions that turn sums into a score.

Kept apart from :mod:`.metrics` (and free of numpy) because every path needs
them, the ``conll-scorer`` stand-in included, which starts without numpy.
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
    from it in the last bit, which can move a rounded percentage)."""
    import numpy as np  # where arrays are made: the callers' values are arrays

    array = np.asarray(values, dtype=np.float64)
    return float(np.cumsum(array)[-1]) if len(array) else 0.0
