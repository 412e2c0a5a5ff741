"""Coreference metrics as small pure functions.

The entity-level metrics (MUC, B-cubed, CEAF-e, CEAF-m, LEA, BLANC) read one
document's :class:`~corefud_scorer.alignment.contingency.Contingency` (those that
read the aligned mentions are in :mod:`.mentions`). Each returns
:class:`Counts`, the sufficient statistics that add across documents; scores
are computed once from the sums (:func:`ratio`, :func:`f1`), with scorer
1.2's rule that a ratio with a zero numerator is 0 (so 0/0 is 0), in plain
Python, to the bit what arrays gave (:mod:`.statistics`).

Notation: ``n[i, j]`` the contingency cells (the mentions of key entity i
aligned to mentions of response entity j), ``a`` key entity sizes, ``b``
response entity sizes, ``C(x) = x(x-1)/2``. The examples are Pradhan et al.
(2014, section 4)'s: key {a, b, c} {d, e, f, g} and response {a, b} {c, d}
{f, g, h, i}, ``e`` missed, ``h`` and ``i`` invented.
"""

from __future__ import annotations

from ..alignment import assignment
from .statistics import (BlancCounts, BridgingCounts, Counts, array_sum, f1, group_sums,  # noqa: F401  (re-exported)
                         ordered_sum, ratio)
from ..alignment.contingency import Cells, Contingency


def _pairs(x):
    return x * (x - 1) / 2.0


def _cell_pairs(cells: Cells) -> list:
    """Mention pairs in each cell; weighted, their weights' products summed: (n² - Σw²)/2."""
    if cells.square_list is None:
        return [n * (n - 1) / 2.0 for n in cells.count_list]
    return [(n * n - w) / 2.0 for n, w in zip(cells.count_list, cells.square_list)]


def _resolved_singletons(groups, partners, counts, sizes, partner_sizes):
    """Per cell: an entity of one mention whose partner entity is one mention too."""
    return [sizes[g] == 1 and n == 1 and partner_sizes[p] == 1 for g, p, n in zip(groups, partners, counts)]


# --- entity-level metrics over the contingency ---

def _muc_side(groups, partners, counts, sizes, partner_sizes, singleton_links) -> tuple[float, float]:
    # Each entity of size s needs s-1 links; in each entity of the other side
    # its mentions fall into it keeps all of them but one (unaligned mentions
    # cost a link each). A cell of a split antecedent's weight alone (below 1,
    # :mod:`.split_antecedents`) keeps nothing, as an unaligned one.
    kept = array_sum([n - 1 if n > 1 else 0 * n for n in counts])
    links = sum(sizes) - len(sizes)
    if singleton_links:
        # An entity of one mention is one link, kept when its mention's
        # partner entity is one mention too (as LEA reads singletons).
        kept += sum(_resolved_singletons(groups, partners, counts, sizes, partner_sizes))
        links += sizes.count(1)
    return float(kept), float(links)


def muc(c: Contingency, singleton_links: bool = False) -> Counts:
    """MUC: the links that hold each entity together, kept by the other side.

    A key entity of ``a_i`` mentions needs ``a_i - 1`` links; the response
    keeps all of them but one for each part it splits the entity into (a
    mention without a partner is a part of its own). Precision swaps sides.

    Parameters
    ----------
    c : Contingency
        One document's key x response contingency.
    singleton_links : bool, default=False
        An entity of one mention is one link, kept when its mention's partner
        entity is one mention too (how split antecedents' sets are compared).

    Returns
    -------
    Counts
        Statistics that add across documents; :func:`ratio` and :func:`f1`
        turn their corpus sums into the score.

    Notes
    -----
    With ``p(K_i)`` the parts of key entity ``K_i`` in the response's partition:

        R = sum_i (a_i - |p(K_i)|) / sum_i (a_i - 1)
          = sum_ij max(n[i, j] - 1, 0) / (sum_i a_i - number of key entities)

    and P the same with the sides swapped. A singleton counts for nothing.

    References
    ----------
    Vilain, M., Burger, J., Aberdeen, J., Connolly, D. and Hirschman, L. (1995).
    A model-theoretic coreference scoring scheme. In Proceedings of MUC-6, 45-52.

    Examples
    --------
    >>> from corefud_scorer.measures.further import contingency_of
    >>> from corefud_scorer.measures.metrics import muc, ratio
    >>> c = contingency_of([{"a", "b", "c"}, {"d", "e", "f", "g"}],
    ...                    [{"a", "b"}, {"c", "d"}, {"f", "g", "h", "i"}])
    >>> muc(c)
    Counts(recall_num=2.0, recall_den=5.0, precision_num=2.0, precision_den=5.0)
    >>> ratio(muc(c).recall_num, muc(c).recall_den)
    0.4
    """
    r, p, a, b = c.recall_cells, c.precision_cells, c.key_size_list, c.response_size_list
    rn, rd = _muc_side(r.row_list, r.col_list, r.count_list, a, b, singleton_links)
    pn, pd = _muc_side(p.col_list, p.row_list, p.count_list, b, a, singleton_links)
    return Counts(rn, rd, pn, pd)


def _b_cubed_side(groups: list, counts: list, sizes: list) -> tuple[float, float]:
    squares = group_sums(groups, [float(n) * float(n) for n in counts], len(sizes))
    return ordered_sum([s / max(size, 1) for s, size in zip(squares, sizes)]), float(sum(sizes))


def b_cubed(c: Contingency) -> Counts:
    """B-cubed: for each mention, how much of its entity the other side agrees on.

    A key mention's recall is the share of its key entity found in its
    partner's response entity; recall averages over every key mention,
    precision (the sides swapped) over every response mention, so a mention
    without a partner scores 0 (the CoNLL reading, Pradhan et al. 2014).

    Parameters
    ----------
    c : Contingency
        One document's key x response contingency.

    Returns
    -------
    Counts
        Statistics that add across documents; :func:`ratio` and :func:`f1`
        turn their corpus sums into the score.

    Notes
    -----
    Each mention weighs the same (Bagga and Baldwin's first weighting):

        R = sum_ij n[i, j]**2 / a_i / sum_i a_i
        P = sum_ij n[i, j]**2 / b_j / sum_j b_j

    References
    ----------
    Bagga, A. and Baldwin, B. (1998). Algorithms for scoring coreference chains.
    In Proceedings of the LREC Workshop on Linguistic Coreference, 563-566.

    Examples
    --------
    >>> from corefud_scorer.measures.further import contingency_of
    >>> from corefud_scorer.measures.metrics import b_cubed, ratio
    >>> c = contingency_of([{"a", "b", "c"}, {"d", "e", "f", "g"}],
    ...                    [{"a", "b"}, {"c", "d"}, {"f", "g", "h", "i"}])
    >>> b = b_cubed(c)
    >>> round(ratio(b.recall_num, b.recall_den), 4), ratio(b.precision_num, b.precision_den)
    (0.4167, 0.5)
    """
    r, p = c.recall_cells, c.precision_cells
    rn, rd = _b_cubed_side(r.row_list, r.count_list, c.key_size_list)
    pn, pd = _b_cubed_side(p.col_list, p.count_list, c.response_size_list)
    return Counts(rn, rd, pn, pd)


def _lea_side(groups, partners, counts, links, sizes, partner_sizes) -> tuple[float, float]:
    links = group_sums(groups, links, len(sizes))
    # A singleton is one self-link, resolved when its mention's partner
    # entity is a singleton too.
    singleton_links = group_sums(groups, _resolved_singletons(groups, partners, counts, sizes, partner_sizes),
                                len(sizes))
    shares = [size * (resolved if size == 1 else common) / (1.0 if size == 1 else _pairs(float(size)))
              for size, resolved, common in zip(sizes, singleton_links, links)]
    return ordered_sum(shares), float(sum(sizes))


def lea(c: Contingency) -> Counts:
    """LEA: the links of each entity the other side resolves, weighted by its size.

    An entity of ``a_i`` mentions has ``link(a_i) = a_i (a_i - 1) / 2``
    links and weighs ``a_i``; a singleton has one link, to itself, resolved
    when its mention's partner is a singleton too. Precision swaps sides.

    Parameters
    ----------
    c : Contingency
        One document's key x response contingency.

    Returns
    -------
    Counts
        Statistics that add across documents; :func:`ratio` and :func:`f1`
        turn their corpus sums into the score.

    Notes
    -----
    The formula:

        R = sum_i a_i * (sum_j link(n[i, j]) / link(a_i)) / sum_i a_i

    and P the same over the response's entities. Where mentions carry weights
    (split antecedents), a cell's links add the products of their weights.

    References
    ----------
    Moosavi, N. S. and Strube, M. (2016). Which coreference evaluation metric do
    you trust? A proposal for a link-based entity aware metric. In Proceedings
    of ACL 2016, 632-642.

    Examples
    --------
    >>> from corefud_scorer.measures.further import contingency_of
    >>> from corefud_scorer.measures.metrics import lea, ratio
    >>> c = contingency_of([{"a", "b", "c"}, {"d", "e", "f", "g"}],
    ...                    [{"a", "b"}, {"c", "d"}, {"f", "g", "h", "i"}])
    >>> score = lea(c)
    >>> round(ratio(score.recall_num, score.recall_den), 4)
    0.2381
    """
    r, p, a, b = c.recall_cells, c.precision_cells, c.key_size_list, c.response_size_list
    rn, rd = _lea_side(r.row_list, r.col_list, r.count_list, _cell_pairs(r), a, b)
    pn, pd = _lea_side(p.col_list, p.row_list, p.count_list, _cell_pairs(p), b, a)
    return Counts(rn, rd, pn, pd)


def alignment_total(cells: Cells, weights: list, shape: tuple[int, int]) -> float:
    """The maximum total weight of a one-to-one alignment of rows (key
    entities) and columns (response entities), added up as 1.2 adds it:
    numpy's sum over the cells of the assignment its solver returns, zero
    cells included, in the solver's order (rows in order; for a tall matrix,
    the assigned rows in order). Whole numbers add up exactly in any order,
    to the one optimal total: their alignment is solved a part at a time."""
    if not cells.count_list:
        return 0.0
    weight_of = dict(zip(zip(cells.row_list, cells.col_list), weights))
    if all(type(w) is int for w in weights):
        return float(sum(weight_of[pair] for pair in assignment.solve_by_parts(weight_of).items()))
    pairs = assignment.solve(shape[0], shape[1], weight_of)
    return array_sum([weight_of.get(pair, 0.0) for pair in pairs])


def ceafe(c: Contingency) -> Counts:
    """CEAF-e: the best one-to-one alignment of entities by their similarity.

    Key and response entities are aligned one to one for the largest total
    similarity (solved as scorer 1.2 solves it, ties included, by
    :mod:`..alignment.assignment`); recall divides the total by the key's entities,
    precision by the response's.

    Parameters
    ----------
    c : Contingency
        One document's key x response contingency.

    Returns
    -------
    Counts
        Statistics that add across documents; :func:`ratio` and :func:`f1`
        turn their corpus sums into the score.

    Notes
    -----
    With ``phi4(K_i, R_j) = 2 n[i, j] / (a_i + b_j)`` and ``g`` the best alignment:

        R = sum_i phi4(K_i, R_g(i)) / number of key entities
        P = sum_i phi4(K_i, R_g(i)) / number of response entities

    References
    ----------
    Luo, X. (2005). On coreference resolution performance metrics. In
    Proceedings of HLT/EMNLP 2005, 25-32.

    Examples
    --------
    >>> from corefud_scorer.measures.further import contingency_of
    >>> from corefud_scorer.measures.metrics import ceafe
    >>> c = contingency_of([{"a", "b", "c"}, {"d", "e", "f", "g"}],
    ...                    [{"a", "b"}, {"c", "d"}, {"f", "g", "h", "i"}])
    >>> ceafe(c)
    Counts(recall_num=1.3, recall_den=2.0, precision_num=1.3, precision_den=3.0)
    """
    cells, a, b = c.ceaf_cells, c.key_size_list, c.response_size_list
    phi4 = [2 * n / float(a[i] + b[j]) for i, j, n in zip(cells.row_list, cells.col_list, cells.count_list)]
    similarity = alignment_total(cells, phi4, (len(a), len(b)))
    return Counts(similarity, float(len(a)), similarity, float(len(b)))


def ceafm(c: Contingency) -> Counts:
    """CEAF-m: the best one-to-one alignment of entities by the mentions they share.

    As :func:`ceafe`, with the mentions two entities share as their
    similarity; recall divides by the key's mentions, precision by the
    response's.

    Parameters
    ----------
    c : Contingency
        One document's key x response contingency.

    Returns
    -------
    Counts
        Statistics that add across documents; :func:`ratio` and :func:`f1`
        turn their corpus sums into the score.

    Notes
    -----
    With ``phi3(K_i, R_j) = n[i, j]`` and ``g`` the best alignment:

        R = sum_i n[i, g(i)] / sum_i a_i
        P = sum_i n[i, g(i)] / sum_j b_j

    References
    ----------
    Luo, X. (2005). On coreference resolution performance metrics. In
    Proceedings of HLT/EMNLP 2005, 25-32.

    Examples
    --------
    >>> from corefud_scorer.measures.further import contingency_of
    >>> from corefud_scorer.measures.metrics import ceafm
    >>> c = contingency_of([{"a", "b", "c"}, {"d", "e", "f", "g"}],
    ...                    [{"a", "b"}, {"c", "d"}, {"f", "g", "h", "i"}])
    >>> ceafm(c)
    Counts(recall_num=4.0, recall_den=7.0, precision_num=4.0, precision_den=8.0)
    """
    cells, a, b = c.ceaf_cells, c.key_size_list, c.response_size_list
    similarity = alignment_total(cells, cells.count_list, (len(a), len(b)))
    return Counts(similarity, float(sum(a)), similarity, float(sum(b)))


def blanc_coreference(c: Contingency) -> Counts:
    """BLANC's coreference part (:func:`blanc`): mention pairs in one entity."""
    common = array_sum(_cell_pairs(c.recall_cells))
    return Counts(common, float(sum(_pairs(a) for a in c.key_size_list)),
                  common, float(sum(_pairs(b) for b in c.response_size_list)))


def blanc_non_coreference(c: Contingency) -> Counts:
    """BLANC's non-coreference part (:func:`blanc`): aligned mention pairs in
    different entities on both sides."""
    cells = c.recall_cells
    n = [float(x) for x in cells.count_list]
    total = array_sum(n)
    # bincount's length: up to the highest entity with a cell.
    row = group_sums(cells.row_list, n, max(cells.row_list, default=-1) + 1)
    col = group_sums(cells.col_list, n, max(cells.col_list, default=-1) + 1)
    # Aligned mention pairs in different key entities and different response entities.
    common = (total ** 2 - array_sum([x * x for x in row]) - array_sum([x * x for x in col])
              + array_sum([x * x for x in n])) / 2
    a, b = c.key_size_list, c.response_size_list
    key_links = _pairs(float(sum(a))) - float(sum(_pairs(x) for x in a))
    response_links = _pairs(float(sum(b))) - float(sum(_pairs(x) for x in b))
    return Counts(float(common), float(key_links), float(common), float(response_links))


def blanc(c: Contingency) -> BlancCounts:
    """BLANC: coreference links and non-coreference links, each scored apart.

    A pair of one side's mentions is a coreference link when both stand in
    one entity, a non-coreference link otherwise. The score averages the two
    parts' recall, precision and F1, leaving out a part without links on
    either side (both sides' links count, after Luo et al. 2014).

    Parameters
    ----------
    c : Contingency
        One document's key x response contingency.

    Returns
    -------
    BlancCounts
        The two parts' :class:`Counts`, which add across documents.

    Notes
    -----
    With ``C(x) = x (x - 1) / 2``, row sums ``r_i``, column sums ``s_j`` and
    ``N = sum_ij n[i, j]``:

        R_c = sum_ij C(n[i, j]) / sum_i C(a_i)
        P_c = sum_ij C(n[i, j]) / sum_j C(b_j)
        common_n = (N**2 - sum_i r_i**2 - sum_j s_j**2 + sum_ij n[i, j]**2) / 2
        R_n = common_n / (C(sum_i a_i) - sum_i C(a_i)), P_n alike with b

    References
    ----------
    Recasens, M. and Hovy, E. (2011). BLANC: Implementing the Rand index for
    coreference evaluation. Natural Language Engineering 17(4), 485-510.
    Luo, X., Pradhan, S., Recasens, M. and Hovy, E. (2014). An extension of
    BLANC to system mentions. In Proceedings of ACL 2014, 24-29.

    Examples
    --------
    >>> from corefud_scorer.measures.further import contingency_of
    >>> from corefud_scorer.measures.metrics import blanc
    >>> c = contingency_of([{"a", "b", "c"}, {"d", "e", "f", "g"}],
    ...                    [{"a", "b"}, {"c", "d"}, {"f", "g", "h", "i"}])
    >>> blanc(c).coreference
    Counts(recall_num=2.0, recall_den=9.0, precision_num=2.0, precision_den=8.0)
    >>> blanc(c).non_coreference
    Counts(recall_num=8.0, recall_den=12.0, precision_num=8.0, precision_den=20.0)
    """
    return BlancCounts(blanc_coreference(c), blanc_non_coreference(c))
