"""Run the official CorefUD scorer (a checkout of ufal/corefud-scorer, never a
dependency of this project) and get its unrounded scores.

Its command line prints percentages with two decimals; to compare to 1e-9
the official library is run in a subprocess through a small driver, written
to a temporary folder at run time, that calls the official command line's
``main()`` and records what its evaluator returns.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

DRIVER = r'''
import contextlib, importlib, io, json, os, sys
reference, output = os.path.abspath(sys.argv[1]), sys.argv[2]
sys.path.insert(0, reference)
os.chdir(reference)
cli = importlib.import_module("corefud-scorer")
evaluator = cli.uascorer.evaluator
recorded = []
original = evaluator.evaluate_documents
def recording(*args, **kwargs):
    value = original(*args, **kwargs)
    recorded.append([float(x) for x in value])
    return value
evaluator.evaluate_documents = recording
names = []
original_evaluate = cli.uascorer.evaluate
def evaluate(args):
    names.extend(name for name, _ in args["metrics"])
    return original_evaluate(args)
cli.uascorer.evaluate = evaluate
sys.argv = ["corefud-scorer.py"] + sys.argv[3:]
text = io.StringIO()
with contextlib.redirect_stdout(text):
    cli.main()
with open(output, "w") as handle:
    json.dump({"metrics": dict(zip(names, recorded)), "text": text.getvalue()}, handle)
'''


def driver_path() -> str:
    folder = tempfile.mkdtemp(prefix="corefud-reference-")
    path = os.path.join(folder, "driver.py")
    with open(path, "w") as handle:
        handle.write(DRIVER)
    return path


def reference_command(reference: str, key: str, response: str, flags: list[str], output: str,
                      driver: str | None = None) -> list[str]:
    """The command that scores with the official library and writes JSON to ``output``:
    ``{"metrics": {name: [recall, precision, f1]}, "text": what it printed}``."""
    return [sys.executable, driver or driver_path(), reference, output,
            os.path.abspath(key), os.path.abspath(response), *flags]


def reference_scores(reference: str, key: str, response: str, flags: list[str],
                     timeout: float | None = None) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        output = os.path.join(folder, "scores.json")
        subprocess.run(reference_command(reference, key, response, flags, output),
                       check=True, capture_output=True, timeout=timeout)
        with open(output) as handle:
            return json.load(handle)


def largest_difference(ours: dict, reference: dict) -> float:
    """Largest |ours - reference| over every metric both report (our JSON
    fractions against the official unrounded recall, precision, F1; a metric
    we report as not applicable is skipped)."""
    worst = 0.0
    for name, values in reference["metrics"].items():
        mine = ours["metrics"].get(name)
        if mine is None:
            continue
        for key, value in zip(("recall", "precision", "f1"), values):
            worst = max(worst, abs(mine[key] - value))
    return worst
