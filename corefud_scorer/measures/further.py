"""Further coreference measures, each a small pure function of one document's
contingency (markable synchronisation, which rebuilds the contingency over
one mention set, is :mod:`.synchronisation`'s).

The formulas, sources and certainty of each are in
``docs/further-measures.md``; where that page gives a reading of a
measure whose original formula could not be checked, the measure here is
that reading and is named as such.

Every per-document function returns statistics that add across documents
(:class:`~corefud_scorer.measures.metrics.Counts` or one of the small dataclasses
below); the registry (:mod:`.registry`) names each one and turns the corpus
sums into its score.

Notation: ``n[i, j]`` the cells (aligned mentions of key entity i in
response entity j), ``a`` key and ``b`` response entity sizes. A mention is
*twinless* when it has no aligned partner on the other side; key entity i has
``a[i] - sum_j n[i, j]`` of them, response entity j ``b[j] - sum_i n[i, j]``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from math import comb, fsum, log2

from .metrics import Counts, b_cubed, blanc_coreference, ceafm, f1
from .statistics import ordered_sum
from ..alignment.contingency import Cells, Contingency
from ..lazy import lazy
from .synchronisation import rebuild, twinless
# Where the Python API has long documented them.
from .synchronisation import SYNC_OPTIONS, markable_identification, synchronise  # noqa: F401  (re-exported)

np = lazy("numpy")


# --- building a contingency ---

def contingency_of(key, response) -> Contingency:
    """The contingency of two partitions given as collections of sets of
    hashable mentions, a mention being the same mention on both sides."""
    key = [set(e) for e in key]
    response = [set(e) for e in response]
    owner = {m: j for j, entity in enumerate(response) for m in entity}
    rows, cols = [], []
    for i, entity in enumerate(key):
        for m in entity:
            if m in owner:
                rows.append(i)
                cols.append(owner[m])
    cells = Cells.from_pairs(rows, cols, len(response))
    return Contingency([len(e) for e in key], [len(e) for e in response], cells, cells, cells)


# --- B-cubed variants and pairwise links ---

def _square_sums(c: Contingency) -> tuple[np.ndarray, np.ndarray]:
    cells = c.recall_cells
    squares = cells.counts.astype(np.float64) ** 2
    return (np.bincount(cells.rows, weights=squares, minlength=len(c.key_sizes)),
            np.bincount(cells.cols, weights=squares, minlength=len(c.response_sizes)))


def b_cubed_entity(c: Contingency) -> Counts:
    """B-cubed with equal weight per entity (Bagga & Baldwin 1998, their
    second weighting): recall averages sum_j n[i,j]^2 / a[i]^2 over key
    entities, precision sum_i n[i,j]^2 / b[j]^2 over response entities.
    A twinless mention counts 0 on the other side, as in the CoNLL B-cubed."""
    rows, cols = _square_sums(c)
    a = c.key_sizes.astype(np.float64)
    b = c.response_sizes.astype(np.float64)
    return Counts(ordered_sum(rows / np.maximum(a, 1) ** 2), float(len(a)),
                  ordered_sum(cols / np.maximum(b, 1) ** 2), float(len(b)))


def b_cubed_all(c: Contingency) -> Counts:
    """B-cubed-all (Stoyanov et al. 2009, as CoreNLP's ``Ball``): all mentions
    kept, a twinless mention crediting only itself, so it earns 1/|entity|;
    recall averaged over key mentions, precision over response mentions."""
    rows, cols = _square_sums(c)
    key_twins, response_twins = twinless(c)
    a = c.key_sizes.astype(np.float64)
    b = c.response_sizes.astype(np.float64)
    return Counts(ordered_sum((rows + key_twins) / np.maximum(a, 1)), float(a.sum()),
                  ordered_sum((cols + response_twins) / np.maximum(b, 1)), float(b.sum()))


def _cai_strube(c: Contingency, metric) -> Counts:
    # Twinless response singletons dropped, twinless key mentions added to the
    # response as singletons; precision with the remaining twinless response
    # mentions added to the key as singletons, recall with them removed.
    for_precision = rebuild(c, "singleton", "singleton", drop_twinless_response_singletons=True)
    for_recall = rebuild(c, "singleton", "delete", drop_twinless_response_singletons=True)
    p, r = metric(for_precision), metric(for_recall)
    return Counts(r.recall_num, r.recall_den, p.precision_num, p.precision_den)


def b_cubed_sys(c: Contingency) -> Counts:
    """B-cubed-sys: Cai & Strube's (2010) adjustment for twinless mentions as
    transcribed by neleval (``cs_b_cubed``) and CoreNLP (``Bcai``)."""
    return _cai_strube(c, b_cubed)


def ceaf_sys(c: Contingency) -> Counts:
    """CEAF-sys: the same adjustment applied to the mention-based CEAF (phi3),
    as neleval's ``cs_ceaf`` does; one implementation of Cai & Strube's
    CEAF-sys, whose paper could not be checked on this point."""
    return _cai_strube(c, ceafm)


def pairwise(c: Contingency) -> Counts:
    """Coreference links (mention pairs in one entity) found in both, over
    the key's links (recall) and the response's (precision): BLANC's
    coreference part on its own."""
    return blanc_coreference(c)


def core_de(c: Contingency) -> Counts:
    """Core-DE in this scorer's reading (the formula of Popescu-Belis 2000
    could not be checked): the core of a key entity is the response entity
    holding most of its mentions, and recall counts the links kept in it,
    sum_i (max_j n[i,j] - 1) / sum_i (a[i] - 1); precision likewise from the
    response side. It never exceeds MUC. A response entity may be the core
    of several key entities; ties do not change the count. Needs one mention
    set (a synchronised contingency)."""
    cells = c.recall_cells
    row_max = np.zeros(len(c.key_sizes), dtype=np.int64)
    col_max = np.zeros(len(c.response_sizes), dtype=np.int64)
    np.maximum.at(row_max, cells.rows, cells.counts)
    np.maximum.at(col_max, cells.cols, cells.counts)
    return Counts(float(np.maximum(row_max - 1, 0).sum()), float((c.key_sizes - 1).sum()),
                  float(np.maximum(col_max - 1, 0).sum()), float((c.response_sizes - 1).sum()))


# --- agreement coefficients and entropy, on one mention set ---

class _Additive:
    """Field-wise addition for the statistics dataclasses."""

    def __add__(self, other):
        return type(self)(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


@dataclass
class KappaCounts(_Additive):
    """Mention pairs within documents: all of them, those linked in the key,
    in the response, in both, and in neither."""

    pairs: int = 0
    key_links: int = 0
    response_links: int = 0
    both_links: int = 0
    neither_links: int = 0


def kappa(c: Contingency) -> KappaCounts:
    """Cohen's kappa over all unordered pairs of one document's mentions,
    each pair coreferent or not on each side: the note's construction, not
    Passonneau's (1997) table, which could not be checked. Needs one mention
    set (a synchronised contingency)."""
    mentions = int(c.key_sizes.sum())
    pairs = comb(mentions, 2)
    key_links = sum(comb(int(x), 2) for x in c.key_sizes)
    response_links = sum(comb(int(x), 2) for x in c.response_sizes)
    both = sum(comb(int(x), 2) for x in c.recall_cells.counts)
    return KappaCounts(pairs, key_links, response_links, both,
                       pairs - key_links - response_links + both)


def kappa_value(k: KappaCounts) -> float | None:
    """kappa = (p_o - p_e) / (1 - p_e), chance from each side's link rate;
    1 when both sides put every pair the same way (p_e = 1); None without
    pairs."""
    if k.pairs == 0:
        return None
    from fractions import Fraction  # exact, and imported only where kappa is asked for

    pairs = Fraction(k.pairs)
    observed = (k.both_links + k.neither_links) / pairs
    pi_key, pi_response = k.key_links / pairs, k.response_links / pairs
    expected = pi_key * pi_response + (1 - pi_key) * (1 - pi_response)
    if expected == 1:
        return 1.0
    return float((observed - expected) / (1 - expected))


@dataclass
class AlphaCounts(_Additive):
    """Krippendorff's alpha statistics, distances in thirds so that they are
    whole numbers: units (mentions), 3 x the observed distance summed over
    units, 3 x the distance summed over the unordered pairs of the document's
    2N values, and (2N)^2 to count the pairs of values of different
    documents (always at distance 1) once the corpus is pooled."""

    units: int = 0
    observed_thirds: int = 0
    pair_thirds: int = 0
    values_squared: int = 0


def alpha(c: Contingency) -> AlphaCounts:
    """Krippendorff's alpha with Passonneau's (2004) set distance, two coders
    (key and response), units the mentions, a mention's value its entity:
    distance 0 for equal sets, 1/3 when one contains the other, 2/3 when they
    overlap otherwise, 1 when disjoint. Needs one mention set (a synchronised
    contingency)."""
    cells = c.recall_cells
    a = c.key_sizes.astype(np.int64)
    b = c.response_sizes.astype(np.int64)
    n = cells.counts.astype(np.int64)
    a_cell, b_cell = a[cells.rows], b[cells.cols]
    # Thirds of distance between the key and response entities of a cell.
    thirds = np.where((n == a_cell) & (n == b_cell), 0, np.where((n == a_cell) | (n == b_cell), 1, 2))
    units = int(a.sum())
    observed = int((n * thirds).sum())
    # Unordered pairs of values: two key values differ (distance 1) unless
    # of one entity, likewise two response values; a key and a response value
    # are at distance 1 unless their entities share mentions (the cells).
    key_key = (units * units - int((a * a).sum())) // 2
    response_response = (units * units - int((b * b).sum())) // 2
    key_response = 3 * units * units - int((a_cell * b_cell * (3 - thirds)).sum())
    pair_thirds = 3 * (key_key + response_response) + key_response
    return AlphaCounts(units, observed, pair_thirds, (2 * units) ** 2)


def alpha_value(s: AlphaCounts) -> float | None:
    """alpha = 1 - D_o / D_e over the pooled values of the corpus; 1 when no
    two values differ (D_e = 0), None without units."""
    if s.units == 0:
        return None
    from fractions import Fraction  # exact, and imported only where alpha is asked for

    values = 2 * s.units
    # Pairs of values from different documents: distance 1 each.
    across = (values * values - s.values_squared) // 2
    expected = Fraction(s.pair_thirds + 3 * across, 3) / Fraction(values * (values - 1), 2)
    observed = Fraction(s.observed_thirds, 3 * s.units)
    if expected == 0:
        return 1.0
    return float(1 - observed / expected)


@dataclass
class EntropyCounts(_Additive):
    """Mentions and the sums of x log2 x over key entity sizes, response
    entity sizes and contingency cells, from which every entropy follows."""

    mentions: float = 0.0
    key_xlogx: float = 0.0
    response_xlogx: float = 0.0
    joint_xlogx: float = 0.0


def _xlogx(values: np.ndarray) -> float:
    # Correctly rounded, so equal multisets of sizes give equal sums whatever
    # their order, and identical partitions lose exactly no information.
    x = values[values > 1].astype(np.float64)
    return fsum((x * np.log2(x)).tolist())


def entropy(c: Contingency) -> EntropyCounts:
    """Entropy statistics of one document (mentions uniform, entities as
    labels; entities of different documents are different labels). Needs one
    mention set (a synchronised contingency)."""
    return EntropyCounts(float(c.key_sizes.sum()), _xlogx(c.key_sizes), _xlogx(c.response_sizes),
                         _xlogx(c.recall_cells.counts))


@dataclass
class EntropyScore:
    """The entropy-based measure's figures (:func:`entropy_score`)."""

    recall: float
    precision: float
    f1: float
    variation_of_information: float  # bits
    counts: EntropyCounts


def entropy_score(s: EntropyCounts) -> EntropyScore:
    """The entropy-based measure in the note's reading of Popescu-Belis
    (2000, 2002): precision 1 - H(K|R)/H(K) (scikit-learn's homogeneity,
    1 when H(K) = 0), recall 1 - H(R|K)/H(R) (completeness), their F1
    (V-measure), and the variation of information H(K|R) + H(R|K) in bits."""
    n = s.mentions
    if n == 0:
        return EntropyScore(1.0, 1.0, 1.0, 0.0, s)
    log_n = log2(n)
    h_key = max(log_n - s.key_xlogx / n, 0.0)
    h_response = max(log_n - s.response_xlogx / n, 0.0)
    # H(K|R) = H(K,R) - H(R) and H(R|K), each with log n cancelled.
    lost = max((s.response_xlogx - s.joint_xlogx) / n, 0.0)
    gained = max((s.key_xlogx - s.joint_xlogx) / n, 0.0)
    precision = 1.0 if h_key == 0 else max(1.0 - lost / h_key, 0.0)
    recall = 1.0 if h_response == 0 else max(1.0 - gained / h_response, 0.0)
    return EntropyScore(recall, precision, f1(precision, recall), lost + gained, s)
