"""Bootstrap intervals and paired tests over per-document statistics, held
to direct loops written here (one sample, one trial at a time)."""

from __future__ import annotations

import math
from dataclasses import fields

import numpy as np
import pytest

from corefud_scorer import Options, score
from corefud_scorer.jobs.bench import macro_average as bench_macro
from corefud_scorer.measures.statistics import Counts
from corefud_scorer.results import DocumentResult
from corefud_scorer.measures.registry import CONLL_SCORE as CONLL
from corefud_scorer.jobs.significance import (DEFAULT_SEED, Interval, approximate_randomization, confidence_intervals,
                                              paired_bootstrap)
from corefud_scorer.jobs.stacked import Layout, Statistics

from conftest import FIXTURES

CRAC = ("muc", "bcub", "ceafe", "zero")


def synthetic(systems: int, documents: int, metrics=CRAC, seed=7, shift=None, noise=0.2) -> Statistics:
    """Random statistics over the same mentions (denominators shared by the
    systems, numerators at most their denominators); system ``s`` finds a
    share ``base + shift[s]`` of what can be found, ``base`` drawn per
    document and metric and moved up to ``noise`` per system."""
    rng = np.random.default_rng(seed)
    layout = Layout.of(metrics)
    den = rng.integers(5, 40, size=(documents, layout.width)).astype(np.float64)
    base = rng.uniform(0.3, 0.7, size=(documents, layout.width))
    data = np.empty((systems, documents, layout.width))
    for s in range(systems):
        share = np.clip(base + rng.uniform(-noise, noise, size=base.shape) + (shift[s] if shift else 0.0), 0, 1)
        for c in range(0, layout.width, 4):
            found = np.floor(share[:, c] * np.minimum(den[:, c + 1], den[:, c + 3]))
            data[s, :, c], data[s, :, c + 1] = found, den[:, c + 1]
            data[s, :, c + 2], data[s, :, c + 3] = found, den[:, c + 3]
    return Statistics([data], layout)


# --- the scores of one set of sums, written out plainly ---

def ratio(num, den):
    return 0.0 if num == 0 else num / den


def prf(c):
    r, p = ratio(c[0], c[1]), ratio(c[2], c[3])
    return r, p, (0.0 if p + r == 0 else 2 * p * r / (p + r))


def plain_scores(sums, metrics):
    out, col = {}, 0
    for name in metrics:
        c = [float(x) for x in sums[col:col + 4]]
        col += 4
        if name == "zero" and c[1] == 0 and c[3] == 0:
            out[name] = (math.nan,) * 3
        else:
            out[name] = prf(c)
    if all(n in metrics for n in ("muc", "bcub", "ceafe")):
        out[CONLL] = (None, None, (out["muc"][2] + out["bcub"][2] + out["ceafe"][2]) / 3)
    return out


def loop_bootstrap(data, metrics, samples, seed):
    """Per sample, per system: the figures, one sample at a time."""
    rng = np.random.default_rng(seed)
    documents = data.shape[1]
    result = []
    for _ in range(samples):
        index = rng.integers(0, documents, size=documents)
        result.append([plain_scores(data[s][index].sum(axis=0), metrics) for s in range(data.shape[0])])
    return result


# --- identical systems, clearly better systems ---

def test_identical_systems_give_p_one_and_a_zero_width_interval():
    stats = synthetic(1, 50)
    twice = Statistics([np.concatenate([stats.groups[0]] * 2)], stats.layout)
    for tests in (paired_bootstrap(twice, 300)[0], approximate_randomization(twice, 500, interval_samples=200)[0]):
        for name, t in tests.items():
            assert t.difference == 0.0, name
            assert t.p_value == 1.0, name
            assert t.interval == (0.0, 0.0), name
            assert t.count == t.trials


def test_better_on_every_document_of_200_is_significant():
    stats = synthetic(2, 200, shift=[0.0, 0.15], noise=0.0)
    data = stats.groups[0]
    for name, cols in stats.layout.columns.items():
        num = data[:, :, cols.start]
        assert (num[1] >= num[0]).all() and (num[1] > num[0]).mean() > 0.9, name
    bs = paired_bootstrap(stats)[0]
    ar = approximate_randomization(stats, 2000, interval_samples=300)[0]
    for name in ("muc", "bcub", "ceafe", "zero", CONLL):
        assert bs[name].difference > 0.05
        assert bs[name].p_value < 0.01 and ar[name].p_value < 0.01
        low, high = bs[name].interval
        assert 0 < low < bs[name].difference < high
        # Only the identity and the full swap reach the observed difference,
        # 2 chances in 2**200: c = 0.
        assert ar[name].count == 0 and ar[name].p_value == 1 / 2001


# --- intervals and p-values against loops ---

def test_bootstrap_interval_matches_a_direct_loop():
    stats = synthetic(3, 40)
    samples = 400
    intervals = confidence_intervals(stats, samples, level=0.9)
    loop = loop_bootstrap(stats.groups[0], CRAC, samples, DEFAULT_SEED)
    for s in range(3):
        for name in ("muc", "bcub", "zero", CONLL):
            for k, label in enumerate(("recall", "precision", "f1")):
                got = getattr(intervals[s][name], label)
                if name == CONLL and k < 2:
                    assert got is None
                    continue
                values = np.array([sample[s][name][k] for sample in loop])
                expected = np.percentile(values, [5, 95])
                assert got == pytest.approx(tuple(expected), abs=1e-12), (s, name, label)


def test_paired_bootstrap_matches_a_direct_loop():
    stats = synthetic(2, 30, shift=[0.0, 0.02])
    samples = 500
    (tests,) = paired_bootstrap(stats, samples)
    loop = loop_bootstrap(stats.groups[0], CRAC, samples, DEFAULT_SEED)
    full = [plain_scores(stats.groups[0][s].sum(axis=0), CRAC) for s in range(2)]
    for name in ("muc", "ceafe", CONLL):
        d = full[1][name][2] - full[0][name][2]
        deltas = np.array([sample[1][name][2] - sample[0][name][2] for sample in loop])
        c = int(sum(abs(x - d) >= abs(d) for x in deltas))
        assert tests[name].difference == pytest.approx(d, abs=1e-15)
        assert tests[name].count == c and tests[name].trials == samples
        assert tests[name].p_value == (c + 1) / (samples + 1)
        assert tests[name].interval == pytest.approx(tuple(np.percentile(deltas, [2.5, 97.5])), abs=1e-12)


def test_randomization_p_value_is_c_plus_one_over_n_plus_one():
    stats = synthetic(2, 12, shift=[0.0, 0.03], seed=3)
    data = stats.groups[0]
    trials = 3000
    (tests,) = approximate_randomization(stats, trials, interval_samples=100)
    rng = np.random.default_rng(DEFAULT_SEED)
    full = [plain_scores(data[s].sum(axis=0), CRAC) for s in range(2)]
    counts = dict.fromkeys(("muc", "bcub", "ceafe", "zero", CONLL), 0)
    for _ in range(trials):
        swap = rng.random(12) < 0.5
        a = np.where(swap[:, None], data[1], data[0]).sum(axis=0)
        b = np.where(swap[:, None], data[0], data[1]).sum(axis=0)
        sa, sb = plain_scores(a, CRAC), plain_scores(b, CRAC)
        for name in counts:
            d = full[1][name][2] - full[0][name][2]
            counts[name] += abs(sb[name][2] - sa[name][2]) >= abs(d) - 1e-12
    for name, c in counts.items():
        assert tests[name].count == c, name
        assert tests[name].trials == trials
        assert tests[name].p_value == (c + 1) / (trials + 1)
        # 12 documents: the test neither always nor never reaches the difference.
        assert 0 < c < trials, (name, c)


def test_fixed_under_the_default_seed_and_moved_by_another():
    stats = synthetic(3, 60, shift=[0.0, 0.01, -0.01])
    first = (paired_bootstrap(stats, 200), approximate_randomization(stats, 400, interval_samples=100),
             confidence_intervals(stats, 200))
    again = (paired_bootstrap(stats, 200), approximate_randomization(stats, 400, interval_samples=100),
             confidence_intervals(stats, 200))
    assert first == again
    other = paired_bootstrap(stats, 200, seed=DEFAULT_SEED + 1)
    assert other[0]["muc"].interval != first[0][0]["muc"].interval
    # A system's figures do not depend on the systems beside it.
    pair = Statistics([stats.groups[0][:2]], stats.layout)
    assert paired_bootstrap(pair, 200)[0] == first[0][0]
    assert approximate_randomization(pair, 400, interval_samples=100)[0] == first[1][0]


# --- conventions: BLANC, the zero score, groups ---

def test_blanc_and_undefined_zero_follow_the_reported_scores():
    key = FIXTURES / "example" / "key.conllu"
    response = FIXTURES / "example" / "response.conllu"
    metrics = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero", "mention")
    results = [score(key, r, Options(metrics=metrics, keep_singletons=True)) for r in (response, key)]
    stats = Statistics.from_documents([[r.documents] for r in results], metrics)
    observed = stats.observed()
    for s, result in enumerate(results):
        for name in metrics:
            m = result.metrics[name]
            got = tuple(None if np.isnan(x[s]) else float(x[s]) for x in observed[name])
            assert got == (m.recall, m.precision, m.f1), name  # to the bit
        assert observed[CONLL][2][s] == result.conll


def test_undefined_zero_score_has_no_interval_nor_test():
    stats = synthetic(2, 20)
    for g in stats.groups:
        g[:, :, stats.layout.columns["zero"]] = 0.0
    (tests,) = paired_bootstrap(stats, 100)
    assert tests["zero"].p_value is None and tests["zero"].difference is None
    assert confidence_intervals(stats, 100)[0]["zero"] == Interval(None, None, None)
    assert tests["muc"].p_value is not None


def test_groups_are_macro_averaged_as_the_benchmark_does():
    key = FIXTURES / "example" / "key.conllu"
    response = FIXTURES / "example" / "response.conllu"
    options = Options(metrics=CRAC)
    datasets = [[score(key, response, options), score(key, key, options)],
                [score(key, key, options), score(key, response, options)]]
    stats = Statistics.from_documents([[r.documents for r in system] for system in datasets], CRAC)
    observed = stats.observed()
    for s, results in enumerate(datasets):
        macro, macro_conll = bench_macro(results, options)
        for name in CRAC:
            assert observed[name][2][s] == macro[name].f1
        assert observed[CONLL][2][s] == macro_conll
    # Each sample keeps every dataset: a dataset scored perfectly stays
    # perfect, so the macro-average never falls below half of it.
    intervals = confidence_intervals(stats, 200)
    for s in range(2):
        low, high = intervals[s]["muc"].f1
        assert 0.5 < low < observed["muc"][2][s] < high < 1


# --- every metric whose statistics add: bridging, BLANC, entropy, MOR ---

def _documents(seed: int, count: int, mor_missing: set[int] = frozenset()):
    """Documents with statistics of every kind, drawn at random; MOR is
    None (not applicable) in the documents of ``mor_missing``."""
    from corefud_scorer.measures.further import EntropyCounts
    from corefud_scorer.measures.metrics import BlancCounts, BridgingCounts, Counts
    from corefud_scorer.results import DocumentResult

    rng = np.random.default_rng(seed)

    def counts():
        den = rng.integers(0, 9, size=2)
        return Counts(float(rng.integers(0, den[0] + 1)), float(den[0]),
                      float(rng.integers(0, den[1] + 1)), float(den[1]))

    out = []
    for k in range(count):
        mentions = float(rng.integers(1, 12))
        key_x, response_x = (float(x) for x in rng.uniform(0, mentions * math.log2(mentions), 2))
        out.append(DocumentResult(k, {
            "muc": counts(), "bcub": counts(), "ceafe": counts(),
            "blanc": BlancCounts(counts(), counts()),
            "bridging": BridgingCounts(counts(), counts(), counts()),
            "entropy": EntropyCounts(mentions, key_x, response_x, min(key_x, response_x) * rng.uniform()),
            "mor": None if k in mor_missing else counts(),
        }, 0, 0, 0, 0))
    return out


EVERY_KIND = ("muc", "bcub", "ceafe", "blanc", "bridging", "entropy", "mor")


def test_observed_figures_of_every_kind_are_the_reported_ones():
    from corefud_scorer.measures.totals import summarize

    systems = [_documents(1, 9), _documents(2, 9, mor_missing={4})]
    stats = Statistics.from_documents([[docs] for docs in systems], EVERY_KIND)
    observed = stats.observed()
    for s, documents in enumerate(systems):
        reported, conll = summarize(documents, EVERY_KIND)
        for name in EVERY_KIND:
            m = reported[name]
            got = tuple(None if np.isnan(x[s]) else float(x[s]) for x in observed[name])
            assert got == (m.recall, m.precision, m.f1), name  # to the bit
        assert observed[CONLL][2][s] == conll
    assert reported["mor"].f1 is None and reported["bridging"].f1 is not None


def test_bootstrap_of_every_kind_is_the_reported_score_of_each_sample():
    """Each bootstrap sample's figures are those the scorer reports for the
    documents drawn: bridging from its three parts (its score the markable
    level's), BLANC from its two, entropy from its four sums."""
    from corefud_scorer.jobs.significance import bootstrap_indices, bootstrap_scores
    from corefud_scorer.measures.totals import summarize

    documents = _documents(3, 7)
    stats = Statistics.from_documents([[documents]], EVERY_KIND)
    samples = 60
    resampled = bootstrap_scores(stats, samples, seed=99)
    indices = bootstrap_indices(np.random.default_rng(99), samples, len(documents))
    for k in range(samples):
        reported, _ = summarize([documents[i] for i in indices[k]], EVERY_KIND)
        for name in EVERY_KIND:
            m = reported[name]
            assert [float(x[k, 0]) for x in resampled[name]] == pytest.approx([m.recall, m.precision, m.f1],
                                                                              abs=1e-12), (k, name)
    # The draws differ: bridging's F1 is not one constant.
    assert len(set(resampled["bridging"][2][:, 0].tolist())) > 3


def test_not_applicable_mor_has_no_interval_nor_test_but_the_rest_has():
    systems = [_documents(4, 8), _documents(5, 8, mor_missing={2})]
    stats = Statistics.from_documents([[docs] for docs in systems], EVERY_KIND)
    intervals = confidence_intervals(stats, 100)
    assert intervals[1]["mor"] == Interval(None, None, None)
    assert intervals[0]["mor"].f1 is not None
    for tests in (paired_bootstrap(stats, 100)[0], approximate_randomization(stats, 200, interval_samples=100)[0]):
        assert tests["mor"] == tests["mor"].__class__(None, None, None, 0, 0)
        assert tests["bridging"].p_value is not None and tests["entropy"].p_value is not None
    # Zeros in its place would have given MOR a figure.
    zeros = Statistics.from_documents([[docs] for docs in systems], EVERY_KIND)
    zeros.usable = [np.ones_like(u) for u in zeros.usable]
    assert confidence_intervals(zeros, 100)[1]["mor"].f1 is not None


def test_mor_not_applicable_in_one_dataset_is_left_out_of_the_macro_average():
    first, second = _documents(6, 5), _documents(7, 5, mor_missing={0})
    stats = Statistics.from_documents([[first, second]], EVERY_KIND)
    alone = Statistics.from_documents([[first]], EVERY_KIND)
    assert stats.observed()["mor"][2][0] == alone.observed()["mor"][2][0]
    assert confidence_intervals(stats, 100)[0]["mor"] == confidence_intervals(alone, 100)[0]["mor"]


def test_an_interval_holds_its_figure_even_where_the_percentiles_do_not():
    from corefud_scorer.jobs.significance import bootstrap_scores

    stats = Statistics.from_documents([[_documents(8, 30)]], EVERY_KIND)
    observed = stats.observed()
    # A 1% interval: the percentiles around the median, which the figure
    # need not fall between.
    intervals = confidence_intervals(stats, 300, level=0.01)[0]
    raw = bootstrap_scores(stats, 300)
    stretched = 0
    for name in stats.layout.names:
        for k, label in enumerate(("recall", "precision", "f1")):
            if observed[name][k] is None:
                continue
            point = float(observed[name][k][0])
            low, high = getattr(intervals[name], label)
            assert low <= point <= high, (name, label)
            raw_low, raw_high = np.percentile(raw[name][k][:, 0], [49.5, 50.5])
            assert (low, high) == (min(raw_low, point), max(raw_high, point))
            stretched += not raw_low <= point <= raw_high
    assert stretched > 0


def test_coefficients_are_refused_in_one_place():
    from corefud_scorer.jobs.stacked import not_resampled

    assert not_resampled(("muc", "alpha", "entropy", "kappa", "alpha")) == ["alpha", "kappa"]
    with pytest.raises(ValueError, match="alpha"):
        Layout.of(("muc", "alpha"))


def _any_statistics(rng, empty):
    """Random statistics shaped as ``empty`` (Counts, or a dataclass of Counts)."""
    if isinstance(empty, Counts):
        den = rng.integers(0, 9, size=2)
        return Counts(float(rng.integers(0, den[0] + 1)), float(den[0]),
                      float(rng.integers(0, den[1] + 1)), float(den[1]))
    return type(empty)(**{f.name: _any_statistics(rng, getattr(empty, f.name)) for f in fields(empty)})


def test_every_resampled_measure_of_the_registry_resamples_to_its_reported_score():
    """Whatever a registry entry's statistics, its figures on arrays (every
    resample) equal its reported score (its figures on one plain row), to
    the bit: a new measure is checked here by its entry alone."""
    from corefud_scorer.measures.registry import MEASURES
    from corefud_scorer.measures.totals import summarize

    rng = np.random.default_rng(5)
    # Entropy's sums must be entropies of one partition: _documents makes them so.
    names = [n for n, m in MEASURES.items() if m.resampled and n != "entropy"]
    assert {"blanc", "bridging", "zero", "empty-nodes"} <= set(names)
    documents = [DocumentResult(k, {n: _any_statistics(rng, MEASURES[n].empty()) for n in names}, 0, 0, 0, 0)
                 for k in range(12)]
    stats = Statistics.from_documents([[documents]], names)
    observed = stats.observed()
    reported, _ = summarize(documents, names)
    for name in names:
        m = reported[name]
        got = tuple(None if np.isnan(x[0]) else float(x[0]) for x in observed[name])
        assert got == (m.recall, m.precision, m.f1), name
