"""The further measures of ``further.py`` against the worked examples of
``docs/further-measures.md`` (exact fractions), slow literal
implementations from the definitions, and scikit-learn."""

from __future__ import annotations

from dataclasses import astuple
from fractions import Fraction as Fr
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import homogeneity_completeness_v_measure

from corefud_scorer.measures import further
from corefud_scorer.measures.further import (
    alpha, alpha_value, b_cubed_all, b_cubed_entity, b_cubed_sys, ceaf_sys, contingency_of, core_de, entropy,
    entropy_score, kappa, kappa_value, pairwise)
from corefud_scorer.measures.synchronisation import SYNC_OPTIONS, markable_identification, synchronise
from corefud_scorer.measures.document import contingency_counts
from corefud_scorer.measures.registry import FURTHER as MEASURE_NAMES, MEASURES
from corefud_scorer.measures.metrics import b_cubed, blanc_non_coreference, ceafm, muc

import textbook


def exact(value: float, expected: Fr) -> bool:
    """``value`` is the nearest float to ``expected``, give or take rounding in
    the last bits, and reads back as that fraction."""
    return (value == pytest.approx(float(expected), rel=1e-12, abs=1e-15)
            and Fr(value).limit_denominator(10**4) == expected)


def recall(counts) -> Fr:
    return Fr(counts.recall_num).limit_denominator(10**4) / Fr(counts.recall_den).limit_denominator(10**4)


def precision(counts) -> Fr:
    return Fr(counts.precision_num).limit_denominator(10**4) / Fr(counts.precision_den).limit_denominator(10**4)


def sets(*texts):
    return [set(t) for t in texts]


# Bagga & Baldwin 1998, mentions 1..9, A, B, C.
BB_KEY = sets("12345", "67", "89ABC")
BB_RESPONSE_1 = sets("12345", "6789ABC")
BB_RESPONSE_2 = sets("123489ABC5", "67")
# Pradhan et al. 2014 (seed 000): e missing from the response, h and i spurious.
PRADHAN_KEY = sets("abc", "defg")
PRADHAN_RESPONSE = sets("ab", "cd", "fghi")


# --- section 1: B-cubed under both weightings ---

@pytest.mark.parametrize("response, by_mention, by_entity", [
    (BB_RESPONSE_1, Fr(16, 21), Fr(39, 49)),
    (BB_RESPONSE_2, Fr(7, 12), Fr(3, 4)),
])
def test_bagga_baldwin_both_weightings(response, by_mention, by_entity):
    c = contingency_of(BB_KEY, response)
    mention = b_cubed(c)
    entity = b_cubed_entity(c)
    assert exact(mention.precision_num / mention.precision_den, by_mention)
    assert exact(entity.precision_num / entity.precision_den, by_entity)
    assert mention.recall_num == mention.recall_den == 12
    assert entity.recall_num == entity.recall_den == 3


def test_b_cubed_with_twinless_mentions():
    c = contingency_of(PRADHAN_KEY, PRADHAN_RESPONSE)
    counts = b_cubed(c)
    assert precision(counts) == Fr(1, 2) and recall(counts) == Fr(5, 12)
    # Equal weight per entity (not in the note): recall (5/9 + 5/16) / 2,
    # precision (1 + 1/2 + 1/4) / 3 -- c, d and the twinless mentions add 0.
    entity = b_cubed_entity(c)
    assert recall(entity) == (Fr(5, 9) + Fr(5, 16)) / 2
    assert precision(entity) == Fr(7, 12)


# --- section 2: pairwise links and the BLANC parts ---

def test_pairwise_links():
    c = contingency_of(PRADHAN_KEY, PRADHAN_RESPONSE)
    links = pairwise(c)
    assert (links.recall_num, links.recall_den, links.precision_num, links.precision_den) == (2, 9, 2, 8)
    score = score_of("pairwise", links)
    assert exact(score.precision, Fr(1, 4)) and exact(score.recall, Fr(2, 9))
    assert exact(score.f1, Fr(4, 17))
    negative = blanc_non_coreference(c)
    assert (negative.recall_num, negative.recall_den, negative.precision_num,
            negative.precision_den) == (8, 12, 8, 20)


# --- section 3: twinless-mention variants ---

CS_KEY = sets("abc")
CS_RESPONSE = sets("abd")


def test_cai_strube_example():
    c = contingency_of(CS_KEY, CS_RESPONSE)
    original = b_cubed(c)
    assert precision(original) == Fr(4, 9) and recall(original) == Fr(4, 9)
    every = b_cubed_all(c)
    assert precision(every) == Fr(5, 9) and recall(every) == Fr(5, 9)
    adjusted = b_cubed_sys(c)
    # neleval cs_b_cubed: (8/3, 4, 5/3, 3).
    assert exact(adjusted.precision_num, Fr(8, 3)) and adjusted.precision_den == 4
    assert exact(adjusted.recall_num, Fr(5, 3)) and adjusted.recall_den == 3
    score = score_of("bcub-sys", adjusted)
    assert exact(score.precision, Fr(2, 3)) and exact(score.recall, Fr(5, 9))


def test_cai_strube_example_with_a_spurious_singleton():
    c = contingency_of(CS_KEY, CS_RESPONSE + sets("e"))
    assert precision(b_cubed(c)) == Fr(1, 3)
    assert precision(b_cubed_all(c)) == Fr(2, 3)
    assert b_cubed_sys(c) == b_cubed_sys(contingency_of(CS_KEY, CS_RESPONSE))


def test_the_notes_correction_of_the_spurious_singleton_example():
    # Adding {c}, a key mention, rather than a twinless {e}: B-cubed P = 7/12.
    assert precision(b_cubed(contingency_of(CS_KEY, CS_RESPONSE + sets("c")))) == Fr(7, 12)


def test_ceaf_sys_example():
    # Not in the note; by hand from its procedure. Precision: key {abc}{d},
    # response {abd}{c}: the best one-to-one alignment keeps 2 of 4 mentions
    # ({abc}-{abd}, or {abc}-{c} with {d}-{abd}). Recall: key {abc},
    # response {ab}{c}: 2 of 3.
    c = contingency_of(CS_KEY, CS_RESPONSE)
    counts = ceaf_sys(c)
    assert (counts.recall_num, counts.recall_den, counts.precision_num, counts.precision_den) == (2, 3, 2, 4)
    # A spurious response singleton changes nothing either.
    assert ceaf_sys(contingency_of(CS_KEY, CS_RESPONSE + sets("e"))) == counts


# --- section 4: kappa and alpha ---

def test_alpha_and_kappa_example():
    c = contingency_of(sets("abc", "d"), sets("ab", "cd"))
    statistics = alpha(c)
    # Observed distance 5/3 over 4 units (D_o = 5/12); the 28 unordered pairs
    # of the 8 values are at 47/3 in all (D_e = 47/84).
    assert statistics.observed_thirds == 5 and statistics.units == 4
    assert statistics.pair_thirds == 47
    assert alpha_value(statistics) == float(Fr(12, 47))
    assert kappa_value(kappa(c)) == 0.0
    assert kappa(c) == further.KappaCounts(6, 3, 2, 1, 2)


def test_alpha_of_one_value_everywhere_is_one():
    assert alpha_value(alpha(contingency_of(sets("abc"), sets("abc")))) == 1.0
    assert alpha_value(alpha(contingency_of([], []))) is None
    assert kappa_value(kappa(contingency_of(sets("a"), sets("a")))) is None


# --- section 5: core-DE (the note's reading) ---

def test_core_de_reading_example():
    c = contingency_of(sets("abcde", "fgh"), sets("abc", "defgh"))
    core = core_de(c)
    assert recall(core) == Fr(2, 3) and precision(core) == Fr(2, 3)
    links = muc(c)
    assert recall(links) == Fr(5, 6) and precision(links) == Fr(5, 6)


# --- section 6: entropy ---

def labels(partition, mentions):
    owner = {m: i for i, entity in enumerate(partition) for m in entity}
    return [owner[m] for m in mentions]


def test_entropy_example_1():
    key, response = sets("ab", "cd"), sets("a", "b", "c", "d")
    score = entropy_score(entropy(contingency_of(key, response)))
    assert (score.precision, score.recall) == (1.0, 0.5)
    assert exact(score.f1, Fr(2, 3))
    assert score.variation_of_information == 1.0
    h, c, v = homogeneity_completeness_v_measure(labels(key, "abcd"), labels(response, "abcd"))
    assert (score.precision, score.recall, score.f1) == pytest.approx((h, c, v), abs=1e-14)


def test_entropy_example_2():
    import math

    key, response = sets("abcd", "efgh"), sets("ab", "cdefgh")
    score = entropy_score(entropy(contingency_of(key, response)))
    information = 1.5 - 0.75 * math.log2(3)
    assert score.precision == pytest.approx(information, rel=1e-13)
    assert score.recall == pytest.approx(information / (2 - 0.75 * math.log2(3)), rel=1e-13)
    assert score.variation_of_information == pytest.approx(2 * 1.5 - 1 - (2 - 0.75 * math.log2(3)), rel=1e-13)
    h, c, v = homogeneity_completeness_v_measure(labels(key, "abcdefgh"), labels(response, "abcdefgh"))
    assert (score.precision, score.recall, score.f1) == pytest.approx((h, c, v), abs=1e-14)


# --- section 7: markable synchronisation ---

@pytest.mark.parametrize("option, key, response, muc_pr, bcub_pr", [
    ("intersection", sets("abc", "dfg"), sets("ab", "cd", "fg"), (Fr(2, 3), Fr(1, 2)), (Fr(5, 6), Fr(5, 9))),
    ("union", sets("abc", "defg", "h", "i"), sets("ab", "cd", "fghi", "e"), (Fr(2, 5), Fr(2, 5)),
     (Fr(11, 18), Fr(31, 54))),
    ("key", sets("abc", "defg"), sets("ab", "cd", "fg", "e"), (Fr(2, 3), Fr(2, 5)), (Fr(6, 7), Fr(19, 42))),
    ("response", sets("abc", "dfg", "h", "i"), sets("ab", "cd", "fghi"), (Fr(2, 5), Fr(1, 2)),
     (Fr(9, 16), Fr(2, 3))),
])
def test_synchronisation_rows(option, key, response, muc_pr, bcub_pr):
    synced = synchronise(contingency_of(PRADHAN_KEY, PRADHAN_RESPONSE), option)
    assert shape(synced) == shape(contingency_of(key, response))
    assert (precision(muc(synced)), recall(muc(synced))) == muc_pr
    assert (precision(b_cubed(synced)), recall(b_cubed(synced))) == bcub_pr


def test_mention_identification_example():
    counts = markable_identification(contingency_of(PRADHAN_KEY, PRADHAN_RESPONSE))
    assert precision(counts) == Fr(3, 4) and recall(counts) == Fr(6, 7)


def shape(c):
    """A contingency up to the order of entities."""
    cells = c.recall_cells
    return (sorted(c.key_sizes.tolist()), sorted(c.response_sizes.tolist()),
            sorted(zip(c.key_sizes[cells.rows].tolist(), c.response_sizes[cells.cols].tolist(),
                       cells.counts.tolist())))


# --- literal implementations from the definitions, for the properties ---

def literal_sync(key, response, option):
    mk, mr = set().union(*key), set().union(*response)
    target = {"intersection": mk & mr, "union": mk | mr, "key": mk, "response": mr}[option]

    def restrict(x):
        return [e & target for e in x if e & target]

    def extend(x):
        covered = set().union(*x)
        return x + [{m} for m in target - covered]

    return extend(restrict(key)), extend(restrict(response))


def literal_b_cubed(key, response):
    """Mention-weighted, a mention missing on the other side earning 0."""
    def side(gold, other):
        owner = {m: e for e in other for m in e}
        return sum(Fr(len(e & owner[m]), len(e)) for e in gold for m in e if m in owner), sum(map(len, gold))
    return side(key, response), side(response, key)


def cai_strube_pairs(key, response):
    """The note's procedure: (key, response) for recall, then for precision."""
    mk, mr = set().union(*key), set().union(*response)
    response = [e for e in response if not (len(e) == 1 and not e & mk)]
    response = response + [{m} for m in mk - mr]
    remaining = set().union(*response) - mk
    key_p = key + [{m} for m in remaining]
    response_r = [e - remaining for e in response if e - remaining]
    return (key, response_r), (key_p, response)


def literal_cai_strube(key, response):
    for_recall, for_precision = cai_strube_pairs(key, response)
    return literal_b_cubed(*for_recall)[0], literal_b_cubed(*for_precision)[1]


def literal_b_cubed_all(key, response):
    def side(gold, other):
        owner = {m: e for e in other for m in e}
        return sum(Fr(len({m} | (e & owner.get(m, set()))), len(e)) for e in gold for m in e), sum(map(len, gold))
    return side(key, response), side(response, key)


def literal_alpha(documents):
    """Krippendorff's alpha over the pooled mentions of all documents."""
    def distance(x, y):
        if x == y:
            return Fr(0)
        if x < y or y < x:
            return Fr(1, 3)
        return Fr(2, 3) if x & y else Fr(1)

    units = []
    for d, (key, response) in enumerate(documents):
        key_of = {m: frozenset((d, x) for x in e) for e in key for m in e}
        response_of = {m: frozenset((d, x) for x in e) for e in response for m in e}
        units += [(key_of[m], response_of[m]) for m in key_of]
    if not units:
        return None
    observed = sum(distance(k, r) for k, r in units) / len(units)
    values = [v for unit in units for v in unit]
    pairs = Fr(len(values) * (len(values) - 1), 2)
    expected = sum(distance(x, y) for x, y in combinations(values, 2)) / pairs
    return 1.0 if expected == 0 else float(1 - observed / expected)


def literal_kappa(documents):
    both = neither = key_links = response_links = pairs = 0
    for key, response in documents:
        key_of = {m: i for i, e in enumerate(key) for m in e}
        response_of = {m: i for i, e in enumerate(response) for m in e}
        for x, y in combinations(sorted(key_of), 2):
            k, r = key_of[x] == key_of[y], response_of[x] == response_of[y]
            pairs += 1
            key_links += k
            response_links += r
            both += k and r
            neither += not k and not r
    return further.KappaCounts(pairs, key_links, response_links, both, neither)


@st.composite
def documents(draw, identical=False):
    """One document: key and response partitions of a few mentions, each
    mention in an entity of either side or absent from it."""
    n = draw(st.integers(1, 9))
    entity = st.one_of(st.none(), st.integers(0, 3))
    key = draw(st.lists(entity, min_size=n, max_size=n))
    response = key if identical else draw(st.lists(entity, min_size=n, max_size=n))

    def groups(labels):
        out: dict = {}
        for m, label in enumerate(labels):
            if label is not None:
                out.setdefault(label, set()).add(m)
        return list(out.values())

    return groups(key), groups(response)


corpora = st.lists(documents(), min_size=1, max_size=4)


def document_statistics(name, c, shared=None):
    """One document's statistics by the scorer's path (a measure of one
    mention set reads the union); ``shared`` gives that set's contingency."""
    if shared is not None:
        return MEASURES[name].compute(shared)
    return contingency_counts(c, [name])[name]


def score_of(name, statistics):
    from corefud_scorer.measures.registry import score_of as registry_score_of
    return registry_score_of(name, statistics)


def total(name, contingencies, shared=None):
    statistics = MEASURES[name].empty()
    for i, c in enumerate(contingencies):
        statistics = statistics + document_statistics(name, c, None if shared is None else shared[i])
    return statistics


def merged(corpus):
    """All documents as one, their entities disjoint."""
    key = [{(d, m) for m in e} for d, (k, _) in enumerate(corpus) for e in k]
    response = [{(d, m) for m in e} for d, (_, r) in enumerate(corpus) for e in r]
    return key, response


@settings(max_examples=150, deadline=None)
@given(st.tuples(documents(), st.sampled_from(SYNC_OPTIONS)))
def test_synchronise_rebuilds_the_literal_partitions(case):
    (key, response), option = case
    expected = contingency_of(*literal_sync(key, response, option))
    assert shape(synchronise(contingency_of(key, response), option)) == shape(expected)


@settings(max_examples=150, deadline=None)
@given(documents())
def test_b_cubed_variants_equal_their_literal_definitions(document):
    key, response = document
    c = contingency_of(key, response)
    for counts, ((rn, rd), (pn, pd)) in ((b_cubed_sys(c), literal_cai_strube(key, response)),
                                         (b_cubed_all(c), literal_b_cubed_all(key, response))):
        assert counts.recall_num == pytest.approx(float(rn), abs=1e-12) and counts.recall_den == rd
        assert counts.precision_num == pytest.approx(float(pn), abs=1e-12) and counts.precision_den == pd
    # CEAF-sys: mention-based CEAF of the same two pairs, scipy's assignment.
    for_recall, for_precision = cai_strube_pairs(key, response)
    (rn, rd), _ = textbook.ceafm(*for_recall)
    _, (pn, pd) = textbook.ceafm(*for_precision)
    assert astuple(ceaf_sys(c)) == pytest.approx((rn, rd, pn, pd), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(corpora)
def test_per_document_statistics_add_up_to_the_corpus_figure(corpus):
    contingencies = [contingency_of(k, r) for k, r in corpus]
    whole = contingency_of(*merged(corpus))
    for name in MEASURE_NAMES:
        if name == "kappa":
            continue  # pairs within documents only; checked literally below
        by_document = score_of(name, total(name, contingencies))
        at_once = score_of(name, document_statistics(name, whole))
        for field in ("recall", "precision", "f1", "value"):
            a, b = getattr(by_document, field), getattr(at_once, field)
            assert (a is None and b is None) or a == pytest.approx(b, abs=1e-12), (name, field)
    union = [contingency_of(*literal_sync(k, r, "union")) for k, r in corpus]
    assert total("kappa", contingencies) == literal_kappa([literal_sync(k, r, "union") for k, r in corpus])
    assert score_of("alpha", total("alpha", contingencies)).value == pytest.approx(
        literal_alpha([literal_sync(k, r, "union") for k, r in corpus]), abs=1e-12)
    # Entropy measures are scikit-learn's on the corpus, a label being an
    # entity of one document.
    mentions = [(d, m) for d, c in enumerate(corpus) for m in sorted(set().union(*literal_sync(*c, "union")[0]))]
    key_u, response_u = merged([literal_sync(k, r, "union") for k, r in corpus])
    entropy_ = score_of("entropy", total("entropy", union))
    h, c, v = homogeneity_completeness_v_measure(labels(key_u, mentions), labels(response_u, mentions))
    assert (entropy_.precision, entropy_.recall, entropy_.f1) == pytest.approx((h, c, v), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.lists(documents(identical=True), min_size=1, max_size=3))
def test_identical_partitions_score_the_maximum(corpus):
    contingencies = [contingency_of(k, r) for k, r in corpus]
    for name in MEASURE_NAMES:
        statistics = total(name, contingencies)
        score = score_of(name, statistics)
        if name in ("alpha", "kappa"):
            assert score.value in (1.0, None), name
        elif name == "entropy":
            assert (score.recall, score.precision, score.f1) == (1.0, 1.0, 1.0)
            assert score.extra["variation_of_information"] == pytest.approx(0.0, abs=1e-12)
        elif statistics.recall_den and statistics.precision_den:
            assert (score.recall, score.precision) == (pytest.approx(1.0), pytest.approx(1.0)), name


SYMMETRIC = ("bcub-entity", "pairwise", "bcub-all", "entropy", "core-de")


@settings(max_examples=100, deadline=None)
@given(corpora)
def test_symmetric_measures_are_symmetric(corpus):
    forward = [contingency_of(k, r) for k, r in corpus]
    backward = [contingency_of(r, k) for k, r in corpus]
    for name in SYMMETRIC + ("alpha", "kappa"):
        f, b = score_of(name, total(name, forward)), score_of(name, total(name, backward))
        if name in ("alpha", "kappa"):
            assert (f.value is None and b.value is None) or f.value == pytest.approx(b.value, abs=1e-12)
        else:
            assert f.recall == pytest.approx(b.precision, abs=1e-12), name
            assert f.precision == pytest.approx(b.recall, abs=1e-12), name
    for c, swapped in zip(forward, backward):
        for option, mirror in (("intersection", "intersection"), ("union", "union"), ("key", "response")):
            one, other = synchronise(c, option), synchronise(swapped, mirror)
            assert shape(one)[:2] == shape(other)[:2][::-1]


@settings(max_examples=100, deadline=None)
@given(documents())
def test_relations_between_measures(document):
    c = contingency_of(*document)
    union = synchronise(c, "union")
    # Core-DE in the note's reading never exceeds MUC.
    core, links = core_de(union), muc(union)
    assert core.recall_num <= links.recall_num and core.precision_num <= links.precision_num
    # On one mention set nothing is twinless: the adjusted B-cubed is B-cubed.
    for option in SYNC_OPTIONS:
        synced = synchronise(c, option)
        assert astuple(b_cubed_sys(synced)) == pytest.approx(astuple(b_cubed(synced)), abs=1e-12)
        assert astuple(b_cubed_all(synced)) == pytest.approx(astuple(b_cubed(synced)), abs=1e-12)
        assert ceaf_sys(synced) == ceafm(synced)
