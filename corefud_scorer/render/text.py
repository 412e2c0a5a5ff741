"""Render results: scorer 1.2's text, one JSON schema, and tables of rows.

The JSON schema (``schema_version`` 1) is the same wherever a score appears:
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
from typing import TYPE_CHECKING

from ..measures.further import SYNC_OPTIONS
from ..formats.profile import UA_SCORER_TEXT
from ..formats.readers import profiles
from ..measures.registry import CONLL_PARTS, CONLL_SCORE, FURTHER, MEASURES
from ..provenance import option_settings
from ..measures.totals import conll_score

if TYPE_CHECKING:
    from ..jobs.bench import Benchmark
    from ..results import DocumentResult, MetricScore, Options, Result
from ..measures.figures import mean_f1

SCHEMA_VERSION = 1

# The names 1.2 gives the matching modes in its header.
MATCH_NAMES = {"exact": "exact", "partial": "partial-corefud", "head": "head"}
COREF_METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mention", "zero")


# --- scorer 1.2's text ---

def _other_layers(metrics) -> list[str]:
    """The UA scorer's words for the layers beside identity that are asked for."""
    return [label for name, label in (("non-referring", "non-referring mentions"), ("bridging", "bridging relations"),
                                      ("empty-nodes", "empty nodes"))
            if name in metrics]


def header(options: Options) -> str:
    """The two settings lines and the blank line 1.2 opens with."""
    metrics = options.requested
    text = "The scorer is evaluating "
    if any(name in COREF_METRICS or name in FURTHER for name in metrics):
        text += "coreferential mentions"
        if options.keep_singletons:
            text += ", singletons"
        text += f", zeros (using {options.zero_match} match method)"
        # The UA scorer's words for its CoNLL filters.
        if options.np_only:
            text += ", keep only np mentions"
        if options.remove_nested:
            text += ", excluding nested mentions"
        text += "".join(f", {label}" for label in _other_layers(metrics))
    else:
        # Metrics 1.2 never had; with none of them (-m mor alone) the line
        # stays 1.2's, word for word.
        text += ", ".join(_other_layers(metrics))
    text += f" using {MATCH_NAMES[options.match]} match evaluation setting.\n"
    text += f"The following metrics will be evaluated: {', '.join(metrics)}\n"
    if options.sync not in (None, "all"):
        text += f"Markable synchronisation: {options.sync} (mention sets rebuilt before the partition metrics)\n"
    text += "\n"
    return text


# A further measure with no value (no mention pair to compare), in every text layout.
NO_VALUE_LINE = "Value: n/a  (not applicable: no mention pair to compare)\n"


def _percent(value: float, decimals: int = 2) -> str:
    return "%.*f" % (decimals, value * 100)


# --- the UA scorer's text, for files of the other formats ---

UA_MATCH_NAMES = {**MATCH_NAMES, "partial-craft": "partial-craft"}
RULE = "=" * 44


def ua_header(options: Options) -> str:
    """The UA scorer's two settings lines and blank line."""
    metrics = options.requested
    text = "The scorer is evaluating "
    if options.discourse_deixis:
        text += "discourse deixis"
    elif options.only_split_antecedent:
        text += "only split-antecedents"
    elif not any(name in COREF_METRICS for name in metrics):
        text += ", ".join(_other_layers(metrics))
    else:
        text += "coreferential mentions"
        if options.keep_singletons:
            text += ", singletons"
        if options.keep_split_antecedents:
            text += ", split-antecedents"
        if options.keep_zeros:
            text += f", zeros (using {options.zero_match} match method)"
        text += "".join(f", {label}" for label in _other_layers(metrics))
    text += f" using {UA_MATCH_NAMES[options.match]} match evaluation setting.\n"
    text += f"The following metrics will be evaluated: {', '.join(metrics)}\n\n"
    return text


def _scores_line(score: MetricScore, decimals: int = 2, measure: str | None = None) -> str:
    """A score's line; ``measure``: the measure a part's score is of (its
    reason for having no value)."""
    measure = measure or score.name
    one_number = measure in MEASURES and MEASURES[measure].one_number  # an agreement coefficient
    if not score.applicable:
        if one_number:
            return NO_VALUE_LINE
        return ("Recall: n/a  Precision: n/a  F1: n/a"
                f"  (not applicable: {MEASURES[measure].no_value if measure in MEASURES else 'no value'})\n")
    if one_number:
        return f"Value: {_percent(score.value, decimals)}\n"
    return (f"Recall: {_percent(score.recall, decimals)}  Precision: {_percent(score.precision, decimals)}"
            f"  F1: {_percent(score.f1, decimals)}\n")


def _ua_metric_lines(name: str, score: MetricScore, decimals: int = 2) -> list[str]:
    if name == "non-referring":
        return [RULE + "\n", "Non-referring markable identification scores:\n",
                _scores_line(score, decimals)]
    if name == "bridging":
        parts = score.parts
        return [RULE + "\n", "Bridging anaphora recognition scores:\n",
                _scores_line(parts["anaphor_recognition"], decimals, name),
                "Full bridging scores (Markable Level):\n", _scores_line(parts["markable"], decimals, name),
                "Full bridging scores (Entity Level):\n", _scores_line(parts["entity"], decimals, name)]
    if name == "empty-nodes":
        lines = [RULE + "\n", "Empty node scores (first DEPS head, and per part what else must match):\n"]
        if not score.applicable:
            return lines + [_scores_line(score, decimals)]
        width = max(len(label) for label in score.parts)
        return lines + [f"{label.ljust(width)}  {_scores_line(part, decimals)}"
                        for label, part in score.parts.items()]
    return [name + "\n", _scores_line(score, decimals)]


def render_ua_text(result: Result, options: Options, decimals: int = 2) -> str:
    """The UA scorer's text: its header, a block per metric, the CoNLL score."""
    lines = [ua_header(options)]
    for name in options.requested:
        lines.extend(_ua_metric_lines(name, result.metrics[name], decimals))
    conll = text_conll(result, options)
    if conll is not None:
        lines.append("CoNLL score: %.*f\n" % (decimals, conll * 100))
    return "".join(lines)


def text_conll(result: Result, options: Options) -> float | None:
    """1.2's rule for its text: a CoNLL score is printed when exactly three
    of the reported lines are MUC, B-cubed or CEAF-e (repeats included),
    their F1 added in reporting order."""
    lines = [name for name in options.requested if name in CONLL_PARTS]
    if len(lines) != len(CONLL_PARTS):
        return None
    return mean_f1([result.metrics[name].f1 for name in lines])


def render_text(result: Result, options: Options, decimals: int = 2) -> str:
    """Scorer 1.2's text for CorefUD files (``decimals`` other than 2 only
    when asked, ``-w``), the UA scorer's for the others."""
    fmt = result.settings.get("format") or options.format
    # Documents scored from the model ("model") print the default format's text.
    if fmt in profiles() and profiles()[fmt].text == UA_SCORER_TEXT:
        return render_ua_text(result, options.for_format(fmt), decimals)
    lines = [header(options)]
    for name in options.requested:
        if name in FURTHER:
            continue
        # 1.2's lines; the UA scorer's blocks for what 1.2 does not score.
        lines.extend(_ua_metric_lines(name, result.metrics[name], decimals))
    conll = text_conll(result, options)
    if conll is not None:
        lines.append("CoNLL score: %.*f\n" % (decimals, conll * 100))
    # The further measures come after all of 1.2's lines, in the same layout.
    for name in options.requested:
        if name in FURTHER:
            lines.append(name + "\n" + _measure_line(result.metrics[name]))
    if result.synchronisation:
        lines.append("\n" + render_synchronisation(result, options))
    return "".join(lines)


def _measure_line(score: MetricScore) -> str:
    if score.recall is not None:
        return (f"Recall: {_percent(score.recall)}  Precision: {_percent(score.precision)}"
                f"  F1: {_percent(score.f1)}\n")
    if score.value is not None:
        return f"Value: {_percent(score.value)}\n"
    return NO_VALUE_LINE


def render_synchronisation(result: Result, options: Options) -> str:
    """``--sync all``: mention identification, then each metric's recall,
    precision and F1 (one value for an agreement coefficient) under the four
    synchronisations side by side. Mention-level metrics are left out: they
    are not synchronised."""
    found = result.mention_identification
    lines = ["Markable synchronisation (Popescu-Belis et al. 2004)\n",
             f"Mention identification  Recall: {_percent(found.recall)}  "
             f"Precision: {_percent(found.precision)}  F1: {_percent(found.f1)}\n"]
    names = [n for n in options.metric_list if MEASURES[n].of_contingency]
    if any(result.synchronisation[o][CONLL_SCORE] is not None for o in SYNC_OPTIONS):
        names.append(CONLL_SCORE)
    rows = [["", *["R", "P", "F1"] * len(SYNC_OPTIONS)]]
    for name in names:
        row = [name]
        for option in SYNC_OPTIONS:
            synced = result.synchronisation[option]
            if name == CONLL_SCORE:
                row += ["", "", _percent(synced[CONLL_SCORE])]
                continue
            score = synced["metrics"][name]
            if score.recall is not None:
                row += [_percent(score.recall), _percent(score.precision), _percent(score.f1)]
            else:
                row += ["", "", "n/a" if score.value is None else _percent(score.value)]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    # Each option's name heads its three columns.
    head = "".ljust(widths[0])
    for k, option in enumerate(SYNC_OPTIONS):
        head += "  " + option.ljust(sum(widths[1 + 3 * k: 4 + 3 * k]) + 4)
    out = [head.rstrip() + "\n"]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        out.append("  ".join(cells).rstrip() + "\n")
    return "".join(lines + out)


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


def document_rows(result: Result) -> list[dict]:
    """One flat row per document: ids, sizes, each metric's recall,
    precision and F1 (for tables and DataFrames)."""
    rows = []
    for document in result.documents:
        row = {"document": document.doc_id}
        row.update({k: v for k, v in size_json([document]).items() if k != "documents"})
    
        metrics = document.metrics
        row.update(score_columns(metrics, conll_score(metrics)))
        rows.append(row)
    return rows


def score_columns(metrics: dict, conll: float | None, with_conll: bool | None = None) -> dict:
    """Flat columns ``NAME_recall``, ``NAME_precision``, ``NAME_f1`` (and
    ``conll_f1``) of scores or averages; ``NAME_value`` for a measure that is
    one number."""
    row = {}
    for name, m in metrics.items():
        if MEASURES[name].one_number:
            row[f"{name}_value"] = m.value
            continue
        row[f"{name}_recall"] = m.recall
        row[f"{name}_precision"] = m.precision
        row[f"{name}_f1"] = m.f1
    if with_conll if with_conll is not None else conll is not None:
        row["conll_f1"] = conll
    return row


def render_json(data: dict) -> str:
    """One JSON object as printed."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


# --- rows: plain dicts for text, Markdown, CSV tables and DataFrames ---

# The dataset names of a benchmark's average rows.
MACRO, MICRO = "macro-average", "micro-average"


def benchmark_rows(bench: Benchmark, per_doc: bool = False) -> list[dict]:
    """One row per dataset (and per document, after its dataset), then the
    macro and micro averages; ``level`` says which a row is."""
    with_conll = bench.micro_conll is not None
    out = []
    for dataset, result in zip(bench.datasets, bench.results):
        row = {"level": "dataset", "dataset": dataset.name, "document": None}
        row.update(size_json(result.documents))
        row.update(score_columns(result.metrics, result.conll, with_conll))
        out.append(row)
        if per_doc:
            for document in document_rows(result):
                out.append({"level": "document", "dataset": dataset.name, "documents": 1, **document})
    all_documents = [d for r in bench.results for d in r.documents]
    sizes = size_json(all_documents)
    macro = {"level": "macro", "dataset": MACRO, "document": None, **dict.fromkeys(sizes)}
    macro.update(score_columns(bench.macro, bench.macro_conll, with_conll))
    micro = {"level": "micro", "dataset": MICRO, "document": None, **sizes}
    micro.update(score_columns(bench.micro, bench.micro_conll, with_conll))
    return out + [macro, micro]


# --- tables of rows (benchmark and per-document output) ---

LEFT = ("level", "dataset", "system", "document")


def _label(column: str) -> str:
    for suffix, short in (("_recall", " R"), ("_precision", " P"), ("_f1", " F1"), ("_value", "")):
        if column.endswith(suffix):
            return column[: -len(suffix)] + short
    return {"key_mentions": "mentions K", "response_mentions": "mentions R",
            "key_entities": "entities K", "response_entities": "entities R",
            "documents": "docs"}.get(column, column)


def is_score(column: str) -> bool:
    return column.endswith(("_recall", "_precision", "_f1", "_value"))


def _cell(column: str, value, decimals: int = 2) -> str:
    if value is None:
        return "n/a" if is_score(column) else "-"
    if isinstance(value, float) and is_score(column):
        return "%.*f" % (decimals, value * 100)
    return str(value)


def select_columns(rows: list[dict], columns: str) -> list[str]:
    """The columns a table shows: ``all``, or ``f1`` (names, sizes that fit,
    and each metric's F1) for a table that fits 100 characters."""
    names = list(rows[0])
    if all(row.get("document") is None for row in rows) and "document" in names:
        names.remove("document")
    if all(row.get("dataset") is None for row in rows) and "dataset" in names:
        names.remove("dataset")
    if columns == "all":
        return names
    # The level is the dataset column's macro/micro name already.
    return [c for c in names if c in ("dataset", "system", "document") or c.endswith(("_f1", "_value"))]


def render_table(rows: list[dict], fmt: str, columns: str = "all", decimals: int = 2) -> str:
    """Rows as an aligned text table, a Markdown table or CSV (fractions
    unrounded, counts as integers, empty for none)."""
    shown = select_columns(rows, "all" if fmt == "csv" else columns)
    if fmt == "csv":
        import csv
        import io

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(shown)
        for row in rows:
            writer.writerow(["" if row[c] is None else row[c] for c in shown])
        return out.getvalue()
    if fmt == "markdown":
        header_cells = [_label(c) for c in shown]
        body = [[_cell(c, row[c], decimals) for c in shown] for row in rows]
        align = ["---" if c in LEFT else "---:" for c in shown]
        lines = ["| " + " | ".join(line) + " |" for line in [header_cells, align] + body]
        return "\n".join(lines) + "\n"
    return aligned(rows, shown, decimals)


def aligned(rows: list[dict], shown: list[str], decimals: int) -> str:
    """The ``shown`` columns of rows as aligned text: names to the left,
    figures to the right."""
    header_cells = [_label(c) for c in shown]
    body = [[_cell(c, row[c], decimals) for c in shown] for row in rows]
    widths = [max(len(r[i]) for r in [header_cells] + body) for i in range(len(shown))]

    def line(cells):
        return "  ".join(cell.ljust(w) if c in LEFT else cell.rjust(w)
                         for cell, w, c in zip(cells, widths, shown)).rstrip()
    return "\n".join([line(header_cells)] + [line(r) for r in body]) + "\n"


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
