"""Error analysis starts from the score printed beside it: its baseline is
the score's own statistics under every option and format, its corrections
are rescored by the same function, and an option it cannot honour is
refused in one line."""

from __future__ import annotations

import json
import re

import pytest

from corefud_scorer.api import Options
from corefud_scorer.jobs.error_analysis import analyse_files
from corefud_scorer.measures.registry import LAYERS, MEASURES

from conftest import FIXTURES, run_cli

EXAMPLE = (FIXTURES / "example" / "key.conllu", FIXTURES / "example" / "response.conllu")
STATION = (FIXTURES / "anaphora" / "station.key.conllu", FIXTURES / "anaphora" / "station.response.conllu")
STATION_UA = (FIXTURES / "anaphora" / "station.key.ua.conllu", FIXTURES / "anaphora" / "station.response.ua.conllu")
PRADHAN = (FIXTURES / "seed" / "pradhan2014.key.conll", FIXTURES / "seed" / "pradhan2014.response.conll")

OPTIONS = [[], ["--sync", "intersection"], ["--sync", "union"], ["--sync", "key"], ["--sync", "response"],
           ["--sync", "all"], ["-s"], ["-s", "--sync", "key", "-m", "every"], ["--keep-zeros"],
           ["-a", "exact"], ["-a", "partial"], ["-a", "partial-craft"], ["-z", "linear"], ["-l", "-s"], ["-d"]]


def _pair(key, response, *flags):
    """The score's JSON with its error analysis; the baseline beside the score."""
    run = run_cli(key, response, *flags, "--errors", "--output", "json", "-j", 1)
    assert run.code == 0, run.err
    data = run.json
    return data["metrics"], data["errors"]["cost"]


def _same(metrics: dict, cost: dict) -> None:
    baseline = cost["baseline"]
    assert baseline["conll"] == metrics["conll"]["f1"]
    for name, value in metrics.items():
        if name != "conll":
            assert baseline[name] == value.get("f1", value.get("value")), name


def _reaches_the_key(cost: dict) -> None:
    # Every error corrected, the entities are the key's; the layers beside
    # them (bridging, non-referring markables) are no category's.
    full = cost["cumulative"]["missing_entity"]
    layers = {name for name, entry in MEASURES.items() if entry.reads == LAYERS}
    assert all(value == pytest.approx(1.0) for name, value in full.items()
               if value is not None and name not in layers)


def test_the_reported_sync_case_prints_one_score():
    run = run_cli(*EXAMPLE, "--sync", "intersection", "--errors")
    assert run.code == 0, run.err
    assert "CoNLL score: 86.22" in run.out
    assert "CoNLL F1 of the response as it is: 86.22" in run.out
    metrics, cost = _pair(*EXAMPLE, "--sync", "intersection")
    assert cost["baseline"]["muc"] == pytest.approx(0.8) and cost["baseline"]["ceafe"] == pytest.approx(0.92)
    _same(metrics, cost)
    _reaches_the_key(cost)


@pytest.mark.parametrize("flags", OPTIONS, ids=" ".join)
@pytest.mark.parametrize("files", [EXAMPLE, STATION_UA], ids=["corefud", "ua"])
def test_the_baseline_is_the_score_under_every_option(files, flags):
    if "-l" in flags and files is STATION_UA:
        pytest.skip("split antecedents: refused, see below")
    if "-d" in flags and files is EXAMPLE:
        run = run_cli(*files, *flags, "--errors")
        assert run.code == 2 and "no discourse-deixis layer" in run.err
        return
    metrics, cost = _pair(*files, *flags)
    _same(metrics, cost)
    if metrics["conll"]["f1"] or "-d" not in flags:  # (no discourse deixis in these files)
        _reaches_the_key(cost)


@pytest.mark.parametrize("flags", [[], ["-s"], ["--sync", "key"], ["--sync", "all"], ["-m", "every"]],
                         ids=" ".join)
def test_a_conll_2012_pair_starts_from_v801s_score(flags):
    metrics, cost = _pair(*PRADHAN, *flags)
    _same(metrics, cost)
    assert cost["cumulative"]["missing_entity"]["conll"] == pytest.approx(1.0)


def conll(*sentences) -> str:
    lines = ["#begin document (d); part 000"]
    for sentence in sentences:
        lines += [f"d\t0\t{i}\t{form}\t{coref}" for i, (form, coref) in enumerate(sentence)] + [""]
    return "\n".join(lines + ["#end document"]) + "\n"


KEY_2012 = conll([("Anna", "(1)"), ("she", "(1)|(2)"), ("Bob", "(2)")],
                 [("the", "(3"), ("cat", "3)"), ("it", "(3)"), ("him", "(2)")])
RESPONSE_2012 = conll([("Anna", "(1)"), ("she", "(1)|(2)"), ("Bob", "(1)")],
                      [("the", "-"), ("cat", "(3)"), ("it", "(3)|(2)"), ("him", "(2)")])


def test_a_conll_2012_span_in_two_entities(write):
    key, response = write("key.conll", KEY_2012), write("sys.conll", RESPONSE_2012)
    for flags in ([], ["-s"], ["--sync", "intersection"]):
        metrics, cost = _pair(key, response, *flags)
        _same(metrics, cost)
    text = run_cli(key, response, "--errors")
    printed = re.search(r"CoNLL score: ([0-9.]+)", text.out).group(1)
    assert f"CoNLL F1 of the response as it is: {printed}\n" in text.out
    # (the analysis read the pair as scorer 1.2 does: 47.62)
    assert printed == "39.80"


# A UA file whose zeros are left out (its default): an entity of a zero and
# one word keeps the word, as the score keeps it.
ZEROS_UA = """# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE
# newdoc id = d1
# sent_id = s1
# text = John came . Mary left .
1	John	_	_	_	_	0	root	_	_	(EntityID=1|MarkableID=m1)	_	_	_
2	came	_	_	_	_	1	dep	_	_	_	_	_	_
2.1	_	_	_	_	_	_	_	2:nsubj	_	(EntityID={z}|MarkableID=m2)	_	_	_
3	.	_	_	_	_	1	dep	_	_	_	_	_	_
4	Mary	_	_	_	_	1	dep	_	_	(EntityID=2|MarkableID=m3)	_	_	_
5	left	_	_	_	_	1	dep	_	_	_	_	_	_
5.1	_	_	_	_	_	_	_	5:nsubj	_	(EntityID=2|MarkableID=m4)	_	_	_
6	.	_	_	_	_	1	dep	_	_	_	_	_	_
7	She	_	_	_	_	1	dep	_	_	(EntityID={she}|MarkableID=m5)	_	_	_
8	waved	_	_	_	_	1	dep	_	_	_	_	_	_

"""


@pytest.mark.parametrize("flags", [[], ["--keep-zeros"], ["-s"]], ids=" ".join)
def test_ua_zeros_left_out_or_kept(write, flags):
    key = write("key.ua.conllu", ZEROS_UA.format(z=1, she=2))
    response = write("sys.ua.conllu", ZEROS_UA.format(z=2, she=1))
    metrics, cost = _pair(key, response, "--format", "ua", *flags)
    _same(metrics, cost)
    _reaches_the_key(cost)


DEIXIS_UA = """# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE
# newdoc id = d1
# sent_id = s1
# text = It rained . That was sad . Bob left . This too .
1	It	_	_	_	_	0	root	_	_	_	_	(EntityID=5|MarkableID=d1	_
2	rained	_	_	_	_	1	dep	_	_	_	_	)	_
3	.	_	_	_	_	1	dep	_	_	_	_	_	_
4	That	_	_	_	_	1	dep	_	_	_	_	(EntityID=5|MarkableID=d2)	_
5	was	_	_	_	_	1	dep	_	_	_	_	_	_
6	sad	_	_	_	_	1	dep	_	_	_	_	_	_
7	Bob	_	_	_	_	1	dep	_	_	(EntityID=1|MarkableID=m1)	_	(EntityID=6|MarkableID=d3	_
8	left	_	_	_	_	1	dep	_	_	_	_	)	_
9	This	_	_	_	_	1	dep	_	_	_	_	(EntityID={this}|MarkableID=d4)	_
10	too	_	_	_	_	1	dep	_	_	_	_	_	_

"""


def test_discourse_deixis_is_analysed_as_scored(write):
    key = write("key.ua.conllu", DEIXIS_UA.format(this=6))
    response = write("sys.ua.conllu", DEIXIS_UA.format(this=5))
    metrics, cost = _pair(key, response, "--format", "ua", "-d")
    assert 0 < metrics["conll"]["f1"] < 1
    _same(metrics, cost)
    _reaches_the_key(cost)


@pytest.mark.parametrize("files, flags, message", [
    (STATION_UA, ["-l", "-s"], "has split antecedents"),
    (STATION, ["-l", "-s"], "has split antecedents"),
    (EXAMPLE, ["--only-split-antecedent"], "--only-split-antecedent"),
    (PRADHAN, ["--np-only"], "--np-only"),
    (PRADHAN, ["--remove-nested-mentions"], "--remove-nested-mentions"),
])
def test_what_the_analysis_cannot_honour_is_refused(files, flags, message):
    for command in (["errors", *files, *flags], [*files, *flags, "--errors"]):
        run = run_cli(*command)
        assert run.code == 2 and run.out == ""
        refusal = [line for line in run.err.splitlines() if "error:" in line]
        assert len(refusal) == 1 and message in refusal[0]


@pytest.mark.parametrize("options", [dict(np_only=True), dict(remove_nested=True),
                                     dict(only_split_antecedent=True, keep_singletons=True,
                                          keep_split_antecedents=True)])
def test_the_library_refuses_what_the_analysis_cannot_honour(options):
    # The rule is the library's: a caller of analyse_files is refused as the
    # command line is, not given a baseline other than the score.
    from corefud_scorer.errors import ScorerError

    fmt = "conll" if "only_split_antecedent" not in options else "ua"
    files = PRADHAN if fmt == "conll" else STATION_UA
    with pytest.raises(ScorerError, match="error analysis"):
        analyse_files(*map(str, files), Options(format=fmt, **options))


@pytest.mark.parametrize("metrics, primary, label", [
    ((), "conll", "CoNLL F1 alone"),
    (("alpha", "muc"), "alpha", "alpha alone"),
    (("muc", "alpha"), "muc", "muc F1 alone"),
])
def test_the_cost_is_shown_in_the_primary_figure(metrics, primary, label):
    # The JSON names the figure the text's columns (and the page's) show: the
    # CoNLL F1 when computed, else the first measure asked for.
    flags = ["-m", *metrics] if metrics else []
    errors = json.loads(run_cli("errors", *EXAMPLE, *flags, "--output", "json").out)["errors"]
    assert errors["primary"] == primary
    assert errors["cost"]["baseline"][primary] is not None
    assert label in run_cli("errors", *EXAMPLE, *flags).out
