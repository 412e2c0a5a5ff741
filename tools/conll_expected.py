"""Record what scorer.pl v8.01 prints on the conformance suite's CoNLL-2012
files, as the expected text of the ``conll-scorer`` tests.

    python tools/conll_expected.py --reference ../reference-coreference-scorers

Each response file of ``../shared/conformance/conll2012`` is scored against
its key with ``all`` (each metric alone for TC-A-9, where ``all`` stops at
v8.01's ten-repeat limit) in the three modes (all documents shown, ``none``,
the document's name). The first line (``version: ...``) is left out.
Writes ``tests/conll_expected/scorer_pl.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The suite beside the project (../shared), or beside its parent folder.
SUITE = next((p for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared")
              if (p / "conformance").is_dir()), ROOT.parent / "shared") / "conformance" / "conll2012"
OUT = ROOT / "tests" / "conll_expected" / "scorer_pl.json"
SINGLE = ("muc", "bcub", "ceafm", "ceafe", "blanc")


def document_name(path: Path) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#begin document "):
            return line[len("#begin document "):]
    raise SystemExit(f"{path}: no '#begin document'")


def runs():
    """(case id, metric, key, response, mode argument or None)."""
    for key in sorted(SUITE.glob("*.key")):
        name = document_name(key)
        for response in sorted(SUITE.glob(key.stem + "-*.response")):
            metrics = SINGLE if response.name == "TC-A-9.response" else ("all",)
            for metric in metrics:
                for mode, argument in (("all", None), ("none", "none"), ("name", name)):
                    yield f"{metric} {response.name} {mode}", metric, key, response, argument


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", required=True, help="a work tree of conll/reference-coreference-scorers")
    args = parser.parse_args()
    scorer = os.path.join(args.reference, "scorer.pl")
    expected = {}
    for case, metric, key, response, argument in runs():
        command = ["perl", scorer, metric, str(key), str(response)] + ([argument] if argument else [])
        text = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        expected[case] = text.split("\n", 1)[1]
    OUT.write_text(json.dumps(expected, indent=0, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(expected)} outputs written to {OUT}")


if __name__ == "__main__":
    main()
