"""The training-loop evaluator against the ``metrics.py`` copy neural systems
keep (e2e-coref's), side by side on the same generated clusters in one run.

    python bench/training.py --e2e PATH/metrics.py [--sizes 300x500,20x5000] [--runs 3] [--seed 1]

PATH/metrics.py is e2e-coref's file (never a dependency, never committed).
It imports ``linear_assignment`` from scikit-learn's long-removed
``sklearn.utils.linear_assignment_``; this script shims that module with
scipy's ``linear_sum_assignment`` (the same optimum) in its own process.

Sizes are DOCSxTOKENS: the default, 300 documents of 500 tokens, is about
OntoNotes' development set; 20 of 5000 are long documents. Per size, two
sets of clusters from bench/conll.py's generator (about 0.12 mentions a
token; singletons dropped on both sides, as OntoNotes keys and e2e-coref's
predictions have none): one where every span stands once, one where a span
stands in two clusters on both sides of every tenth document. Per set and
side, ``--runs`` child processes each read the clusters, build the
mention-to-cluster dicts, then, LOOPS times, call ``update`` per document
and read every figure (the timed loop, as one evaluation of a dev set in a
training loop). The table gives each side's best loop CPU time and
best whole-process wall and CPU time (Python's start and the imports
included: numpy and scipy for the copy), e2e ÷ ours, and the largest
difference between the two sides' figures (MUC, B-cubed and CEAF-e
precision, recall and F1, and the three averages). CPU times are the
ratios to read on a shared machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from conll import cleaned, document, measure, perturbed  # noqa: E402

# A span put again into another cluster, on both sides, in this share of documents.
TWICE_EVERY = 10
# Evaluation passes a process makes (as a training loop makes one per epoch);
# the best counts, the first paying for the imports the evaluator makes lazily.
LOOPS = 3


# --- the clusters ---

def _plant_twice(rng: random.Random, clusters):
    """One span of one cluster added to another cluster."""
    if len(clusters) < 2:
        return clusters
    a, b = rng.sample(range(len(clusters)), 2)
    clusters[b] = clusters[b] + [rng.choice(clusters[a])]
    return clusters


def dataset(seed: int, docs: int, tokens: int, twice: bool) -> list:
    """[(predicted, gold)] per document, clusters as lists of [start, end]."""
    rng = random.Random(seed)
    out = []
    for d in range(docs):
        _, _, _, entities = document(rng, f"doc_{d}", tokens)
        gold = cleaned(entities, tokens)
        predicted = cleaned(perturbed(rng, gold), tokens)
        gold, predicted = ([c for c in side if len(c) > 1] for side in (gold, predicted))
        if twice and d % TWICE_EVERY == 0:
            gold, predicted = _plant_twice(rng, gold), _plant_twice(rng, predicted)
        out.append((predicted, gold))
    return out


# --- one side, in its own process ---

def _load_e2e(path: str):
    """e2e-coref's metrics.py, its scikit-learn import served by scipy."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    def linear_assignment(cost):
        return np.column_stack(linear_sum_assignment(cost))

    for name in ("sklearn", "sklearn.utils"):
        sys.modules.setdefault(name, types.ModuleType(name))
    shim = types.ModuleType("sklearn.utils.linear_assignment_")
    shim.linear_assignment = linear_assignment
    sys.modules[shim.__name__] = shim
    spec = importlib.util.spec_from_file_location("e2e_metrics", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def child(side: str, data_path: str, e2e: str | None) -> dict:
    if side == "ours":
        from corefud_scorer.training import CorefEvaluator
    else:
        CorefEvaluator = _load_e2e(e2e).CorefEvaluator
    with open(data_path, encoding="utf-8") as handle:
        data = json.load(handle)
    documents = []
    for predicted, gold in data:
        # As e2e-coref's evaluate_coref builds them.
        predicted = [tuple(tuple(m) for m in c) for c in predicted]
        gold = [tuple(tuple(m) for m in c) for c in gold]
        documents.append((predicted, gold, {m: c for c in predicted for m in c}, {m: c for c in gold for m in c}))
    best = None
    for _ in range(LOOPS):
        start = time.process_time()
        evaluator = CorefEvaluator()
        for predicted, gold, mention_to_predicted, mention_to_gold in documents:
            evaluator.update(predicted, gold, mention_to_predicted, mention_to_gold)
        figures = [list(e.get_prf()) for e in evaluator.evaluators] + [list(evaluator.get_prf())]
        spent = time.process_time() - start
        best = spent if best is None else min(best, spent)
    return {"loop": best, "figures": figures}


# --- side by side ---

def run_side(side: str, data_path: str, e2e: str, runs: int) -> dict:
    best: dict = {}
    for _ in range(runs):
        with tempfile.TemporaryFile("w+") as out:
            process = measure([sys.executable, __file__, "--child", side, data_path, "--e2e", e2e], 3600, out)
            out.seek(0)
            reported = json.load(out)
        for key, value in (("loop", reported["loop"]), ("wall", process["wall"]), ("cpu", process["cpu"])):
            best[key] = min(best.get(key, value), value)
        best["figures"] = reported["figures"]
    return best


def largest_difference(a, b) -> float:
    return max(abs(x - y) for row_a, row_b in zip(a, b) for x, y in zip(row_a, row_b))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--e2e", required=True, help="e2e-coref's metrics.py")
    parser.add_argument("--sizes", default="300x500,20x5000", help="DOCSxTOKENS, comma-separated")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", nargs=2, metavar=("SIDE", "DATA"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        json.dump(child(*args.child, args.e2e), sys.stdout)
        return 0
    if not os.path.isfile(args.e2e):
        parser.error(f"--e2e {args.e2e}: no such file")
    sizes = [tuple(map(int, size.split("x"))) for size in args.sizes.split(",")]
    print(f"best of {args.runs} runs a side, Python {sys.version.split()[0]}\n")
    print("| documents x tokens | clusters | ours loop CPU s | e2e loop CPU s | e2e ÷ ours "
          "| ours process s wall (CPU) | e2e process s wall (CPU) | e2e ÷ ours (CPU) | largest difference |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for docs, tokens in sizes:
            for label, twice in (("every span once", False), (f"a span in two, 1 doc in {TWICE_EVERY}", True)):
                data_path = os.path.join(folder, f"{docs}x{tokens}-{twice}.json")
                with open(data_path, "w", encoding="utf-8") as handle:
                    json.dump(dataset(args.seed, docs, tokens, twice), handle)
                ours, e2e = (run_side(side, data_path, args.e2e, args.runs) for side in ("ours", "e2e"))
                difference = largest_difference(ours["figures"], e2e["figures"])
                print(f"| {docs} x {tokens} | {label} | {ours['loop']:.3f} | {e2e['loop']:.3f} "
                      f"| {e2e['loop'] / ours['loop']:.1f}x | {ours['wall']:.2f} ({ours['cpu']:.2f}) "
                      f"| {e2e['wall']:.2f} ({e2e['cpu']:.2f}) | {e2e['cpu'] / ours['cpu']:.1f}x "
                      f"| {difference:.3g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
