#!/usr/bin/env python3
"""Our figures on plaintext responses against the official pipeline's.

For each KEY (CoNLL-U): the response ``conllu2text -s -z`` writes for it,
as it is and damaged as a model damages it (bench/plaintext_damage.py,
seeded: ``words``, words and ``brackets``, ``zeros`` where the key has
empty nodes); each scored under each setting by

* ``official``: text2text-coref's ``clean``, ``text2conllu -z`` (the key as
  skeleton) and scorer 1.2;
* ``meant``: the same, with the one character of ``clean``'s own bracket
  repair that keeps it from running fixed (it looks for ``(eN`` where the
  tags read ``[eN``), in a copy made at run time, so that an opening tag
  never closed becomes a one-word mention as its comment says;
* ``clean -z``: the official pipeline with ``clean -z`` (keys with empty
  nodes): its ``##`` words are compared with the key's empty nodes' forms;
* ``ours``: ``python -m corefud_scorer KEY RESPONSE``.

One line per file, response and setting: the CoNLL score of each, whether
ours prints scorer 1.2's text line for line, and what our reading repaired.

    python tools/plaintext_official.py --text2text PEERS/text2text-coref/src \\
        --scorer12 PEERS/corefud-scorer/corefud-scorer.py --python OFFICIAL_VENV/bin/python KEY [KEY ...]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import plaintext  # noqa: E402  (bench/plaintext.py)
import plaintext_damage  # noqa: E402

SETTINGS = {"head": [], "exact": ["-a", "exact"], "partial": ["-a", "partial"], "singletons": ["-s"],
            "linear": ["-z", "linear"]}
DAMAGE = {"well-formed": {}, "words": {"words": 0.05}, "words+brackets": {"words": 0.05, "brackets": 0.05},
          "zeros": {"zeros": 0.1}}
BROKEN_REPAIR = 'f"(e{entity}"'


def meant_copy(text2text: str, folder: str) -> str:
    """A copy of the official package whose bracket repair runs."""
    target = os.path.join(folder, "meant")
    shutil.copytree(os.path.join(text2text, "text2text_coref"), os.path.join(target, "text2text_coref"))
    cleaner = os.path.join(target, "text2text_coref", "output_cleaner.py")
    source = Path(cleaner).read_text(encoding="utf-8")
    if BROKEN_REPAIR not in source:
        raise SystemExit("the official clean no longer has the repair this tool fixes")
    Path(cleaner).write_text(source.replace(BROKEN_REPAIR, 'f"[e{entity}"'), encoding="utf-8")
    return target


def conll(text: str) -> str:
    """The CoNLL score a text gives ("fails" where the tools failed)."""
    found = re.search(r"CoNLL score: (\S+)", text)
    return found.group(1) if found else "fails"


def has_empty_nodes(path: str) -> bool:
    with open(path, encoding="utf-8") as lines:
        return any(re.match(r"[0-9]+\.[0-9]+\t", line) for line in lines)


def official_texts(pipeline, key: str, response: str, folder: str, settings: list, clean_zeros=False) -> dict:
    """Scorer 1.2's text per setting on what clean and text2conllu write
    (the two run once); a failure of the tools is given as its last line."""
    try:
        steps = pipeline.steps(key, response, folder, clean_zeros=clean_zeros)
        for step in steps[:2]:
            plaintext.timed(step, pipeline.env)
        return {name: plaintext.timed([*steps[2], *SETTINGS[name]], pipeline.env)[2] for name in settings}
    except RuntimeError as err:
        return {name: f"failed: {err}" for name in settings}


def our_text(key: str, response: str, flags) -> tuple[str, str]:
    import subprocess

    done = subprocess.run([sys.executable, "-m", "corefud_scorer", key, response, *flags],
                          capture_output=True, text=True)
    return done.stdout, done.stderr


def repairs(err: str) -> str:
    found = re.search(r"repaired: (.*) \(first", err)
    return found.group(1) if found else "none"


def check_key(key: str, pipelines: dict, seed: int, folder: str) -> None:
    written = os.path.join(folder, "written.txt")
    try:
        pipelines["official"].write_text(key, written)
    except RuntimeError as err:
        print(f"{Path(key).name:<28} conllu2text fails: {err}", flush=True)
        return
    zeros = has_empty_nodes(key)
    settings = [name for name in SETTINGS if zeros or name != "linear"]
    for variant, rates in DAMAGE.items():
        if variant == "zeros" and not zeros:
            continue
        response = os.path.join(folder, f"{variant}.txt")
        plaintext_damage.damage_file(written, response, seed, **rates)
        texts = {name: official_texts(pipeline, key, response, folder, settings, clean_zeros=name == "clean -z")
                 for name, pipeline in pipelines.items() if zeros or name != "clean -z"}
        for setting in settings:
            ours, err = our_text(key, response, SETTINGS[setting])
            same = "same text" if ours == texts["official"][setting] else (
                "meant's text" if ours == texts["meant"][setting] else "differs")
            scores = "  ".join(f"{name} {conll(found[setting]):>6}" for name, found in texts.items())
            print(f"{Path(key).name:<28} {variant:<15} {setting:<10} {scores}  ours {conll(ours):>6}  {same:<12}"
                  f" repaired: {repairs(err)}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("keys", nargs="+")
    parser.add_argument("--text2text", required=True, help="text2text-coref's src folder")
    parser.add_argument("--scorer12", required=True, help="scorer 1.2's corefud-scorer.py")
    parser.add_argument("--python", required=True, help="an interpreter with the official tools' dependencies")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        pipelines = {"official": plaintext.Official(args.text2text, args.scorer12, args.python),
                     "meant": plaintext.Official(meant_copy(args.text2text, folder), args.scorer12, args.python),
                     "clean -z": plaintext.Official(args.text2text, args.scorer12, args.python)}
        for key in args.keys:
            check_key(key, pipelines, args.seed, folder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
