"""The settings lines above the scores say each thing once and leave no gap."""

from __future__ import annotations

import pytest

from conftest import FIXTURES, run_cli

from corefud_scorer.presets import PRESETS, describe
from corefud_scorer.measures.registry import MEASURES

STATION = FIXTURES / "anaphora"


@pytest.mark.parametrize("key, response", [
    ("station.key.conllu", "station.response.conllu"),
    ("station.key.ua.conllu", "station.response.ua.conllu"),
])
@pytest.mark.parametrize("metrics, evaluated", [
    (["bridging", "non-referring"], "non-referring mentions, bridging relations"),
    (["bridging"], "bridging relations"),
    (["non-referring"], "non-referring mentions"),
])
def test_other_layers_alone_are_named(key, response, metrics, evaluated):
    run = run_cli(STATION / key, STATION / response, "-m", *metrics)
    if "non-referring" in metrics and ".ua." not in key:
        # CorefUD files cannot hold non-referring markables: refused, not scored 0.
        assert run.code == 2 and run.out == ""
        assert run.err.splitlines()[-1].startswith("corefud-scorer: error: -m non-referring: CorefUD files have no")
        return
    assert run.code == 0, run.err
    first = run.out.splitlines()[0]
    assert first.startswith(f"The scorer is evaluating {evaluated} using ")
    assert "  " not in first


def test_other_layers_beside_identity_follow_it():
    run = run_cli(STATION / "station.key.conllu", STATION / "station.response.conllu", "-m", "muc", "bridging")
    assert run.out.splitlines()[0] == ("The scorer is evaluating coreferential mentions, zeros (using dependent "
                                       "match method), bridging relations using head match evaluation setting.")


def test_mor_alone_keeps_the_line_of_scorer_12():
    # corefud-scorer.py 1.2 prints the empty list of what it evaluates, two spaces.
    run = run_cli(FIXTURES / "example" / "key.conllu", FIXTURES / "example" / "response.conllu", "-m", "mor")
    assert run.out.splitlines()[0] == "The scorer is evaluating  using head match evaluation setting."


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_preset_line_says_the_zero_rule_once(name):
    line = describe(name)
    assert line.count("zeros") == 1 and line.count("match by") == 0
    assert ("zeros matched by position" if PRESETS[name].zero_match == "linear"
            else "zeros matched by enhanced dependencies") in line
    assert "dependencies" not in line.split("zeros matched by", 1)[0]


def test_crac24_header():
    assert describe("crac24") == ("CRAC 2024 shared task settings (crac24): head match, without singletons, "
                                  "zeros matched by enhanced dependencies (no gold empty nodes: systems predict "
                                  "them); CorefUD 1.2, official scorer 1.2")


# Each format's files, and the option sets that change what its text prints.
TEXT_CASES = {
    "corefud": (STATION / "station.key.conllu", STATION / "station.response.conllu", [[], ["-s", "-l"]]),
    "ua": (STATION / "station.key.ua.conllu", STATION / "station.response.ua.conllu",
           [[], ["-s", "-l"], ["-d"], ["--only-split-antecedent"]]),
    "conll": (FIXTURES / "seed" / "pradhan2014.key.conll", FIXTURES / "seed" / "pradhan2014.response.conll",
              [[], ["-s"]]),
}


@pytest.mark.parametrize("fmt, flags", [(fmt, flags) for fmt, (_, _, sets) in TEXT_CASES.items() for flags in sets],
                         ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_every_measure_prints_as_text(fmt, flags):
    """Text output of every measure (an agreement coefficient as one value,
    a measure not applicable as n/a): a score or one refusal line, never a
    traceback."""
    key, response, _ = TEXT_CASES[fmt]
    for name in MEASURES:
        run = run_cli(key, response, *flags, "-m", name)
        if run.code == 2:
            assert len(run.err.strip().splitlines()) <= 2 and "error: " in run.err, (name, run.err)
            continue
        assert run.code == 0, (name, flags, run.err)
        assert name in run.out and ("Recall: " in run.out or "Value: " in run.out), (name, run.out)
    run = run_cli(key, response, *flags, "-m", "every")
    assert run.code == 0 and run.out.count("Value: ") == 2, run.err  # alpha and kappa
