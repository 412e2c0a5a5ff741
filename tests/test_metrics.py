"""The contingency metrics against literal implementations of their definitions,
and their invariants, on random partitions (exact matching)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from corefud_scorer.measures import mentions, metrics
from corefud_scorer.model import Document, Entity, Mention, position, sentence_of
from corefud_scorer import Options
from corefud_scorer.jobs.pipeline import align_documents

import textbook


def _document(entities) -> Document:
    """Entities given as sets of word numbers; each mention is one word."""
    return Document("d", [Entity(f"e{i}", [Mention((position(0, w),), position(0, w))
                                           for w in sorted(e)])
                          for i, e in enumerate(entities)])


@st.composite
def partitions(draw):
    """A key and a response partition over overlapping sets of mentions."""
    universe = draw(st.integers(min_value=0, max_value=14))
    words = list(range(1, universe + 1))
    def partition(present):
        labels = draw(st.lists(st.integers(0, 5), min_size=len(present), max_size=len(present)))
        groups = {}
        for w, label in zip(present, labels):
            groups.setdefault(label, set()).add(w)
        return list(groups.values())
    key_words = [w for w in words if draw(st.booleans()) or w % 3]
    response_words = [w for w in words if draw(st.booleans()) or w % 2]
    return partition(key_words), partition(response_words)


def _partition(key, response):
    return align_documents(_document(key), _document(response),
                           Options(match="exact", zero_match="linear", keep_singletons=True))


def _pair(counts: metrics.Counts):
    return ((counts.recall_num, counts.recall_den), (counts.precision_num, counts.precision_den))


def _close(a, b):
    return all(x == pytest.approx(y, rel=1e-12, abs=1e-12)
               for side_a, side_b in zip(a, b) for x, y in zip(side_a, side_b))


ENTITY_METRICS = {
    "muc": (metrics.muc, textbook.muc),
    "bcub": (metrics.b_cubed, textbook.b_cubed),
    "ceafe": (metrics.ceafe, textbook.ceafe),
    "ceafm": (metrics.ceafm, textbook.ceafm),
    "lea": (metrics.lea, textbook.lea),
}


@settings(max_examples=300, deadline=None)
@given(partitions())
def test_entity_metrics_equal_their_definitions(pair):
    key, response = pair
    partition = _partition(key, response)
    for name, (ours, reference) in ENTITY_METRICS.items():
        assert _close(_pair(ours(partition.contingency)), reference(key, response)), name
    coreference, non_coreference = textbook.blanc(key, response)
    assert _close(_pair(metrics.blanc_coreference(partition.contingency)), coreference)
    assert _close(_pair(metrics.blanc_non_coreference(partition.contingency)), non_coreference)


@settings(max_examples=200, deadline=None)
@given(partitions())
def test_swapping_key_and_response_swaps_recall_and_precision(pair):
    key, response = pair
    forward = _partition(key, response).contingency
    backward = _partition(response, key).contingency
    for name, (ours, _) in ENTITY_METRICS.items():
        f, b = _pair(ours(forward)), _pair(ours(backward))
        assert _close(f, (b[1], b[0])), name


@settings(max_examples=200, deadline=None)
@given(partitions(), st.randoms(use_true_random=False))
def test_renaming_and_reordering_entities_changes_nothing(pair, rng):
    key, response = pair
    base = _partition(key, response).contingency
    shuffled_key, shuffled_response = key[:], response[:]
    rng.shuffle(shuffled_key)
    rng.shuffle(shuffled_response)
    moved = _partition(shuffled_key, shuffled_response).contingency
    for name, (ours, _) in ENTITY_METRICS.items():
        assert _close(_pair(ours(base)), _pair(ours(moved))), name


@settings(max_examples=100, deadline=None)
@given(partitions())
def test_perfect_response_scores_one(pair):
    key, _ = pair
    if not any(len(e) > 1 for e in key):
        return
    contingency = _partition(key, key).contingency
    for name, (ours, _) in ENTITY_METRICS.items():
        counts = ours(contingency)
        assert metrics.ratio(counts.recall_num, counts.recall_den) == pytest.approx(1.0), name
        assert metrics.ratio(counts.precision_num, counts.precision_den) == pytest.approx(1.0), name


def test_muc_on_a_known_case():
    # key {1,2,3} {4,5}; response {1,2} {3,4,5}: recall (3-2 + 2-1)/(2+1) = 2/3
    counts = metrics.muc(_partition([{1, 2, 3}, {4, 5}], [{1, 2}, {3, 4, 5}]).contingency)
    assert _pair(counts) == ((2.0, 3.0), (2.0, 3.0))


def _random_partition(rng, words, entities):
    words = rng.sample(words, len(words))
    cuts = sorted(rng.sample(range(1, len(words)), entities - 1))
    return [set(words[a:b]) for a, b in zip([0] + cuts, cuts + [len(words)])]


def test_ceaf_alignment_is_solved_per_component_but_globally_optimal():
    rng = random.Random(7)
    for _ in range(50):
        key = _random_partition(rng, list(range(1, 30)), 6)
        response = _random_partition(rng, list(range(5, 40)), 8)
        contingency = _partition(key, response).contingency
        assert _close(_pair(metrics.ceafm(contingency)), textbook.ceafm(key, response))
        assert _close(_pair(metrics.ceafe(contingency)), textbook.ceafe(key, response))


def _mentions(rng, sentences):
    """Random mentions over a few sentences, some running into the next one."""
    out = []
    for _ in range(rng.randint(0, 9)):
        s = rng.randrange(sentences)
        start = rng.randint(1, 6)
        length = rng.randint(1, 4)
        words = tuple(position(s, w) for w in range(start, start + length))
        if rng.random() < 0.15 and s + 1 < sentences:
            words += tuple(position(s + 1, w) for w in range(1, rng.randint(2, 4)))
        out.append(Mention(words, words[0]))
    return out


def test_mention_overlap_pairs_sentence_by_sentence_as_the_whole_document():
    # MOR pairs mentions sentence by sentence (joining sentences a mention
    # spans); the one-to-one pairing of all mentions at once, scipy's, must
    # give the same shared words, with and without a memo of sentences.
    from types import SimpleNamespace

    from scipy.optimize import linear_sum_assignment
    import numpy as np

    rng = random.Random(5)
    memo: dict = {}
    crossing = 0
    for _ in range(300):
        key, response = _mentions(rng, 4), _mentions(rng, 4)
        crossing += any(len({sentence_of(w) for w in m.words}) > 1 for m in key + response)
        matrix = np.array([[len(set(k.words) & set(r.words)) for r in response] for k in key] or [[0]])
        rows, cols = linear_sum_assignment(matrix, maximize=True)
        expected = float(matrix[rows, cols].sum())
        p = SimpleNamespace(key=SimpleNamespace(entities=[key]), response=SimpleNamespace(entities=[response]))
        for with_memo in (None, memo):
            counts = mentions.mention_overlap(p, with_memo)
            assert counts.recall_num == counts.precision_num == expected
            assert counts.recall_den == sum(len(m.words) for m in key)
    assert crossing > 30 and memo
