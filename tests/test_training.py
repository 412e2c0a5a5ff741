"""The training-loop evaluator (corefud_scorer.training): scorer.pl v8.01's
figures on generated clusters where spans stand in two clusters, checked
against perl scorer.pl itself where it is beside the project and always
against conll-scorer (the v8.01 path, checked against scorer.pl elsewhere),
and its properties: a perfect prediction scores 1, figures stay in bounds,
documents add up, the clusters' order does not matter where no span repeats,
and the mention_to_* dicts must agree with the clusters."""

from __future__ import annotations

import io
import random
import re
import subprocess

import numpy as np
import pytest

from corefud_scorer.formats.readers.conll2012 import conll_order, coreference_column, read_documents
from corefud_scorer.training import CorefEvaluator
from corefud_scorer.v801 import chains as v8
from corefud_scorer.v801.chain_metrics import METRICS
from corefud_scorer.v801 import dropin
from corefud_scorer.v801.text import rpf

from conftest import REFERENCE, needs_perl, python_output

# scorer.pl stops once it has met more than ten response spans repeating a key
# span, counted over the five metrics of its 'all': at most two a run.
PERL_REPEATS = 2


# --- generated clusters ---

def _crosses(span, cluster) -> bool:
    """Two mentions of one cluster overlapping without nesting: brackets
    of one id cannot say which closes where, so a file cannot hold them."""
    s, e = span
    return any(s < a <= e < b or a < s <= b < e for a, b in cluster)


def _add(rng, clusters, span, new_cluster_rate=0.3):
    """Put span in a cluster it does not cross, or in a new one."""
    fits = [c for c in clusters if not _crosses(span, c)]
    if not fits or rng.random() < new_cluster_rate:
        clusters.append([span])
    else:
        rng.choice(fits).append(span)


def _twice(rng, clusters, times):
    """Spans put again into a second cluster (or, now and then, the same one)."""
    for _ in range(times):
        spans = [s for c in clusters for s in c]
        if not spans or len(clusters) < 2:
            return
        span = rng.choice(spans)
        target = rng.choice(clusters)
        if not _crosses(span, target):
            target.append(span)


def document(rng, repeats=True):
    """(tokens, predicted, gold): clusters as tuples of (start, end) tuples,
    with singletons, nested mentions and, if ``repeats``, spans in two
    clusters on both sides."""
    tokens = rng.randint(12, 60)
    spans = sorted({(s, min(tokens - 1, s + rng.choice((0, 0, 0, 1, 2, 4))))
                    for s in rng.sample(range(tokens), rng.randint(1, tokens // 2))})
    gold: list[list] = []
    for span in spans:
        _add(rng, gold, span)
    predicted: list[list] = []
    seen = set()  # each span once, until _twice plants repeats
    moved = [(s, min(tokens - 1, e + 1)) if rng.random() < 0.1 else (s, e) for s, e in spans]  # boundaries
    spurious = [(s, s) for s in rng.sample(range(tokens), rng.randint(0, 3))]
    for span in moved + spurious:
        if span not in seen and rng.random() > 0.15:  # some missed
            seen.add(span)
            _add(rng, predicted, span, 0.25)
    if repeats:
        _twice(rng, gold, rng.randint(0, 2))
        _twice(rng, predicted, rng.randint(0, 2))
    for side in (gold, predicted):
        rng.shuffle(side)
        for cluster in side:
            rng.shuffle(cluster)
    gold = [c for c in gold if c]
    return tokens, tuple(map(tuple, predicted)), tuple(map(tuple, gold))


def mention_to(clusters) -> dict:
    """The copies' dict: each mention to (the last) cluster holding it."""
    return {m: c for c in clusters for m in c}


def response_repeats(predicted, gold) -> int:
    """The response spans scorer.pl counts as repeated (it refuses more than ten)."""
    return len(v8.identify(conll_order(gold)[0], conll_order(predicted)[0]).response_repeats)


def documents(seed, count, repeats=True, perl=False):
    """``count`` generated documents; with ``perl``, each one that scorer.pl
    scores alone with 'all'."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        doc = document(rng, repeats)
        if not perl or response_repeats(doc[1], doc[2]) <= PERL_REPEATS:
            out.append(doc)
    return out


def evaluated(docs) -> CorefEvaluator:
    evaluator = CorefEvaluator()
    for _, predicted, gold in docs:
        evaluator.update(predicted, gold, mention_to(predicted), mention_to(gold))
    return evaluator


def write_conll(path, docs, side):
    """The documents' clusters of one side (1: predicted, 2: gold) as a CoNLL-2012 file."""
    lines = []
    for d, doc in enumerate(docs):
        tokens, clusters = doc[0], doc[side]
        column = coreference_column(tokens, [(str(e), spans) for e, spans in enumerate(clusters)])
        lines.append(f"#begin document (doc{d}); part 000")
        for t, brackets in enumerate(column):
            lines.append(f"doc{d}\t0\t{t % 15}\tw\t{brackets}")
            if t % 15 == 14 or t == tokens - 1:
                lines.append("")
        lines.append("#end document")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- what scorer.pl prints ---

LABELS = ("Identification of Mentions", "Coreference", "Coreference links", "Non-coreference links", "BLANC")


def printed(text: str) -> dict:
    """The totals' lines of a ``scorer.pl all KEY RESPONSE none`` run, by metric and label."""
    out = {}
    for section in text.split("\nMETRIC ")[1:]:
        metric = section.split(":", 1)[0]
        out[metric] = {}
        for line in section.splitlines():
            label, _, rest = line.partition(": ")
            if label in LABELS:
                out[metric][label] = rest
    return out


def ours(evaluator: CorefEvaluator, metric: str) -> dict:
    """The same lines from the evaluator's figures (its F1 included)."""
    def line(recall_num, recall_den, precision_num, precision_den, f1):
        return rpf(recall_num, recall_den, precision_num, precision_den, f1).split("\n")[0]

    def of(score):
        c = score.counts
        return line(c.recall_num, c.recall_den, c.precision_num, c.precision_den, score.f1)

    out = {"Identification of Mentions": of(evaluator.score("mention"))}
    score = evaluator.score(metric)
    if score.parts:
        out["Coreference links"] = of(score.parts["coreference"])
        out["Non-coreference links"] = of(score.parts["non_coreference"])
        out["BLANC"] = line(score.recall, 1, score.precision, 1, score.f1)
    else:
        out["Coreference"] = of(score)
    return out


def test_generated_clusters_hold_what_the_checks_need():
    docs = documents(3, 40)
    chains = [v8.identify(conll_order(g)[0], conll_order(p)[0]) for _, p, g in docs]
    assert sum(bool(c.key_repeats) for c in chains) >= 5
    assert sum(bool(c.response_repeats) for c in chains) >= 5
    assert any(len(cluster) == 1 for _, _, gold in docs for cluster in gold)
    assert any(response_repeats(p, g) == PERL_REPEATS for _, p, g in documents(4, 30, perl=True))


def crowded(rng):
    """(tokens, clusters, clusters): mentions crowded on a few tokens, so that
    first brackets and closings at one token tie often; an empty cluster."""
    tokens = rng.randint(1, 8)
    clusters: list[list] = [[]]
    for _ in range(rng.randint(1, 12)):
        s = rng.randrange(tokens)
        _add(rng, clusters, (s, min(tokens - 1, s + rng.choice((0, 1, 2, 3)))), 0.4)
    _twice(rng, clusters, 2)
    rng.shuffle(clusters)
    return tokens, clusters, clusters


def test_clusters_are_taken_in_the_order_of_their_conll_form(tmp_path):
    # What the reader reads back from the brackets written for the clusters.
    rng = random.Random(7)
    docs = documents(7, 20) + [crowded(rng) for _ in range(300)]
    for side in (1, 2):
        path = write_conll(tmp_path / f"{side}.conll", docs, side)
        read = [doc.entities for doc in read_documents(str(path))]
        assert read == [conll_order(doc[side])[0] for doc in docs]


def run_all(key, response) -> dict:
    out = io.StringIO()
    assert dropin.main(["all", str(key), str(response), "none"], stdout=out) == 0
    return printed(out.getvalue())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_figures_are_conll_scorers_to_the_bit(tmp_path, seed):
    # conll-scorer adds documents in their order, as the evaluator does.
    docs = documents(seed, 12)
    key, response = write_conll(tmp_path / "k.conll", docs, 2), write_conll(tmp_path / "r.conll", docs, 1)
    evaluator = evaluated(docs)
    pairs = dropin.pairs_of(str(key), str(response), "none")
    for metric in METRICS:
        total = pairs[0].counts[metric]
        for pair in pairs[1:]:
            total = total + pair.counts[metric]
        assert evaluator.score(metric).counts == total, metric
    shown = run_all(key, response)
    assert {metric: ours(evaluator, metric) for metric in METRICS} == shown


@needs_perl
@pytest.mark.parametrize("seed", [5, 6])
def test_figures_are_perl_scorer_pls(tmp_path, seed):
    # Document by document: on a file of several, scorer.pl adds the documents in
    # Perl's hash order, which changes from run to run (and with it, now and
    # then, the last digit of a sum).
    for doc in documents(seed, 10, perl=True):
        key, response = write_conll(tmp_path / "k.conll", [doc], 2), write_conll(tmp_path / "r.conll", [doc], 1)
        perl = subprocess.run(["perl", str(REFERENCE / "scorer.pl"), "all", str(key), str(response), "none"],
                              capture_output=True, text=True)
        assert perl.returncode == 0, perl.stderr
        evaluator = evaluated([doc])
        assert {metric: ours(evaluator, metric) for metric in METRICS} == printed(perl.stdout), doc


def test_conll_score_is_the_mean_of_the_three():
    evaluator = evaluated(documents(8, 10))
    parts = [evaluator.score(name) for name in ("muc", "bcub", "ceafe")]
    assert [e.get_prf() for e in evaluator.evaluators] == [(s.precision, s.recall, s.f1) for s in parts]
    assert evaluator.get_prf() == tuple((a + b + c) / 3 for a, b, c in zip(*(e.get_prf() for e in evaluator.evaluators)))
    assert 0 < evaluator.get_f1() < 1


def figures(evaluator: CorefEvaluator) -> dict:
    """Every figure of every measure, by (measure, figure)."""
    out = {}
    for name in CorefEvaluator.measures():
        s = evaluator.score(name)
        for figure in ("recall", "precision", "f1", "value"):
            out[name, figure] = getattr(s, figure)
        out[name, "counts"] = s.counts
    return out


def test_a_perfect_prediction_scores_one():
    # Each measure has something to score where a cluster has two mentions (MUC
    # counts links, and scorer.pl gives 0 to a document of singletons).
    for tokens, _, gold in documents(11, 30, repeats=False):
        if max(map(len, gold)) < 2:
            continue
        evaluator = CorefEvaluator()
        evaluator.update(gold, gold, mention_to(gold), mention_to(gold))
        found = figures(evaluator)
        for name in CorefEvaluator.measures():
            values = [found[name, f] for f in ("recall", "precision", "f1", "value") if found[name, f] is not None]
            # The zero score has no zero to read, so no figure; every other measure has one.
            assert values or name == "zero", name
            assert all(value == 1.0 for value in values), (name, gold, values)
        assert evaluator.get_prf() == (1.0, 1.0, 1.0)


def test_a_perfect_prediction_where_a_key_span_repeats_is_scored_as_v801_scores_it():
    # v8.01 keeps a response span where it first stands: the key against itself
    # is not perfect. perl scorer.pl on this key as both files prints MUC recall
    # (0 / 2), precision (0 / 1); B-cubed (2 / 4), (2.5 / 3); CEAF-e 1.66666666666667 of 2.
    gold = (((0, 0), (2, 2)), ((0, 0), (4, 4)))
    evaluator = CorefEvaluator()
    evaluator.update(gold, gold)
    assert [e.get_counts() for e in evaluator.evaluators] == [
        (0.0, 1.0, 0.0, 2.0), (2.5, 3.0, 2.0, 4.0), (1 + 2 / 3, 2.0, 1 + 2 / 3, 2.0)]


def test_figures_stay_within_their_bounds():
    evaluator = CorefEvaluator()
    for tokens, predicted, gold in documents(12, 60):
        evaluator.update(predicted, gold)
        for (name, figure), value in figures(evaluator).items():
            if figure == "counts" or value is None:
                continue
            low = -1.0 if figure == "value" else 0.0  # an agreement coefficient can be negative
            assert low <= value <= 1.0, (name, figure, value, predicted, gold)


def test_documents_one_by_one_equal_them_together():
    docs = documents(13, 25)
    together = figures(evaluated(docs))
    stepwise = CorefEvaluator()
    singles = []
    for tokens, predicted, gold in docs:
        stepwise.update(predicted, gold, mention_to(predicted), mention_to(gold))
        figures(stepwise)  # read between updates: the sums are brought up to date
        alone = CorefEvaluator()
        alone.update(predicted, gold)
        singles.append(figures(alone))
    assert figures(stepwise) == together
    assert stepwise.documents == len(docs)
    for name in CorefEvaluator.measures():
        total = singles[0][name, "counts"]
        for single in singles[1:]:
            total = total + single[name, "counts"]
        assert total == together[name, "counts"], name


def test_the_order_of_clusters_and_mentions_does_not_matter_where_no_span_repeats():
    rng = random.Random(14)
    docs = documents(14, 25, repeats=False)
    shuffled = []
    for tokens, predicted, gold in docs:
        sides = []
        for side in (predicted, gold):
            side = [rng.sample(cluster, len(cluster)) for cluster in side]
            rng.shuffle(side)
            sides.append(tuple(map(tuple, side)))
        shuffled.append((tokens, *sides))
    assert figures(evaluated(shuffled)) == figures(evaluated(docs))


def test_the_dicts_must_agree_with_the_clusters():
    gold = (((0, 0), (2, 3)), ((0, 0), (5, 5)))
    predicted = (((0, 0), (5, 5)), ((7, 7), (8, 8)))
    evaluator = CorefEvaluator()
    # The copies' dicts (a span in two clusters maps to the last), or none; clusters
    # as lists, spans of numpy integers, an iterator: all read alike.
    evaluator.update(predicted, gold, mention_to(predicted), mention_to(gold))
    as_numpy = tuple(tuple((np.int64(s), np.int64(e)) for s, e in c) for c in predicted)
    evaluator.update(as_numpy, iter([list(c) for c in gold]), mention_to(as_numpy), None)
    evaluator.update([list(c) for c in predicted], gold)
    assert evaluator.documents == 3
    one = CorefEvaluator()
    one.update(predicted, gold)
    for name in CorefEvaluator.measures():
        alone = one.score(name).counts
        assert evaluator.score(name).counts == alone + alone + alone, name
    wrong = {
        "lacks (7, 7) of predicted[1]": {m: c for m, c in mention_to(predicted).items() if m != (7, 7)},
        "maps (8, 8) to": {**mention_to(predicted), (8, 8): predicted[0]},
        "maps (9, 9), which no predicted cluster holds": {**mention_to(predicted), (9, 9): predicted[1]},
    }
    for message, mapping in wrong.items():
        with pytest.raises(ValueError, match=re.escape(message)):
            CorefEvaluator().update(predicted, gold, mapping, mention_to(gold))
    with pytest.raises(ValueError, match="mention_to_gold maps"):
        CorefEvaluator().update(predicted, gold, None, {**mention_to(gold), (0, 0): 3})


@pytest.mark.parametrize("span, message", [((3, 2), "ends before it starts"), ((-1, 2), "below 0"),
                                           ((1, 2, 3), "not a \\(start, end\\) pair"),
                                           ((1.5, 2), "not a \\(start, end\\) pair"), (4, "not a")])
def test_bad_spans_are_refused(span, message):
    with pytest.raises(ValueError, match=f"^gold\\[1\\]: .*{message}"):
        CorefEvaluator().update([], [[(0, 0)], [span]])


def test_measures_by_name_and_refusals():
    evaluator = evaluated(documents(15, 5))
    names = CorefEvaluator.measures()
    assert names[:3] == ("muc", "bcub", "ceafe") and "lea" in names and "mor" in names
    assert evaluator.evaluator("lea").get_prf() == (evaluator.score("lea").precision,
                                                     evaluator.score("lea").recall, evaluator.score("lea").f1)
    with pytest.raises(ValueError, match="bridging: clusters of spans have no bridging"):
        evaluator.score("bridging")
    with pytest.raises(ValueError, match="unknown measure 'nope'; one of muc, bcub"):
        evaluator.evaluator("nope")
    with pytest.raises(TypeError, match="blanc is not one pair of fractions"):
        evaluator.evaluator("blanc").get_counts()
    empty = CorefEvaluator()
    assert empty.get_prf() == (0.0, 0.0, 0.0) and empty.score("blanc").f1 == 0


def test_scoring_the_conll_three_loads_no_numpy():
    code = ("import sys; from corefud_scorer.training import CorefEvaluator; e = CorefEvaluator(); "
            "e.update((((0, 1), (3, 3)),), (((0, 1), (3, 3), (5, 5)),), None, None); "
            "print(round(e.get_f1(), 6), e.score('blanc').f1 > 0, 'numpy' in sys.modules)")
    # MUC 2/3, B-cubed 8/13, CEAF-e 4/5.
    assert python_output(code).split() == [str(round((2 / 3 + 8 / 13 + 4 / 5) / 3, 6)), "True", "False"]
