"""Confidence intervals and paired significance tests over documents.

Every score resampled here is a function of statistics summed over
documents (:class:`~corefud_scorer.measures.metrics.Counts`: recall and precision
numerators and denominators; BLANC's two parts, bridging's three, the
empty nodes' eleven, the entropy sums), so a resample of documents is a weighted sum of the
per-document statistics: a matrix product, with no reading and no matching
again. Scores follow the scorer's conventions (a ratio with numerator 0 is
0, the zero score is undefined, NaN here, with no zero anaphor on either
side, BLANC the mean of its parts that have links, bridging its markable
level). A metric that a document of a group could not give (MOR with split
antecedents) is not applicable to that group: NaN, as undefined. The
agreement coefficients are not resampled (:func:`not_resampled`).

Systems are scored over the same documents, in one or more groups: one
group for a key/response pair, one per dataset for a benchmark, whose score
is the macro-average (the mean over datasets where the metric applies).
Documents are resampled within each group.

- :func:`confidence_intervals`: percentile bootstrap intervals of recall,
  precision and F1 per system.
- :func:`paired_bootstrap`: Koehn's (2004) paired bootstrap resampling of
  the F1 difference from the baseline (the first system); the p-value is
  two-sided, from the resampled differences shifted to the null hypothesis
  of no difference: ``c`` samples with ``|d* - d| >= |d|``.
- :func:`approximate_randomization`: each trial swaps the two systems'
  statistics of each document with probability 1/2; ``c`` trials with
  ``|d*| >= |d|``.

Both p-values are ``(c + 1) / (N + 1)``. A fresh ``numpy.random.Generator``
seeded with ``seed`` drives each computation, so a system's figures do not
depend on which other systems or figures are asked for.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .resampling import (AR_TRIALS, BOOTSTRAP_SAMPLES, DEFAULT_SEED, LEVEL,  # noqa: F401  (re-exported)
                         MAX_AR_TRIALS, MAX_BOOTSTRAP_SAMPLES)
from .stacked import Statistics, macro_average, scores

# Differences closer than this count as equal: a swap of every document
# gives back the observed difference up to rounding.
TOLERANCE = 1e-12
# Entries of one block of resampling weights or sums: the memory of a block
# is bounded whatever the number of documents, systems and samples.
BLOCK = 1 << 22
# Fewer documents than this in a group and its intervals and tests are
# warned about: resampling a handful of documents misses much of the
# variation a new sample would show (the paired bootstrap's p-values then
# fall far below randomization's), and the bootstrap's usual rule of thumb
# asks for some 30 units.
TRUSTWORTHY_DOCUMENTS = 30

# --- resampling ---

def bootstrap_indices(rng: np.random.Generator, samples: int, documents: int) -> np.ndarray:
    """The documents of each bootstrap sample: ``(samples, documents)``
    indices drawn uniformly with replacement."""
    return rng.integers(0, documents, size=(samples, documents))


def swap_masks(rng: np.random.Generator, trials: int, documents: int) -> np.ndarray:
    """Which documents each randomization trial swaps: ``(trials, documents)``
    booleans, each true with probability 1/2."""
    return rng.random((trials, documents)) < 0.5


def _weights(indices: np.ndarray, documents: int) -> np.ndarray:
    """How many times each document is drawn in each sample."""
    samples = indices.shape[0]
    offsets = indices + documents * np.arange(samples)[:, None]
    return np.bincount(offsets.ravel(), minlength=samples * documents).reshape(samples, documents)


def check_count(samples: int, limit: int, what: str) -> None:
    """Refuse a number of samples or trials past ``limit`` (memory and time)."""
    if samples > limit:
        raise ValueError(f"at most {limit:,} {what}, not {samples:,}")


def _blocks(total: int, stats: Statistics, progress=None):
    """Block sizes adding up to ``total``: each block's weights (samples x
    documents) and sums (samples x systems x columns) hold at most about
    :data:`BLOCK` numbers. ``progress`` is told each block's size once done."""
    largest = max(g.shape[1] for g in stats.groups)
    step = max(1, BLOCK // max(largest, stats.systems * stats.layout.width, 1))
    for start in range(0, total, step):
        size = min(step, total - start)
        yield size
        if progress is not None:
            progress(size)


def bootstrap_scores(stats: Statistics, samples: int = BOOTSTRAP_SAMPLES, seed: int = DEFAULT_SEED,
                     progress=None) -> dict:
    """Every figure of every system in each bootstrap sample: per name, a
    (recall, precision, F1) tuple of ``(samples, systems)`` arrays (None
    where a figure has no such part). Every system is scored on the same
    samples (the pairing of the paired bootstrap). ``progress``, if given,
    is called with the number of samples of each block done."""
    check_count(samples, MAX_BOOTSTRAP_SAMPLES, "bootstrap samples")
    rng = np.random.default_rng(seed)
    parts = []
    for size in _blocks(samples, stats, progress):
        per_group = []
        for group, usable in zip(stats.groups, stats.usable):
            systems, documents, width = group.shape
            if documents == 0:
                sums = np.zeros((size, systems, width))
            else:
                weights = _weights(bootstrap_indices(rng, size, documents), documents).astype(np.float64)
                sums = (weights @ group.transpose(1, 0, 2).reshape(documents, systems * width)
                        ).reshape(size, systems, width)
            per_group.append(scores(sums, stats.layout, usable))
        parts.append(macro_average(per_group))
    return {name: tuple(None if parts[0][name][k] is None
                        else np.concatenate([p[name][k] for p in parts])
                        for k in range(3))
            for name in parts[0]}


def _percentiles(values: np.ndarray, level: float, point: float) -> tuple[float, float] | None:
    """The percentile interval of the defined values, stretched to hold the
    observed ``point``: with few or skewed documents every percentile can
    fall on one side of it, and an interval that excludes its own figure
    reads as a contradiction. None where the figure is undefined."""
    values = values[~np.isnan(values)]
    if not len(values) or np.isnan(point):
        return None
    low, high = np.percentile(values, [50 * (1 - level), 50 * (1 + level)])
    return float(min(low, point)), float(max(high, point))


@dataclass
class Interval:
    """A figure's percentile bootstrap interval: recall, precision and F1
    as ``(low, high)`` (None where undefined; CoNLL has F1 only)."""

    recall: tuple[float, float] | None
    precision: tuple[float, float] | None
    f1: tuple[float, float] | None


def confidence_intervals(stats: Statistics, samples: int = BOOTSTRAP_SAMPLES, level: float = LEVEL,
                         seed: int = DEFAULT_SEED, progress=None) -> list[dict[str, Interval]]:
    """Per system, each figure's percentile bootstrap interval at ``level``."""
    observed = stats.observed()
    resampled = bootstrap_scores(stats, samples, seed, progress)
    out = []
    for s in range(stats.systems):
        out.append({name: Interval(*(None if figure is None else _percentiles(figure[:, s], level, point[s])
                                     for figure, point in zip(figures, observed[name])))
                    for name, figures in resampled.items()})
    return out


@dataclass
class Comparison:
    """A system against the baseline on one figure's F1: the difference
    (system minus baseline), its bootstrap interval, the p-value and what it
    was computed from (``count`` of ``trials`` at least as extreme)."""

    difference: float | None
    interval: tuple[float, float] | None
    p_value: float | None
    count: int
    trials: int


def _observed_differences(stats: Statistics) -> dict:
    return {name: figures[2][1:] - figures[2][0] for name, figures in stats.observed().items()}


def _p_value(extreme: np.ndarray, defined: np.ndarray) -> tuple[float | None, int, int]:
    trials = int(defined.sum())
    count = int((extreme & defined).sum())
    if not trials:
        return None, 0, 0
    return (count + 1) / (trials + 1), count, trials


def _value(x) -> float | None:
    return None if np.isnan(x) else float(x)


def paired_bootstrap(stats: Statistics, samples: int = BOOTSTRAP_SAMPLES, level: float = LEVEL,
                     seed: int = DEFAULT_SEED, progress=None) -> list[dict[str, Comparison]]:
    """Per system but the baseline, each figure's F1 difference from the
    baseline with its bootstrap interval and the paired bootstrap p-value."""
    observed = _observed_differences(stats)
    resampled = bootstrap_scores(stats, samples, seed, progress)
    out = []
    for s in range(1, stats.systems):
        tests = {}
        for name, figures in resampled.items():
            deltas = figures[2][:, s] - figures[2][:, 0]
            d = observed[name][s - 1]
            defined = ~np.isnan(deltas)
            extreme = np.abs(np.where(defined, deltas, 0.0) - d) >= abs(d) - TOLERANCE
            p, count, trials = _p_value(extreme, defined) if not np.isnan(d) else (None, 0, 0)
            tests[name] = Comparison(_value(d), _percentiles(deltas, level, d), p, count, trials)
        out.append(tests)
    return out


def approximate_randomization(stats: Statistics, trials: int = AR_TRIALS, level: float = LEVEL,
                              seed: int = DEFAULT_SEED, interval_samples: int = BOOTSTRAP_SAMPLES,
                              progress=None) -> list[dict[str, Comparison]]:
    """Per system but the baseline, each figure's F1 difference from the
    baseline, its bootstrap interval (``interval_samples`` samples) and the
    approximate randomization p-value over ``trials`` trials.

    A trial swaps, document by document with probability 1/2, the
    baseline's and the system's statistics; with ``M`` the swap mask and
    ``D`` the system's statistics minus the baseline's, the swapped sums are
    ``baseline + M @ D`` and ``system - M @ D``. One mask serves every
    system in a trial. Trials are counted block by block, so that memory
    does not grow with their number.
    """
    check_count(trials, MAX_AR_TRIALS, "randomization trials")
    observed = _observed_differences(stats)
    intervals = paired_bootstrap(stats, interval_samples, level, seed, progress)
    layout, others = stats.layout, stats.systems - 1
    rng = np.random.default_rng(seed)
    totals = [np.cumsum(g, axis=1)[:, -1, :] if g.shape[1] else np.zeros(g.shape[::2]) for g in stats.groups]
    deltas = [(g[1:] - g[:1]).transpose(1, 0, 2).reshape(g.shape[1], others * layout.width)
              for g in stats.groups]
    extreme = {name: np.zeros(others, dtype=np.int64) for name in layout.names}
    defined = {name: np.zeros(others, dtype=np.int64) for name in layout.names}
    # The swapped sums stand as (baseline against each other system, then
    # the others); a figure not applicable to either side stays NaN.
    usable = [np.concatenate([np.repeat(u[:1], others, axis=0), u[1:]]) for u in stats.usable]
    for size in _blocks(trials, stats, progress):
        per_group = []
        for group, total, delta, swapped_usable in zip(stats.groups, totals, deltas, usable):
            documents = group.shape[1]
            moved = (swap_masks(rng, size, documents).astype(np.float64) @ delta
                     ).reshape(size, others, layout.width)
            baseline = total[0] + moved
            systems = total[1:] - moved
            per_group.append(scores(np.concatenate([baseline, systems], axis=1), layout, swapped_usable))
        averaged = macro_average(per_group)
        for name in layout.names:
            f = averaged[name][2]
            difference = f[:, others:] - f[:, :others]
            ok = ~np.isnan(difference)
            d = observed[name]
            far = np.abs(np.where(ok, difference, 0.0)) >= np.abs(d) - TOLERANCE
            extreme[name] += (far & ok).sum(axis=0)
            defined[name] += ok.sum(axis=0)
    out = []
    for s in range(others):
        tests = {}
        for name in layout.names:
            d = observed[name][s]
            count, n = int(extreme[name][s]), int(defined[name][s])
            p = (count + 1) / (n + 1) if n and not np.isnan(d) else None
            if p is None:
                count = n = 0
            tests[name] = Comparison(_value(d), intervals[s][name].interval, p, count, n)
        out.append(tests)
    return out
