"""The further measures' cost, side by side in one run: ``-m all`` (1.2's set),
``-m every`` (every measure) and ``-m every --sync all`` on the generated
50k-token document, one process, one job.

    python bench/measures.py [--runs 3] [--work DIR]

Prints a Markdown table (median wall and CPU seconds, peak RSS, CPU time
relative to ``-m all``) and the verdict on the target: ``-m every`` under
3 s on one core, judged on CPU time (user + system) of the one process,
which other work on the machine does not inflate as it does wall time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from run import SIZES, ensure_files  # noqa: E402

CALLS = [("all", ["-m", "all"]), ("every", ["-m", "every"]),
         ("every --sync all", ["-m", "every", "--sync", "all"])]
TARGET_SECONDS = 3.0


def once(command: list[str]) -> dict:
    """Wall seconds, CPU seconds and peak RSS (MiB) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{process.stderr.read().decode(errors='replace')[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024}


def median(runs: list[dict], field: str) -> float:
    values = sorted(r[field] for r in runs)
    return values[len(values) // 2]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per call (medians)")
    parser.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "corefud-bench"),
                        help="folder for the generated files")
    args = parser.parse_args(argv)
    os.makedirs(args.work, exist_ok=True)
    key, response = ensure_files(SIZES["50k"], args.work)
    rows = []
    for name, flags in CALLS:
        command = [sys.executable, "-m", "corefud_scorer", key, response, *flags, "-j", "1", "-q",
                   "--output", "json"]
        runs = [once(command) for _ in range(args.runs)]
        rows.append((name, {f: median(runs, f) for f in ("wall", "cpu")} | {"rss": max(r["rss"] for r in runs)}))
    base = rows[0][1]["cpu"]
    print(f"| 50k tokens, -j 1, median of {args.runs} | wall s | CPU s | peak RSS MiB | CPU / -m all |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, r in rows:
        print(f"| -m {name} | {r['wall']:.2f} | {r['cpu']:.2f} | {r['rss']:.0f} | {r['cpu'] / base:.2f} |")
    every = rows[1][1]["cpu"]
    verdict = "met" if every < TARGET_SECONDS else "NOT met"
    print(f"\ntarget: -m every under {TARGET_SECONDS:.0f} s on one core: {every:.2f} s CPU "
          f"({rows[1][1]['wall']:.2f} s wall), {verdict}")
    return 0 if every < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
