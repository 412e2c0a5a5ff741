"""Intervals and tests on the command line for every metric whose
statistics add across documents: CorefUD's `-m every` but the agreement
coefficients, and the UA measures (bridging, non-referring, MOR with split
antecedents)."""

from __future__ import annotations

import pytest

from conftest import CONFORMANCE, FIXTURES, run_cli

STATION = FIXTURES / "anaphora"
EXAMPLE = FIXTURES / "example"
PLURAL = CONFORMANCE / "ua" / "plural"
EVERY = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero", "mention", "bcub-entity", "pairwise",
         "bcub-sys", "ceaf-sys", "bcub-all", "entropy", "core-de")
UA = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mention", "mor", "non-referring", "bridging")
FIGURES = (("f1", "interval"), ("recall", "recall_interval"), ("precision", "precision_interval"))


def test_bridging_with_confidence_is_resampled_from_its_parts():
    run = run_cli(STATION / "station.key.ua.conllu", STATION / "station.response.ua.conllu",
                  "-m", "bridging", "muc", "--confidence", "50", "--output", "json")
    assert run.code == 0, run.err
    bridging = run.json["metrics"]["bridging"]
    # One document: every sample is that document, and bridging's figures
    # are its markable level's (1 of 1 key anaphors, 1 of 2 response ones).
    assert (bridging["recall"], bridging["precision"]) == (1.0, 0.5)
    assert bridging["recall_interval"] == [1.0, 1.0]
    assert bridging["precision_interval"] == [0.5, 0.5]
    assert bridging["interval"] == [2 / 3, 2 / 3]
    text = run_cli(STATION / "station.key.ua.conllu", STATION / "station.response.ua.conllu",
                   "-m", "bridging", "muc", "--confidence", "50")
    assert text.code == 0 and "bridging" in text.out and "Traceback" not in text.err


def _check(data):
    """Every interval holds its figure; a figure n/a has no interval."""
    systems = data.get("systems") or [data]
    checked = 0
    for system in systems:
        metrics = system["macro"]["metrics"] if "macro" in system else system["metrics"]
        for name, metric in metrics.items():
            for figure, interval in FIGURES:
                if interval not in metric:
                    continue
                value, bounds = metric[figure], metric[interval]
                assert (value is None) == (bounds is None), (name, figure)
                if value is not None:
                    assert bounds[0] <= value <= bounds[1], (name, figure, value, bounds)
                    checked += 1
    for name, per_system in data.get("tests", {}).items():
        for test in per_system.values():
            if test["difference"] is None:
                assert test["interval"] is None and test["p_value"] is None, name
            else:
                assert test["interval"][0] <= test["difference"] <= test["interval"][1], name
                assert 0 < test["p_value"] <= 1
    return checked


RUNS = {
    "corefud-every": (EXAMPLE / "key.conllu", EXAMPLE / "response.conllu", EXAMPLE / "key.conllu", "-m", *EVERY),
    "ua-measures": (STATION / "station.key.ua.conllu", STATION / "station.response.ua.conllu",
                    STATION / "station.key.ua.conllu", "-m", *UA),
    "ua-split-antecedents": (PLURAL / "TC-PA.key", PLURAL / "TC-PA-3.sys", PLURAL / "TC-PA-5.sys",
                             "--format", "ua", "-s", "-l", "-m", *UA),
    "bench-every": ("bench", FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys", FIXTURES / "bench" / "key",
                    "-m", *EVERY),
}


@pytest.mark.parametrize("test", [(), ("--paired-bs", "100"), ("--paired-ar", "200")], ids=["ci", "bs", "ar"])
@pytest.mark.parametrize("run", list(RUNS), ids=list(RUNS))
def test_every_additive_measure_is_resampled(run, test):
    result = run_cli(*RUNS[run], "--confidence", "100", *test, "--output", "json", "-q", "-j", "1")
    assert result.code == 0, result.err
    assert _check(result.json) > 0
    text = run_cli(*RUNS[run], "--confidence", "100", *test, "-q", "-j", "1")
    assert text.code == 0 and text.err == ""


def test_mor_with_split_antecedents_has_no_interval():
    run = run_cli(*RUNS["ua-split-antecedents"], "--paired-bs", "100", "--confidence", "100", "--output", "json",
                  "-j", "1")
    assert run.code == 0, run.err
    for system in run.json["systems"]:
        mor = system["metrics"]["mor"]
        assert mor["f1"] is None and mor["interval"] is None and mor["recall_interval"] is None
    assert list(run.json["tests"]["mor"].values()) == [{"difference": None, "interval": None, "p_value": None}]
    text = run_cli(*RUNS["ua-split-antecedents"], "--paired-bs", "100", "--confidence", "100", "-j", "1").out
    mor = [line for line in text.splitlines() if line.startswith("mor ")]
    assert len(mor) == 2 and all(line.count("n/a [n/a]") == 3 for line in mor)
    assert mor[1].split()[-2:] == ["n/a", "n/a"]


@pytest.mark.parametrize("args", [
    (EXAMPLE / "key.conllu", EXAMPLE / "response.conllu", "-m", "muc", "kappa", "--confidence", "50"),
    (EXAMPLE / "key.conllu", EXAMPLE / "response.conllu", EXAMPLE / "key.conllu", "-m", "alpha"),
    ("bench", FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys", "-m", "every", "--confidence"),
])
def test_coefficients_are_refused_with_resampling(args):
    run = run_cli(*args)
    assert run.code == 2 and run.out == "" and "not with several systems" in run.err
