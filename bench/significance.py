"""Speed of the resampling tests on one core.

    python bench/significance.py [--documents 1000] [--systems 3] [--trials 10000] [--quick]

Per-document statistics of the CRAC metric set (MUC, B-cubed, CEAF-e, zero;
CoNLL from the first three) for ``--systems`` systems over ``--documents``
documents, with the magnitudes of 1,000-token documents (drawn at random:
the run time does not depend on the values). Times, on one core (BLAS
threads 1, the process pinned to one CPU): approximate randomization with
``--trials`` trials, the paired bootstrap and the confidence intervals with
1,000 samples each, and, side by side, the same randomization as a loop of
one trial at a time (timed on a share of the trials, scaled up). Prints a
Markdown table and the target: randomization under 5 s.
"""

from __future__ import annotations

import os

# One core: numpy's BLAS must not start threads (set before numpy loads).
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from corefud_scorer.jobs.significance import (approximate_randomization, confidence_intervals,  # noqa: E402
                                              paired_bootstrap)
from corefud_scorer.jobs.stacked import Layout, Statistics, scores  # noqa: E402

CRAC = ("muc", "bcub", "ceafe", "zero")
TARGET_SECONDS = 5.0


def statistics(systems: int, documents: int, seed: int = 1) -> Statistics:
    """Random statistics of the size of 1,000-token documents: about 60
    mentions in 25 entities, a few zeros; systems share the denominators of
    the key side."""
    rng = np.random.default_rng(seed)
    layout = Layout.of(CRAC)
    data = np.zeros((systems, documents, layout.width))
    key = {"muc": rng.integers(20, 60, documents), "bcub": rng.integers(40, 90, documents),
           "ceafe": rng.integers(10, 30, documents), "zero": rng.integers(0, 6, documents)}
    for s in range(systems):
        for name, cols in layout.columns.items():
            response = np.maximum(key[name] + rng.integers(-5, 6, documents), 0)
            found = np.floor(rng.uniform(0.4, 0.9, documents) * np.minimum(key[name], response))
            if name in ("bcub", "ceafe"):
                found = found + rng.uniform(0, 1, documents)  # fractions, as these metrics give
            data[s, :, cols] = np.stack([found, key[name], found, response], axis=1)
    return Statistics([data], layout)


def loop_randomization(stats: Statistics, trials: int, seed: int = 12345) -> float:
    """The same trials one at a time (the baseline against each system):
    seconds taken."""
    rng = np.random.default_rng(seed)
    data = stats.groups[0]
    start = time.perf_counter()
    for _ in range(trials):
        swap = rng.random(data.shape[1]) < 0.5
        for s in range(1, stats.systems):
            a = np.where(swap[:, None], data[s], data[0]).sum(axis=0)
            b = np.where(swap[:, None], data[0], data[s]).sum(axis=0)
            scores(np.stack([a, b]), stats.layout)
    return time.perf_counter() - start


def timed(function, *args, **kwargs) -> float:
    start = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--systems", type=int, default=3)
    parser.add_argument("--trials", type=int, default=10000)
    parser.add_argument("--loop-share", type=float, default=0.02,
                        help="share of the trials timed in the one-trial-at-a-time loop")
    parser.add_argument("--quick", action="store_true", help="a tenth of the trials")
    args = parser.parse_args(argv)
    if args.quick:
        args.trials //= 10
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    stats = statistics(args.systems, args.documents)
    ar = timed(approximate_randomization, stats, args.trials)
    bs = timed(paired_bootstrap, stats, 1000)
    ci = timed(confidence_intervals, stats, 1000)
    loop_trials = max(1, int(args.trials * args.loop_share))
    loop = loop_randomization(stats, loop_trials) * args.trials / loop_trials
    print("| test | systems | documents | trials | seconds | one trial at a time (s) | loop ÷ vectorised |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| approximate randomization (+ bootstrap interval) | {args.systems} | {args.documents} | "
          f"{args.trials} | {ar:.2f} | {loop:.1f} | {loop / ar:.0f} |")
    print(f"| paired bootstrap | {args.systems} | {args.documents} | 1000 | {bs:.2f} | | |")
    print(f"| confidence intervals | {args.systems} | {args.documents} | 1000 | {ci:.2f} | | |")
    verdict = "met" if ar < TARGET_SECONDS else "NOT met"
    print(f"\nTarget: {args.trials} randomization trials x {args.systems} systems x {args.documents} "
          f"documents, CRAC metrics, one core, under {TARGET_SECONDS:.0f} s: {ar:.2f} s, {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
