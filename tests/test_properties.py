"""Properties of whole-file scoring on random generated CorefUD files."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings, strategies as st

from corefud_scorer import Options, score
from corefud_scorer.measures.metrics import Counts

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402

SYMMETRIC = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")
seeds = st.integers(min_value=0, max_value=10**6)


def _pair(tmp_path_factory, seed, **options):
    folder = tmp_path_factory.mktemp("gen")
    key, response = folder / "key.conllu", folder / "response.conllu"
    generate.write_pair(str(key), str(response), seed, docs=1 + seed % 3, tokens_per_doc=120, **options)
    return str(key), str(response)


@settings(max_examples=10, deadline=None)
@given(seed=seeds, match=st.sampled_from(["exact", "partial", "head"]),
       zero=st.sampled_from(["linear", "dependent"]), keep=st.booleans())
def test_scores_are_fractions_and_perfect_responses_score_one(tmp_path_factory, seed, match, zero, keep):
    options = Options(match=match, zero_match=zero, keep_singletons=keep)
    key, response = _pair(tmp_path_factory, seed)
    for name, m in score(key, response, options).metrics.items():
        if m.applicable:
            assert 0.0 <= m.recall <= 1.0 and 0.0 <= m.precision <= 1.0 and 0.0 <= m.f1 <= 1.0, name
    key, perfect = _pair(tmp_path_factory, seed, perfect=True)
    result = score(key, perfect, options)
    for name, m in result.metrics.items():
        parts = m.counts.parts.values() if name == "blanc" else [m.counts]
        if any(not counts.empty for counts in parts):
            assert (m.recall, m.precision) == (pytest.approx(1.0), pytest.approx(1.0)), name


@settings(max_examples=10, deadline=None)
@given(seed=seeds, keep=st.booleans())
def test_swapping_key_and_response_swaps_recall_and_precision(tmp_path_factory, seed, keep):
    options = Options(match="exact", zero_match="linear", keep_singletons=keep)
    key, response = _pair(tmp_path_factory, seed)
    forward, backward = score(key, response, options), score(response, key, options)
    for name in SYMMETRIC:
        f, b = forward.metrics[name], backward.metrics[name]
        assert f.recall == pytest.approx(b.precision, abs=1e-12), name
        assert f.precision == pytest.approx(b.recall, abs=1e-12), name


@settings(max_examples=6, deadline=None)
@given(seed=seeds, match=st.sampled_from(["exact", "head"]))
def test_each_document_as_its_own_file_adds_up_to_the_whole(tmp_path_factory, seed, match):
    options = Options(match=match, keep_singletons=True)
    key, response = _pair(tmp_path_factory, seed)
    whole = score(key, response, options)
    folder = tmp_path_factory.mktemp("split")
    sums: dict = {}
    key_docs, response_docs = _documents(key), _documents(response)
    assert len(key_docs) == len(whole.documents)
    for n, (k, r) in enumerate(zip(key_docs, response_docs)):
        (folder / f"k{n}").write_text(k, encoding="utf-8")
        (folder / f"r{n}").write_text(r, encoding="utf-8")
        part = score(str(folder / f"k{n}"), str(folder / f"r{n}"), options)
        for name, m in part.metrics.items():
            sums[name] = sums[name] + m.counts if name in sums else m.counts
    for name, m in whole.metrics.items():
        pairs = (zip(sums[name].parts.values(), m.counts.parts.values()) if name == "blanc"
                 else [(sums[name], m.counts)])
        for total, counts in pairs:
            for field in ("recall_num", "recall_den", "precision_num", "precision_den"):
                assert getattr(total, field) == pytest.approx(getattr(counts, field), rel=1e-12), name


def _documents(path):
    """A file's documents as texts of their own, each with its global.Entity header."""
    text = open(path, encoding="utf-8").read()
    header = next(line for line in text.splitlines() if line.startswith("# global.Entity"))
    parts = text.replace(header + "\n", "").split("# newdoc")[1:]
    return ["# newdoc" + p.replace("\n", "\n" + header + "\n", 1) for p in parts]
