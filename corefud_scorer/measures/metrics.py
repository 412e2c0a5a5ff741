"""Coreference metrics as small pure functions.

The entity-level metrics (MUC, B-cubed, CEAF-e, CEAF-m, LEA, BLANC) read one
document's :class:`~corefud_scorer.alignment.contingency.Contingency` (those that
read the aligned mentions are in :mod:`.mentions`). Each returns
:class:`Counts`, the sufficient statistics that add across documents; scores
are computed once from the sums (:func:`ratio`, :func:`f1`), with scorer
1.2's rule that a ratio with a zero numerator is 0 (so 0/0 is 0).

Notation: ``n[i, j]`` the contingency cells, ``a`` key entity sizes, ``b``
response entity sizes, ``C(x) = x(x-1)/2``.
"""

from __future__ import annotations

import numpy as np

from ..alignment import assignment
from .statistics import BlancCounts, BridgingCounts, Counts, f1, ratio  # noqa: F401  (re-exported)
from ..alignment.contingency import Cells, Contingency


def ordered_sum(values) -> float:
    """Left-to-right float addition, as 1.2's accumulating loops add (numpy's
    pairwise summation and the compensated ``sum`` of Python 3.12+ can differ
    from it in the last bit, which can move a rounded percentage)."""
    array = np.asarray(values, dtype=np.float64)
    return float(np.cumsum(array)[-1]) if len(array) else 0.0


def _pairs(x):
    return x * (x - 1) / 2.0


def _cell_pairs(cells: Cells) -> np.ndarray:
    """Mention pairs within each cell; with weighted mentions, the sum over
    those pairs of the product of their weights, (n² - Σw²)/2."""
    n = cells.counts.astype(np.float64)
    if cells.squares is None:
        return _pairs(n)
    return (n * n - cells.squares) / 2.0


# --- entity-level metrics over the contingency ---

def _muc_side(groups, partners, counts, sizes, partner_sizes, singleton_links) -> tuple[float, float]:
    # Each entity of size s needs s-1 links; in each entity of the other
    # side its mentions fall into it keeps all of them but one (unaligned
    # mentions cost a link each). A cell holding only a split antecedent's
    # weight (below 1, :mod:`~corefud_scorer.measures.split_antecedents`) keeps nothing, as an unaligned one.
    kept = np.maximum(counts - 1, 0).sum()
    links = sizes.sum() - len(sizes)
    if singleton_links:
        # An entity of one mention is one link, kept when its mention's
        # partner entity is one mention too (as LEA reads singletons).
        kept += ((sizes[groups] == 1) & (counts == 1) & (partner_sizes[partners] == 1)).sum()
        links += (sizes == 1).sum()
    return float(kept), float(links)


def muc(c: Contingency, singleton_links: bool = False) -> Counts:
    """MUC; with ``singleton_links``, singletons count as one link each (how
    two split antecedents' sets of entities are compared)."""
    r, p = c.recall_cells, c.precision_cells
    rn, rd = _muc_side(r.rows, r.cols, r.counts, c.key_sizes, c.response_sizes, singleton_links)
    pn, pd = _muc_side(p.cols, p.rows, p.counts, c.response_sizes, c.key_sizes, singleton_links)
    return Counts(rn, rd, pn, pd)


def _b_cubed_side(groups: np.ndarray, counts: np.ndarray, sizes: np.ndarray) -> tuple[float, float]:
    squares = np.bincount(groups, weights=counts.astype(np.float64) ** 2, minlength=len(sizes))
    return ordered_sum(squares / np.maximum(sizes, 1)), float(sizes.sum())


def b_cubed(c: Contingency) -> Counts:
    rn, rd = _b_cubed_side(c.recall_cells.rows, c.recall_cells.counts, c.key_sizes)
    pn, pd = _b_cubed_side(c.precision_cells.cols, c.precision_cells.counts, c.response_sizes)
    return Counts(rn, rd, pn, pd)


def _lea_side(groups, partners, counts, links, sizes, partner_sizes) -> tuple[float, float]:
    links = np.bincount(groups, weights=links, minlength=len(sizes))
    # A singleton is one self-link, resolved when its mention's partner
    # entity is a singleton too.
    resolved_singleton = (sizes[groups] == 1) & (counts == 1) & (partner_sizes[partners] == 1)
    singleton_links = np.bincount(groups[resolved_singleton], minlength=len(sizes))
    all_links = np.where(sizes == 1, 1.0, _pairs(sizes.astype(np.float64)))
    common = np.where(sizes == 1, singleton_links, links)
    return ordered_sum(sizes * common / all_links), float(sizes.sum())


def lea(c: Contingency) -> Counts:
    r, p = c.recall_cells, c.precision_cells
    rn, rd = _lea_side(r.rows, r.cols, r.counts, _cell_pairs(r), c.key_sizes, c.response_sizes)
    pn, pd = _lea_side(p.cols, p.rows, p.counts, _cell_pairs(p), c.response_sizes, c.key_sizes)
    return Counts(rn, rd, pn, pd)


def alignment_total(cells: Cells, weights: np.ndarray, shape: tuple[int, int]) -> float:
    """The maximum total weight of a one-to-one alignment of rows (key
    entities) and columns (response entities), added up as 1.2 adds it:
    numpy's sum over the cells of the assignment its solver returns, zero
    cells included, in the solver's order (rows in order; for a tall matrix,
    the assigned rows in order)."""
    if len(cells.counts) == 0:
        return 0.0
    weight_of = dict(zip(zip(cells.rows.tolist(), cells.cols.tolist()), weights.tolist()))
    pairs = assignment.solve(shape[0], shape[1], weight_of)
    return float(np.array([weight_of.get(pair, 0.0) for pair in pairs]).sum())


def ceafe(c: Contingency) -> Counts:
    cells = c.ceaf_cells
    phi4 = 2 * cells.counts / (c.key_sizes[cells.rows] + c.response_sizes[cells.cols]).astype(np.float64)
    similarity = alignment_total(cells, phi4, (len(c.key_sizes), len(c.response_sizes)))
    return Counts(similarity, float(len(c.key_sizes)), similarity, float(len(c.response_sizes)))


def ceafm(c: Contingency) -> Counts:
    cells = c.ceaf_cells
    similarity = alignment_total(cells, cells.counts.astype(np.float64),
                                   (len(c.key_sizes), len(c.response_sizes)))
    return Counts(similarity, float(c.key_sizes.sum()), similarity, float(c.response_sizes.sum()))


def blanc_coreference(c: Contingency) -> Counts:
    common = float(_cell_pairs(c.recall_cells).sum())
    return Counts(common, float(_pairs(c.key_sizes.astype(np.float64)).sum()),
                  common, float(_pairs(c.response_sizes.astype(np.float64)).sum()))


def blanc_non_coreference(c: Contingency) -> Counts:
    cells = c.recall_cells
    n = cells.counts.astype(np.float64)
    total = n.sum()
    row = np.bincount(cells.rows, weights=n)
    col = np.bincount(cells.cols, weights=n)
    # Aligned mention pairs in different key entities and different response entities.
    common = (total ** 2 - (row ** 2).sum() - (col ** 2).sum() + (n ** 2).sum()) / 2
    a, b = c.key_sizes.astype(np.float64), c.response_sizes.astype(np.float64)
    key_links = _pairs(a.sum()) - _pairs(a).sum()
    response_links = _pairs(b.sum()) - _pairs(b).sum()
    return Counts(float(common), float(key_links), float(common), float(response_links))


def blanc(c: Contingency) -> BlancCounts:
    return BlancCounts(blanc_coreference(c), blanc_non_coreference(c))
