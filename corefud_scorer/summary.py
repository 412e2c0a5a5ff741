"""From statistics summed over documents to scores: recall, precision, F1
per metric, and the CoNLL score."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from . import measures
from .metrics import BlancCounts, BridgingCounts, Counts, f1, ordered_sum, ratio
from .results import CONLL_PARTS, DocumentResult, MetricScore, Options


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


def measure_score(name: str, statistics) -> MetricScore:
    s = measures.score_of(name, statistics)
    return MetricScore(name, s.recall, s.precision, s.f1, s.counts, value=s.value, extra=s.extra)


def bridging_score(name: str, counts: BridgingCounts) -> MetricScore:
    parts = {label: from_counts(label, c) for label, c in counts.parts.items()}
    markable = parts["markable"]
    return MetricScore(name, markable.recall, markable.precision, markable.f1, counts, parts)


# How a metric's summed statistics become its score, where it is not from_counts.
SCORERS = {"blanc": blanc_score, "zero": zero_score, "bridging": bridging_score,
           **dict.fromkeys(measures.MEASURE_NAMES, measure_score)}
EMPTY = {"blanc": BlancCounts, "bridging": BridgingCounts,
         **{name: lambda name=name: measures.zero_statistics(name) for name in measures.MEASURE_NAMES}}
# A metric a document could not give (MOR with split antecedents) has no
# total: it is not applicable to the whole.
NOT_APPLICABLE = object()


def metric_score(name: str, total) -> MetricScore:
    if total is NOT_APPLICABLE:
        return MetricScore(name, None, None, None, Counts())
    if total is None:
        total = EMPTY.get(name, Counts)()
    return SCORERS.get(name, from_counts)(name, total)


def add_counts(documents: Iterable[DocumentResult]) -> dict:
    """Each metric's statistics summed over documents, in document order."""
    totals: dict = {}
    for document in documents:
        for name, value in document.counts.items():
            previous = totals.get(name)
            if value is None or previous is NOT_APPLICABLE:
                totals[name] = NOT_APPLICABLE
            else:
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


def summarize_synchronised(documents: list[DocumentResult], options: Options) -> tuple[dict, MetricScore | None]:
    """With ``sync="all"``: each synchronisation's metrics and CoNLL score,
    and mention identification, from the documents' summed statistics."""
    if options.sync != "all":
        return {}, None
    out = {}
    for option in measures.SYNC_OPTIONS:
        metrics, conll = summarize([replace(d, counts=d.synchronised[option]) for d in documents],
                                   options.metric_list)
        out[option] = {"metrics": metrics, "conll": conll}
    markables = Counts()
    for document in documents:
        markables = markables + document.markables
    return out, from_counts("mention_identification", markables)
