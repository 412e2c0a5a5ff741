"""The further measures' cost, side by side in one run: ``-m all`` (1.2's set),
``-m every`` (every measure) and ``-m every --sync all`` on the generated
50k-token document, one process, one job.

    python bench/measures.py [--runs 3] [--work DIR]

Prints a Markdown table (median wall seconds, peak RSS, ratio to ``-m all``)
and the verdict on the target: ``-m every`` under 3 s on one core.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from run import SIZES, ensure_files, ours  # noqa: E402

CALLS = [("all", ["-m", "all"]), ("every", ["-m", "every"]), ("every --sync all", ["-m", "every", "--sync", "all"])]
TARGET_SECONDS = 3.0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per call (median wall time)")
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "corefud-bench"),
                        help="folder for the generated files")
    args = parser.parse_args(argv)
    os.makedirs(args.work, exist_ok=True)
    key, response = ensure_files(SIZES["50k"], args.work)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, flags in CALLS:
            rows.append((name, ours(key, response, flags, 1, os.path.join(folder, "out.json"), args.runs)))
    base = rows[0][1]["wall"]
    print("| 50k tokens, -j 1 | wall s | peak RSS MiB | / -m all |")
    print("| --- | ---: | ---: | ---: |")
    for name, r in rows:
        print(f"| -m {name} | {r['wall']:.2f} | {r['rss']:.0f} | {r['wall'] / base:.2f} |")
    every = rows[1][1]["wall"]
    verdict = "met" if every < TARGET_SECONDS else "NOT met"
    print(f"\ntarget: -m every under {TARGET_SECONDS:.0f} s on one core: {every:.2f} s, {verdict}")
    return 0 if every < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
