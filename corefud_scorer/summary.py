"""From statistics summed over documents to scores: recall, precision, F1
per metric, and the CoNLL score."""

from __future__ import annotations

from typing import Iterable

from .metrics import BlancCounts, Counts, f1, ordered_sum, ratio
from .results import CONLL_PARTS, DocumentResult, MetricScore


def from_counts(name: str, counts: Counts) -> MetricScore:
    recall = ratio(counts.recall_num, counts.recall_den)
    precision = ratio(counts.precision_num, counts.precision_den)
    return MetricScore(name, recall, precision, f1(precision, recall), counts)


def blanc_score(name: str, counts: BlancCounts) -> MetricScore:
    # 1.2 averages recall, precision and F1 over the parts that have links
    # on either side; with none, BLANC is 0.
    parts = {label: from_counts(label, c) for label, c in counts.parts.items()}
    used = [parts[label] for label, c in counts.parts.items() if not c.empty]
    if not used:
        return MetricScore(name, 0.0, 0.0, 0.0, counts, parts)
    return MetricScore(name,
                       ordered_sum([s.recall for s in used]) / len(used),
                       ordered_sum([s.precision for s in used]) / len(used),
                       ordered_sum([s.f1 for s in used]) / len(used), counts, parts)


def zero_score(name: str, counts: Counts) -> MetricScore:
    # No zero anaphor on either side: the score is undefined, not 0.
    if counts.empty:
        return MetricScore(name, None, None, None, counts)
    return from_counts(name, counts)


# How a metric's summed statistics become its score, where it is not from_counts.
SCORERS = {"blanc": blanc_score, "zero": zero_score}
EMPTY = {"blanc": BlancCounts}


def metric_score(name: str, total) -> MetricScore:
    if total is None:
        total = EMPTY.get(name, Counts)()
    return SCORERS.get(name, from_counts)(name, total)


def add_counts(documents: Iterable[DocumentResult]) -> dict:
    """Each metric's statistics summed over documents, in document order."""
    totals: dict = {}
    for document in documents:
        for name, value in document.counts.items():
            previous = totals.get(name)
            totals[name] = value if previous is None else previous + value
    return totals


def conll_score(metrics: dict[str, MetricScore]) -> float | None:
    """The mean F1 of MUC, B-cubed and CEAF-e, when all three are there,
    added in reporting order as 1.2 adds them."""
    if not all(name in metrics for name in CONLL_PARTS):
        return None
    return ordered_sum([metrics[name].f1 for name in metrics if name in CONLL_PARTS]) / 3


def summarize(documents: list[DocumentResult], metrics: tuple[str, ...]) -> tuple[dict, float | None]:
    """Metric scores and the CoNLL score from documents' summed statistics."""
    totals = add_counts(documents)
    results = {name: metric_score(name, totals.get(name)) for name in dict.fromkeys(metrics)}
    return results, conll_score(results)
