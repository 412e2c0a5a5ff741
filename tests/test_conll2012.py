"""CoNLL-2012 files: the reader, the scores of scorer.pl v8.01 through
``corefud-scorer --format conll``, and the ``conll-scorer`` drop-in's text.

The drop-in's output is compared with what ``scorer.pl`` printed on the
conformance suite's files (``tests/conll_expected/scorer_pl.json``, made by
``tools/conll_expected.py``), and with ``perl scorer.pl`` itself where Perl
and a work tree of the reference scorer are at hand.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import pickle
import random
import subprocess

import pytest

from corefud_scorer.v801 import chain_metrics, chains as v8
from corefud_scorer.v801.dropin import main as dropin_main
from corefud_scorer.errors import ScorerError
from corefud_scorer.formats.readers import detect_format
from corefud_scorer.formats.readers.conll2012 import read_documents, read_file, sniff

from conftest import REFERENCE, ROOT, needs_perl, python_output, run_cli

SUITE = next((p / "conformance" / "conll2012" for p in (ROOT.parent / "shared", ROOT.parent.parent / "shared")
              if (p / "conformance" / "conll2012").is_dir()), None)
EXPECTED = ROOT / "tests" / "conll_expected" / "scorer_pl.json"
needs_suite = pytest.mark.skipif(SUITE is None, reason="../shared/conformance is not beside the project")


def conll(*documents, trailing: bool = True) -> str:
    """A file from (header, sentences) pairs; a sentence is a list of (form, coref)."""
    lines = []
    for header, sentences in documents:
        lines.append(f"#begin document {header}")
        for sentence in sentences:
            for i, (form, coref) in enumerate(sentence):
                lines.append(f"doc\t0\t{i}\t{form}\t{coref}")
            lines.append("")
        lines.append("#end document")
    return "\n".join(lines) + ("\n" if trailing else "")


# --- reader ---

def test_reader_mentions_entities_and_documents(write):
    path = write("a.conll", conll(
        ("(d1); part 000", [[("A", "(1"), ("b", "1)|(2)"), ("c", "-")], [("D", "(2(1"), ("e", "1)2)")]]),
        ("(d1); part 001", [[("x", "(7)"), ("y", "_")]]),
        ("(LuoTestCase); ", [[("z", "(3)")]])))
    docs = read_file(str(path))
    assert [d.doc_id for d in docs] == ["(d1); part 000", "(d1); part 001", "(LuoTestCase); "]
    first = docs[0]
    # Ids in order of first appearance; one-token mentions, then openings, then closings.
    assert first.entity_ids == ["1", "2"]
    assert first.entities == [[(0, 1), (3, 4)], [(1, 1), (3, 4)]]
    assert [len(s.word_lines) for s in first.sentences] == [3, 2]
    assert first.sentences[1].forms == ["D", "e"]
    model = first.load()
    # The second sentence's words get sentence index 1; a mention's head is its first word.
    words = model.entities[0].mentions[1].words
    assert len(words) == 2 and words[0] // 10**9 == 1 and model.entities[0].mentions[1].head == words[0]
    assert docs[1].entities == [[(0, 0)]]


def test_reader_stacks_nested_mentions_of_one_entity(write):
    path = write("a.conll", conll(("(n)", [[("a", "(1"), ("b", "(1"), ("c", "1)"), ("d", "1)")]])))
    assert read_file(str(path))[0].entities == [[(1, 2), (0, 3)]]


def test_reader_space_separated_columns_and_double_antecedents(write):
    path = write("a.conll", "#begin document (x); part 000\nx -\nx (10043\nx 10043)|(5+1)\n#end document\n")
    assert read_file(str(path))[0].entities == [[(1, 2)]]


def test_sniff_and_detection(write):
    path = write("a.txt", conll(("(d)", [[("a", "(1)")]])))
    assert sniff("#begin document (d); part 000\n")
    assert not sniff("# newdoc id = d\n1\ta\n")
    assert detect_format(str(path)) == "conll"


@pytest.mark.parametrize("text, line, message", [
    ("#begin document (d)\nd 0 0 a (1\nd 0 1 b -\n#end document\n", 2, "never closed"),
    ("#begin document (d)\nd 0 0 a -\nd 0 1 b 1)\n#end document\n", 3, "none is open"),
    ("#begin document (d)\nd 0 0 a (1)\n", 1, "never ended"),
    ("#begin document (d)\nd 0 0 a -\n#begin document (e)\n", 3, "inside document"),
    ("#begin document (d)\nd 0 0 a -\n#end document\n#begin document (d)\nd 0 0 a -\n#end document\n",
     4, "second time"),
    ("#begin document (d)\nd 0 0 a (x)\n#end document\n", 2, "malformed coreference value"),
    ("d 0 0 a -\n", 1, "outside a document"),
    # Openings are read before closings, as v8.01 reads them: '1)(1' closes itself.
    ("#begin document (d)\nd 0 0 a (1\nd 0 1 b 1)(1\n#end document\n", 2, "never closed"),
])
def test_reader_errors_name_file_and_line(write, text, line, message):
    path = write("bad.conll", text)
    with pytest.raises(ScorerError) as err:
        read_file(str(path))
    assert str(err.value).startswith(f"{path}:{line}: ")
    assert message in str(err.value)


def test_empty_file_is_an_error(write):
    path = write("empty.conll", "\n")
    with pytest.raises(ScorerError, match="no '#begin document'"):
        read_file(str(path))


# --- v8.01's chains and metrics ---

def _naive_blanc(key, response):
    """BLANC's link sets exactly as v8.01 builds them: every pair of positions."""
    def links(chains):
        coref, non = set(), set()
        for chain in chains:
            for a, b in itertools.combinations(chain, 2):
                coref.add((min(a, b), max(a, b)))
        for x, y in itertools.combinations(chains, 2):
            for a in x:
                for b in y:
                    non.add((min(a, b), max(a, b)))
        return coref, non
    kc, kn = links(key)
    rc, rn = links(response)
    return (len(kc & rc), len(kc), len(rc)), (len(kn & rn), len(kn), len(rn))


def test_blanc_counts_equal_the_link_sets_with_repeated_ids():
    rng = random.Random(7)
    for _ in range(300):
        ids = list(range(rng.randint(1, 12)))
        key = [[rng.choice(ids) for _ in range(rng.randint(1, 4))] for _ in range(rng.randint(1, 4))]
        response = [[rng.choice(ids + [20, 21]) for _ in range(rng.randint(1, 4))]
                    for _ in range(rng.randint(1, 4))]
        c = v8.Chains(key, response, 0, 0, 0, 0)
        blanc = chain_metrics.blanc(c)
        coref, non = blanc.coreference, blanc.non_coreference
        expected = _naive_blanc(key, response)
        assert (coref.recall_num, coref.recall_den, coref.precision_den) == expected[0], (key, response)
        assert (non.recall_num, non.recall_den, non.precision_den) == expected[1], (key, response)


def test_identify_removes_response_repeats_of_key_spans_only():
    key = [["a", "b"], ["c"]]
    response = [["a", "b", "a"], ["x", "b"], ["x", "c"]]
    c = v8.identify(key, response)
    # a and b stay where they first appear; x (not in the key) keeps one id in both places.
    assert c.key == [[0, 1], [2]]
    assert c.response == [[0, 1], [3], [3, 2]]
    assert [r.span for r in c.response_repeats] == ["a", "b"]
    assert (c.key_spans, c.response_spans, c.exact, c.id_count) == (3, 4, 3, 4)


def _random_entities(rng, spans):
    entities = [[] for _ in range(rng.randint(1, 6))]
    for span in spans:
        rng.choice(entities).append(span)
    return [e for e in entities if e]


def test_identify_equals_the_ids_given_one_by_one():
    rng = random.Random(29)
    tried = 0  # documents repeating no span: the shortcut
    for _ in range(500):
        spans = [(i, i + rng.randint(0, 2)) for i in range(rng.randint(1, 15))]
        key = [[rng.choice(spans) for _ in range(rng.randint(1, 4))] for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.5:  # most documents repeat no span
            key = _random_entities(rng, rng.sample(spans, rng.randint(1, len(spans))))
        response = _random_entities(rng, rng.sample(spans + [(50, 51), (52, 52)], rng.randint(1, len(spans))))
        if rng.random() < 0.3:
            response.append([rng.choice(spans)])
        c, one = v8.identify(key, response), v8.identify_one_by_one(key, response)
        assert (c.key, c.response, c.key_spans, c.response_spans, c.exact, c.id_count, c.spans) == \
            (one.key, one.response, one.key_spans, one.response_spans, one.exact, one.id_count, one.spans)
        assert (c.key_repeats, c.response_repeats) == (one.key_repeats, one.response_repeats)
        tried += not (one.key_repeats or one.response_repeats)
    assert tried > 150


def _non_repeating_pairs(seed, count):
    rng = random.Random(seed)
    for _ in range(count):
        spans = [(i, i + rng.randint(0, 2)) for i in range(rng.randint(1, 25))]
        key = _random_entities(rng, rng.sample(spans, rng.randint(1, len(spans))))
        extra = [(i, i + 3) for i in range(rng.randint(0, 5))]
        response = _random_entities(rng, rng.sample(spans, rng.randint(1, len(spans))) + extra)
        chains = v8.identify(key, response)
        if not chains.repeated:
            yield chains


def test_fast_paths_equal_the_general_reading():
    # Without a repeated span MUC, B-cubed, the overlap and BLANC take shortcuts; forcing
    # the general reading must give the same numbers, to the last bit.
    tried = 0
    for fast in _non_repeating_pairs(17, 400):
        general = v8.Chains(**{f: getattr(fast, f) for f in fast.__dataclass_fields__})
        general.__dict__["repeated"] = True
        tried += 1
        for metric in (chain_metrics.muc, chain_metrics.b_cubed, chain_metrics.ceafm, chain_metrics.ceafe, chain_metrics.blanc):
            assert metric(fast) == metric(general), (metric.__name__, fast.key, fast.response)
    assert tried > 300


def test_metrics_of_the_contingency_give_v801s_numbers_where_no_span_repeats():
    # corefud-scorer scores such a document through metrics.py: MUC, CEAF-m,
    # BLANC and LEA are v8.01's to the last bit; B-cubed and CEAF-e add the
    # same terms in another order.
    from corefud_scorer.measures import metrics
    from corefud_scorer.measures.document import contingency_counts

    names = ["muc", "bcub", "ceafe", "ceafm", "blanc", "lea"]
    tried = 0
    for chains in _non_repeating_pairs(23, 400):
        tried += 1
        shared = contingency_counts(chain_metrics.occurrence_contingency(chains), names)
        for name in ("muc", "ceafm", "blanc", "lea"):
            assert shared[name] == chain_metrics.REPEATED_SPAN_METRICS[name](chains), (name, chains.key, chains.response)
        for name in ("bcub", "ceafe"):
            own = chain_metrics.REPEATED_SPAN_METRICS[name](chains)
            for a, b in zip(vars(shared[name]).values(), vars(own).values()):
                assert abs(a - b) <= 4 * math.ulp(max(abs(b), 1.0)), (name, chains.key, chains.response)
        assert shared["bcub"] == metrics.b_cubed(chain_metrics.contingency(chains))
    assert tried > 300


def test_reader_comments_inside_sentences_crlf_and_forms(write, tmp_path):
    text = ("#begin document (d); part 000\r\nd 0 0 A (1\r\n# a note -\r\nd 0 1 b 1)\r\n"
            "d 0 2 c -\r\n\r\nd 0 0 D (1)\r\n#end document\r\n")
    path = write("c.conll", text)
    doc = read_file(str(path))[0]
    # The comment is not a token: the second sentence's mention is token 3.
    assert doc.entities == [[(0, 1), (3, 3)]]
    assert [list(s.word_lines) for s in doc.sentences] == [[2, 4, 5], [7]]
    assert [s.forms for s in doc.sentences] == [["A", "b", "c"], ["D"]]
    words = next(read_documents(str(path), words=True)).words
    # Five columns: a form and no tag column before the coreference one.
    assert words == [("A", None), ("b", None), ("c", None), ("D", None)]
    # Forms are read from the file's lines when first asked for, and pickled as forms.
    fresh = read_file(str(path))[0]
    copy = pickle.loads(pickle.dumps(fresh))
    assert [s.forms for s in copy.sentences] == [["A", "b", "c"], ["D"]]
    assert all(s._piece is None for s in copy.sentences)


# --- corefud-scorer --format conll ---

@needs_suite
def test_format_conll_repeated_mentions_scored_as_v801():
    run = run_cli(SUITE / "TC-A.key", SUITE / "TC-A-9.response", "--format", "conll", "-s",
                  "-m", "muc", "bcub", "blanc", "--output", "json")
    assert run.code == 0, run.err
    metrics = run.json["metrics"]
    # perl scorer.pl v8.01, each metric alone (its 'all' stops at ten repeats).
    assert metrics["muc"]["counts"]["recall_num"] == 1 and metrics["muc"]["counts"]["precision_den"] == 3
    assert metrics["bcub"]["recall"] == pytest.approx(3.33333333333333 / 6, abs=1e-12)
    assert metrics["bcub"]["precision"] == pytest.approx(2.83333333333333 / 7, abs=1e-12)
    assert "repeated mentions" in run.err and ": 10 (first: " in run.err


@needs_suite
def test_format_detected_and_exact_by_default():
    detected = run_cli(SUITE / "TC-M.key", SUITE / "TC-M-2.response", "-s", "--output", "json")
    given = run_cli(SUITE / "TC-M.key", SUITE / "TC-M-2.response", "--format", "conll", "-a", "exact",
                    "-s", "--output", "json")
    assert detected.code == given.code == 0
    assert detected.json["metrics"] == given.json["metrics"]


@needs_suite
def test_word_forms_compared_warned_refused_or_skipped():
    # TC-A-3's response writes 'x' and 'y' where the key has 'jnk' (three words).
    key, response = SUITE / "TC-A.key", SUITE / "TC-A-3.response"
    warned = run_cli(key, response, "--format", "conll", "-m", "muc", "--output", "json")
    assert warned.code == 0
    assert warned.err.count("warning") == 1
    assert "words whose form differs from the key's" in warned.err
    assert f": 3 (first: {response}:13 'x' where the key has 'jnk')" in warned.err
    assert warned.json["settings"]["check_forms"] == "warn"
    refused = run_cli(key, response, "--format", "conll", "-m", "muc", "--form-check")
    assert refused.code == 2 and refused.out == ""
    assert refused.err.strip().endswith(f"{key}:13 vs {response}:13: word 2 of sentence 2 differs: 'jnk' vs 'x'")
    skipped = run_cli(key, response, "--format", "conll", "-m", "muc", "--no-form-check", "--output", "json")
    assert skipped.code == 0 and skipped.err == ""
    assert skipped.json["metrics"] == warned.json["metrics"]
    both = run_cli(key, response, "--form-check", "--no-form-check")
    assert both.code == 2 and "contradicts" in both.err


@needs_suite
def test_api_options_take_the_format_defaults():
    from corefud_scorer import Options, score
    from corefud_scorer.jobs.options import for_format

    # A plain value: what was not given stays None until the format is known.
    assert (Options().match, Options().check_forms) == (None, None)
    assert (for_format(Options()).match, for_format(Options()).check_forms) == ("head", True)
    conll = for_format(Options(format="conll"))
    assert (conll.match, conll.check_forms) == ("exact", "warn")
    detected = for_format(Options(), "conll")
    assert (detected.match, detected.check_forms) == ("exact", "warn")
    # Settled for one format, the defaults follow another; what was given is kept.
    assert for_format(for_format(Options()), "conll") == detected
    assert for_format(Options(match="exact", check_forms=False), "conll").match == "exact"
    # What the format cannot honour is refused once the format is known.
    from corefud_scorer.errors import OptionError

    with pytest.raises(OptionError, match="-a partial: needs mention heads"):
        for_format(Options(match="partial"), "conll")
    assert for_format(Options(check_forms=False), "conll").check_forms is False
    result = score(SUITE / "TC-A.key", SUITE / "TC-A-3.response")
    assert result.settings["format"] == "conll" and result.settings["match"] == "exact"
    assert len(result.warnings) == 1 and "(first: " in result.warnings[0]
    assert result.metrics["muc"].f1 == pytest.approx(0.75)
    with pytest.raises(OptionError, match="check_forms"):
        score(SUITE / "TC-A.key", SUITE / "TC-A-3.response", Options(check_forms="yes"))


@needs_suite
@pytest.mark.parametrize("match", ["head", "partial"])
def test_head_matching_is_refused(match):
    run = run_cli(SUITE / "TC-A.key", SUITE / "TC-A-1.response", "--format", "conll", "-a", match)
    assert run.code == 2 and run.out == ""
    assert "has none" in run.err and "heads" in run.err


def test_singletons_dropped_unless_kept(write):
    key = write("k.conll", conll(("(d)", [[("a", "(1)"), ("b", "(1)"), ("c", "(2)")]])))
    response = write("r.conll", conll(("(d)", [[("a", "(1)"), ("b", "(1)"), ("c", "(3)")]])))
    dropped = run_cli(key, response, "-m", "bcub", "mention", "--output", "json")
    kept = run_cli(key, response, "-s", "-m", "bcub", "mention", "--output", "json")
    assert dropped.json["metrics"]["bcub"]["counts"]["recall_den"] == 2
    assert kept.json["metrics"]["bcub"]["counts"]["recall_den"] == 3
    assert kept.json["metrics"]["mention"]["counts"]["recall_num"] == 3


def test_documents_must_match(write):
    key = write("k.conll", conll(("(d)", [[("a", "(1)"), ("b", "(1)")]])))
    response = write("r.conll", conll(("(e)", [[("a", "(1)"), ("b", "(1)")]])))
    run = run_cli(key, response, "--output", "json")
    assert run.code == 2 and run.out == "" and "(d)" in run.err and "(e)" in run.err
    short = write("s.conll", conll(("(d)", [[("a", "(1)")]])))
    run = run_cli(key, short)
    assert run.code == 2 and "1 in the response" in run.err


# --- the drop-in ---

def _dropin(*args):
    out, err = io.StringIO(), io.StringIO()
    code = dropin_main([str(a) for a in args], out, err)
    return code, out.getvalue(), err.getvalue()


def _runs():
    if not EXPECTED.is_file():
        return []
    return sorted(json.loads(EXPECTED.read_text(encoding="utf-8")))


def _arguments(case: str):
    metric, response, mode = case.split(" ")
    key = SUITE / (response.rsplit("-", 1)[0] + ".key")
    name = read_file(str(key))[0].doc_id
    extra = {"all": [], "none": ["none"], "name": [name]}[mode]
    return [metric, key, SUITE / response, *extra]


@needs_suite
@pytest.mark.parametrize("case", _runs())
def test_dropin_prints_what_scorer_pl_printed(case):
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))[case]
    code, out, err = _dropin(*_arguments(case))
    assert code == 0, err
    first, rest = out.split("\n", 1)
    assert first.startswith("version: ")
    assert rest == expected


@needs_suite
@needs_perl
@pytest.mark.parametrize("case", [c for c in _runs() if " name" not in c])
def test_dropin_equals_perl_scorer_live(case):
    arguments = _arguments(case)
    perl = subprocess.run(["perl", str(REFERENCE / "scorer.pl"), *map(str, arguments)],
                          capture_output=True, text=True)
    code, out, _ = _dropin(*arguments)
    assert code == 0 and perl.returncode == 0
    assert out.split("\n", 1)[1] == perl.stdout.split("\n", 1)[1]


@needs_suite
@needs_perl
def test_dropin_goes_on_where_perl_refuses_repeats():
    arguments = ["all", SUITE / "TC-A.key", SUITE / "TC-A-9.response", "none"]
    perl = subprocess.run(["perl", str(REFERENCE / "scorer.pl"), *map(str, arguments)],
                          capture_output=True, text=True)
    assert perl.returncode == 1 and "too many repeated mentions" in perl.stderr
    code, out, _ = _dropin(*arguments)
    assert code == 0
    # The same text as far as Perl goes, then every metric.
    assert out.split("\n", 1)[1].startswith(perl.stdout.split("\n", 1)[1])
    assert out.count("====== TOTALS =======") == 5


def test_dropin_usage_and_errors(write):
    code, out, err = _dropin("muc", "k")
    assert code == 2 and out == "" and "usage:" in err
    key = write("k.conll", conll(("(d)", [[("a", "(1)"), ("b", "(1)")]])))
    code, out, err = _dropin("lea", key, key)
    assert code == 2 and out == "" and "invalid metric" in err
    code, out, err = _dropin("muc", key, key, "(nope)")
    assert code == 2 and out == "" and "(nope)" in err
    bad = write("b.conll", "#begin document (d)\nd 0 0 a (1\n#end document\n")
    code, out, err = _dropin("muc", key, bad)
    assert code == 2 and out == "" and err.startswith(f"conll-scorer: error: {bad}:2: ")
    # Tokens that do not line up: one line naming both places.
    short = write("s.conll", conll(("(d)", [[("a", "(1)")]])))
    code, out, err = _dropin("muc", key, short)
    assert code == 2 and out == ""
    assert err == (f"conll-scorer: error: {key}:2 vs {short}:2: sentence 1 has 2 words in the key, "
                   "1 in the response\n")
    longer = write("l.conll", conll(("(d)", [[("a", "(1)"), ("b", "(1)")], [("c", "-")]])))
    code, out, err = _dropin("muc", key, longer)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "ends after 1 sentence in the key but goes on with sentence 2 in the response" in err


def test_dropin_several_documents_paired_by_name(write):
    key = write("k.conll", conll(("(a); part 000", [[("x", "(1)"), ("y", "(1)")]]),
                                 ("(b); part 000", [[("x", "(1)"), ("y", "(2)")]])))
    response = write("r.conll", conll(("(b); part 000", [[("x", "(1)"), ("y", "(1)")]]),
                                      ("(a); part 000", [[("x", "(1)"), ("y", "(1)")]])))
    code, out, _ = _dropin("muc", key, response, "none")
    assert code == 0
    assert "Coreference: Recall: (1 / 1) 100%\tPrecision: (1 / 2) 50%\tF1: 66.66%\n" in out
    code, out, _ = _dropin("muc", key, response, "(b); part 000")
    assert out.count("====> (b); part 000:") == 2 and "(a)" not in out


# Repeats of every kind v8.01 reads: a key span in two entities (a) and twice in one (f),
# a response span repeating a key span (b, in two entities) and one the key does not
# have (i, twice in one entity).
REPEATS_KEY = """#begin document (rep); part 000
rep 0 0 a (1)|(2)
rep 0 1 b (1)
rep 0 2 c (2
rep 0 3 d 2)
rep 0 4 e (3)
rep 0 5 f (3)|(3)

rep 0 0 g (4)
rep 0 1 h (4)
rep 0 2 i -
#end document
"""
REPEATS_RESPONSE = REPEATS_KEY.replace("a (1)|(2)", "a (1)").replace("b (1)", "b (1)|(5)").replace(
    "e (3)", "e (2)").replace("f (3)|(3)", "f -").replace("g (4)", "g (4)|(6)").replace("i -", "i (6)|(7)|(4)")


def test_dropin_repeats_of_every_kind(write):
    key, response = write("k.conll", REPEATS_KEY), write("r.conll", REPEATS_RESPONSE)
    code, out, _ = _dropin("all", key, response, "none")
    assert code == 0
    # What perl scorer.pl v8.01 prints for these two files.
    for line in ("Repeated mention in the key: 0, 0 02", "Repeated mention in the key: 5, 5 56",
                 "Repeated mention in the response: 1, 1 11", "Repeated mention in the response: 6, 6 77",
                 "Coreference: Recall: (1 / 5) 20%\tPrecision: (1 / 4) 25%\tF1: 22.22%",
                 "Coreference: Recall: (4.33333333333333 / 9) 48.14%\tPrecision: (3.83333333333333 / 9) "
                 "42.59%\tF1: 45.2%",
                 "Coreference: Recall: (5 / 9) 55.55%\tPrecision: (5 / 9) 55.55%\tF1: 55.55%",
                 "Coreference: Recall: (2.3 / 4) 57.5%\tPrecision: (2.3 / 5) 46%\tF1: 51.11%",
                 "Coreference links: Recall: (2 / 5) 40%\tPrecision: (2 / 5) 40%\tF1: 40%",
                 "Non-coreference links: Recall: (12 / 20) 60%\tPrecision: (12 / 19) 63.15%\tF1: 61.53%",
                 "BLANC: Recall: (0.5 / 1) 50%\tPrecision: (0.515789473684211 / 1) 51.57%\tF1: 50.76%",
                 "Identification of Mentions: Recall: (6 / 7) 85.71%\tPrecision: (6 / 7) 85.71%\tF1: 85.71%"):
        assert line + "\n" in out, line
    assert out.count("Repeated mention in the response: 1, 1 11") == 5  # once per metric, as v8.01


@needs_perl
@pytest.mark.parametrize("metric", ["muc", "bcub", "ceafm", "ceafe", "blanc", "all"])
@pytest.mark.parametrize("mode", [[], ["none"], ["(rep); part 000"]])
def test_dropin_repeats_equal_perl_live(write, metric, mode):
    key, response = write("k.conll", REPEATS_KEY), write("r.conll", REPEATS_RESPONSE)
    perl = subprocess.run(["perl", str(REFERENCE / "scorer.pl"), metric, str(key), str(response), *mode],
                          capture_output=True, text=True)
    code, out, _ = _dropin(metric, key, response, *mode)
    assert code == 0 and perl.returncode == 0
    assert out.split("\n", 1)[1] == perl.stdout.split("\n", 1)[1]


def test_format_conll_warns_once_for_repeats(write):
    key, response = write("k.conll", REPEATS_KEY), write("r.conll", REPEATS_RESPONSE)
    run = run_cli(key, response, "-s", "-m", "muc", "blanc", "--output", "json")
    assert run.code == 0
    assert run.json["metrics"]["muc"]["counts"] == {"recall_num": 1.0, "recall_den": 5.0,
                                                    "precision_num": 1.0, "precision_den": 4.0}
    warnings = [line for line in run.err.splitlines() if "repeated mentions" in line]
    assert len(warnings) == 2  # one for the key, one for the response: count and first place
    assert any(f"{response}: repeated mentions" in w and ": 2 (first: " in w for w in warnings)


def test_several_systems_scored_as_each_alone(write):
    key, response = write("k.conll", REPEATS_KEY), write("r.conll", REPEATS_RESPONSE)
    together = run_cli(key, response, key, "-s", "-m", "muc", "bcub", "--output", "json")
    alone = run_cli(key, response, "-s", "-m", "muc", "bcub", "--output", "json")
    assert together.code == 0 and alone.code == 0, together.err
    first, second = together.json["systems"]
    assert first["metrics"] == alone.json["metrics"]
    # The key against itself is not perfect under v8.01's reading of its repeats
    # (perl scorer.pl muc KEY KEY: recall 2/5, precision 2/3).
    assert second["metrics"]["muc"]["counts"] == {"recall_num": 2.0, "recall_den": 5.0,
                                                  "precision_num": 2.0, "precision_den": 3.0}


def test_the_stand_in_starts_without_numpy():
    # Its start-up is part of every scorer.pl run it replaces.
    code = ("import sys, corefud_scorer.v801.dropin; "
            "print(sorted(m for m in ('numpy', 'corefud_scorer.api', 'corefud_scorer.cli', 'udapi') "
            "if m in sys.modules))")
    assert python_output(code).strip() == "[]"
