"""CoNLL-2012 files: this scorer against ``perl scorer.pl all`` (v8.01), side
by side on the same generated files in one run.

    python bench/conll.py --reference DIR [--runs 3] [--sizes 300x500,1x20000] [--timeout 3600]

DIR is a work tree of conll/reference-coreference-scorers (never a
dependency). Sizes are DOCSxTOKENS; the defaults are a 300-document,
150k-token test set and one 20k-token document. Per size: wall seconds and
CPU seconds and peak RSS of ``conll-scorer all KEY SYS none`` (the stand-in), of
``corefud-scorer KEY SYS --format conll -s -j 1`` (the commands installed beside
the Python running this, or ``python -m`` without them) and of ``perl scorer.pl all
KEY SYS none``; Perl ÷ ours (wall and CPU); and whether the numbers are the same (every
number of the two texts equal to 1e-9 relative: Perl adds documents in its
hash order, so a sum over documents can differ in the last printed digit).
Prints a Markdown table and writes it as JSON under bench/results/.

The target (20x) is for ``conll-scorer``, the stand-in for ``perl scorer.pl
all`` (same arguments, same text): wall and CPU ratios both count.
``corefud-scorer --format conll`` is timed alongside for information; it
also loads the whole library (numpy included) and writes JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


TARGET = 20.0
WORDS = ("the", "a", "of", "house", "river", "she", "he", "it", "said", "went", "city", "old", "new",
         "and", "to", "in", "they", "government", "year", "people", "company", "report", ",", ".")


# --- generated files ---

def document(rng: random.Random, name: str, tokens: int):
    """Sentences of words and key entities: lists of (first, last) token spans,
    about 0.12 mentions a token (OntoNotes' density), no span twice, no two
    mentions of one entity overlapping (the brackets could not say which is which)."""
    lengths = []
    while sum(lengths) < tokens:
        lengths.append(min(rng.randint(8, 35), tokens - sum(lengths)))
    words = [rng.choice(WORDS) for _ in range(tokens)]
    spans = set()
    start = 0
    for n in lengths:
        for _ in range(max(1, round(n * 0.12))):
            first = start + rng.randrange(n)
            last = min(start + n - 1, first + rng.choice((0, 0, 0, 1, 1, 2, 3, 5)))
            spans.add((first, last))
        start += n
    entities: list[list[tuple[int, int]]] = []
    for span in sorted(spans):
        # Mostly a recent entity, sometimes a new one.
        if entities and rng.random() < 0.7:
            candidates = entities[-40:]
            entity = rng.choice(candidates)
            if any(not (span[1] < s or t < span[0]) for s, t in entity):
                entity = []
                entities.append(entity)
        else:
            entity = []
            entities.append(entity)
        entity.append(span)
    return name, lengths, words, [e for e in entities if e]


def perturbed(rng: random.Random, entities):
    """A system's entities: mentions missed, boundaries moved, spurious
    mentions added, entities split and merged."""
    out = []
    for entity in entities:
        kept = []
        for first, last in entity:
            r = rng.random()
            if r < 0.10:
                continue
            if r < 0.18:
                last = last + 1
            kept.append((first, last))
        if len(kept) > 3 and rng.random() < 0.2:
            cut = rng.randrange(1, len(kept))
            out.extend([kept[:cut], kept[cut:]])
        elif kept:
            out.append(kept)
    merged = []
    for i, entity in enumerate(out):
        if i % 9 == 1 and merged:
            merged[-1] = merged[-1] + entity
        else:
            merged.append(entity)
    return merged


def cleaned(entities, tokens):
    """No span twice, none past the end, no overlap within an entity."""
    seen, clean = set(), []
    for entity in entities:
        kept = []
        for first, last in sorted(entity):
            last = min(last, tokens - 1)
            if (first, last) in seen or any(not (last < s or t < first) for s, t in kept):
                continue
            seen.add((first, last))
            kept.append((first, last))
        if kept:
            clean.append(kept)
    return clean


def _write(handle, name, lengths, words, entities):
    brackets = [[] for _ in words]
    for e, entity in enumerate(entities):
        for first, last in entity:
            if first == last:
                brackets[first].append(f"({e})")
            else:
                brackets[first].append(f"({e}")
                brackets[last].append(f"{e})")
    handle.write(f"#begin document ({name}); part 000\n")
    token = 0
    for n in lengths:
        for i in range(n):
            column = "|".join(brackets[token]) or "-"
            handle.write(f"{name}\t0\t{i}\t{words[token]}\t*\t{column}\n")
            token += 1
        handle.write("\n")
    handle.write("#end document\n")


def write_pair(key_path: str, response_path: str, docs: int, tokens: int, seed: int) -> None:
    rng = random.Random(seed)
    with open(key_path, "w", encoding="utf-8") as key, open(response_path, "w", encoding="utf-8") as response:
        for d in range(docs):
            name, lengths, words, entities = document(rng, f"bench/doc_{d:04d}", tokens)
            entities = cleaned(entities, tokens)
            _write(key, name, lengths, words, entities)
            _write(response, name, lengths, words, cleaned(perturbed(rng, entities), tokens))


# --- runs ---

def measure(command: list[str], timeout: float, stdout) -> dict:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MiB) of one
    process (as bench/run.py's helper, with the CPU time: on a shared machine
    the wall time says more about the neighbours than about the program)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=stdout, stderr=subprocess.PIPE)
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - start > timeout:
            process.kill()
            os.wait4(process.pid, 0)
            return {"wall": None, "cpu": None, "rss": None, "timeout": True}
        time.sleep(0.01)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{process.stderr.read().decode(errors='replace')[-2000:]}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": usage.ru_maxrss / 1024,
            "timeout": False}


NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]\d+)?")


def same_numbers(ours_text: str, perl_text: str) -> bool:
    """Every line after the version line, with numbers equal to 1e-9 relative."""
    a, b = ours_text.splitlines()[1:], perl_text.splitlines()[1:]
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if NUMBER.sub("#", x) != NUMBER.sub("#", y):
            return False
        for u, v in zip(NUMBER.findall(x), NUMBER.findall(y)):
            u, v = float(u), float(v)
            if abs(u - v) > 1e-9 * max(1.0, abs(u), abs(v)) and not _truncation(x, u, v):
                return False
    return True


def _truncation(line: str, u: float, v: float) -> bool:
    # A percentage truncated to 0.01 can fall either side of a step when the
    # sums differ in their last bit.
    return abs(u - v) <= 0.010001 and "%" in line


def command(script: str, module: str) -> list[str]:
    """The installed command beside this Python (what a user runs), or
    ``python -m module`` where it is not installed."""
    path = os.path.join(os.path.dirname(sys.executable), script)
    return [path] if os.access(path, os.X_OK) else [sys.executable, "-m", module]


def run(args) -> dict:
    scorer = os.path.join(args.reference, "scorer.pl")
    rows = []
    with tempfile.TemporaryDirectory(prefix="conll-bench-") as folder:
        for spec in args.sizes.split(","):
            docs, tokens = (int(x) for x in spec.split("x"))
            key = os.path.join(folder, f"{spec}.key.conll")
            response = os.path.join(folder, f"{spec}.response.conll")
            write_pair(key, response, docs, tokens, seed=docs * 7 + tokens)
            outputs = {name: os.path.join(folder, f"{spec}.{name}.txt") for name in ("dropin", "perl")}

            def timed(command, output=None):
                def once():
                    with open(output or os.devnull, "w") as handle:
                        return measure(command, timeout=args.timeout, stdout=handle)
                return once

            dropin = [*command("conll-scorer", "corefud_scorer.v801.dropin"), "all", key, response, "none"]
            cli = [*command("corefud-scorer", "corefud_scorer"), key, response, "--format", "conll", "-s",
                   "-m", "muc", "bcub", "ceafm", "ceafe", "blanc", "-j", "1", "-q", "--output", "json"]
            perl = ["perl", scorer, "all", key, response, "none"]
            row = {"size": spec, "documents": docs, "tokens": docs * tokens}
            # Side by side in one run: ours, then Perl once, then ours again.
            ours_runs, cli_runs = [], []
            for i in range(args.runs):
                ours_runs.append(timed(dropin, outputs["dropin"])())
                cli_runs.append(timed(cli)())
                if i == 0:
                    perl_result = timed(perl, outputs["perl"])()

            def median(runs, field):
                return sorted(r[field] for r in runs)[len(runs) // 2]
            row.update({"ours_s": median(ours_runs, "wall"), "ours_cpu": median(ours_runs, "cpu"),
                        "ours_mib": max(r["rss"] for r in ours_runs),
                        "cli_s": median(cli_runs, "wall"), "cli_cpu": median(cli_runs, "cpu"),
                        "cli_mib": max(r["rss"] for r in cli_runs),
                        "perl_s": perl_result["wall"], "perl_cpu": perl_result["cpu"],
                        "perl_mib": perl_result["rss"], "perl_timeout": perl_result["timeout"]})
            if perl_result["timeout"]:
                row.update(ratio=None, ratio_cli=None, ratio_cpu=None, ratio_cli_cpu=None, same=None)
            else:
                row["ratio"] = row["perl_s"] / row["ours_s"]
                row["ratio_cli"] = row["perl_s"] / row["cli_s"]
                row["ratio_cpu"] = row["perl_cpu"] / row["ours_cpu"]
                row["ratio_cli_cpu"] = row["perl_cpu"] / row["cli_cpu"]
                with open(outputs["dropin"], encoding="utf-8") as a, open(outputs["perl"], encoding="utf-8") as b:
                    row["same"] = same_numbers(a.read(), b.read())
            rows.append(row)
            print(render_row(row), flush=True)
    return {"machine": {"platform": platform.platform(), "cores": os.cpu_count(),
                        "python": platform.python_version()},
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "runs": args.runs, "rows": rows}


HEADER = ("| input | conll-scorer s (CPU s) | MiB | corefud-scorer --format conll s (CPU s) | MiB "
          "| scorer.pl s (CPU s) | MiB | scorer.pl ÷ conll-scorer, wall (CPU) "
          "| scorer.pl ÷ corefud-scorer, wall (CPU) | same numbers | conll-scorer ≥ 20× |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")


def render_row(row) -> str:
    def f(x, p="%.2f"):
        return "-" if x is None else p % x
    label = f"{row['documents']} × {row['tokens'] // row['documents']:,} tokens"
    perl = "timeout" if row["perl_timeout"] else f"{f(row['perl_s'])} ({f(row['perl_cpu'])})"
    ratios = [row[k] for k in ("ratio", "ratio_cpu")]
    verdict = "-" if None in ratios else ("yes" if min(ratios) >= TARGET else
                                          "CPU only" if ratios[1] >= TARGET else "no")
    return (f"| {label} | {f(row['ours_s'])} ({f(row['ours_cpu'])}) | {f(row['ours_mib'], '%.0f')} "
            f"| {f(row['cli_s'])} ({f(row['cli_cpu'])}) | {f(row['cli_mib'], '%.0f')} | {perl} "
            f"| {f(row['perl_mib'], '%.0f')} | {f(row['ratio'], '%.1f')} ({f(row['ratio_cpu'], '%.1f')}) "
            f"| {f(row['ratio_cli'], '%.1f')} ({f(row['ratio_cli_cpu'], '%.1f')}) | {row['same']} | {verdict} |")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", required=True, help="work tree of conll/reference-coreference-scorers")
    parser.add_argument("--sizes", default="300x500,1x20000", help="DOCSxTOKENS,... (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=3, help="runs of ours (median); Perl runs once")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds allowed to one run")
    args = parser.parse_args(argv)
    print(HEADER, flush=True)
    result = run(args)
    os.makedirs(os.path.join(HERE, "results"), exist_ok=True)
    path = os.path.join(HERE, "results", "conll.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
    print(f"\nwritten to {path}")


if __name__ == "__main__":
    main()
