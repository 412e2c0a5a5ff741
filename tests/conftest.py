"""Shared helpers: paths, an in-process CLI runner, a small CoNLL-U writer,
and 1.2's dense matching to compare the sparse one with."""

from __future__ import annotations

import collections
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from corefud_scorer.cli import main
from corefud_scorer.alignment.match import _sorted, similarity_weights

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CONFORMANCE = ROOT.parent / "shared" / "conformance"
# ``make test-long``: the generated-file sweeps in full (the matrix's cross
# product, more examples of the slow properties); the default run samples them.
LONG = os.environ.get("COREFUD_TESTS", os.environ.get("COREFUD_MATRIX", "")) == "long"
# The reference scorer scorer.pl v8.01's work tree, where it is beside the
# project (or named by CONLL_REFERENCE), and the mark of tests that run it.
REFERENCE = next((p for p in (ROOT.parent / "peers" / "reference-coreference-scorers",
                              ROOT.parent.parent / "peers" / "reference-coreference-scorers",
                              Path(os.environ.get("CONLL_REFERENCE", "/nonexistent")))
                  if (p / "scorer.pl").is_file()), None)
needs_perl = pytest.mark.skipif(REFERENCE is None or shutil.which("perl") is None,
                                reason="perl or the reference scorer's work tree is missing")

# What the matrix test checked (tests/test_matrix.py), printed at the end of
# the run; with pytest-xdist each worker sends its own and they are summed.
MATRIX_TOTALS: collections.Counter = collections.Counter()
MATRIX_REFUSALS: collections.Counter = collections.Counter()


def pytest_sessionfinish(session):
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["matrix"] = json.dumps([MATRIX_TOTALS, MATRIX_REFUSALS])


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    sent = getattr(node, "workeroutput", {}).get("matrix")
    if sent:
        totals, refusals = json.loads(sent)
        MATRIX_TOTALS.update(totals)
        MATRIX_REFUSALS.update(refusals)


def pytest_terminal_summary(terminalreporter):
    if not MATRIX_TOTALS["runs"] and not MATRIX_TOTALS["command_runs"]:
        return
    totals = MATRIX_TOTALS
    terminalreporter.write_line(
        f"matrix ({'long' if LONG else 'sample'}): {totals['runs']} runs, {totals['figures']} figures checked, "
        f"{totals['refused']} refused with one error line, {totals['explained']} perfect responses read as "
        "the reference scorers read a repeated span, with its warning")
    terminalreporter.write_line(
        f"matrix of commands ({'long' if LONG else 'sample'}): {totals['command_runs']} command x format x option "
        f"runs, {totals['command_figures']} figures compared with single pairs, {totals['command_refused']} "
        "refused in one line as the pair is")
    for message, count in MATRIX_REFUSALS.most_common(8):
        terminalreporter.write_line(f"  refused {count} times: {message}")


def python_output(code: str) -> str:
    """What a fresh interpreter prints running ``code`` at the project's root
    (it must succeed): what a module loads on import, say."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def dense_assign(keys, responses, similarity):
    """1.2's way: one dense matrix over all the mentions in 1.2's order,
    solved by scipy; the pairs scoring above zero."""
    keys, responses = _sorted(keys), _sorted(responses)
    matrix = np.zeros((len(keys), len(responses)))
    for (i, j), value in similarity_weights(keys, responses, similarity).items():
        matrix[i, j] = value
    rows, cols = linear_sum_assignment(-matrix)
    return [(keys[i], responses[j]) for i, j in zip(rows.tolist(), cols.tolist()) if matrix[i, j] > 0]


class Run:
    def __init__(self, code, out, err):
        self.code, self.out, self.err = code, out, err

    @property
    def json(self):
        return json.loads(self.out)


def run_cli(*args) -> Run:
    out, err = io.StringIO(), io.StringIO()
    try:
        # argparse writes to sys.stdout/sys.stderr itself.
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([str(a) for a in args], stdout=out, stderr=err)
    except SystemExit as exit_:
        code = exit_.code
    return Run(code, out.getvalue(), err.getvalue())


def token(ord_, form="w", misc="_", deps=None, head=None, deprel="dep"):
    """One CoNLL-U line; empty nodes (``"2.1"``) get no HEAD/DEPREL."""
    if isinstance(ord_, str) and "." in ord_:
        return "\t".join([ord_, form, "_", "_", "_", "_", "_", "_", deps or "_", misc])
    head = 0 if ord_ == 1 else (1 if head is None else head)
    deprel = "root" if head == 0 else deprel
    return "\t".join([str(ord_), form, "_", "_", "_", "_", str(head), deprel,
                      deps or f"{head}:{deprel}", misc])


def conllu(documents) -> str:
    """Text of a file from ``{doc_id: [sentence, ...]}``; a sentence is a list
    of ``(ord, form, entity)`` or ``(ord, form, entity, deps)`` tuples where
    entity is the ``Entity=`` value or None."""
    lines = []
    first = True
    for doc_id, sentences in documents.items():
        for k, sentence in enumerate(sentences):
            if k == 0:
                lines.append(f"# newdoc id = {doc_id}")
            if first:
                lines.append("# global.Entity = eid-etype-head-other")
                first = False
            lines.append(f"# sent_id = {doc_id}-{k + 1}")
            for item in sentence:
                ord_, form, entity = item[:3]
                deps = item[3] if len(item) > 3 else None
                lines.append(token(ord_, form, f"Entity={entity}" if entity else "_", deps))
            lines.append("")
    return "\n".join(lines) + "\n"


@pytest.fixture
def write(tmp_path):
    """Write text to a file under tmp_path and return its path."""
    def _write(name, text, mode="w"):
        path = tmp_path / name
        if mode == "wb":
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path
    return _write
