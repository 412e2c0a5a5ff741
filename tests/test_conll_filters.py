"""--np-only and --remove-nested-mentions on CoNLL-2012 files, as the UA
scorer's CoNLL reader defines them; every expected figure is worked out
by hand in the comments."""

from __future__ import annotations

import pytest

from corefud_scorer.formats.mention_filters import np_only, remove_nested, span_label

from conftest import FIXTURES, run_cli


def conll(sentences, parse=True) -> str:
    """A one-document CoNLL-2012 file; a sentence is a list of
    ``(word, parse bit, coreference)``; without ``parse`` the parse column
    holds ``-``."""
    lines = ["#begin document (d); part 000"]
    for sentence in sentences:
        for n, (word, bits, coref) in enumerate(sentence):
            lines.append(f"d 0 {n} {word} XX {bits if parse else '-'} - - - - * {coref}")
        lines.append("")
    return "\n".join(lines + ["#end document", ""])


# "John saw Mary ." / "He did it .": entity 1 the subjects, entity 2 the
# verb phrases "saw Mary" and "did", entity 3 the objects.
KEY_VP = [[("John", "(TOP(S(NP*)", "(1)"), ("saw", "(VP*", "(2"), ("Mary", "(NP*)", "(3)|2)"), (".", "*))", "-")],
          [("He", "(TOP(S(NP*)", "(1)"), ("did", "(VP*)", "(2)"), ("it", "(NP*)", "(3)"), (".", "*))", "-")]]
# The response swaps "did" and "it": {saw Mary, it} and {Mary, did}.
RESPONSE_VP = [[(w, b, c) for w, b, c in KEY_VP[0]],
               [KEY_VP[1][0], ("did", "(VP*)", "(3)"), ("it", "(NP*)", "(2)"), KEY_VP[1][3]]]


def _muc(key, response, *flags):
    run = run_cli(key, response, "-m", "muc", "--output", "json", *flags)
    assert run.code == 0, run.err
    muc = run.json["metrics"]["muc"]
    return muc["recall"], muc["precision"], muc["f1"]


def test_np_only_leaves_out_what_the_key_parses_as_verb_phrases(tmp_path):
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(conll(KEY_VP))
    # The response's parse column is not read: the key's parse labels both.
    response.write_text(conll(RESPONSE_VP, parse=False))
    # All mentions: key links 1 + 1 + 1; the response keeps John-He only
    # (saw Mary and did, Mary and it are split): recall 1/3, precision 1/3.
    assert _muc(key, response) == (1 / 3, 1 / 3, 1 / 3)
    # NP-only: "saw Mary" and "did" are VPs. The key loses entity 2 (no
    # mention left); the response's {saw Mary, it} and {Mary, did} keep one
    # mention each and go. Key {John, He}, {Mary, it}; response {John, He}:
    # recall (1 + 0) / 2, precision 1 / 1, F1 2/3.
    assert _muc(key, response, "--np-only") == (0.5, 1.0, 2 / 3)
    run = run_cli(key, response, "-m", "muc", "--np-only", "--output", "json")
    assert run.json["settings"]["np_only"] is True and "|np-only|" in run.json["signature"]
    assert "keep only np mentions" in run_cli(key, response, "-m", "muc", "--np-only").out


def test_np_only_refuses_a_key_without_parse(tmp_path):
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(conll(KEY_VP, parse=False))
    response.write_text(conll(RESPONSE_VP))
    run = run_cli(key, response, "--np-only")
    assert run.code == 2 and run.out == ""
    assert run.err == (f"corefud-scorer: error: {key}:2: --np-only reads the key's parse (the sixth of at "
                       "least seven columns), and this token line has none ('-')\n")
    short = tmp_path / "short.conll"
    short.write_text((FIXTURES / "seed" / "pradhan2014.key.conll").read_text())
    run = run_cli(short, short, "--np-only")
    assert run.code == 2 and run.err.count("\n") == 1 and f"{short}:2: " in run.err and "(5 columns)" in run.err
    # Without the flag the same files score.
    assert run_cli(key, response).code == 0


# "the man here left ." / "He went .": entity 1 "the man here", "man"
# inside it, and "He"; entity 2 "here" (inside entity 1's mention) and
# "went".
KEY_NESTED = [[("the", "*", "(1"), ("man", "*", "(1)"), ("here", "*", "(2)|1)"), ("left", "*", "-"), (".", "*", "-")],
              [("He", "*", "(1)"), ("went", "*", "(2)"), (".", "*", "-")]]
# The response has "man" and "He" in one entity, "here" and "went" in another.
RESPONSE_NESTED = [[("the", "*", "-"), ("man", "*", "(1)"), ("here", "*", "(2)"), ("left", "*", "-"), (".", "*", "-")],
                   KEY_NESTED[1]]


def test_remove_nested_leaves_out_mentions_inside_another_of_their_entity(tmp_path):
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(conll(KEY_NESTED))
    response.write_text(conll(RESPONSE_NESTED))
    # All mentions: key entity 1 (3 mentions, 2 links) keeps man-He (1),
    # entity 2 keeps here-went (1): recall 2/3; both response links are
    # right: precision 1; F1 0.8.
    assert _muc(key, response) == (2 / 3, 1.0, 0.8)
    # "man" is inside "the man here", of its own entity: it goes. "here" is
    # inside it too but of another entity: it stays. Key {the man here, He},
    # {here, went}: recall (0 + 1) / 2; response {man, He} now splits
    # ("man" is in no key entity): precision (0 + 1) / 2; F1 1/2.
    assert _muc(key, response, "--remove-nested-mentions") == (0.5, 0.5, 0.5)
    run = run_cli(key, response, "--remove-nested-mentions", "--output", "json")
    assert run.json["settings"]["remove_nested_mentions"] is True and "|no-nested|" in run.json["signature"]


@pytest.mark.parametrize("args", [
    (FIXTURES / "example" / "key.conllu", FIXTURES / "example" / "response.conllu", "--np-only"),
    ("errors", FIXTURES / "seed" / "pradhan2014.key.conll", FIXTURES / "seed" / "pradhan2014.response.conll",
     "--remove-nested-mentions"),
    (FIXTURES / "seed" / "pradhan2014.key.conll", FIXTURES / "seed" / "pradhan2014.response.conll",
     "--remove-nested-mentions", "--errors"),
])
def test_the_filters_are_refused_where_they_do_not_apply(args):
    run = run_cli(*args)
    assert run.code == 2 and run.out == "" and "Traceback" not in run.err


# --- the definitions, span by span ---

@pytest.mark.parametrize("tokens, label", [
    ([("saw", "(VP*"), ("Mary", "(NP*)")], "VP"),
    ([("did", "(VP*)")], "VP"),
    ([("John", "(NP*)")], "NP"),
    # The tag's letters only.
    ([("John", "(NP-SBJ*)")], "NPSBJ"),
    # A VP whose first token also opens the clause: the clause, left open,
    # is taken off the stack last.
    ([("saw", "(S(VP*"), ("it", "(NP*))")], "S"),
    # Two phrases side by side: joined under an NP.
    ([("John", "(NP*)"), ("left", "(VP*)")], "NP"),
    # A word before a phrase stands at the bottom of the stack and ends as
    # the tree; punctuation before it does not.
    ([("so", "*"), ("saw", "(VP*"), ("it", "*)")], "so"),
    ([(",", "*"), ("saw", "(VP*"), ("it", "*)")], "VP"),
    ([("it", "*")], "it"),
])
def test_span_label(tokens, label):
    assert span_label(tokens) == label


def test_np_only_keeps_an_entity_only_with_two_mentions_left():
    labels = {(0, 0): "VP", (1, 1): "NP", (2, 2): "NP", (3, 3): "VP"}
    entities = [[(0, 0), (1, 1), (2, 2)], [(0, 0), (1, 1)], [(1, 1)], [(3, 3)], [(1, 1), (2, 2)]]
    assert np_only(entities, labels.get) == [[(1, 1), (2, 2)], [(1, 1)], [(1, 1), (2, 2)]]


def test_remove_nested_counts_pairs_as_the_ua_reader_does():
    sentence = {0: 0, 1: 0, 2: 0, 3: 1}.get
    # (1, 1) inside (0, 2); (3, 3) in another sentence; a repeated span is
    # not nested.
    assert remove_nested([[(1, 1), (0, 2), (3, 3), (3, 3)]], sentence, False) == [[(0, 2), (3, 3), (3, 3)]]
    # Two mentions, one inside the other: one would be left, so the entity
    # goes without singletons and stays whole with them.
    assert remove_nested([[(1, 1), (0, 2)]], sentence, False) == []
    assert remove_nested([[(1, 1), (0, 2)]], sentence, True) == [[(1, 1), (0, 2)]]
    # (2, 2) inside (1, 2) and (0, 2), (1, 2) inside (0, 2): three pairs for
    # three mentions, so not "one left": the outer mention stays alone.
    assert remove_nested([[(2, 2), (1, 2), (0, 2)]], sentence, False) == [[(0, 2)]]


def test_the_library_refuses_the_filters_for_other_formats():
    from corefud_scorer import Options, score
    from corefud_scorer.errors import ScorerError

    with pytest.raises(ScorerError, match="CoNLL-2012"):
        score(FIXTURES / "example" / "key.conllu", FIXTURES / "example" / "response.conllu",
              Options(np_only=True))
