"""A mistake in the flags is a short usage and the message as the last line,
in plain words; ``--help`` names every subcommand with its one line."""

from __future__ import annotations

import re

import pytest

from conftest import FIXTURES, run_cli

from corefud_scorer.cli.commands import COMMANDS, summaries
from corefud_scorer.cli.usage import plain_message
from corefud_scorer.errors import plain_list
from corefud_scorer.measures.registry import MEASURES

KEY = FIXTURES / "example" / "key.conllu"
RESPONSE = FIXTURES / "example" / "response.conllu"


@pytest.mark.parametrize("args, message", [
    ([KEY, RESPONSE, "-m", "foo"], "argument -m/--metrics: foo is not one of all, every, conll, muc"),
    ([KEY, RESPONSE, "-t", "crac25", "-m", "muc"],
     "--shared-task crac25 sets metrics to muc, bcub, ceafe and zero; the flags ask for muc"),
    ([KEY, RESPONSE, "-t", "crac24", "-s"], "--shared-task crac24 sets keep singletons to off; the flags ask for on"),
    (["bench", "--columns", "some"], "argument --columns: some is not one of f1 or all"),
    (["errors", KEY], "the following arguments are required: sys_file"),
])
def test_a_usage_error_is_a_short_usage_and_one_plain_line(args, message):
    run = run_cli(*args)
    assert run.code == 2 and run.out == ""
    lines = run.err.splitlines()
    assert lines[0].startswith("usage: corefud-scorer") and "[options]" in lines[0]
    assert len(lines) <= 3, run.err
    assert lines[-1].startswith("corefud-scorer") and ": error: " in lines[-1]
    assert message in lines[-1]
    # No Python list syntax, and no metric name spelled out in the usage.
    assert not re.search(r"\[['\"]|\(choose from", lines[-1])
    assert "bcub-entity" not in "\n".join(lines[:-1])


def test_plain_words():
    assert plain_list(["muc"]) == "muc"
    assert plain_list(["muc", "bcub"]) == "muc and bcub"
    assert plain_list(["a", "b", "c"], "or") == "a, b or c"
    assert (plain_message("argument -a/--match: invalid choice: 'fuzzy' (choose from 'exact', 'head')")
            == "argument -a/--match: fuzzy is not one of exact or head")
    assert plain_message("argument -a: invalid choice: 'x' (choose from exact, head)") == \
        "argument -a: x is not one of exact or head"


def test_the_metric_placeholder_stands_in_the_help_and_the_names_once():
    run = run_cli("--help")
    assert run.code == 0
    assert "-m METRIC [METRIC ...]" in run.out
    text = re.sub(r"-\s+", "-", run.out)
    for name in MEASURES:
        assert f" {name}," in text or f" {name} " in text, name


def test_help_names_every_subcommand_with_one_line():
    run = run_cli("--help")
    listed = summaries()
    assert set(listed) == set(COMMANDS) | {"serve"}
    section = run.out.split("commands (corefud-scorer COMMAND --help for each):\n", 1)[1].split("\n\n", 1)[0]
    for name, line in listed.items():
        assert line, f"{name}: its function needs a docstring, whose first line --help prints"
        assert re.search(rf"^  {re.escape(name)} ", section, re.M), name
    joined = " ".join(section.split())
    assert "errors What a response got wrong" in joined
    assert "serve The evaluation page and HTTP API" in joined


def test_a_new_subcommand_is_listed_once_registered(monkeypatch):
    def inspect_main(argv, stdout, stderr):
        """Look at a file without scoring it."""
        return 0

    monkeypatch.setitem(COMMANDS, "inspect", inspect_main)
    run = run_cli("--help")
    assert re.search(r"^  inspect +Look at a file without scoring it$", run.out, re.M)
    assert "{" + ",".join([*COMMANDS, "serve"]) + "}" in run_cli(KEY).err
