"""Record what the official CRAC empty-node evaluation scripts print on the
generated files of ``tests/empty_node_files.py``, as the expected figures of
``tests/test_empty_nodes.py``.

    python tools/empty_nodes_expected.py --peers ../peers

Runs ``crac2026_empty_nodes_eval.py`` (ufal/crac2026_empty_nodes_baseline)
and ``crac2024_zero_nodes_eval.py`` (ufal/crac2024_zero_nodes_baseline) as
``SCRIPT SYSTEM GOLD`` on each kind of response (seed 1), and on the
concatenation of two of them (the ``bench`` case: a benchmark's
micro-average). Writes ``tests/empty_nodes_expected/official.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "empty_nodes_expected" / "official.json"
SCRIPTS = {"crac2026": ("crac2026_empty_nodes_baseline", "crac2026_empty_nodes_eval.py"),
           "crac2024": ("crac2024_zero_nodes_baseline", "crac2024_zero_nodes_eval.py")}
# The bench case: these two kinds as two datasets.
BENCH = ("mixed", "head")


def scripts(peers: Path) -> dict[str, Path]:
    return {year: peers / folder / name for year, (folder, name) in SCRIPTS.items()}


def run(script: Path, system: str, gold: str) -> str:
    return subprocess.run([sys.executable, str(script), system, gold], check=True, capture_output=True,
                          text=True).stdout


def cases(folder: Path):
    """(case, key path, response path) for every kind, and the bench case."""
    sys.path.insert(0, str(ROOT / "tests"))
    import empty_node_files

    made = {}
    for kind in empty_node_files.KINDS:
        made[kind] = empty_node_files.pair(folder, kind)
        yield kind, *made[kind]
    key, response = folder / "bench-key.conllu", folder / "bench-sys.conllu"
    key.write_text("".join(Path(made[k][0]).read_text(encoding="utf-8") for k in BENCH), encoding="utf-8")
    response.write_text("".join(Path(made[k][1]).read_text(encoding="utf-8") for k in BENCH), encoding="utf-8")
    yield "bench", str(key), str(response)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", default=str(ROOT.parent / "peers"),
                        help="the folder holding the two baseline repositories")
    args = parser.parse_args(argv)
    paths = scripts(Path(args.peers))
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for case, key, response in cases(Path(tmp)):
            out[case] = {year: run(path, response, key) for year, path in paths.items()}
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(out)} cases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
