"""Render the official results table (:mod:`.leaderboard`): aligned text,
Markdown, CSV (fractions unrounded) and a LaTeX ``booktabs`` table."""

from __future__ import annotations

import csv
import io
import os

from ..jobs.comparison import p_text
from ..jobs.leaderboard import COLUMNS, ZERO, Leaderboard
from .json_schema import SCHEMA_VERSION
from ..jobs.significance import AR_TRIALS

LABELS = {"head": "head", "partial": "partial", "exact": "exact", "with_singletons": "with singletons",
          ZERO: "zero"}
MACRO = "macro-average"


def _percent(value, decimals: int) -> str:
    return "n/a" if value is None else "%.*f" % (decimals, value * 100)


def _columns(board: Leaderboard) -> list[str]:
    return list(board.columns) + ([ZERO] if board.with_zero else []) + list(board.extra)


def _label(column: str) -> str:
    # A extra measure is named by its -m name.
    return LABELS.get(column, column)


def _figure(board: Leaderboard, row, column: str):
    """A row's macro-averaged figure of a column."""
    if column == ZERO:
        return row.zero
    return row.extra[column] if column in board.extra else row.scores[column]


def _per_dataset(board: Leaderboard, dataset: str, system: str, column: str):
    """A system's figure of a dataset: the primary score, the zero score or an extra measure's F1."""
    if column in board.extra:
        return board.extra_per_dataset[dataset][system][column]
    return board.per_dataset[dataset][system][1 if column == ZERO else 0]


def _main_cells(board: Leaderboard, decimals: int) -> tuple[list[str], list[list[str]]]:
    header = ["rank", "cluster", "system"] + [_label(c) for c in _columns(board)] + ["p (vs above)"]
    body = []
    for index, row in enumerate(board.rows):
        cells = [str(row.rank), str(row.cluster), row.system]
        cells += [_percent(_figure(board, row, c), decimals) for c in _columns(board)]
        cells.append("" if not index else "n/a" if row.p_value is None else p_text(row.p_value))
        body.append(cells)
    return header, body


def _dataset_cells(board: Leaderboard, column: str, decimals: int) -> tuple[list[str], list[list[str]]]:
    systems = [row.system for row in board.rows]
    header = ["dataset"] + systems
    body = [[dataset] + [_percent(_per_dataset(board, dataset, s, column), decimals) for s in systems]
            for dataset in board.datasets]
    return header, body


def _aligned(header: list[str], body: list[list[str]], left: int) -> str:
    widths = [max(len(r[i]) for r in [header] + body) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) if i < left else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(cells, widths))).rstrip()
                     for cells in [header] + body) + "\n"


def _markdown(header: list[str], body: list[list[str]], left: int) -> str:
    align = ["---" if i < left else "---:" for i in range(len(header))]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in [header, align] + body) + "\n"


def _titles(board: Leaderboard) -> tuple[str, str, str]:
    test = board.resampling
    name = "paired bootstrap" if test.test == "bs" else "approximate randomization"
    main = (f"Systems ranked by the CoNLL F1 under {board.primary} match, macro-averaged over "
            f"{len(board.datasets)} dataset{'s' if len(board.datasets) != 1 else ''}; a system stays in the "
            f"cluster of the one above unless their difference is significant ({name}, "
            f"p < {1 - test.level:.2g}):")
    return main, f"CoNLL F1 ({board.primary} match) per dataset:", "Zero score (F1) per dataset:"


def render(board: Leaderboard, fmt: str = "text", decimals: int = 2) -> str:
    """The table in ``text``, ``markdown``, ``csv`` or ``latex``."""
    if fmt == "csv":
        return render_csv(board)
    if fmt == "latex":
        return render_latex(board, decimals)
    main, per_dataset, zeros = _titles(board)
    tables = [(main, _main_cells(board, decimals), 3),
              (per_dataset, _dataset_cells(board, board.primary, decimals), 1)]
    if board.with_zero:
        tables.append((zeros, _dataset_cells(board, ZERO, decimals), 1))
    for name in board.extra:
        tables.append((f"{name} (F1, {board.primary} match) per dataset:", _dataset_cells(board, name, decimals), 1))
    parts = []
    for title, (header, body), left in tables:
        if fmt == "markdown":
            parts.append(f"**{title}**\n\n" + _markdown(header, body, left))
        else:
            parts.append(f"{title}\n" + _aligned(header, body, left))
    signature = f"Signature: `{board.signature}`" if fmt == "markdown" else f"Signature: {board.signature}"
    return "\n".join(parts) + f"\n{signature}\n"


def render_csv(board: Leaderboard) -> str:
    """One row per system (``level`` ``system``, the macro-averages) and per
    dataset and system (``level`` ``dataset``: the primary column, the zero
    score and the extra measures); fractions unrounded, empty cells for
    none."""
    columns = _columns(board)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["level", "dataset", "system", "rank", "cluster", *columns, "difference", "p_value"])
    blank = lambda value: "" if value is None else value  # noqa: E731
    for row in board.rows:
        figures = [_figure(board, row, c) for c in columns]
        writer.writerow(["system", MACRO, row.system, row.rank, row.cluster, *map(blank, figures),
                         blank(row.difference), blank(row.p_value)])
    for dataset in board.datasets:
        for row in board.rows:
            figures = [_per_dataset(board, dataset, row.system, c) if c == board.primary or c not in COLUMNS
                       else None for c in columns]
            writer.writerow(["dataset", dataset, row.system, "", "", *map(blank, figures), "", ""])
    return out.getvalue()


# --- LaTeX ---

_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(char, char) for char in text)


def system_label(name: str) -> str:
    """A system as a paper names it: its folder's own name."""
    return os.path.basename(os.path.normpath(name)) or name


def render_latex(board: Leaderboard, decimals: int = 2) -> str:
    """A ``booktabs`` table to paste into a paper (needs
    ``\\usepackage{booktabs}``): rank, cluster, system (its folder's name)
    and the columns, a rule between clusters, the best figure of each column
    in bold; then the primary score per dataset, systems in rows, and so
    each extra measure's F1."""
    columns = _columns(board)
    best = {}
    for c in columns:
        values = [_figure(board, row, c) for row in board.rows]
        defined = [v for v in values if v is not None]
        best[c] = max(defined) if defined else None

    def cell(c, value):
        text = _percent(value, decimals)
        return f"\\textbf{{{text}}}" if value is not None and value == best[c] else text

    lines = [f"% {latex_escape(board.signature)}" if board.signature else "% corefud-scorer leaderboard",
             "\\begin{table}[t]", "\\centering", "\\begin{tabular}{rrl" + "r" * len(columns) + "}", "\\toprule",
             " & ".join(["Rank", "Cluster", "System"] + [latex_escape(_label(c).capitalize()) for c in columns])
             + " \\\\",
             "\\midrule"]
    previous = None
    for row in board.rows:
        if previous is not None and row.cluster != previous:
            lines.append("\\midrule")
        previous = row.cluster
        figures = [cell(c, _figure(board, row, c)) for c in columns]
        lines.append(" & ".join([str(row.rank), str(row.cluster), latex_escape(system_label(row.system))] + figures) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}",
              f"\\caption{{CoNLL F1 macro-averaged over {len(board.datasets)} datasets; systems ranked by "
              f"{latex_escape(board.primary)} match; a rule separates clusters of systems whose "
              "differences are not significant.}", "\\end{table}"]
    lines += _latex_per_dataset(board, board.primary, f"CoNLL F1 ({latex_escape(board.primary)} match) per dataset.",
                                decimals)
    for name in board.extra:
        lines += _latex_per_dataset(board, name, f"{latex_escape(name)} F1 ({latex_escape(board.primary)} match) "
                                    "per dataset.", decimals)
    return "\n".join(lines) + "\n"


def _latex_per_dataset(board: Leaderboard, column: str, caption: str, decimals: int) -> list[str]:
    """A column's figures per dataset, systems in rows."""
    lines = ["", "\\begin{table}[t]", "\\centering",
             "\\begin{tabular}{l" + "r" * len(board.datasets) + "}", "\\toprule",
             " & ".join(["System"] + [latex_escape(d) for d in board.datasets]) + " \\\\", "\\midrule"]
    for row in board.rows:
        lines.append(" & ".join([latex_escape(system_label(row.system))]
                                + [_percent(_per_dataset(board, d, row.system, column), decimals)
                                   for d in board.datasets]) + " \\\\")
    return lines + ["\\bottomrule", "\\end{tabular}", f"\\caption{{{caption}}}", "\\end{table}"]


def to_json(board: Leaderboard) -> dict:
    """``leaderboard``: a ``{"system", "rank", "cluster", "head", "partial",
    "exact", "with_singletons"}`` object per system, in rank order, F1 as
    fractions, and each extra measure's F1 under its ``-m`` name when one
    is asked; ``datasets``: per dataset each system's primary score (and
    zero score, and extra measures); ``comparisons``: each system's test against the one ranked
    above; and what the figures depend on."""
    resampling = board.resampling
    return {
        "schema_version": SCHEMA_VERSION,
        "signature": board.signature,
        "shared_task": board.shared_task,
        "primary": board.primary,
        "test": {"name": resampling.test or "ar", "samples": resampling.samples or AR_TRIALS,
                 "level": resampling.level, "seed": resampling.seed},
        "leaderboard": [{"system": row.system, "rank": row.rank, "cluster": row.cluster, **row.scores,
                         **row.extra} for row in board.rows],
        "zero": {row.system: row.zero for row in board.rows} if board.with_zero else None,
        "comparisons": [{"system": row.system, "above": above.system, "difference": row.difference,
                         "p_value": row.p_value} for above, row in zip(board.rows, board.rows[1:])],
        "datasets": [{"dataset": dataset,
                      "systems": [{"system": system, board.primary: primary,
                                   **({ZERO: zero} if board.with_zero else {}),
                                   **board.extra_per_dataset.get(dataset, {}).get(system, {})}
                                  for system, (primary, zero) in board.per_dataset[dataset].items()]}
                     for dataset in board.datasets],
    }
