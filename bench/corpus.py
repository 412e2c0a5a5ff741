"""Corpus-scale benchmarking: 30 generated datasets (over 1M tokens in all)
scored in one ``corefud-scorer bench`` call, with -j 1 and -j 2.

    python bench/corpus.py [--datasets 30] [--runs 1]

Prints a Markdown table (wall seconds, peak RSS of the largest process,
tokens per second) and writes it as JSON under bench/results/.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import generate  # noqa: E402
from run import measure, repeated  # noqa: E402

CRAC = ["-m", "muc", "bcub", "ceafe", "zero"]


def make_corpus(folder: str, datasets: int, seed: int = 2024) -> int:
    """Key and response folders of CorefUD-named files; returns the token count."""
    rng = random.Random(seed)
    keys, systems = os.path.join(folder, "key"), os.path.join(folder, "sys")
    os.makedirs(keys, exist_ok=True)
    os.makedirs(systems, exist_ok=True)
    total = 0
    for n in range(datasets):
        # Datasets of 10k to 70k tokens in documents of 300 to 3,000 tokens.
        tokens_per_doc = rng.choice([300, 600, 1000, 2000, 3000])
        docs = max(1, rng.randrange(10_000, 70_000) // tokens_per_doc)
        name = f"x{n:02d}_gen-corefud-dev.conllu"
        key, response = os.path.join(keys, name), os.path.join(systems, name)
        if not (os.path.exists(key) and os.path.exists(response)):
            generate.write_pair(key, response, seed + n, docs=docs, tokens_per_doc=tokens_per_doc)
        total += docs * tokens_per_doc
    return total


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--datasets", type=int, default=30)
    parser.add_argument("--runs", type=int, default=1, help="runs per row; the median wall time is shown")
    parser.add_argument("--work", default=os.path.join(HERE, "work", "corpus"))
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    args = parser.parse_args(argv)
    tokens = make_corpus(args.work, args.datasets)
    rows = []
    for jobs in (1, 2):
        command = [sys.executable, "-m", "corefud_scorer", "bench", os.path.join(args.work, "key"),
                   os.path.join(args.work, "sys"), *CRAC, "-j", str(jobs), "-q", "--output", "json"]
        result = repeated(args.runs, lambda: measure(command))
        rows.append({"jobs": jobs, "wall": result["wall"], "rss": result["rss"],
                     "tokens_per_s": tokens / result["wall"]})
    lines = [f"{args.datasets} datasets, {tokens:,} tokens, {os.cpu_count()} cores; CRAC call "
             f"({' '.join(CRAC)})", "",
             "| -j | wall s | peak MiB | tokens/s |", "|---:|---:|---:|---:|"]
    lines += [f"| {r['jobs']} | {r['wall']:.1f} | {r['rss']:.0f} | {r['tokens_per_s']:,.0f} |" for r in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(args.out, exist_ok=True)
    name = os.path.join(args.out, "corpus-" + time.strftime("%Y%m%d-%H%M%S") + ".json")
    with open(name, "w") as handle:
        json.dump({"datasets": args.datasets, "tokens": tokens, "rows": rows, "table": text}, handle, indent=1)
    print(f"written: {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
