"""The entity-level metrics compute in plain Python (a pair is scored
without numpy) and give, to the bit, what their former numpy formulas gave:
those formulas are kept here as the reference, and both read generated
contingencies, hard cases included (empty ones, every entity one mention,
a span in two entities so that the three readings differ, weighted cells as
split antecedents make them, more cells than numpy's pairwise blocks)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from corefud_scorer.alignment import assignment
from corefud_scorer.alignment.contingency import Cells, Contingency, partition, prepare
from corefud_scorer.alignment.match import align, identity_function
from corefud_scorer.measures import metrics, synchronisation
from corefud_scorer.measures.statistics import array_sum, ordered_sum
from corefud_scorer.model import Document, Entity, Mention

# --- the numpy formulas, as the metrics computed them before ---


def _pairs(x):
    return x * (x - 1) / 2.0


def _cell_pairs(cells):
    n = cells.counts.astype(np.float64)
    return _pairs(n) if cells.squares is None else (n * n - cells.squares) / 2.0


def _ordered(values):
    array = np.asarray(values, dtype=np.float64)
    return float(np.cumsum(array)[-1]) if len(array) else 0.0


def _muc_side(groups, partners, counts, sizes, partner_sizes, singleton_links):
    kept = np.maximum(counts - 1, 0).sum()
    links = sizes.sum() - len(sizes)
    if singleton_links:
        kept += ((sizes[groups] == 1) & (counts == 1) & (partner_sizes[partners] == 1)).sum()
        links += (sizes == 1).sum()
    return float(kept), float(links)


def muc(c, singleton_links=False):
    r, p = c.recall_cells, c.precision_cells
    return metrics.Counts(*_muc_side(r.rows, r.cols, r.counts, c.key_sizes, c.response_sizes, singleton_links),
                          *_muc_side(p.cols, p.rows, p.counts, c.response_sizes, c.key_sizes, singleton_links))


def _b_cubed_side(groups, counts, sizes):
    squares = np.bincount(groups, weights=counts.astype(np.float64) ** 2, minlength=len(sizes))
    return _ordered(squares / np.maximum(sizes, 1)), float(sizes.sum())


def b_cubed(c):
    return metrics.Counts(*_b_cubed_side(c.recall_cells.rows, c.recall_cells.counts, c.key_sizes),
                          *_b_cubed_side(c.precision_cells.cols, c.precision_cells.counts, c.response_sizes))


def _lea_side(groups, partners, counts, links, sizes, partner_sizes):
    links = np.bincount(groups, weights=links, minlength=len(sizes))
    resolved = (sizes[groups] == 1) & (counts == 1) & (partner_sizes[partners] == 1)
    singleton_links = np.bincount(groups[resolved], minlength=len(sizes))
    all_links = np.where(sizes == 1, 1.0, _pairs(sizes.astype(np.float64)))
    common = np.where(sizes == 1, singleton_links, links)
    return _ordered(sizes * common / all_links), float(sizes.sum())


def lea(c):
    r, p = c.recall_cells, c.precision_cells
    return metrics.Counts(*_lea_side(r.rows, r.cols, r.counts, _cell_pairs(r), c.key_sizes, c.response_sizes),
                          *_lea_side(p.cols, p.rows, p.counts, _cell_pairs(p), c.response_sizes, c.key_sizes))


def _alignment_total(cells, weights, shape):
    if len(cells.counts) == 0:
        return 0.0
    weight_of = dict(zip(zip(cells.rows.tolist(), cells.cols.tolist()), weights.tolist()))
    pairs = assignment.solve(shape[0], shape[1], weight_of)
    return float(np.array([weight_of.get(pair, 0.0) for pair in pairs]).sum())


def ceafe(c):
    cells = c.ceaf_cells
    phi4 = 2 * cells.counts / (c.key_sizes[cells.rows] + c.response_sizes[cells.cols]).astype(np.float64)
    total = _alignment_total(cells, phi4, (len(c.key_sizes), len(c.response_sizes)))
    return metrics.Counts(total, float(len(c.key_sizes)), total, float(len(c.response_sizes)))


def ceafm(c):
    cells = c.ceaf_cells
    total = _alignment_total(cells, cells.counts.astype(np.float64), (len(c.key_sizes), len(c.response_sizes)))
    return metrics.Counts(total, float(c.key_sizes.sum()), total, float(c.response_sizes.sum()))


def blanc_coreference(c):
    common = float(_cell_pairs(c.recall_cells).sum())
    return metrics.Counts(common, float(_pairs(c.key_sizes.astype(np.float64)).sum()),
                          common, float(_pairs(c.response_sizes.astype(np.float64)).sum()))


def blanc_non_coreference(c):
    cells = c.recall_cells
    n = cells.counts.astype(np.float64)
    total = n.sum()
    row, col = np.bincount(cells.rows, weights=n), np.bincount(cells.cols, weights=n)
    common = (total ** 2 - (row ** 2).sum() - (col ** 2).sum() + (n ** 2).sum()) / 2
    a, b = c.key_sizes.astype(np.float64), c.response_sizes.astype(np.float64)
    return metrics.Counts(float(common), float(_pairs(a.sum()) - _pairs(a).sum()),
                          float(common), float(_pairs(b.sum()) - _pairs(b).sum()))


REFERENCE = {"muc": (muc, metrics.muc), "bcub": (b_cubed, metrics.b_cubed), "lea": (lea, metrics.lea),
             "ceafe": (ceafe, metrics.ceafe), "ceafm": (ceafm, metrics.ceafm),
             "blanc-coreference": (blanc_coreference, metrics.blanc_coreference),
             "blanc-non-coreference": (blanc_non_coreference, metrics.blanc_non_coreference)}


# --- generated contingencies ---

# Weights a split antecedent's alignment gives a mention: fractions of small sets.
WEIGHTS = [1.0, 2 / 3, 0.5, 0.4, 6 / 7, 0.8, 10 / 13, 0.25, 1 / 3]


def _cells(rng, rows_of, n_key, n_response, weighted) -> Cells:
    """Cells of mentions placed at random: each key mention of a row falls in
    a response entity or nowhere."""
    totals: dict = {}
    squares: dict = {}
    for i in range(n_key):
        for _ in range(rows_of[i]):
            if rng.random() < 0.2 or not n_response:
                continue
            j = rng.randrange(n_response) if rng.random() < 0.5 else min(i, n_response - 1)
            w = rng.choice(WEIGHTS) if weighted and rng.random() < 0.5 else 1.0
            totals[i, j] = totals.get((i, j), 0) + (w if weighted else 1)
            squares[i, j] = squares.get((i, j), 0.0) + w * w
    order = sorted(totals)
    return Cells(np.array([i for i, _ in order], dtype=np.int64), np.array([j for _, j in order], dtype=np.int64),
                 np.array([totals[k] for k in order], dtype=np.float64 if weighted else np.int64),
                 np.array([squares[k] for k in order]) if weighted else None)


def contingency(seed: int) -> Contingency:
    """A contingency of up to 300 entities a side, entities of 1 to 6
    mentions (all of one mention at times), with the three readings the same
    or different, weighted or not; given as arrays, as the array path made."""
    rng = random.Random(seed)
    big = rng.random() < 0.3
    n_key = rng.randrange(0, 300 if big else 12)
    n_response = rng.randrange(0, 300 if big else 12)
    largest = 1 if rng.random() < 0.15 else 6
    key_sizes = [rng.randint(1, largest) for _ in range(n_key)]
    response_sizes = [rng.randint(1, largest) for _ in range(n_response)]
    weighted = rng.random() < 0.4
    recall = _cells(rng, key_sizes, n_key, n_response, weighted)
    precision = recall if rng.random() < 0.5 else _cells(rng, key_sizes, n_key, n_response, weighted)
    ceaf = recall if rng.random() < 0.5 else _cells(rng, key_sizes, n_key, n_response, weighted)
    return Contingency(np.array(key_sizes, dtype=np.int64), np.array(response_sizes, dtype=np.int64),
                       recall, precision, ceaf)


def as_lists(c: Contingency) -> Contingency:
    """The same contingency made of lists, as the partition makes it."""
    def listed(cells):
        return Cells(cells.row_list, cells.col_list, cells.count_list, cells.square_list)

    recall = listed(c.recall_cells)
    precision = recall if c.precision_cells is c.recall_cells else listed(c.precision_cells)
    ceaf = recall if c.ceaf_cells is c.recall_cells else listed(c.ceaf_cells)
    return Contingency(c.key_size_list, c.response_size_list, recall, precision, ceaf)


def bits(counts) -> tuple:
    return tuple(float(x).hex() for x in (counts.recall_num, counts.recall_den,
                                          counts.precision_num, counts.precision_den))


def assert_same_bits(c: Contingency, lists: Contingency) -> None:
    for name, (reference, plain) in REFERENCE.items():
        expected = bits(reference(c))
        assert bits(plain(lists)) == expected, name
        assert bits(plain(c)) == expected, name
    assert bits(metrics.muc(lists, singleton_links=True)) == bits(muc(c, singleton_links=True))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_plain_metrics_give_the_numpy_formulas_figures_to_the_bit(seed):
    c = contingency(seed)
    assert_same_bits(c, as_lists(c))


@pytest.mark.parametrize("option", synchronisation.SYNC_OPTIONS)
def test_the_same_on_synchronised_contingencies(option):
    for seed in range(40):
        c = contingency(seed)
        if c.recall_cells.square_list is None:
            synchronised = synchronisation.synchronise(c, option)
            assert_same_bits(synchronised, as_lists(synchronised))


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), max_size=700))
def test_array_sum_is_numpys_sum_and_ordered_sum_its_cumsum(values):
    assert array_sum(values).hex() == float(np.array(values, dtype=np.float64).sum()).hex()
    assert ordered_sum(values).hex() == _ordered(values).hex()
    assert ordered_sum(np.array(values)).hex() == _ordered(values).hex()


def test_fractions_in_other_orders_would_differ():
    # Why the order is kept: the same fractions added left to right, and
    # numpy's way, differ in the last bit.
    values = [2 / 7, 2 / 9, 2 / 11, 2 / 13, 2 / 15, 2 / 17, 2 / 19, 2 / 21, 2 / 23] * 20
    assert ordered_sum(values) != array_sum(values)


# --- the three readings of a partition, spans in two entities included ---

def _document(rng, pool) -> Document:
    entities = [Entity(f"e{n}", [Mention(words, words[0]) for words in rng.sample(pool, rng.randint(1, min(4, len(pool))))])
                for n in range(rng.randint(0, 6))]
    return Document("d", entities)


def _literal(key: list, response: list) -> tuple[Counter, Counter, Counter]:
    """Recall, precision and membership cells from their definitions
    (exact matching: a span is its own partner; a lookup finds the last
    entity holding it)."""
    last_key = {x: i for i, entity in enumerate(key) for x in entity}
    last_response = {x: j for j, entity in enumerate(response) for x in entity}
    recall = Counter((i, last_response[x]) for i, entity in enumerate(key) for x in entity if x in last_response)
    precision = Counter((last_key[y], j) for j, entity in enumerate(response) for y in entity if y in last_key)
    membership = Counter((i, j) for i, entity in enumerate(key) for x in entity
                         for j, other in enumerate(response) if x in other)
    return recall, precision, membership


def _counted(cells: Cells) -> Counter:
    return Counter(dict(zip(zip(cells.row_list, cells.col_list), cells.count_list)))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9))
def test_a_partition_reads_its_cells_as_defined(seed):
    rng = random.Random(seed)
    pool = [(k,) for k in range(1, rng.randint(2, 9))]  # few spans: many stand in two entities
    key_doc, response_doc = _document(rng, pool), _document(rng, pool)
    identity = identity_function("exact")
    key, response = (prepare(doc, identity, keep_singletons=True) for doc in (key_doc, response_doc))
    p = partition("d", key, response, align(key.distinct, response.distinct, "exact", "linear"), identity)
    recall, precision, membership = _literal(*([[m.words for m in dict.fromkeys(e.mentions)] for e in doc.entities]
                                               for doc in (key_doc, response_doc)))
    c = p.contingency
    assert (_counted(c.recall_cells), _counted(c.precision_cells), _counted(c.ceaf_cells)) == \
        (recall, precision, membership)
    assert c.key_size_list == [len(set(m.words for m in e.mentions)) for e in key_doc.entities]
