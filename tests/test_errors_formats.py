"""The error analysis reads one annotation alike in every format that carries
what it reads: a UA file gives its words, UPOS and FEATS as a CorefUD file
does, so both give the same categories, mentions, words and kinds; a
CoNLL-2012 file gives the same too where the mentions' heads are their first
words (the format marks none) and its token rules find what UPOS finds."""

from __future__ import annotations

import pytest

from corefud_scorer.jobs.error_analysis import METHODS

from conftest import run_cli
import matrix_files

# The same matching in every format (each format's defaults differ).
FLAGS = ("-a", "exact", "-s", "-z", "linear", "--keep-zeros", "--output", "json", "-j", "1")


def _errors(tmp_path, fmt: str, key_docs, response_docs) -> dict:
    key, response = (tmp_path / f"{name}{matrix_files.SUFFIX[fmt]}" for name in ("key", "response"))
    matrix_files.WRITERS[fmt](key_docs, key)
    matrix_files.WRITERS[fmt](response_docs, response)
    run = run_cli("errors", key, response, *FLAGS)
    assert run.code == 0, run.err
    return run.json["errors"]


def _occurrences(errors: dict, tokens: bool = True) -> list:
    """Each error with its mentions as the file shows them, whatever the
    format names its documents and entities."""
    return sorted((o["category"], tuple((m["side"], m["tokens"] if tokens else None, m["words"], m["kind"])
                                        for m in o["mentions"]))
                  for o in errors["occurrences"])


def _first_word_heads(docs):
    for doc in docs:
        for m in doc.markables:
            m.head = m.parts[0][0]
    return docs


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_corefud_ua_and_conll_files_of_one_annotation_have_the_same_errors(tmp_path, seed):
    key = _first_word_heads(matrix_files.annotation("plain", seed))
    response = _first_word_heads(matrix_files.perturbed(key, seed + 1000, plain=True))
    found = {fmt: _errors(tmp_path, fmt, key, response) for fmt in ("corefud", "ua", "conll")}
    assert sum(found["corefud"]["counts"].values()) > 0
    for fmt in ("ua", "conll"):
        assert found[fmt]["counts"] == found["corefud"]["counts"], fmt
        assert _occurrences(found[fmt]) == _occurrences(found["corefud"]), fmt
    assert found["ua"]["method"] == found["corefud"]["method"] == METHODS["trees"]
    assert found["conll"]["method"] == METHODS["tokens"]


@pytest.mark.parametrize("kind", ["rich", "zeros"])
@pytest.mark.parametrize("seed", [1, 4])
def test_zeros_discontinuous_mentions_and_plurals_read_alike_in_corefud_and_ua(tmp_path, kind, seed):
    key = matrix_files.annotation(kind, seed)
    response = matrix_files.perturbed(key, seed + 1000)
    corefud, ua = (_errors(tmp_path, fmt, key, response) for fmt in ("corefud", "ua"))
    assert ua["counts"] == corefud["counts"]
    # An empty node's place is shown as its reader numbers it (N.M, or N.00M in UA files).
    assert _occurrences(ua, tokens=False) == _occurrences(corefud, tokens=False)
    assert ua["method"] == METHODS["trees"]


def test_a_ua_file_without_upos_is_read_by_the_token_rules(tmp_path):
    key = _first_word_heads(matrix_files.annotation("plain", 3))
    response = _first_word_heads(matrix_files.perturbed(key, 1003, plain=True))
    corefud = _errors(tmp_path, "corefud", key, response)
    for name, docs in (("key", key), ("response", response)):
        path = tmp_path / f"{name}.ua.conllu"
        matrix_files.write_ua(docs, path)
        lines = path.read_text().split("\n")
        # UPOS blanked on every token line: the words alone are left.
        path.write_text("\n".join("\t".join(c[:3] + ["_"] + c[4:]) if len(c := line.split("\t")) > 3 else line
                                  for line in lines))
    run = run_cli("errors", tmp_path / "key.ua.conllu", tmp_path / "response.ua.conllu", *FLAGS)
    assert run.code == 0, run.err
    ua = run.json["errors"]
    assert ua["method"] == METHODS["tokens"]
    # The English pronoun list finds the generated pronouns as UPOS does.
    assert ua["counts"] == corefud["counts"]
    assert _occurrences(ua) == _occurrences(corefud)
    assert any(m[3] == "pronoun" for _, mentions in _occurrences(ua) for m in mentions)
