"""One validator for every JSON object the scorer prints (schema_version 1):
single pair, its per-document rows, and bench."""

from __future__ import annotations

import math
from dataclasses import asdict

from corefud_scorer.measures.registry import FURTHER, MEASURES

COUNT_FIELDS = {"recall_num", "recall_den", "precision_num", "precision_den"}
SIZE_FIELDS = ("tokens", "key_mentions", "response_mentions", "key_entities", "response_entities")


def _fraction(value, where):
    assert value is None or (isinstance(value, float) and 0.0 <= value <= 1.0) or value in (0, 1), where


def _counts(counts, where):
    assert set(counts) == COUNT_FIELDS, where
    assert all(isinstance(v, (int, float)) and not math.isnan(v) for v in counts.values()), where


def _intervals(metric, where):
    for field in ("interval", "recall_interval", "precision_interval"):
        if field in metric:
            low, high = metric[field]
            _fraction(low, where), _fraction(high, where)
            assert low <= high, f"{where}.{field}"


def validate_measure(name, metric, where):
    """A further measure: its own statistics; one value, or recall,
    precision and F1 (and entropy's variation of information)."""
    assert set(metric["counts"]) == set(asdict(MEASURES[name].empty())), where
    assert all(isinstance(v, (int, float)) and not math.isnan(v) for v in metric["counts"].values()), where
    if name in MEASURES and MEASURES[name].one_number:
        assert set(metric) == {"value", "counts"}, where
        value = metric["value"]
        assert value is None or (isinstance(value, float) and value <= 1.0), where
        return
    extra = {"variation_of_information"} if name == "entropy" else set()
    assert set(metric) == {"recall", "precision", "f1", "counts"} | extra, where
    for field in ("recall", "precision", "f1"):
        _fraction(metric[field], f"{where}.{field}")
    if extra:
        assert metric["variation_of_information"] >= 0, where


def validate_metric(name, metric, where):
    if name in FURTHER:
        return validate_measure(name, metric, where)
    assert set(metric) >= {"recall", "precision", "f1", "counts"}, where
    _intervals(metric, where)
    for field in ("recall", "precision", "f1"):
        _fraction(metric[field], f"{where}.{field}")
    if name == "blanc":
        assert set(metric["counts"]) == {"coreference", "non_coreference"}, where
        for label, part in metric["counts"].items():
            _counts(part, f"{where}.counts.{label}")
        assert set(metric["parts"]) == {"coreference", "non_coreference"}, where
        for label, part in metric["parts"].items():
            validate_metric(label, part, f"{where}.parts.{label}")
    else:
        _counts(metric["counts"], f"{where}.counts")


def validate_metrics(metrics, where="metrics"):
    assert isinstance(metrics, dict) and metrics, where
    for name, metric in metrics.items():
        if name == "conll":
            assert {"f1", "parts"} <= set(metric) <= {"f1", "parts", "interval"}, where
            _intervals(metric, where)
            assert set(metric["parts"]) == {"muc", "bcub", "ceafe"}, where
            _fraction(metric["f1"], f"{where}.conll")
            assert metric["f1"] == sum(metric["parts"][n] for n in ("muc", "bcub", "ceafe")) / 3 or \
                abs(metric["f1"] - sum(metric["parts"].values()) / 3) < 1e-15
        else:
            validate_metric(name, metric, f"{where}.{name}")


def _sizes(row, where):
    for field in SIZE_FIELDS:
        assert isinstance(row[field], int), f"{where}.{field}"


def validate_result(data):
    """A single-pair result, with its per-document rows if present."""
    assert data["schema_version"] == 1
    validate_metrics(data["metrics"])
    assert isinstance(data["documents"], int)
    _sizes(data, "result")
    assert all(isinstance(v, int) for v in data["counts"].values())
    assert isinstance(data["warnings"], list) and isinstance(data["settings"], dict)
    for k, row in enumerate(data.get("per_document", [])):
        assert "document" in row
        validate_metrics(row["metrics"], f"per_document[{k}].metrics")
        _sizes(row, f"per_document[{k}]")
    if "synchronisation" in data:
        assert data["settings"]["sync"] == "all"
        assert list(data["synchronisation"]) == ["intersection", "union", "key", "response"]
        for option, synced in data["synchronisation"].items():
            assert set(synced) == {"metrics"}, option
            validate_metrics(synced["metrics"], f"synchronisation.{option}.metrics")
        assert set(data["mention_identification"]) == {"recall", "precision", "f1"}
        for field, value in data["mention_identification"].items():
            _fraction(value, f"mention_identification.{field}")
    return data


def validate_bench(data):
    assert data["schema_version"] == 1
    assert isinstance(data["settings"]["files"], list)
    for k, row in enumerate(data["datasets"]):
        assert isinstance(row["dataset"], str)
        validate_metrics(row["metrics"], f"datasets[{k}].metrics")
        _sizes(row, f"datasets[{k}]")
    for k, row in enumerate(data.get("per_document", [])):
        assert isinstance(row["dataset"], str) and "document" in row
        validate_metrics(row["metrics"], f"per_document[{k}].metrics")
    for name, average in data["macro"]["metrics"].items():
        if name in MEASURES and MEASURES[name].one_number:
            assert set(average) == {"value", "datasets"}, name
            continue
        assert {"f1"} <= set(average), name
        _fraction(average["f1"], f"macro.{name}")
    validate_metrics(data["micro"]["metrics"], "micro.metrics")
    _sizes(data["micro"], "micro")
    return data
