"""The report over all documents: their errors summed by category, and each
correction variant scored from the documents' summed statistics, as the
score itself is computed."""

from __future__ import annotations

from dataclasses import dataclass

from .classify import CATEGORIES, REPORT_ORDER
from .mentions import METHODS


@dataclass
class DocumentOutcome:
    """What analysing one document sends back (from a worker process too)."""

    doc_id: object
    counts: dict[str, int]
    occurrences: list[dict]
    metric_counts: dict
    text_kind: str


@dataclass
class ErrorReport:
    """The errors of a response and their costs, over all its documents."""

    counts: dict[str, int]
    per_document: list[dict]
    occurrences: list[dict]
    cost: dict
    text_kind: str = "trees"
    format: str | None = None  # the files' format, when read from files

    def to_json(self) -> dict:
        from ...measures.totals import CONLL_SCORE, primary_name

        baseline = self.cost.get("baseline", {})
        return {"counts": {c: self.counts[c] for c in REPORT_ORDER},
                "cost": self.cost,
                # The key of the figure the cost is shown in (the text's and the page's columns).
                "primary": primary_name(baseline.get(CONLL_SCORE), baseline),
                "method": METHODS[self.text_kind],
                "occurrences": self.occurrences,
                "per_document": self.per_document}


def _scores(documents_counts: list[dict], options) -> dict:
    from ...measures.totals import headline, summarize_statistics
    from ...results import CONLL_SCORE

    metrics, conll = summarize_statistics(documents_counts, options.metric_list)
    return {CONLL_SCORE: conll, **{name: headline(score) for name, score in metrics.items()}}


def report_of(outcomes: list[DocumentOutcome], options) -> ErrorReport:
    """Sum the documents' errors; score every correction variant from the
    documents' summed statistics, as the score itself is computed."""
    counts = dict.fromkeys(CATEGORIES, 0)
    per_document, occurrences = [], []
    for outcome in outcomes:
        for category, n in outcome.counts.items():
            counts[category] += n
        per_document.append({"document": outcome.doc_id,
                             "counts": {c: outcome.counts[c] for c in REPORT_ORDER}})
        occurrences.extend(outcome.occurrences)
    cost = {"baseline": _scores([o.metric_counts["baseline"] for o in outcomes], options),
            "alone": {}, "cumulative": {}}
    for category in CATEGORIES:
        for mode in ("alone", "cumulative"):
            cost[mode][category] = _scores([o.metric_counts[mode, category] for o in outcomes], options)
    kinds = {o.text_kind for o in outcomes}
    text_kind = next((k for k in ("none", "tokens") if k in kinds), "trees")
    return ErrorReport(counts, per_document, occurrences, cost, text_kind)
