"""Rows and tables: plain dicts of scores (per document, per dataset, the
averages) for text, Markdown and CSV tables and DataFrames."""

from __future__ import annotations

from ..measures.registry import MEASURES
from ..measures.totals import conll_score
from .json_schema import size_json

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from ..jobs.bench import Benchmark
    from ..results import Result

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
