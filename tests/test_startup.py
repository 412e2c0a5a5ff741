"""A command imports what it uses: scoring one pair of files, in any format,
imports neither the web service, the plots, the resampling and tests, the
leaderboard nor the other commands; ``--help`` makes no array, so it does
not import numpy, and neither does scoring a pair by 1.2's measures. Each
run is a fresh interpreter, whose modules are read off ``sys.modules`` once
the command is done."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

from conftest import FIXTURES

RUN = """
import contextlib, io, sys
from corefud_scorer.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as end:
        code = end.code
modules = sorted(sys.modules)
import json  # once the modules are read: the command may import it or not
print(json.dumps({"code": code, "modules": modules}))
"""
# What neither a single pair nor --help has any use for.
NOT_FOR_A_PAIR = ("corefud_scorer.web", "corefud_scorer.render.plot", "corefud_scorer.jobs.significance",
                  "corefud_scorer.jobs.stacked", "corefud_scorer.jobs.comparison", "corefud_scorer.jobs.leaderboard",
                  "corefud_scorer.render.leaderboard", "corefud_scorer.jobs.codalab", "corefud_scorer.render.codalab",
                  "corefud_scorer.jobs.bench", "corefud_scorer.jobs.error_analysis", "corefud_scorer.jobs.convert",
                  "corefud_scorer.jobs.validation", "corefud_scorer.formats.problem_kinds", "corefud_scorer.jobs.in_memory",
                  "corefud_scorer.cli.serve",
                  "matplotlib", "fastapi",
                  "multiprocessing", "concurrent.futures")
# The other commands' modules and what they alone use (--help reads each command's line off its module).
OTHER_COMMANDS = ("corefud_scorer.cli.bench", "corefud_scorer.cli.codalab", "corefud_scorer.cli.convert",
                  "corefud_scorer.cli.validate", "corefud_scorer.cli.analysis", "corefud_scorer.formats.writers")
PAIRS = {
    "corefud": (FIXTURES / "example" / "key.conllu", FIXTURES / "example" / "response.conllu"),
    "ua": (FIXTURES / "anaphora" / "station.key.ua.conllu", FIXTURES / "anaphora" / "station.response.ua.conllu"),
    "conll": (FIXTURES / "seed" / "pradhan2014.key.conll", FIXTURES / "seed" / "pradhan2014.response.conll"),
}


def imported(*args) -> set[str]:
    done = subprocess.run([sys.executable, "-c", RUN, *map(str, args)], capture_output=True, text=True, check=True)
    answer = json.loads(done.stdout)
    assert answer["code"] == 0, args
    return set(answer["modules"])


def unwanted(modules: set[str], names) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.mark.parametrize("fmt", sorted(PAIRS))
def test_a_single_pair_imports_only_what_scoring_it_uses(fmt):
    modules = imported(*PAIRS[fmt], "-s", "--output", "json")
    assert "corefud_scorer.measures.metrics" in modules  # it did score
    assert unwanted(modules, NOT_FOR_A_PAIR + OTHER_COMMANDS) == []


# 1.2's metrics and those of the aligned mentions compute in plain Python; the
# further measures (and resampling) compute with arrays.
PLAIN = ("-m", "muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero", "mention")


@pytest.mark.parametrize("fmt, flags", [(fmt, flags) for fmt in sorted(PAIRS) for flags in ((), ("-s",) + PLAIN)]
                         + [(fmt, ("-a", "partial") + PLAIN) for fmt in ("corefud", "ua")])
def test_a_single_pair_scored_by_plain_measures_imports_no_numpy(fmt, flags):
    modules = imported(*PAIRS[fmt], *flags)
    assert "corefud_scorer.measures.metrics" in modules and unwanted(modules, ("numpy",)) == []


@pytest.mark.parametrize("fmt", ["ua", "conll"])
def test_a_pair_printed_as_text_imports_no_json(fmt):
    # (A CorefUD pair does: telling its format from the others reads the jsonlines reader.)
    modules = imported(*PAIRS[fmt], "-s")
    assert "corefud_scorer.render.text" in modules and unwanted(modules, ("json",)) == []


def test_a_further_measure_imports_numpy():
    modules = imported(*PAIRS["corefud"], "-m", "muc", "alpha")
    assert "numpy" in modules


# The further measures and the empty nodes' evaluation: imported when one of them is scored.
FURTHER = "corefud_scorer.measures.further"
EMPTY_NODES = "corefud_scorer.measures.empty_nodes"
SCORER_12 = ("-m", "muc", "bcub", "ceafe", "ceafm", "blanc", "lea")


@pytest.mark.parametrize("fmt, flags", [("ua", ()), ("ua", ("-a", "exact") + SCORER_12), ("corefud", ()),
                                        ("corefud", SCORER_12), ("corefud", ("--sync", "all") + SCORER_12)])
def test_a_pair_by_the_default_or_1_2_measures_imports_no_further_measure(fmt, flags):
    modules = imported(*PAIRS[fmt], "-s", *flags, "--output", "json")
    assert "corefud_scorer.measures.metrics" in modules
    assert unwanted(modules, (FURTHER, EMPTY_NODES)) == []


@pytest.mark.parametrize("metric, module", [("kappa", FURTHER), ("empty-nodes", EMPTY_NODES)])
def test_a_measure_imports_its_module_when_asked_for(metric, module):
    assert module in imported(*PAIRS["corefud"], "-m", "muc", metric)


def imports_typing_at_run_time(source: str) -> bool:
    return any(isinstance(node, ast.ImportFrom) and node.module == "typing"
               or isinstance(node, ast.Import) and any(a.name == "typing" for a in node.names)
               for node in ast.parse(source).body)


def test_a_ua_pair_imports_no_typing():
    # A CorefUD pair does: Udapi's dependencies import it.
    assert "typing" not in imported(*PAIRS["ua"], "-s", *SCORER_12, "--output", "json")


def test_no_module_of_the_package_imports_typing_at_run_time():
    """A name of typing used only in annotations comes under ``if
    TYPE_CHECKING``, the abstract types from collections.abc."""
    package = find_spec("corefud_scorer").submodule_search_locations[0]
    found = {".".join(("corefud_scorer", *path.relative_to(package).with_suffix("").parts))
             for path in Path(package).rglob("*.py") if imports_typing_at_run_time(path.read_text(encoding="utf-8"))}
    assert found == set()


def test_the_typing_finder_passes_over_what_type_checkers_alone_read():
    assert imports_typing_at_run_time("import os\nfrom typing import Any\n")
    assert imports_typing_at_run_time("import typing as t\n")
    assert not imports_typing_at_run_time("TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from typing import Any\n")
    assert not imports_typing_at_run_time("def f():\n    import typing\n")
