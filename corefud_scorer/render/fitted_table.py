"""A table of one pair's documents that fits a terminal: the aligned text
table (:func:`.tables.render_table`), cut into blocks of columns when it
is wider."""

from __future__ import annotations

from .tables import LEFT, aligned, is_score, render_table, select_columns

# A terminal's width, which a table of one pair's documents keeps to.
TERMINAL = 120
# A document id longer than this is numbered in such a table, with a legend.
LONGEST_ID = 32


def render_fitted(rows: list[dict], decimals: int = 2, width: int = TERMINAL) -> str:
    """Rows as an aligned text table (:func:`render_table`) no wider than
    ``width``: one that is wider is cut into blocks of columns, each block
    repeating the rows' names (system, document), the sizes and CoNLL F1
    first, each measure's columns kept together; document ids too long to
    leave room are numbered, with a legend above."""
    text = render_table(rows, "text", decimals=decimals)
    if max(len(line) for line in text.splitlines()) <= width:
        return text
    legend = ""
    if any(len(str(row.get("document"))) > LONGEST_ID for row in rows):
        numbers = {}
        for row in rows:
            numbers.setdefault(row["document"], f"#{len(numbers) + 1}")
        legend = "".join(f"{number}  {document}\n" for document, number in numbers.items()) + "\n"
        rows = [{**row, "document": numbers[row["document"]]} for row in rows]
    shown = select_columns(rows, "all")
    left = [c for c in shown if c in LEFT]
    groups = [[c for c in shown if c not in left and not is_score(c)] + [c for c in shown if c == "conll_f1"]]
    for column in shown:
        if is_score(column) and column != "conll_f1":
            measure = column.rsplit("_", 1)[0]
            if groups[-1] and groups[-1][0].rsplit("_", 1)[0] == measure and is_score(groups[-1][0]):
                groups[-1].append(column)
            else:
                groups.append([column])
    names = max(len(line) for line in aligned(rows, left, decimals).splitlines())
    blocks, used = [], width + 1
    for group in groups:
        wide = 2 + max(len(line) for line in aligned(rows, group, decimals).splitlines())
        if not blocks or used + wide > width:
            blocks.append([])
            used = names
        blocks[-1] += group
        used += wide
    return legend + "\n".join(aligned(rows, left + block, decimals) for block in blocks)
