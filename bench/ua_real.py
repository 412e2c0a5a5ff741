"""Real Universal Anaphora dialogue, side by side with the UA library of scorer 1.2.

    python bench/ua_real.py --reference DIR [--light FILE] [--runs 5] [--seed 1]
                            [--tokens 10000] [--docs 5]

Scores, whole process, ``-s -a exact -m muc bcub ceafe ceafm blanc lea``:

- the CODI-CRAC 2022 LIGHT dev file (``light_dev.2022.CONLLUA`` of
  UniversalAnaphora/CODI-CRAC22-Corpus, fetched beside the project, never
  committed; ``--light``) against a seeded perturbation of it (markables
  dropped, moved to another entity or split off, spurious ones added);
- a generated pair (``bench/ua.py``'s generator: discontinuous and nested
  markables, plurals, bridging, non-referring markables);
- a one-sentence pair: the start-up alone;

with this scorer (its command, as a user runs it) and with the UA library of
a checkout of ufal/corefud-scorer (``DIR``; its reader and
``evaluate_documents``, called as its unit tests call them, through a small
driver written to a temporary folder at run time), in alternation, ``--runs``
times each. Prints a table: median wall and CPU seconds of each, the ratios,
and the largest difference between the two scorers' recall, precision and F1.
Both sides keep their compiled bytecode in a temporary folder (nothing is
written beside the library), warmed by one run that is not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import ua as generated  # noqa: E402  (bench/ua.py: the generated pair)

LIGHT = os.path.join(os.path.dirname(HERE), "..", "peers", "CODI-CRAC22-Corpus", "light_dev.2022.CONLLUA")
METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")
FLAGS = ["-s", "-a", "exact", "-m", *METRICS]
TARGET, GOAL = 15.0, 20.0

# The library as its unit tests call it (tests/unittests-ua.py): a UAReader,
# then evaluate_documents per metric, BLANC as its two parts.
DRIVER = r'''
import json, logging, sys
reference, key, response, output = sys.argv[1:5]
sys.path.insert(0, reference)
logging.disable(logging.WARNING)
from scorer.ua.reader import UAReader
from scorer.eval.evaluator import evaluate_documents, muc, b_cubed, ceafe, ceafm, lea, blancc, blancn
reader = UAReader(format="ua", keep_singletons=True, keep_split_antecedents=False, match="exact",
                  allow_boundary_crossing=False, keep_zeros=False)
reader.get_coref_infos(key, response, unit_test=True)
metrics = {"muc": muc, "bcub": b_cubed, "ceafe": ceafe, "ceafm": ceafm, "blanc": [blancc, blancn], "lea": lea}
figures = {name: [float(x) for x in evaluate_documents(reader.doc_coref_infos, metric)]
           for name, metric in metrics.items()}
with open(output, "w") as handle:
    json.dump(figures, handle)
'''

# --- the response: a seeded perturbation of a UA key ---

RE_ITEM = re.compile(r"\(([^()]*)(\))?|([^()]*)\)")


def _decide(rng: random.Random, eid: str, seen: int, recent: list[str]) -> str | None:
    """A markable's entity in the response (None: dropped). An entity's
    first markable stays, so that every ElementOf still names an entity."""
    if seen == 0 or eid.endswith("-Pseudo"):
        return eid
    roll = rng.random()
    if roll < 0.08:
        return None
    if roll < 0.20 and recent:
        return rng.choice(recent[-10:])
    return f"{eid}_split" if roll < 0.25 else eid


def _identity_cell(cell: str, state: dict, rng: random.Random) -> list[str]:
    """The items of one IDENTITY cell in the response."""
    items = []
    for found in RE_ITEM.finditer(cell) if cell != "_" else ():
        attributes, closed, closing = found.groups()
        if attributes is None:
            opened = state["open"]
            markable = closing or opened.pop()
            if closing:  # the most recently opened part of that markable
                del opened[len(opened) - 1 - opened[::-1].index(closing)]
            if state["entity"].get(markable) is not None:
                items.append((closing or "") + ")")
            continue
        fields = dict(item.split("=", 1) for item in attributes.split("|"))
        markable, eid = fields["MarkableID"], fields["EntityID"]
        if markable not in state["entity"]:
            seen = state["seen"].get(eid, 0)
            state["seen"][eid] = seen + 1
            state["entity"][markable] = _decide(rng, eid, seen, state["recent"])
            if not eid.endswith("-Pseudo"):
                state["recent"].append(eid)
        if not closed:
            state["open"].append(markable)
        if state["entity"][markable] is not None:
            fields["EntityID"] = state["entity"][markable]
            items.append("(" + "|".join(f"{k}={v}" for k, v in fields.items()) + (")" if closed else ""))
    return items


def perturb(key: str, response: str, seed: int) -> None:
    """Write a response: each document's markables dropped (8%), moved to a
    recent entity (12%) or split off into an entity of their own (5%); a
    markable added on 2% of the words without one."""
    rng = random.Random(seed)
    column, state, added = None, {}, 0
    with open(key, encoding="utf-8") as source, open(response, "w", encoding="utf-8") as out:
        for line in source:
            line = line.rstrip("\n")
            if line.startswith("# global.columns"):
                column = line.split("=", 1)[1].split().index("IDENTITY")
            if line.startswith("# newdoc") or not state:
                state = {"entity": {}, "seen": {}, "recent": [], "open": []}
            cells = line.split()
            if line.startswith("#") or column is None or len(cells) <= column:
                out.write(line + "\n")
                continue
            items = _identity_cell(cells[column], state, rng)
            if not items and "." not in cells[0] and rng.random() < 0.02:
                added += 1
                items.append(f"(EntityID=added{added}|MarkableID=added{added})")
            cells[column] = "".join(items) or "_"
            out.write("\t".join(cells) + "\n")


def one_sentence(key: str, path: str) -> None:
    """The key's header, first document start and first sentence."""
    with open(key, encoding="utf-8") as source, open(path, "w", encoding="utf-8") as out:
        started = False
        for line in source:
            if not line.strip() and started:
                break
            started = started or not line.startswith("#")
            out.write(line)
        out.write("\n")


# --- timing ---

def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], env: dict) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its children, stdout)."""
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode:
        raise SystemExit(f"failed: {' '.join(command)}\n{done.stderr[-2000:]}")
    return wall, cpu, done.stdout


def ours_command(key: str, response: str) -> list[str]:
    return [sys.executable, "-m", "corefud_scorer", key, response, *FLAGS, "--output", "json", "-q"]


def ours_figures(text: str) -> dict:
    metrics = json.loads(text)["metrics"]
    return {name: [metrics[name][part] for part in ("recall", "precision", "f1")] for name in METRICS}


def compare(key: str, response: str, reference: str | None, driver: str, runs: int, env: dict) -> dict:
    """Both scorers on one pair, alternately: medians and the largest difference."""
    output = os.path.join(os.path.dirname(driver), "library.json")
    library = [sys.executable, driver, reference, key, response, output] if reference else None
    timed(ours_command(key, response), env)  # bytecode written, files in the page cache
    if library:
        timed(library, env)
    ours, theirs = [], []
    for _ in range(runs):
        ours.append(timed(ours_command(key, response), env))
        if library:
            theirs.append(timed(library, env))
    row = {"ours": [statistics.median(r[i] for r in ours) for i in (0, 1)]}
    if library:
        row["library"] = [statistics.median(r[i] for r in theirs) for i in (0, 1)]
        with open(output) as handle:
            figures = json.load(handle)
        mine = ours_figures(ours[0][2])
        row["difference"] = max(abs(a - b) for name in METRICS for a, b in zip(mine[name], figures[name]))
    return row


def tokens_of(path: str) -> int:
    with open(path, encoding="utf-8") as handle:
        return sum(1 for line in handle if line.strip() and not line.startswith("#")
                   and "." not in line.split(None, 1)[0] and "-" not in line.split(None, 1)[0])


def environment(folder: str) -> dict:
    """Both sides' bytecode in one temporary folder, written once."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(folder, "bytecode")
    return env


def pairs(args, folder: str) -> list[tuple[str, str, str]]:
    """(name, key, response) of each pair scored."""
    out = []
    if os.path.exists(args.light):
        response = os.path.join(folder, "light_dev.response.CONLLUA")
        perturb(args.light, response, args.seed)
        out.append((f"CODI-CRAC 2022 LIGHT dev vs its perturbation (seed {args.seed})", args.light, response))
    else:
        print(f"{args.light} not found: the real pair is left out (--light FILE)\n")
    key, response = (os.path.join(folder, f"generated.{side}.ua.conllu") for side in ("key", "response"))
    generated.write_pair(key, response, args.tokens, args.docs, args.seed)
    out.append((f"generated, {args.docs} documents", key, response))
    tiny = os.path.join(folder, "one.ua.conllu")
    one_sentence(out[0][1], tiny)
    out.append(("one sentence (start-up)", tiny, tiny))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", help="a checkout of ufal/corefud-scorer (scorer 1.2)")
    parser.add_argument("--light", default=os.path.normpath(LIGHT), help="light_dev.2022.CONLLUA")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tokens", type=int, default=10_000, help="of the generated pair")
    parser.add_argument("--docs", type=int, default=5, help="of the generated pair")
    args = parser.parse_args()
    reference = os.path.abspath(args.reference) if args.reference else None
    folder = tempfile.mkdtemp(prefix="ua-real-bench-")
    driver = os.path.join(folder, "driver.py")
    with open(driver, "w") as handle:
        handle.write(DRIVER)
    env = environment(folder)
    print(f"{' '.join(FLAGS)}; median of {args.runs} runs each, alternating, whole process; "
          "seconds as wall / CPU (CPU: the process and its children)\n")
    print("| pair | tokens | ours (s) | UA library 1.2 (s) | library / ours, wall | CPU | largest difference |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    ratios = {}
    for name, key, response in pairs(args, folder):
        row = compare(key, response, reference, driver, args.runs, env)
        cells = [name, f"{tokens_of(key):,}", "{:.3f} / {:.3f}".format(*row["ours"])]
        if "library" in row:
            wall, cpu = (row["library"][i] / row["ours"][i] for i in (0, 1))
            ratios[name] = wall
            cells += ["{:.3f} / {:.3f}".format(*row["library"]), f"{wall:.1f}x", f"{cpu:.1f}x",
                      f"{row['difference']:.1e}"]
        else:
            cells += ["-", "-", "-", "-"]
        print("| " + " | ".join(cells) + " |")
    help_row = [timed([sys.executable, "-m", "corefud_scorer", "--help"], env) for _ in range(args.runs + 1)][1:]
    print(f"\nours --help alone: {statistics.median(r[0] for r in help_row):.3f} s wall, "
          f"{statistics.median(r[1] for r in help_row):.3f} s CPU")
    real = next((r for n, r in ratios.items() if n.startswith("CODI")), None)
    if real is not None:
        verdict = "goal met" if real >= GOAL else "target met" if real >= TARGET else "BELOW the target"
        print(f"real pair: {real:.1f}x the library's wall time (target {TARGET:g}x, goal {GOAL:g}x): {verdict}")


if __name__ == "__main__":
    main()
