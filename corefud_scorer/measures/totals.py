"""From statistics summed over documents to scores: recall, precision, F1
per metric, and the CoNLL score."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from .synchronisation import SYNC_OPTIONS
from .statistics import Counts
from .figures import mean_f1
from .registry import CONLL_PARTS, CONLL_SCORE, MEASURES, from_counts, score_of
from .scores import MetricScore

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from ..results import DocumentResult, Options

# A metric a document could not give (MOR with split antecedents) has no
# total: it is not applicable to the whole.
NOT_APPLICABLE = object()


def headline(score) -> float | None:
    """A score's one figure: its F1, or an agreement coefficient's value."""
    return score.value if score.value is not None else score.f1


def primary_name(conll: float | None, figures) -> str | None:
    """The name of the figure a score is summed up by: the CoNLL score when
    computed, else the first measure asked for (``figures``: name -> figure,
    in the order asked for)."""
    if conll is not None:
        return CONLL_SCORE
    return next((name for name in figures if name in MEASURES), None)


def primary_figure(conll: float | None, figures) -> tuple[str, float | None]:
    """The figure a score is summed up by (``-b``'s line, a plot's bars, the
    error analysis's columns) and its label: the CoNLL F1 when computed,
    else the first measure's :func:`headline` figure (``figures``: name ->
    that figure, in the order asked for)."""
    name = primary_name(conll, figures)
    if name is None:
        return "F1", None
    if name == CONLL_SCORE:
        return "CoNLL F1", conll
    return (name if MEASURES[name].one_number else f"{name} F1"), figures[name]


def metric_score(name: str, total) -> MetricScore:
    if total is NOT_APPLICABLE:
        return score_of(name, None)
    return score_of(name, MEASURES[name].empty() if total is None else total)


def add_counts(documents: Iterable[DocumentResult]) -> dict:
    """Each metric's statistics summed over documents, in document order."""
    return add_statistics(document.counts for document in documents)


def add_statistics(statistics: Iterable[dict]) -> dict:
    """Each metric's statistics (name -> statistics, one dict per document)
    summed, in order."""
    totals: dict = {}
    for counts in statistics:
        for name, value in counts.items():
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
    return mean_f1([metrics[name].f1 for name in metrics if name in CONLL_PARTS])


def summarize(documents: list[DocumentResult], metrics: tuple[str, ...]) -> tuple[dict, float | None]:
    """Metric scores and the CoNLL score from documents' summed statistics."""
    return summarize_statistics([document.counts for document in documents], metrics)


def summarize_statistics(statistics: list[dict], metrics: tuple[str, ...]) -> tuple[dict, float | None]:
    """Metric scores and the CoNLL score from statistics (one dict per
    document) summed."""
    totals = add_statistics(statistics)
    results = {name: metric_score(name, totals.get(name)) for name in dict.fromkeys(metrics)}
    return results, conll_score(results)


def summarize_synchronised(documents: list[DocumentResult], options: Options) -> tuple[dict, MetricScore | None]:
    """With ``sync="all"``: each synchronisation's metrics and CoNLL score,
    and mention identification, from the documents' summed statistics."""
    if options.sync != "all":
        return {}, None
    out = {}
    for option in SYNC_OPTIONS:
        metrics, conll = summarize([replace(d, counts=d.synchronised[option]) for d in documents],
                                   options.metric_list)
        out[option] = {"metrics": metrics, CONLL_SCORE: conll}
    markables = Counts()
    for document in documents:
        markables = markables + document.markables
    return out, from_counts("mention_identification", markables)
