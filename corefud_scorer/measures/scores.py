"""A measure's score: what the registry's score functions make of summed
statistics, and what every report renders."""

from __future__ import annotations

from dataclasses import dataclass, field

from .figures import PLAIN, prf, row
from .statistics import BlancCounts, BridgingCounts, Counts

# The CoNLL score: the mean F1 of these three, under this name in JSON and
# tables (and the -m group that asks for them).
CONLL_PARTS = ("muc", "bcub", "ceafe")
CONLL_SCORE = "conll"


@dataclass
class MetricScore:
    """One metric's scores (fractions) and the summed statistics behind them.

    ``recall``/``precision``/``f1`` are None when the metric is not applicable
    (the zero score with no zero anaphor on either side). BLANC is the mean of
    its coreference and non-coreference parts, given in ``parts``; its
    ``counts`` are the parts' statistics. A measure that is one number (an
    agreement coefficient) has only ``value``; ``extra`` holds what else a
    measure reports (entropy's variation of information).
    With split antecedents MOR is not applicable either. Bridging's ``parts``
    are anaphor recognition and full bridging at the markable and the entity
    level; its own scores are the markable level's.
    """

    name: str
    recall: float | None
    precision: float | None
    f1: float | None
    counts: Counts | BlancCounts | BridgingCounts
    parts: dict[str, "MetricScore"] = field(default_factory=dict)
    value: float | None = None
    extra: dict = field(default_factory=dict)

    @property
    def applicable(self) -> bool:
        return self.recall is not None or self.value is not None

    # The summed statistics, for metrics whose counts are recall and
    # precision fractions (every one but BLANC, whose parts have them).
    @property
    def recall_num(self) -> float:
        return self.counts.recall_num

    @property
    def recall_den(self) -> float:
        return self.counts.recall_den

    @property
    def precision_num(self) -> float:
        return self.counts.precision_num

    @property
    def precision_den(self) -> float:
        return self.counts.precision_den


def from_counts(name: str, counts: Counts) -> MetricScore:
    """The score of one Counts: recall, precision and F1 (free of numpy, as
    v8.01's path is)."""
    return MetricScore(name, *prf(row(counts), PLAIN), counts)
