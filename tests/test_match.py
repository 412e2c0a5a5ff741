"""Mention matching: each mode, each zero method, ties, discontinuous and
nested mentions, empty nodes without DEPS, zeros moved in the response."""

from __future__ import annotations

import random

import pytest

from corefud_scorer.alignment.match import align, assign, identity_function
from corefud_scorer.model import Mention, position
from corefud_scorer import Options
from corefud_scorer.jobs.pipeline import align_documents
from corefud_scorer.formats.readers.corefud import read_file

from conftest import conllu, dense_assign, run_cli

WORDS = ["the", "old", "dog", "barked", "loudly", "."]


def sentence(entities, extra=()):
    """Tokens of 'the old dog barked loudly .' with Entity values by ord,
    plus (ord, form, entity, deps) empty nodes."""
    tokens = [(i, w, entities.get(i)) for i, w in enumerate(WORDS, 1)] + list(extra)
    return sorted(tokens, key=lambda t: float(t[0]))


def aligned_words(tmp_path, key_sentences, response_sentences, match, zero="linear"):
    """The aligned (key words, response words) as (sentence, ord) tuples."""
    (tmp_path / "k.conllu").write_text(conllu({"d": key_sentences}))
    (tmp_path / "r.conllu").write_text(conllu({"d": response_sentences}))
    key = read_file(str(tmp_path / "k.conllu"))[0]
    response = read_file(str(tmp_path / "r.conllu"))[0]
    partition = align_documents(key, response, Options(match=match, zero_match=zero, keep_singletons=True))
    def words(ident):
        ws = ident[0] if match == "head" else ident
        return tuple(round((w % 10**9) / 1000, 1) for w in ws)
    return sorted((words(k), words(r)) for k, r in partition.alignment)


def test_head_match_prefers_the_larger_overlap(tmp_path):
    # key 'the old dog' (head dog); response 'old dog' and 'dog', both headed by dog.
    key = [sentence({1: "(e1-x-3-", 3: "e1)", 5: "(e1-x-1)"})]
    response = [sentence({2: "(r1-x-2-", 3: "(r2-x-1)r1)", 5: "(r1-x-1)"})]
    pairs = aligned_words(tmp_path, key, response, "head")
    assert ((1.0, 2.0, 3.0), (2.0, 3.0)) in pairs
    assert ((5.0,), (5.0,)) in pairs


def test_head_match_tie_goes_to_the_earlier_mention(tmp_path):
    # key 'dog'; responses 'old dog' and 'dog barked', both headed by dog and
    # both covering all of the key: equal scores; 1.2's solver takes the first
    # in (start, end, length) order.
    key = [sentence({3: "(e1-x-1)", 5: "(e1-x-1)"})]
    response = [sentence({2: "(r1-x-2-", 3: "r1)(r2-x-1-", 4: "r2)", 5: "(r1-x-1)"})]
    pairs = aligned_words(tmp_path, key, response, "head")
    assert ((3.0,), (2.0, 3.0)) in pairs


def test_head_match_needs_the_same_head(tmp_path):
    # Same words, different heads: no exact match and no head match.
    key = [sentence({1: "(e1-x-3-", 3: "e1)", 5: "(e1-x-1)"})]
    response = [sentence({1: "(r1-x-1-", 3: "r1)", 5: "(r1-x-1)"})]
    assert aligned_words(tmp_path, key, response, "head") == [((5.0,), (5.0,))]
    # Exact and partial matching ignore the head for identical spans.
    assert ((1.0, 2.0, 3.0), (1.0, 2.0, 3.0)) in aligned_words(tmp_path, key, response, "exact")


def test_partial_match_inside_the_key_and_covering_its_head(tmp_path):
    key = [sentence({1: "(e1-x-3-", 3: "e1)", 5: "(e1-x-1)"})]
    inside = [sentence({2: "(r1-x-2-", 3: "r1)", 5: "(r1-x-1)"})]
    no_head = [sentence({1: "(r1-x-1-", 2: "r1)", 5: "(r1-x-1)"})]
    larger = [sentence({1: "(r1-x-3-", 4: "r1)", 5: "(r1-x-1)"})]
    assert ((1.0, 2.0, 3.0), (2.0, 3.0)) in aligned_words(tmp_path, key, inside, "partial")
    assert aligned_words(tmp_path, key, no_head, "partial") == [((5.0,), (5.0,))]
    assert aligned_words(tmp_path, key, larger, "partial") == [((5.0,), (5.0,))]
    assert aligned_words(tmp_path, key, inside, "exact") == [((5.0,), (5.0,))]


def test_discontinuous_mentions_match_by_their_words(tmp_path):
    # 'the ... dog' without 'old', in two parts.
    key = [sentence({1: "(e1[1/2]-x-1-)", 3: "(e1[2/2]-x-1-)", 5: "(e1-x-1)"})]
    same = [sentence({1: "(r1[1/2]-x-1-)", 3: "(r1[2/2]-x-1-)", 5: "(r1-x-1)"})]
    contiguous = [sentence({1: "(r1-x-1-", 3: "r1)", 5: "(r1-x-1)"})]
    assert ((1.0, 3.0), (1.0, 3.0)) in aligned_words(tmp_path, key, same, "exact")
    assert ((1.0, 3.0), (1.0, 2.0, 3.0)) not in aligned_words(tmp_path, key, contiguous, "exact")


ZERO_KEY = [sentence({1: "(e1-x-3-", 3: "e1)"}, extra=[("3.1", "_", "(e1-x-1)", "4:nsubj")])]


def test_dependent_zeros_follow_their_dependencies_not_their_position(tmp_path):
    moved = [sentence({1: "(r1-x-3-", 3: "r1)"}, extra=[("0.1", "_", "(r1-x-1)", "4:nsubj")])]
    renumbered = [sentence({1: "(r1-x-3-", 3: "r1)"},
                           extra=[("3.1", "_", None, "5:obj"), ("3.2", "_", "(r1-x-1)", "4:nsubj")])]
    for response in (moved, renumbered):
        dependent = aligned_words(tmp_path, ZERO_KEY, response, "head", "dependent")
        linear = aligned_words(tmp_path, ZERO_KEY, response, "exact", "linear")
        assert len(dependent) == 2 and len(linear) == 1


def test_empty_node_without_deps_scores_zero_instead_of_crashing(tmp_path):
    no_deps = [sentence({1: "(r1-x-3-", 3: "r1)"}, extra=[("3.1", "_", "(r1-x-1)", "_")])]
    # Dependent matching cannot pair it; the exact stage then pairs the same node.
    pairs = aligned_words(tmp_path, ZERO_KEY, no_deps, "exact", "dependent")
    assert ((3.1,), (3.1,)) in pairs
    (tmp_path / "k.conllu").write_text(conllu({"d": ZERO_KEY}))
    (tmp_path / "r.conllu").write_text(conllu({"d": no_deps}))
    run = run_cli(tmp_path / "k.conllu", tmp_path / "r.conllu", "-s")
    assert run.code == 0, run.err


# --- the sparse assignment against 1.2's dense solve, on tie-heavy input ---

def _random_mentions(rng, n, sentences, length, zeros=False):
    out = {}
    for _ in range(n):
        s = rng.randrange(sentences)
        if zeros:
            pos = position(s, rng.randrange(1, 4) + 0.1 * rng.randrange(1, 3))
            deps = tuple({(rng.randrange(1, 4) * 1000, rng.choice(["nsubj", "obj"]))
                          for _ in range(rng.randrange(0, 3))})
            m = Mention((pos,), pos, True, deps)
        else:
            a = rng.randrange(1, length + 1)
            words = tuple(position(s, w) for w in range(a, min(length, a + rng.randrange(3)) + 1))
            m = Mention(words, rng.choice(words))
        out[(m.words, m.head)] = m
    return list(out.values())


@pytest.mark.parametrize("similarity", ["head", "partial", "zero-dependent"])
def test_assignment_equals_the_dense_solve(similarity):
    rng = random.Random(similarity)
    zeros = similarity == "zero-dependent"
    ties = 0
    for _ in range(1500):
        keys = _random_mentions(rng, rng.randrange(1, 14), rng.randrange(1, 3), 5, zeros)
        responses = _random_mentions(rng, rng.randrange(1, 14), rng.randrange(1, 3), 5, zeros)
        dense = dense_assign(keys, responses, similarity)
        key_of = lambda pairs: sorted((k.words, k.head, r.words, r.head) for k, r in pairs)
        assert key_of(assign(keys, responses, similarity)) == key_of(dense)
        ties += len(dense) > 0
    assert ties > 500


def test_align_orders_exact_then_partial_then_zero_pairs():
    zero_k = Mention((position(0, 2.1),), position(0, 2.1), True, ((3000, "nsubj"),))
    zero_r = Mention((position(0, 1.1),), position(0, 1.1), True, ((3000, "nsubj"),))
    span_k = Mention((position(0, 1), position(0, 2)), position(0, 2))
    span_r = Mention((position(0, 2),), position(0, 2))
    same = Mention((position(0, 4),), position(0, 4))
    ident = identity_function("head")
    keys = {ident(m): m for m in (zero_k, span_k, same)}
    responses = {ident(m): m for m in (zero_r, span_r, same)}
    pairs = align(keys, responses, "head", "dependent").pairs
    assert pairs == [(ident(same), ident(same)), (ident(span_k), ident(span_r)),
                     (ident(zero_k), ident(zero_r))]
