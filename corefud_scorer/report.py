"""Render a :class:`~corefud_scorer.api.Result`: scorer 1.2's text, or JSON."""

from __future__ import annotations

import json

from .api import Options, Result

# The names 1.2 gives the matching modes in its header.
MATCH_NAMES = {"exact": "exact", "partial": "partial-corefud", "head": "head"}
COREF_METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mention", "zero")


def header(options: Options) -> str:
    """The two settings lines and the blank line 1.2 opens with."""
    metrics = options.metric_list
    text = "The scorer is evaluating "
    if any(name in COREF_METRICS for name in metrics):
        text += "coreferential mentions"
        if options.keep_singletons:
            text += ", singletons"
        text += f", zeros (using {options.zero_match} match method)"
    text += f" using {MATCH_NAMES[options.match]} match evaluation setting.\n"
    text += f"The following metrics will be evaluated: {', '.join(metrics)}\n\n"
    return text


def _percent(value: float) -> str:
    return "%.2f" % (value * 100)


def render_text(result: Result, options: Options) -> str:
    lines = [header(options)]
    for name in options.metric_list:
        score = result.metrics[name]
        lines.append(name + "\n")
        if score.applicable:
            lines.append(f"Recall: {_percent(score.recall)}  Precision: {_percent(score.precision)}"
                         f"  F1: {_percent(score.f1)}\n")
        else:
            lines.append("Recall: n/a  Precision: n/a  F1: n/a"
                         "  (not applicable: no zero anaphor in the key or the response)\n")
    if result.conll is not None:
        lines.append("CoNLL score: %.2f\n" % (result.conll * 100))
    return "".join(lines)


def _metric_json(score) -> dict | None:
    if not score.applicable:
        return None
    out = {
        "recall": score.recall,
        "precision": score.precision,
        "f1": score.f1,
        "counts": {
            "recall_num": score.counts.recall_num,
            "recall_den": score.counts.recall_den,
            "precision_num": score.counts.precision_num,
            "precision_den": score.counts.precision_den,
        },
    }
    if score.parts:
        out["parts"] = {label: _metric_json(part) for label, part in score.parts.items()}
    return out


def to_json_object(result: Result) -> dict:
    metrics = {name: _metric_json(score) for name, score in result.metrics.items()}
    if result.conll is not None:
        metrics["conll"] = {"f1": result.conll}
    return {
        "metrics": metrics,
        "documents": len(result.documents),
        "warnings": result.warnings,
        "settings": result.settings,
    }


def render_json(result: Result) -> str:
    return json.dumps(to_json_object(result), indent=1, ensure_ascii=False) + "\n"
