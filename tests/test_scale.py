"""A 50k-token generated document, scored inside the suite (never timed):
its matching equals 1.2's dense solve at that size, and the key scored
against itself is perfect."""

from __future__ import annotations

import sys
from collections import defaultdict

import pytest

from corefud_scorer import Options, score
from corefud_scorer.alignment.match import _sorted, assign, identity_function, similarity_weights
from corefud_scorer.formats.readers.corefud import read_file

from conftest import ROOT, dense_assign

sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402


@pytest.fixture(scope="module")
def large_pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("large")
    key, response = folder / "key.conllu", folder / "response.conllu"
    generate.write_pair(str(key), str(response), 14, docs=1, tokens_per_doc=50_000)
    return key, response


def _left_after_exact(doc, identity, other_ids):
    distinct = {}
    for entity in doc.entities:
        for mention in entity.mentions:
            distinct.setdefault(identity(mention), mention)
    return [m for ident, m in distinct.items() if ident not in other_ids]


@pytest.mark.parametrize("similarity", ["head", "partial"])
def test_matching_a_large_document_equals_the_dense_solve(large_pair, similarity):
    key_doc = read_file(str(large_pair[0]))[0]
    response_doc = read_file(str(large_pair[1]))[0]
    identity = identity_function(similarity)
    key_ids = {identity(m) for e in key_doc.entities for m in e.mentions}
    response_ids = {identity(m) for e in response_doc.entities for m in e.mentions}
    keys = _sorted(_left_after_exact(key_doc, identity, response_ids))
    responses = _sorted(_left_after_exact(response_doc, identity, key_ids))
    assert len(keys) > 2000 and len(responses) > 2000

    pair_ids = lambda pairs: sorted((id(k), id(r)) for k, r in pairs)
    assert pair_ids(assign(keys, responses, similarity)) == pair_ids(dense_assign(keys, responses, similarity))
    # Mentions with two best partners of equal score: the tie-breaking is
    # exercised at this size, not only the optimum (tests/test_match.py and
    # tests/test_assignment.py hold many more ties on small input).
    tied = 0
    for side in (0, 1):
        partners = defaultdict(list)
        for pair, value in similarity_weights(keys, responses, similarity).items():
            partners[pair[side]].append(value)
        tied += sum(1 for values in partners.values() if values.count(max(values)) > 1)
    assert tied >= 1


def test_a_large_document_scores(large_pair):
    key, response = map(str, large_pair)
    options = Options(metrics=("all",), match="head", zero_match="dependent")
    result = score(key, response, options)
    assert result.documents[0].tokens == 50_000
    for name, metric in result.metrics.items():
        assert 0.3 < metric.f1 < 1.0, name
    perfect = score(key, key, options)
    for name, metric in perfect.metrics.items():
        assert metric.recall == metric.precision == 1.0, name
