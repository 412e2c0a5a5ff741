#!/usr/bin/env python3
"""Time the score of a plaintext response (the CRAC 2025 LLM track's format)
against its key: ours against the official pipeline, whole processes, side
by side in one run.

Ours is ``python -m corefud_scorer KEY RESPONSE``. The official pipeline is
text2text-coref's ``clean`` and ``text2conllu -z`` (the key as skeleton),
then scorer 1.2 on the CoNLL-U they write. The response is the key written
by ``convert --to plaintext`` and damaged as a model damages it
(bench/plaintext_damage.py: dropped, inserted and misspelt words, seeded).
Each side runs ``--repeat`` times, interleaved; the best wall-clock and CPU
seconds are kept (CPU seconds tell a busy machine from a slow program).
Target: ours at least 20 times faster.

    python bench/plaintext.py --text2text PEERS/text2text-coref/src \\
        --scorer12 PEERS/corefud-scorer/corefud-scorer.py --python OFFICIAL_VENV/bin/python \\
        [--key PEERS/UD_English-GUM/en_gum-ud-dev.conllu] [--words 0.05] [--seed 1] [--repeat 3]

``--python`` has the official tools' dependencies (udapi, compact_json,
scipy); nothing is written into their folders. Without them the benchmark
says what is missing and exits 0.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import plaintext_damage  # noqa: E402
from errors import _children_cpu  # noqa: E402  (bench/errors.py: the CPU seconds of finished children)

TARGET = 20.0


def timed(argv: list[str], env=None, stdout=subprocess.PIPE) -> tuple[float, float, str]:
    """Wall-clock and CPU seconds of one process, and its standard output."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=stdout, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[:3])}... failed: {done.stderr.strip().splitlines()[-1:]}")
    return wall, _children_cpu() - cpu, done.stdout or ""


class Official:
    """The official tools, run from their folders with ``python``."""

    def __init__(self, text2text: str, scorer12: str, python: str):
        self.scorer12, self.python = scorer12, python
        self.env = {**os.environ, "PYTHONPATH": text2text, "PYTHONDONTWRITEBYTECODE": "1"}

    def steps(self, key: str, response: str, folder: str, flags=(), clean_zeros=False) -> list[list[str]]:
        cleaned, converted = os.path.join(folder, "cleaned.txt"), os.path.join(folder, "converted.conllu")
        module = [self.python, "-m", "text2text_coref"]
        return [[*module, "clean", response, key, "-o", cleaned, *(["-z"] if clean_zeros else [])],
                [*module, "text2conllu", cleaned, key, "-z", "-o", converted],
                [self.python, self.scorer12, key, converted, *flags]]

    def run(self, key: str, response: str, folder: str, flags=(), clean_zeros=False):
        """Per step (wall, CPU, output); the last output is scorer 1.2's."""
        return [timed(step, self.env) for step in self.steps(key, response, folder, flags, clean_zeros)]

    def write_text(self, key: str, target: str, blind=False) -> None:
        """``conllu2text -s -z`` (``-b -z``) of a key."""
        flags = ["-b", "-z"] if blind else ["-s", "-z"]
        timed([self.python, "-m", "text2text_coref", "conllu2text", key, *flags, "-o", target], self.env)


def ours(key: str, response: str, flags=()) -> tuple[float, float, str]:
    return timed([sys.executable, "-m", "corefud_scorer", key, response, *flags])


def missing(paths: dict) -> list[str]:
    return [f"{name} {path}" for name, path in paths.items() if not path or not os.path.exists(path)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text2text", help="text2text-coref's src folder")
    parser.add_argument("--scorer12", help="scorer 1.2's corefud-scorer.py")
    parser.add_argument("--python", help="an interpreter with the official tools' dependencies")
    parser.add_argument("--key", default=str(HERE.parent.parent / "peers" / "UD_English-GUM" / "en_gum-ud-dev.conllu"))
    parser.add_argument("--words", type=float, default=0.05, help="word damage per word (default 0.05)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    gone = missing({"--text2text": args.text2text, "--scorer12": args.scorer12, "--python": args.python,
                    "--key": args.key})
    if gone:
        print("skipped: not found: " + "; ".join(gone))
        return 0
    official = Official(args.text2text, args.scorer12, args.python)
    with tempfile.TemporaryDirectory() as folder:
        written, response = os.path.join(folder, "written.txt"), os.path.join(folder, "response.txt")
        timed([sys.executable, "-m", "corefud_scorer", "convert", args.key, written, "--to", "plaintext"])
        plaintext_damage.damage_file(written, response, args.seed, words=args.words)
        rows: dict[str, list] = {"ours": [], "clean": [], "text2conllu -z": [], "scorer 1.2": []}
        for _ in range(args.repeat):
            wall, cpu, our_text = ours(args.key, response)
            rows["ours"].append((wall, cpu))
            steps = official.run(args.key, response, folder)
            for name, (wall, cpu, _) in zip(list(rows)[1:], steps):
                rows[name].append((wall, cpu))
            their_text = steps[-1][2]
    best = {name: (min(w for w, _ in runs), min(c for _, c in runs)) for name, runs in rows.items()}
    total = tuple(sum(best[name][k] for name in list(rows)[1:]) for k in (0, 1))
    print(f"{Path(args.key).name}, words damaged at {args.words} (seed {args.seed}), best of {args.repeat}, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'':<22}{'wall s':>10}{'CPU s':>10}")
    for name, (wall, cpu) in best.items():
        print(f"{'official: ' + name if name != 'ours' else name:<22}{wall:>10.2f}{cpu:>10.2f}")
    print(f"{'official, total':<22}{total[0]:>10.2f}{total[1]:>10.2f}")
    ratios = (total[0] / best["ours"][0], total[1] / best["ours"][1])
    print(f"{'official / ours':<22}{ratios[0]:>10.1f}{ratios[1]:>10.1f}   (target {TARGET:.0f})")
    differing = [a for a, b in zip(our_text.splitlines(), their_text.splitlines()) if a != b]
    print("figures: " + ("the same text as scorer 1.2's" if not differing else
                         f"{len(differing)} lines differ from scorer 1.2's (see our warning on repairs)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
