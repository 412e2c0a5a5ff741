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


def parts(cells) -> list[tuple[list[int], list[int]]]:
    """The connected parts of the bipartite graph whose edges are ``cells``
    ((row, column) pairs), as (rows, columns) each in order."""
    by_row: dict[int, list[int]] = {}
    by_col: dict[int, list[int]] = {}
    for i, j in cells:
        row = by_row.get(i)
        if row is None:
            by_row[i] = [j]
        else:
            row.append(j)
        col = by_col.get(j)
        if col is None:
            by_col[j] = [i]
        else:
            col.append(i)
    out = []
    done: set = set()
    for i, cols in by_row.items():
        if i in done:
            continue
        if all(len(by_col[j]) == 1 for j in cols):
            # The usual part: one row and columns that are its alone.
            out.append(([i], cols))
            continue
        rows, part_cols, todo = {i}, set(), [i]
        while todo:
            for j in by_row[todo.pop()]:
                if j not in part_cols:
                    part_cols.add(j)
                    for r in by_col[j]:
                        if r not in rows:
                            rows.add(r)
                            todo.append(r)
        done |= rows
        out.append((sorted(rows), sorted(part_cols)))
    return out


def solve_by_parts(weights: dict, connected: list | None = None) -> dict[int, int]:
    """An optimal assignment of ``weights`` ({(row, column): weight > 0}) as
    {row: column}, rows without a weight left out, solved one connected part
    (:func:`parts`, which may be given when already known) at a time; a
    part of one row or one column is picked directly.

    The total equals that of :func:`solve`; where several assignments reach
    it, the pairs may differ. For scores that depend on the total only
    (``scorer.pl``'s CEAF), not for reproducing scorer 1.2's choices."""
    chosen: dict[int, int] = {}
    for rows, cols in parts(weights) if connected is None else connected:
        if len(rows) == 1:
            i = rows[0]
            chosen[i] = cols[0] if len(cols) == 1 else max(cols, key=lambda j: weights[i, j])
        elif len(cols) == 1:
            j = cols[0]
            chosen[max(rows, key=lambda i: weights[i, j])] = j
        else:
            col_index = {j: n for n, j in enumerate(cols)}
            sub = {(a, col_index[j]): weights[i, j] for a, i in enumerate(rows) for j in cols
                   if (i, j) in weights}
            for a, b in solve(len(rows), len(cols), sub):
                if (a, b) in sub:
                    chosen[rows[a]] = cols[b]
    return chosen


def _solve(n_rows: int, n_cols: int, costs: list[dict]) -> list[int]:
    """scipy's ``solve`` (rectangular LSAP): one shortest augmenting path per
    row, in row order, then the dual update and the augmentation."""
    u = [0.0] * n_rows
    v = [0.0] * n_cols
    col4row = [-1] * n_rows
    row4col = [-1] * n_cols
    free = _NextFree(n_cols)
    # Rounding can leave a dual just above 0; such a column could undercut
    # the implicit value, so it is always followed explicitly.
    positive: set = set()
    for cur_row in range(n_rows):
        row_costs = costs[cur_row]
        if len(row_costs) == 1 and not positive:
            (j, cost), = row_costs.items()
            if row4col[j] == -1:
                # The commonest row: one weight, in a column no row has yet.
                # Every other column costs at least 0 (no dual is positive),
                # so the path is that cell alone; the duals move as the
                # search would move them (u by the cell's cost, v by 0).
                u[cur_row] = cost
                col4row[cur_row], row4col[j] = j, cur_row
                free.take(j)
                continue
        search = _Search(cur_row, n_cols, costs, u, v, row4col, free, positive)
        sink = search.run()
        search.update_duals(col4row)
        free.take(sink)
        _augment(search.explicit, sink, cur_row, col4row, row4col)
    return col4row


class _Search:
    """One shortest-path search from ``cur_row``: scipy's ``augmenting_path``
    over the explicit columns, with all implicit columns as one value.

    Its columns-to-scan list (``remaining`` in scipy, filled in reverse and
    shrunk by swap-removal) is kept implicit: position ``p`` holds column
    ``last - p`` unless a removal moved another column there (``moved``)."""

    def __init__(self, cur_row, n_cols, costs, u, v, row4col, free, positive):
        self.cur_row, self.costs, self.u, self.v = cur_row, costs, u, v
        self.row4col, self.free, self.positive = row4col, free, positive
        self.n_cols = n_cols
        self.last = n_cols - 1
        self.moved: dict = {}     # position -> column, where a swap-removal moved one
        self.where: dict = {}     # column -> position, for moved columns
        self.removed: set = set()  # columns taken by this search (scipy's SC)
        self.n = n_cols           # columns still to scan (scipy's num_remaining)
        self.explicit = {j: [INF, -1] for j in positive}  # column -> [shortest cost, path row]
        self.steps: list = []     # (a, row) per row scanned: a = minVal - u[row]
        self.sr: list = []        # rows scanned, in order (scipy's SR)
        self.min_val = 0.0
        self.implicit = INF       # the lowest a so far: each implicit column's cost before its dual

    def run(self) -> int:
        """Scan rows until a path reaches an unassigned column; return it."""
        i = self.cur_row
        while True:
            self.scan_row(i)
            j = self.pick_column()
            value = self.explicit.get(j) or self._make_explicit(j, self.steps)
            self.min_val = value[0]
            self.remove(j)
            if self.row4col[j] == -1:
                return j
            i = self.row4col[j]

    def scan_row(self, i: int) -> None:
        """scipy: ``SR.push_back(i)`` and the loop relaxing
        ``shortestPathCosts[j]`` over the remaining columns through row i."""
        self.sr.append(i)
        a = self.min_val - self.u[i]
        self.steps.append((a, i))
        if a < self.implicit:
            self.implicit = a
        v, removed, explicit = self.v, self.removed, self.explicit
        row_costs = self.costs[i]
        for j, value in explicit.items():
            if j in removed:
                continue
            cost = row_costs.get(j)
            r = a - v[j] if cost is None else self.min_val + cost - self.u[i] - v[j]
            if r < value[0]:
                value[0] = r
                value[1] = i
        for j, cost in row_costs.items():
            if j in explicit or j in removed:
                continue
            # A column seen for the first time: its cost through the rows
            # scanned before, where its cells were zero, then through row i.
            value = _implicit_value(self.steps[:-1], v[j])
            r = self.min_val + cost - self.u[i] - v[j]
            if r < value[0]:
                value = [r, i]
            explicit[j] = value

    def best_implicit_column(self) -> tuple[int, int]:
        """(position, column) of the unassigned implicit column scanned last,
        or (-1, -1): of the columns sharing the implicit value, the only one
        scipy's tie rule can pick."""
        explicit, last = self.explicit, self.last
        best_pos, best_col = -1, -1
        j = self.free.find(self.n_cols - self.n)
        while j <= last and j in explicit:
            j = self.free.find(j + 1)
        if j <= last:
            best_pos, best_col = last - j, j
        for pos, j in self.moved.items():
            if pos < self.n and pos > best_pos and self.row4col[j] == -1 and j not in explicit:
                best_pos, best_col = pos, j
        return best_pos, best_col

    def pick_column(self) -> int:
        """scipy: the loop finding ``lowest`` and ``index`` over the remaining
        columns; ties go to an unassigned column, the last one scanned."""
        best_pos, best_col = self.best_implicit_column()
        explicit, removed, where = self.explicit, self.removed, self.where
        if best_col < 0:
            return _full_scan(self.n, self.last, self.moved, explicit, removed, self.v,
                              self.row4col, self.implicit)
        lowest = INF
        for j, value in explicit.items():
            if j not in removed and value[0] < lowest:
                lowest = value[0]
        if self.implicit <= lowest:
            # Unassigned implicit columns tie at the minimum: the one scanned
            # last wins, unless an explicit one comes later.
            (pos, j), _ = _ties(self.implicit, explicit, removed, where, self.last, self.row4col)
            return best_col if best_pos > pos else j
        free_tie, first_tie = _ties(lowest, explicit, removed, where, self.last, self.row4col)
        return free_tie[1] if free_tie[1] >= 0 else first_tie[1]

    def _make_explicit(self, j: int, steps) -> list:
        value = _implicit_value(steps, self.v[j])
        self.explicit[j] = value
        return value

    def remove(self, j: int) -> None:
        """scipy: ``SC[j] = true`` and the swap-removal of ``remaining[index]``."""
        self.removed.add(j)
        pos = self.where.pop(j, self.last - j)
        self.n -= 1
        tail = self.moved.pop(self.n, None)
        if tail is None:
            tail = self.last - self.n
        else:
            self.where.pop(tail, None)
        if tail != j:
            self.moved[pos] = tail
            self.where[tail] = pos

    def update_duals(self, col4row: list) -> None:
        """scipy: the updates of ``u`` over SR and of ``v`` over SC."""
        u, v, explicit, min_val = self.u, self.v, self.explicit, self.min_val
        u[self.cur_row] += min_val
        for row in self.sr:
            if row != self.cur_row:
                u[row] += min_val - explicit[col4row[row]][0]
        for c in self.removed:
            v[c] -= min_val - explicit[c][0]
            if v[c] > 0:
                self.positive.add(c)
            else:
                self.positive.discard(c)


def _augment(explicit: dict, sink: int, cur_row: int, col4row: list, row4col: list) -> None:
    """scipy: the augmentation back along the path's predecessors."""
    j = sink
    while True:
        row = explicit[j][1]
        row4col[j] = row
        col4row[row], j = j, col4row[row]
        if row == cur_row:
            break


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
