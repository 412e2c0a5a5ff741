"""Speed and memory, side by side: the Udapi floor, this scorer, and (with
``--reference DIR``) the official CorefUD scorer 1.2, on the same generated
files in the same run.

    python bench/run.py [--reference DIR] [--cap 900] [--sizes 5k,20k,...] [--quick]

Floor and ours run ``--runs`` times (median wall time); the reference once.
Prints one Markdown table and writes it as JSON under bench/results/. Per
size and call: wall seconds, peak RSS of the largest process, tokens per
second, ours / floor, reference / ours, and the largest absolute difference
between our scores and the reference's over all metrics. Then the marginal
cost per 1k tokens (wall time minus that of a one-sentence file) at each
single-document size, to show growth is linear.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import generate  # noqa: E402
from reference import driver_path, largest_difference, reference_command  # noqa: E402

CRAC = ["-m", "muc", "bcub", "ceafe", "zero"]
ALL = ["-m", "all"]


@dataclass(frozen=True)
class Size:
    name: str
    docs: int
    tokens_per_doc: int
    seed: int


SIZES = {
    "1sent": Size("1sent", 1, 12, 11),
    "5k": Size("5k", 1, 5_000, 12),
    "20k": Size("20k", 1, 20_000, 13),
    "50k": Size("50k", 1, 50_000, 14),
    "200k": Size("200k", 200, 1_000, 15),
    "1M": Size("1M", 1_000, 1_000, 16),
}


def ensure_files(size: Size, folder: str) -> tuple[str, str]:
    key = os.path.join(folder, f"{size.name}.key.conllu")
    response = os.path.join(folder, f"{size.name}.response.conllu")
    if not (os.path.exists(key) and os.path.exists(response)):
        generate.write_pair(key, response, size.seed, docs=size.docs, tokens_per_doc=size.tokens_per_doc)
    return key, response


def measure(command: list[str], timeout: float | None = None, stdout=None) -> dict:
    """Wall seconds and peak RSS (MiB) of one process and what it waits for."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=stdout or subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = None if timeout is None else start + timeout
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if deadline is not None and time.perf_counter() > deadline:
            process.kill()
            os.wait4(process.pid, 0)
            return {"wall": None, "rss": None, "timeout": True}
        time.sleep(0.01)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode(errors="replace")
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n{error[-2000:]}")
    return {"wall": wall, "rss": usage.ru_maxrss / 1024, "timeout": False}


def repeated(runs: int, once) -> dict:
    """The median wall time and the largest peak RSS of several runs."""
    results = [once() for _ in range(runs)]
    walls = sorted(r["wall"] for r in results)
    return {"wall": walls[len(walls) // 2], "rss": max(r["rss"] for r in results), "timeout": False}


def ours(key, response, flags, jobs, output, runs=1):
    command = [sys.executable, "-m", "corefud_scorer", key, response, *flags, "-j", str(jobs),
               "-q", "--output", "json"]

    def once():
        with open(output, "w") as handle:
            return measure(command, stdout=handle)
    return repeated(runs, once)


def floor(key, response, runs=1):
    return repeated(runs, lambda: measure([sys.executable, os.path.join(HERE, "floor.py"), key, response]))


def tokens_of(size: Size) -> int:
    return size.docs * size.tokens_per_doc


def run(args) -> dict:
    work = args.work
    os.makedirs(work, exist_ok=True)
    driver = driver_path() if args.reference else None
    rows = []
    marginal = {}
    baseline = {}
    sizes = [SIZES[n] for n in args.sizes]
    if any(s.docs == 1 and s.name != "1sent" for s in sizes):
        sizes = [SIZES["1sent"]] + [s for s in sizes if s.name != "1sent"]
    for size in sizes:
        key, response = ensure_files(size, work)
        tokens = tokens_of(size)
        base = floor(key, response, args.runs)
        if size.name == "1sent":
            baseline["floor"] = base["wall"]
        elif size.docs == 1 and "floor" in baseline:
            marginal.setdefault("floor", {})[size.name] = (base["wall"] - baseline["floor"]) / (tokens / 1000)
        calls = [("CRAC", CRAC, 1), ("all", ALL, 1)]
        if size.name == "1M":
            calls += [("CRAC", CRAC, 2), ("all", ALL, 2)]
        for call, flags, jobs in calls:
            with tempfile.TemporaryDirectory() as folder:
                our_json = os.path.join(folder, "ours.json")
                mine = ours(key, response, flags, jobs, our_json, args.runs)
                with open(our_json) as handle:
                    our_scores = json.load(handle)
                ref = None
                diff = None
                if args.reference and jobs == 1 and size.name != "1sent":
                    ref_json = os.path.join(folder, "reference.json")
                    ref = measure(reference_command(args.reference, key, response, flags, ref_json, driver),
                                  timeout=args.cap)
                    if not ref["timeout"]:
                        with open(ref_json) as handle:
                            diff = largest_difference(our_scores, json.load(handle))
            if size.name == "1sent":
                baseline[call] = mine["wall"]
                continue
            row = {
                "size": size.name, "docs": size.docs, "tokens": tokens, "call": call, "jobs": jobs,
                "floor_wall": base["wall"], "floor_rss": base["rss"],
                "wall": mine["wall"], "rss": mine["rss"], "tokens_per_s": tokens / mine["wall"],
                "ours_over_floor": mine["wall"] / base["wall"],
                "reference_wall": None if ref is None else ref["wall"],
                "reference_rss": None if ref is None else ref["rss"],
                "reference_timeout": bool(ref and ref["timeout"]),
                "reference_over_ours": (ref["wall"] / mine["wall"]) if ref and not ref["timeout"] else None,
                "max_abs_diff": diff,
            }
            rows.append(row)
            print(_row_line(row, args.cap), file=sys.stderr, flush=True)
            if size.docs == 1 and call in baseline:
                marginal.setdefault(call, {})[size.name] = (mine["wall"] - baseline[call]) / (tokens / 1000)
    return {"rows": rows, "marginal_per_1k_tokens": marginal, "cap": args.cap,
            "machine": {"cores": os.cpu_count(), "memory_gib": _memory_gib(),
                        "python": platform.python_version(), "platform": platform.platform()},
            "reference": args.reference, "date": time.strftime("%Y-%m-%d %H:%M")}


def _memory_gib():
    try:
        with open("/proc/meminfo") as handle:
            return round(int(handle.readline().split()[1]) / 2**20, 1)
    except OSError:
        return None


def _fmt(value, pattern="%.2f", missing="-"):
    return missing if value is None else pattern % value


def _row_line(row, cap):
    reference = ("> cap" if row["reference_timeout"] else _fmt(row["reference_wall"], "%.1f"))
    return (f"| {row['size']} | {row['call']} | {row['jobs']} | {row['floor_wall']:.2f} | {row['wall']:.2f} "
            f"| {row['rss']:.0f} | {row['tokens_per_s']:,.0f} | {row['ours_over_floor']:.2f} "
            f"| {reference} | {_fmt(row['reference_rss'], '%.0f')} | {_fmt(row['reference_over_ours'], '%.1f')} "
            f"| {_fmt(row['max_abs_diff'], '%.1e')} |")


def render(result) -> str:
    lines = [
        f"Machine: {result['machine']['cores']} cores, {result['machine']['memory_gib']} GiB, "
        f"Python {result['machine']['python']}; {result['date']}",
        "",
        "| size | call | -j | floor s | ours s | ours MiB | tokens/s | ours ÷ floor | reference s "
        "| reference MiB | reference ÷ ours | max abs diff |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [_row_line(row, result["cap"]) for row in result["rows"]]
    marginal = result["marginal_per_1k_tokens"]
    if marginal:
        lines += ["", "Marginal wall seconds per 1k tokens (minus a one-sentence run of the same program):", "",
                  "| call | " + " | ".join(sorted(next(iter(marginal.values())), key=_size_order)) + " | 50k ÷ 5k |",
                  "|---|" + "---:|" * (len(next(iter(marginal.values()))) + 1)]
        for call, by_size in marginal.items():
            names = sorted(by_size, key=_size_order)
            ratio = (by_size["50k"] / by_size["5k"]) if "50k" in by_size and "5k" in by_size else None
            lines.append(f"| {call} | " + " | ".join(f"{by_size[n]:.4f}" for n in names)
                         + f" | {_fmt(ratio)} |")
    lines += ["", "Targets:", ""] + [f"- {line}" for line in targets(result)]
    return "\n".join(lines) + "\n"


def targets(result) -> list[str]:
    """The issue's targets, each read off the table: what was measured and
    whether it holds."""
    rows = result["rows"]

    def verdict(ok):
        return "met" if ok else "NOT met"

    out = []
    diffs = [r["max_abs_diff"] for r in rows if r["max_abs_diff"] is not None]
    if diffs:
        out.append(f"largest difference from the reference ≤ 1e-9: {max(diffs):.1e} "
                   f"over {len(diffs)} rows, {verdict(max(diffs) <= 1e-9)}")
    single = [r for r in rows if r["jobs"] == 1]
    if single:
        worst = max(single, key=lambda r: r["ours_over_floor"])
        out.append(f"-j 1 ≤ 1.5 × floor at every size: worst {worst['ours_over_floor']:.2f} "
                   f"({worst['size']} {worst['call']}), {verdict(worst['ours_over_floor'] <= 1.5)}")
    for r in rows:
        if r["size"] == "20k" and r["call"] == "all" and r["reference_over_ours"] is not None:
            out.append(f"20k -m all ≥ 30 × faster than the reference: {r['reference_over_ours']:.1f} ×, "
                       f"{verdict(r['reference_over_ours'] >= 30)}")
    for call, by_size in result["marginal_per_1k_tokens"].items():
        if call != "floor" and "50k" in by_size and "5k" in by_size:
            ratio = by_size["50k"] / by_size["5k"]
            out.append(f"marginal cost per 1k tokens, 50k ÷ 5k ≤ 1.3 ({call}): {ratio:.2f}, {verdict(ratio <= 1.3)}")
    for r in rows:
        if r["size"] == "1M" and r["jobs"] == 2:
            out.append(f"1M -j 2 ≤ 0.8 × floor ({r['call']}): {r['ours_over_floor']:.2f}, "
                       f"{verdict(r['ours_over_floor'] <= 0.8)}")
    for r in rows:
        if r["size"] == "1M" and r["jobs"] == 1 and r["reference_rss"]:
            share = r["rss"] / r["reference_rss"]
            out.append(f"1M peak memory ≤ 25 % of the reference's ({r['call']}): {r['rss']:.0f} of "
                       f"{r['reference_rss']:.0f} MiB, {share:.1%}, {verdict(share <= 0.25)}")
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", help="a checkout (work tree) of the official corefud-scorer")
    parser.add_argument("--cap", type=float, default=900, help="seconds before a reference run shows as '> cap'")
    parser.add_argument("--sizes", default="5k,20k,50k,200k,1M",
                        help="comma-separated, of " + ", ".join(SIZES))
    parser.add_argument("--quick", action="store_true", help="only 5k and 20k")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs of the floor and of ours per row; the median wall time is shown")
    parser.add_argument("--work", default=os.path.join(HERE, "work"), help="where generated files are kept")
    parser.add_argument("--out", default=os.path.join(HERE, "results"), help="folder for the JSON result")
    args = parser.parse_args(argv)
    args.sizes = ["5k", "20k"] if args.quick else [s for s in args.sizes.split(",") if s]
    unknown = [s for s in args.sizes if s not in SIZES]
    if unknown:
        parser.error(f"unknown size(s): {', '.join(unknown)}")
    if args.reference and not os.path.isfile(os.path.join(args.reference, "corefud-scorer.py")):
        parser.error(f"{args.reference} holds no corefud-scorer.py")
    result = run(args)
    text = render(result)
    print(text)
    os.makedirs(args.out, exist_ok=True)
    name = os.path.join(args.out, "bench-" + time.strftime("%Y%m%d-%H%M%S") + ".json")
    with open(name, "w") as handle:
        json.dump({**result, "table": text}, handle, indent=1)
    print(f"written: {name}", file=sys.stderr)


def _size_order(name):
    return list(SIZES).index(name)


if __name__ == "__main__":
    main()
