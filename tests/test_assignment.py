"""The sparse assignment solver: the same pairs as scipy's dense solve, tie
for tie, in every shape; an optimum by an independent algorithm; and a size
no dense matrix could hold."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from corefud_scorer.alignment.assignment import parts, solve, solve_by_parts

PALETTES = {
    "one value": [1.0],
    "halves": [0.5, 1.0],
    "thirds": [1 / 3, 2 / 3, 1.0],
    "tenths": [k / 10 for k in range(1, 11)],
    "extremes": [1e-17, 0.1, 0.3, 1 / 3, 1.0, 1e16],
    "random": None,
}


def dense_pairs(n_rows, n_cols, weights):
    matrix = np.zeros((n_rows, n_cols))
    for (i, j), w in weights.items():
        matrix[i, j] = w
    rows, cols = linear_sum_assignment(-matrix)
    return [(int(i), int(j)) for i, j in zip(rows, cols)]


def random_weights(rng, n_rows, n_cols, density, palette):
    weights = {}
    for i in range(n_rows):
        for j in range(n_cols):
            if rng.random() < density:
                weights[i, j] = rng.choice(palette) if palette else rng.random()
    return weights


@pytest.mark.parametrize("palette", PALETTES)
def test_small_matrices_of_every_shape_and_density(palette):
    # Dense and nearly full matrices take the full-scan step; sparse ones the
    # implicit columns.
    rng = random.Random(palette)
    for _ in range(600):
        n_rows, n_cols = rng.randint(1, 9), rng.randint(1, 9)
        density = rng.choice([0.05, 0.2, 0.5, 0.9, 1.0])
        weights = random_weights(rng, n_rows, n_cols, density, PALETTES[palette])
        assert solve(n_rows, n_cols, weights) == dense_pairs(n_rows, n_cols, weights)


def banded_weights(rng, n_rows, n_cols, per_row, palette):
    """Few weights per row, near the diagonal, as mentions near each other."""
    weights = {}
    for i in range(n_rows):
        centre = i * n_cols // n_rows
        for _ in range(min(n_cols, int(rng.expovariate(1 / per_row)))):
            j = min(n_cols - 1, max(0, centre + rng.randint(-3, 3)))
            weights[i, j] = rng.choice(palette) if palette else rng.random()
    return weights


@pytest.mark.parametrize("shape", [(200, 200), (240, 160), (160, 240), (300, 40), (40, 300)])
def test_large_sparse_matrices(shape):
    rng = random.Random(str(shape))
    for _ in range(25):
        palette = PALETTES[rng.choice(list(PALETTES))]
        weights = banded_weights(rng, *shape, rng.choice([0.5, 1, 2, 4]), palette)
        assert solve(*shape, weights) == dense_pairs(*shape, weights)


def test_empty_sides_and_all_zero_matrices():
    assert solve(0, 5, {}) == []
    assert solve(3, 0, {}) == []
    # No weight at all: scipy pairs rows with columns in order; so do we.
    assert solve(3, 5, {}) == dense_pairs(3, 5, {}) == [(0, 0), (1, 1), (2, 2)]
    assert solve(4, 2, {}) == dense_pairs(4, 2, {})


def test_total_is_the_maximum_by_an_independent_algorithm():
    rng = random.Random(11)
    for _ in range(200):
        n_rows, n_cols = rng.randint(1, 30), rng.randint(1, 30)
        weights = banded_weights(rng, n_rows, n_cols, 2, PALETTES["tenths"])
        graph = nx.Graph()
        graph.add_weighted_edges_from((("r", i), ("c", j), w) for (i, j), w in weights.items())
        best = sum(graph.edges[e]["weight"] for e in nx.max_weight_matching(graph))
        total = sum(weights.get(pair, 0.0) for pair in solve(n_rows, n_cols, weights))
        assert total == pytest.approx(best, abs=1e-9)


def test_a_size_no_dense_matrix_could_hold():
    # 200,000 x 200,000 cells would take 320 GB as a dense matrix.
    n = 200_000
    rng = random.Random(5)
    weights = {}
    for i in range(n):
        weights[i, i] = 1.0
        if i + 1 < n and rng.random() < 0.3:
            weights[i, i + 1] = 1.0  # ties: a neighbour scores as much
    pairs = solve(n, n, weights)
    assert len(pairs) == n
    assert sum(weights.get(pair, 0.0) for pair in pairs) == n


def test_solving_by_parts_reaches_the_same_total():
    # scorer.pl's CEAF needs the optimal total only: one connected part at a time.
    rng = random.Random(23)
    for _ in range(500):
        n_rows, n_cols = rng.randint(1, 25), rng.randint(1, 25)
        palette = PALETTES[rng.choice(list(PALETTES))]
        weights = banded_weights(rng, n_rows, n_cols, rng.choice([0.5, 1, 2, 4]), palette)
        chosen = solve_by_parts(weights)
        assert len(set(chosen.values())) == len(chosen)
        assert all((i, j) in weights for i, j in chosen.items())
        total = sum(weights[i, j] for i, j in chosen.items())
        best = sum(weights.get(pair, 0.0) for pair in solve(n_rows, n_cols, weights))
        assert total == pytest.approx(best, rel=1e-12, abs=1e-300)


def test_parts_are_the_connected_components():
    cells = [(0, 0), (0, 1), (1, 2), (2, 2), (3, 3), (4, 1)]
    assert sorted(parts(cells)) == [([0, 4], [0, 1]), ([1, 2], [2]), ([3], [3])]
