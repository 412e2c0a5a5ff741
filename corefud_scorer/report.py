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


def render_json(data: dict) -> str:
    """One JSON object (from :func:`to_json_object` or the benchmark) as printed."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


# --- tables of rows (benchmark and per-document output) ---

def _label(column: str) -> str:
    for suffix, short in (("_recall", " R"), ("_precision", " P"), ("_f1", " F1")):
        if column.endswith(suffix):
            return column[: -len(suffix)] + short
    return {"key_mentions": "mentions K", "response_mentions": "mentions R",
            "key_entities": "entities K", "response_entities": "entities R",
            "documents": "docs"}.get(column, column)


def _columns(rows: list[dict]) -> list[str]:
    columns = list(rows[0])
    if all(row.get("document") is None for row in rows):
        columns.remove("document")
    return columns


def _cell(column: str, value) -> str:
    if value is None:
        return "-" if column in ("document",) or not column.endswith(("_recall", "_precision", "_f1")) else "n/a"
    if isinstance(value, float):
        return "%.2f" % (value * 100)
    return str(value)


def render_table(rows: list[dict], fmt: str) -> str:
    """Rows as an aligned text table, a Markdown table or CSV (fractions unrounded)."""
    columns = _columns(rows)
    if fmt == "csv":
        import csv
        import io

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow(["" if row[c] is None else row[c] for c in columns])
        return out.getvalue()
    header = [_label(c) for c in columns]
    body = [[_cell(c, row[c]) for c in columns] for row in rows]
    if fmt == "markdown":
        align = ["---" if c in ("dataset", "document") else "---:" for c in columns]
        lines = ["| " + " | ".join(line) + " |" for line in [header, align] + body]
        return "\n".join(lines) + "\n"
    widths = [max(len(r[i]) for r in [header] + body) for i in range(len(columns))]
    def line(cells):
        return "  ".join(cell.ljust(w) if c in ("dataset", "document") else cell.rjust(w)
                         for cell, w, c in zip(cells, widths, columns)).rstrip()
    return "\n".join([line(header)] + [line(r) for r in body]) + "\n"


def render_benchmark_json(bench, table: list[dict], shared_task: str | None = None) -> str:
    """The benchmark as one JSON object: settings, dataset rows, per-document
    rows (when asked), the two averages and warnings."""
    from .api import option_settings
    from .benchmark import MACRO, MICRO

    settings = option_settings(bench.options)
    settings["shared_task"] = shared_task
    # Each dataset's result already holds its files' digests.
    settings["files"] = [{"dataset": d.name, "key": d.key, "response": d.response,
                          "key_sha256": r.settings["key_sha256"], "response_sha256": r.settings["response_sha256"]}
                         for d, r in zip(bench.datasets, bench.results)]
    data = {
        "settings": settings,
        "datasets": [r for r in table if r["document"] is None and r["dataset"] not in (MACRO, MICRO)],
        "documents": [r for r in table if r["document"] is not None],
        "macro": next(r for r in table if r["dataset"] == MACRO),
        "micro": next(r for r in table if r["dataset"] == MICRO),
        "warnings": bench.warnings,
    }
    return render_json(data)
