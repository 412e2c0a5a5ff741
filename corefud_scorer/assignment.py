"""Maximum-weight assignment over a sparse weight matrix, with the exact
answer ``scipy.optimize.linear_sum_assignment(-dense)`` gives.

Scorer 1.2 solves a dense key x response matrix in which almost every cell
is zero. Where several assignments reach the optimum, the one scipy returns
depends on every cell, zeros included, so solving the non-zero groups
apart does not reproduce it. This module runs scipy's algorithm (Crouse's
shortest augmenting path, rows in order, columns scanned from last to
first with swap-removal, ties going to a column that ends the path) with the
same floating-point operations, but touches only the cells that matter.

Why that is possible: an unassigned column has never been on a path, so its
dual is exactly 0, and an unprocessed row's dual is 0; a zero cell's reduced
cost during a search is then ``a - v[column]`` where ``a`` depends on the
row alone. All columns that no row of the current search has a weight for
(the *implicit* columns) therefore share one value per dual, and of them only
the unassigned one scanned last can be chosen (it wins every tie). Columns
with a weight in the search (the *explicit* ones) are followed one by one.
When no unassigned implicit column is left, the step is done by a full scan,
exactly as scipy does it.

Cost per row: the cells of the rows on its augmenting path, instead of the
whole row.
"""

from __future__ import annotations

INF = float("inf")


class _NextFree:
    """Smallest unassigned column at or after a given one (columns are
    assigned once and for all)."""

    def __init__(self, n: int):
        self.next = list(range(n + 1))

    def find(self, column: int) -> int:
        nxt = self.next
        root = column
        while nxt[root] != root:
            root = nxt[root]
        while nxt[column] != root:
            nxt[column], column = root, nxt[column]
        return root

    def take(self, column: int) -> None:
        self.next[column] = column + 1


def solve(n_rows: int, n_cols: int, weights: dict) -> list[tuple[int, int]]:
    """Pairs (row, column) of the assignment scipy's solver returns for the
    dense matrix holding ``weights`` ({(row, column): weight > 0}) and zeros
    elsewhere, maximised. Every row (or every column, for a tall matrix) is
    paired, zero cells included, as scipy pairs them."""
    if n_rows == 0 or n_cols == 0:
        return []
    for (i, j), w in weights.items():
        # A zero or negative weight would be an implicit cell that is not
        # zero, which the search below assumes never happens.
        if not w > 0:
            raise ValueError(f"weight of cell ({i}, {j}) is {w!r}; only weights > 0 are given")
    transpose = n_cols < n_rows
    if transpose:
        n_rows, n_cols = n_cols, n_rows
    costs: list[dict] = [{} for _ in range(n_rows)]
    for (i, j), w in weights.items():
        if transpose:
            i, j = j, i
        costs[i][j] = -w
    col4row = _solve(n_rows, n_cols, costs)
    if transpose:
        return sorted((j, i) for i, j in enumerate(col4row))
    return list(enumerate(col4row))


def _solve(n_rows: int, n_cols: int, costs: list[dict]) -> list[int]:
    last = n_cols - 1
    u = [0.0] * n_rows
    v = [0.0] * n_cols
    col4row = [-1] * n_rows
    row4col = [-1] * n_cols
    free = _NextFree(n_cols)
    # Rounding can leave a dual just above 0; such a column could undercut
    # the implicit value, so it is always followed explicitly.
    positive = set()

    for cur_row in range(n_rows):
        # One shortest-path search, as scipy's augmenting_path.
        moved = {}      # position -> column, where a swap-removal moved one
        where = {}      # column -> position, for moved columns
        removed = set()  # columns taken by this search
        n = n_cols      # columns still to scan
        explicit = {j: [INF, -1] for j in positive}  # column -> [cost, path row]
        steps = []      # (a, row) per row scanned: a = minVal - u[row]
        sr = []         # rows scanned, in order
        min_val = 0.0
        implicit = INF  # the lowest a so far: every implicit column's cost before its dual
        i = cur_row
        sink = -1
        while sink == -1:
            sr.append(i)
            a = min_val - u[i]
            steps.append((a, i))
            if a < implicit:
                implicit = a
            row_costs = costs[i]
            for j, value in explicit.items():
                if j in removed:
                    continue
                cost = row_costs.get(j)
                r = a - v[j] if cost is None else min_val + cost - u[i] - v[j]
                if r < value[0]:
                    value[0] = r
                    value[1] = i
            for j, cost in row_costs.items():
                if j in explicit or j in removed:
                    continue
                value = _implicit_value(steps[:-1], v[j])
                r = min_val + cost - u[i] - v[j]
                if r < value[0]:
                    value = [r, i]
                explicit[j] = value

            # The last unassigned implicit column in scan order, if any.
            best_pos = -1
            best_col = -1
            j = free.find(n_cols - n)
            while j <= last and j in explicit:
                j = free.find(j + 1)
            if j <= last:
                best_pos, best_col = last - j, j
            for pos, j in moved.items():
                if pos < n and pos > best_pos and row4col[j] == -1 and j not in explicit:
                    best_pos, best_col = pos, j

            if best_col < 0:
                j = _full_scan(n, last, moved, explicit, removed, v, row4col, implicit)
            else:
                lowest = INF
                for j, value in explicit.items():
                    if j not in removed and value[0] < lowest:
                        lowest = value[0]
                if implicit <= lowest:
                    # Unassigned implicit columns tie at the minimum: the one
                    # scanned last wins, unless an explicit one comes later.
                    (pos, j), _ = _ties(implicit, explicit, removed, where, last, row4col)
                    if best_pos > pos:
                        j = best_col
                else:
                    free_tie, first_tie = _ties(lowest, explicit, removed, where, last, row4col)
                    j = free_tie[1] if free_tie[1] >= 0 else first_tie[1]
            # j is the chosen column; take it out of the scan.
            if j in explicit:
                value = explicit[j]
            else:
                value = _implicit_value(steps, v[j])
                explicit[j] = value
            min_val = value[0]
            if row4col[j] == -1:
                sink = j
            else:
                i = row4col[j]
            removed.add(j)
            pos = where.pop(j, last - j)
            n -= 1
            tail = moved.pop(n, None)
            if tail is None:
                tail = last - n
            else:
                where.pop(tail, None)
            if tail != j:
                moved[pos] = tail
                where[tail] = pos

        # Dual updates, then the augmentation, as scipy does them.
        u[cur_row] += min_val
        for row in sr:
            if row != cur_row:
                u[row] += min_val - explicit[col4row[row]][0]
        for c in removed:
            v[c] -= min_val - explicit[c][0]
            if v[c] > 0:
                positive.add(c)
            else:
                positive.discard(c)
        j = sink
        free.take(sink)
        while True:
            row = explicit[j][1]
            row4col[j] = row
            col4row[row], j = j, col4row[row]
            if row == cur_row:
                break
    return col4row


def _implicit_value(steps, dual: float) -> list:
    """Shortest path cost and path row of a column with zero cells in all
    the rows ``steps`` scanned."""
    best = INF
    path_row = -1
    for a, scanned in steps:
        value = a - dual
        if value < best:
            best = value
            path_row = scanned
    return [best, path_row]


def _ties(lowest, explicit, removed, where, last, row4col):
    """Among the explicit columns still scanned whose cost is ``lowest``:
    (position, column) of the unassigned one scanned last and of the
    assigned one scanned first, (-1, -1) where there is none. scipy picks
    the former if any, else the latter."""
    free_pos, free_col = -1, -1
    taken_pos, taken_col = -1, -1
    for c, value in explicit.items():
        if c in removed or value[0] != lowest:
            continue
        p = where.get(c, last - c)
        if row4col[c] == -1:
            if p > free_pos:
                free_pos, free_col = p, c
        elif taken_col < 0 or p < taken_pos:
            taken_pos, taken_col = p, c
    return (free_pos, free_col), (taken_pos, taken_col)


def _full_scan(n, last, moved, explicit, removed, v, row4col, implicit) -> int:
    """scipy's scan over every remaining column, for the rare step where
    every unassigned column has a weight in the search."""
    lowest = INF
    index_col = -1
    for pos in range(n):
        c = moved.get(pos, last - pos)
        value = explicit[c][0] if c in explicit else implicit - v[c]
        if value < lowest or (value == lowest and row4col[c] == -1):
            lowest = value
            index_col = c
    return index_col
