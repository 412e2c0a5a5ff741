"""Valid but degenerate input scores without error, with scorer 1.2's values.

The 0/0 rule (metrics.ratio): a recall or precision whose numerator is 0 is
0, so a side with nothing to find scores 0, as in scorer 1.2; F1 of 0 and 0
is 0. BLANC averages only its parts with links on either side and is 0 when
neither part has any. The zero score with no zero anaphor on either side is
not applicable (None), a deliberate difference from 1.2's 0.
"""

from __future__ import annotations

import pytest

from corefud_scorer import Options, score
from corefud_scorer.measures.metrics import Counts

from conftest import FIXTURES, conllu

ALL = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor")


def sentence(entities):
    return [(i, f"w{i}", entities.get(i)) for i in range(1, 6)]


def scored(write, key_docs, response_docs, **options):
    key = write("k.conllu", conllu(key_docs))
    response = write("r.conllu", conllu(response_docs))
    return score(str(key), str(response), Options(**options))


def prf(result, name):
    m = result.metrics[name]
    return (m.recall, m.precision, m.f1)


@pytest.mark.parametrize("keep", [False, True])
def test_no_mentions_at_all(write, keep):
    result = scored(write, {"a": [sentence({})]}, {"a": [sentence({})]}, keep_singletons=keep)
    for name in ALL:
        assert prf(result, name) == (0.0, 0.0, 0.0), name
    assert prf(result, "zero") == (None, None, None)
    assert result.conll == 0.0


def test_key_without_entities_response_with_some(write):
    result = scored(write, {"a": [sentence({})]}, {"a": [sentence({1: "(r1-x-1)", 3: "(r1-x-1)"})]})
    for name in ALL:
        assert prf(result, name) == (0.0, 0.0, 0.0), name
    assert result.metrics["muc"].counts == Counts(0.0, 0.0, 0.0, 1.0)


def test_all_singletons(write):
    key = {"a": [sentence({1: "(e1-x-1)", 3: "(e2-x-1)"})]}
    response = {"a": [sentence({1: "(r1-x-1)", 3: "(r2-x-1)"})]}
    kept = scored(write, key, response, keep_singletons=True)
    # MUC counts links only: none on either side.
    assert prf(kept, "muc") == (0.0, 0.0, 0.0)
    for name in ("bcub", "ceafe", "ceafm", "lea", "mor"):
        assert prf(kept, name) == (1.0, 1.0, 1.0), name
    # BLANC: no coreference links, so the non-coreference part alone.
    assert prf(kept, "blanc") == (1.0, 1.0, 1.0)
    dropped = scored(write, key, response)
    for name in ALL:
        assert prf(dropped, name) == (0.0, 0.0, 0.0), name


def test_a_document_without_mentions_changes_nothing(write):
    linked = [sentence({1: "(e1-x-1)", 3: "(e1-x-1)"})]
    with_empty = scored(write, {"a": linked, "b": [sentence({})]}, {"a": linked, "b": [sentence({})]})
    alone = scored(write, {"a": linked}, {"a": linked})
    for name in ALL:
        assert prf(with_empty, name) == prf(alone, name) == (1.0, 1.0, 1.0), name
    assert len(with_empty.documents) == 2


def test_one_entity_per_document(write):
    key = {"a": [sentence({1: "(e1-x-1)", 3: "(e1-x-1)"})], "b": [sentence({2: "(e2-x-1)", 4: "(e2-x-1)"})]}
    response = {"a": [sentence({1: "(r1-x-1)", 3: "(r1-x-1)"})], "b": [sentence({2: "(r2-x-1)", 5: "(r2-x-1)"})]}
    result = scored(write, key, response)
    # Document b: one of two key mentions found, no link right.
    assert prf(result, "muc") == (0.5, 0.5, 0.5)
    assert result.metrics["bcub"].counts == Counts(2 + 0.5, 4.0, 2 + 0.5, 4.0)
    assert prf(result, "ceafm") == (0.75, 0.75, 0.75)


def test_documents_scored_one_by_one_add_up_to_the_file(tmp_path):
    """Each document as a file of its own, statistics summed, equals the whole file."""
    options = Options(match="head", keep_singletons=True)
    key = FIXTURES / "example" / "key.conllu"
    response = FIXTURES / "example" / "response.conllu"
    whole = score(str(key), str(response), options)
    sums: dict = {}
    for n, (k_text, r_text) in enumerate(zip(_split(key), _split(response))):
        (tmp_path / f"k{n}").write_text(k_text)
        (tmp_path / f"r{n}").write_text(r_text)
        part = score(str(tmp_path / f"k{n}"), str(tmp_path / f"r{n}"), options)
        for name, m in part.metrics.items():
            sums[name] = sums[name] + m.counts if name in sums else m.counts
    assert n == 1
    for name, m in whole.metrics.items():
        assert sums[name] == m.counts, name


def _split(path):
    """A file's documents as texts of their own, each with the global.Entity header."""
    text = path.read_text(encoding="utf-8")
    header = "# global.Entity = eid-etype-head-other\n"
    parts = text.replace(header, "").split("# newdoc")[1:]
    return ["# newdoc" + part.replace("\n", "\n" + header, 1) for part in parts]
