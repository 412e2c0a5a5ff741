"""The JSON of a score: one schema wherever a score appears.

The schema (``schema_version`` 1) is the same wherever a score appears:
each metric is ``{"recall", "precision", "f1", "counts"}`` under
``"metrics"``, in a single-pair result, in each per-document row and in each
bench dataset row. ``counts`` are the summed statistics (``recall_num``,
``recall_den``, ``precision_num``, ``precision_den``); BLANC's ``counts``
hold its two parts' statistics (``coreference``, ``non_coreference``), its
``parts`` their scores, and BLANC is the mean of the parts whose
denominators are not both 0 (0 when neither has any). ``conll`` stands
beside the metrics: ``{"f1", "parts": {"muc": F1, "bcub": F1, "ceafe": F1}}``.
A metric that is not applicable (the zero score with no zero anaphor on
either side) has null recall, precision and F1. The further measures of
:mod:`~corefud_scorer.measures.further` have their own ``counts`` (their summed statistics); a
measure that is one number has ``{"value", "counts"}``. ``empty-nodes``
has ``parts`` (``arc`` ... ``all``, ``position``), each a score with its
``counts``, and its own figures are those of ``all``. With ``--sync all``,
``synchronisation`` holds each option's ``{"metrics": ...}`` and
``mention_identification`` its recall, precision and F1.
"""

from __future__ import annotations

import json
from dataclasses import asdict

from ..measures.registry import CONLL_PARTS, CONLL_SCORE, FURTHER, MEASURES
from ..provenance import option_settings
from ..measures.totals import conll_score

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from ..results import DocumentResult, MetricScore, Result
SCHEMA_VERSION = 1


# --- JSON ---

def counts_json(counts) -> dict:
    """Summed statistics as JSON: a whole number as an integer (``4``, not
    ``4.0``: most statistics count mentions or links), a fraction as it is."""
    def number(value):
        if isinstance(value, dict):
            return {k: number(v) for k, v in value.items()}
        if isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    return number(asdict(counts))


def metric_json(score: MetricScore) -> dict:
    if score.name in FURTHER:
        return measure_json(score)
    out = {"recall": score.recall, "precision": score.precision, "f1": score.f1,
           "counts": counts_json(score.counts)}
    if score.parts:
        out["parts"] = {label: metric_json(part) for label, part in score.parts.items()}
    return out


def measure_json(score: MetricScore) -> dict:
    """A further measure: ``value`` for one number, else recall, precision
    and F1; then what else it reports, and its summed statistics."""
    if score.recall is None:
        out: dict = {"value": score.value}
    else:
        out = {"recall": score.recall, "precision": score.precision, "f1": score.f1}
    out.update(score.extra)
    out["counts"] = counts_json(score.counts)
    return out


def metrics_json(metrics: dict[str, MetricScore], conll: float | None) -> dict:
    """Every metric by name, and ``conll`` beside them when computed."""
    out = {name: metric_json(score) for name, score in metrics.items()}
    if conll is not None:
        out[CONLL_SCORE] = {"f1": conll, "parts": {name: metrics[name].f1 for name in metrics
                                               if name in CONLL_PARTS}}
    return out


def size_json(documents: list[DocumentResult]) -> dict:
    """How much was scored: documents, tokens, mentions and entities."""
    return {
        "documents": len(documents),
        "tokens": sum(d.tokens for d in documents),
        "key_mentions": sum(d.key_mentions for d in documents),
        "response_mentions": sum(d.response_mentions for d in documents),
        "key_entities": sum(d.key_entities for d in documents),
        "response_entities": sum(d.response_entities for d in documents),
    }


def document_json(document: DocumentResult) -> dict:

    metrics = document.metrics
    return {"document": document.doc_id, "metrics": metrics_json(metrics, conll_score(metrics)),
            **{k: v for k, v in size_json([document]).items() if k != "documents"}}


def to_json_object(result: Result, per_document: bool = False) -> dict:
    data = {
        "schema_version": SCHEMA_VERSION,
        "metrics": metrics_json(result.metrics, result.conll),
        **size_json(result.documents),
        "counts": dict(result.counts),
        "warnings": result.warnings,
        "settings": result.settings,
    }
    if result.synchronisation:
        data["synchronisation"] = {option: {"metrics": metrics_json(s["metrics"], s[CONLL_SCORE])}
                                   for option, s in result.synchronisation.items()}
        found = result.mention_identification
        data["mention_identification"] = {"recall": found.recall, "precision": found.precision,
                                          "f1": found.f1}
    if per_document:
        data["per_document"] = [document_json(d) for d in result.documents]
    return data


def render_json(data: dict) -> str:
    """One JSON object as printed."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def benchmark_json(bench, per_doc: bool = False, shared_task: str | None = None) -> dict:
    """A benchmark as one JSON object: settings and files, a row per dataset
    (and per document) with the same nested metrics as a single pair, the
    macro-average (means of recall, precision and F1 over datasets) and the
    micro-average (from the summed statistics)."""

    settings = option_settings(bench.options)
    settings["format"] = bench.results[0].settings.get("format") if bench.results else None
    settings["shared_task"] = shared_task
    settings["files"] = [{"dataset": d.name, **{k: r.settings[k] for k in
                          ("key_file", "response_file", "key_sha256", "response_sha256")}}
                         for d, r in zip(bench.datasets, bench.results)]
    datasets, documents = [], []
    for dataset, result in zip(bench.datasets, bench.results):
        datasets.append({"dataset": dataset.name, "metrics": metrics_json(result.metrics, result.conll),
                         **size_json(result.documents), "counts": dict(result.counts)})
        if per_doc:
            documents.extend({"dataset": dataset.name, **document_json(d)} for d in result.documents)
    macro = {name: ({"value": a.value, "datasets": a.datasets} if MEASURES[name].one_number else
                    {"recall": a.recall, "precision": a.precision, "f1": a.f1, "datasets": a.datasets})
             for name, a in bench.macro.items()}
    if bench.macro_conll is not None:
        macro[CONLL_SCORE] = {"f1": bench.macro_conll}
    all_documents = [d for r in bench.results for d in r.documents]
    data = {
        "schema_version": SCHEMA_VERSION,
        "settings": settings,
        "datasets": datasets,
        "macro": {"metrics": macro},
        "micro": {"metrics": metrics_json(bench.micro, conll_score(bench.micro)), **size_json(all_documents)},
        "warnings": bench.warnings,
    }
    if per_doc:
        data["per_document"] = documents
    return data
