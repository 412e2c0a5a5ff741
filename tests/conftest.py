"""Shared helpers: paths, an in-process CLI runner, a small CoNLL-U writer,
and 1.2's dense matching to compare the sparse one with."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from corefud_scorer.cli import main
from corefud_scorer.match import _sorted, similarity_weights

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CONFORMANCE = ROOT.parent / "shared" / "conformance"


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
