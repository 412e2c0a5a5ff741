"""The examples of the README and of the documentation site (``docs/``) run
as written: every shell command of a ``sh`` block that uses the bundled
fixtures, every Python block, and the JSON shapes the pages document."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import subprocess
from fractions import Fraction

import pytest

from conftest import FIXTURES, ROOT, Run

from corefud_scorer.cli import main
from corefud_scorer.v801.dropin import main as conll_main

README = (ROOT / "README.md").read_text(encoding="utf-8")
# Each page by its path from the top of a clone: the README, then the site's pages.
PAGES = {"README.md": README} | {str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
                                 for path in sorted((ROOT / "docs").rglob("*.md"))}
COMMANDS = {"corefud-scorer": main, ".venv/bin/corefud-scorer": main, "conll-scorer": conll_main}


def blocks(language: str, text: str | None = None) -> list[str]:
    """The fenced blocks of a language in one page's text, or in every page."""
    texts = PAGES.values() if text is None else [text]
    return [block for page in texts for block in re.findall(rf"^```{language}\n(.*?)^```", page, re.M | re.S)]


def _lines(block: str) -> list[list[str]]:
    """A block's command lines as words (``&&`` splits a line), comments out."""
    found = []
    for line in block.replace("\\\n", " ").splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            assert "fixtures/" not in line, line  # an example to run must parse
            continue
        command: list[str] = []
        for word in words + ["&&"]:
            if word != "&&":
                command.append(word)
                continue
            if command[:3] == ["python", "-m", "corefud_scorer"]:
                command = ["corefud-scorer", *command[3:]]
            if command:
                found.append(command)
            command = []
    return found


def fixture_blocks() -> list[list[list[str]]]:
    """Per ``sh`` block, in order, the lines to run: the scorer's commands
    that name a bundled file or one an earlier line of the block wrote, and
    the ``sed`` lines that write such a file."""
    found = []
    for block in dict.fromkeys(blocks("sh")):  # a block shown on two pages runs once
        written: set[str] = set()
        runnable = []
        for words in _lines(block):
            names = set(words)
            if words[0] == "sed" and ">" not in words and any(w.startswith("fixtures/") for w in words):
                continue
            if words[0] in COMMANDS and (any(w.startswith("fixtures/") for w in words) or names & written):
                runnable.append(words)
                if words[1:2] == ["convert"]:
                    written.add(words[3])
            elif words[0] == "sed" and any(w.startswith("fixtures/") for w in words):
                # It writes with '>', which shlex keeps as a word.
                runnable.append(words)
                written.add(words[words.index(">") + 1])
        if any(words[0] in COMMANDS for words in runnable):
            found.append(runnable)
    return found


BLOCKS = fixture_blocks()
COMMAND_LINES = [words for block in BLOCKS for words in block if words[0] in COMMANDS]


def test_the_readme_opens_with_the_two_commands():
    first = blocks("sh", README)[0]
    assert README.index("```sh") < README.index("\n## ")
    assert [line.split()[:2] for line in first.splitlines()] == [["make", "demo"], ["make", "test"]]


def test_the_readme_is_a_quick_start():
    assert len(README.splitlines()) <= 300
    # It links into the site, whose pages are all in its navigation.
    linked = set(re.findall(r"\]\(docs/([\w/-]+\.md)", README))
    assert {"usage.md", "formats.md", "measures.md", "python-api.md", "testing.md"} <= linked
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [page for page in PAGES if page.startswith("docs/") and page[len("docs/"):] not in nav]
    assert not missing, f"pages outside mkdocs.yml's nav: {missing}"


def test_the_pages_have_runnable_examples():
    assert len(COMMAND_LINES) >= 8, COMMAND_LINES
    assert any(c[:2] == ["corefud-scorer", "bench"] for c in COMMAND_LINES)
    assert any(c[:2] == ["corefud-scorer", "errors"] for c in COMMAND_LINES)
    assert any(c[:2] == ["corefud-scorer", "convert"] for c in COMMAND_LINES)
    assert any(c[:2] == ["corefud-scorer", "validate"] for c in COMMAND_LINES)
    assert any(c[0] == ".venv/bin/corefud-scorer" for c in COMMAND_LINES)


def _run(command: list[str]) -> Run:
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = COMMANDS[command[0]](command[1:], stdout=out, stderr=err)
    except SystemExit as exit_:
        code = exit_.code
    return Run(code, out.getvalue(), err.getvalue())


@pytest.mark.parametrize("block", BLOCKS, ids=[" ".join(next(c for c in b if c[0] in COMMANDS))[:80] for b in BLOCKS])
def test_a_block_runs(block, tmp_path, monkeypatch):
    # From a folder that sees the fixtures as a clone's top does, so that
    # anything a command writes (a plot, a converted file) lands in the test's folder.
    (tmp_path / "fixtures").symlink_to(FIXTURES, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    for command in block:
        if command[0] == "sed":
            cut = command.index(">")
            done = subprocess.run(command[:cut], capture_output=True, check=True)
            (tmp_path / command[cut + 1]).write_bytes(done.stdout)
            continue
        run = _run(command)
        assert "Traceback" not in run.err
        if command[1:2] == ["validate"]:
            # It lists what is wrong: 0 when the submission would be scored, 2 when not.
            assert run.code in (0, 2) and run.out.strip(), run.err
            continue
        assert run.code == 0, (command, run.err)
        if command[1:2] == ["convert"]:
            assert (tmp_path / command[3]).stat().st_size > 0
            continue
        assert run.out.strip()
        if "json" in command:
            assert run.json["schema_version"] == 1


def _run_python(page: str, monkeypatch) -> dict:
    (block,) = blocks("python", PAGES[page])
    monkeypatch.chdir(ROOT)
    names: dict = {}
    exec(compile(block, page, "exec"), names)  # noqa: S102 - the page's own example
    return names


def test_the_readme_python_runs_in_six_lines(monkeypatch, capsys):
    (block,) = blocks("python", README)
    assert len(block.strip().splitlines()) == 6
    result = _run_python("README.md", monkeypatch)["result"]
    assert result.metrics["muc"].counts.recall_den == 7 and result.metrics["muc"].recall == 4 / 7
    printed = capsys.readouterr().out.split()
    assert printed[:2] == [str(4 / 7), "7.0"] and float(printed[2]) == result.conll


def test_the_python_api_block_runs(monkeypatch):
    names = _run_python("docs/python-api.md", monkeypatch)
    result = names["result"]
    assert result.metrics["muc"].counts.recall_den == 7 and result.metrics["muc"].recall == 4 / 7
    alpha = names["alpha_value"](names["alpha"](names["contingency_of"]([{"a", "b", "c"}, {"d"}],
                                                                         [{"a", "b"}, {"c", "d"}])))
    assert Fraction(alpha).limit_denominator(1000) == Fraction(12, 47)
    assert [d.name for d in names["bench"].datasets] == ["cs_toy", "el_toy", "hi_toy", "ru_toy"]


def _example_json():
    out, err = io.StringIO(), io.StringIO()
    key, response = FIXTURES / "example" / "key.conllu", FIXTURES / "example" / "response.conllu"
    assert main([str(key), str(response), "--output", "json", "--per-doc"], stdout=out, stderr=err) == 0
    return out.getvalue()


def test_the_json_example_is_what_the_example_prints():
    (example,) = [b for b in blocks("json") if '"schema_version": 1' in b and "per_document" in b]
    text = _example_json()
    data = json.loads(text)
    # Whole-number counts print as integers, as the example shows them.
    assert '"recall_num": 4,' in text and '"recall_num": 4.0' not in text
    for name in ("muc", "zero"):
        shown = re.search(rf'"{name}":.*?"counts": (\{{[^{{}}]*\}})', example, re.S).group(1)
        assert json.loads(shown) == data["metrics"][name]["counts"]
        figures = re.search(rf'"{name}":\s*\{{"recall": ([\d.]+), "precision": ([\d.]+), "f1": ([\d.]+)', example)
        for value, key in zip(figures.groups(), ("recall", "precision", "f1")):
            assert round(data["metrics"][name][key], 4) == float(value)
    sizes = dict(re.findall(r'"(documents|tokens|key_mentions|response_mentions|key_entities|response_entities)": '
                            r'(\d+)', example.split('"per_document"')[0]))
    assert len(sizes) == 6 and {k: data[k] for k in sizes} == {k: int(v) for k, v in sizes.items()}
    dropped = json.loads(re.search(r'"counts": (\{"key_singletons_dropped"[^}]*\})', example).group(1))
    assert dropped == data["counts"]
    assert re.search(r'"per_document": \[\{"document": "walk"', example) and data["per_document"][0]["document"] == "walk"


def test_the_error_analysis_json_is_documented_as_printed():
    out = io.StringIO()
    key, response = FIXTURES / "example" / "key.conllu", FIXTURES / "example" / "response.conllu"
    assert main(["errors", str(key), str(response), "--output", "json"], stdout=out, stderr=io.StringIO()) == 0
    data = json.loads(out.getvalue())
    page = PAGES["docs/error-analysis.md"]
    assert '`{"schema_version": 1, "errors": {...}, "settings": {...}}`' in page
    assert list(data) == ["schema_version", "errors", "settings"]
    documented = re.search(r'It holds `\{"counts":(.*?)`,', page, re.S).group(1)
    top = re.findall(r'"(\w+)":\s*(?:\{|\[|")', '{"counts": ' + documented)
    assert list(dict.fromkeys(k for k in top if k in data["errors"])) == list(data["errors"])
    assert set(re.findall(r'"(\w+)": N', documented)) == set(data["errors"]["counts"])
    assert set(data["errors"]["method"]) == {"heads", "pronouns", "span_rules"}


# Files the pages name that belong to other projects: the reference scorers,
# the error analyser the pages compare with, and the metrics.py neural systems
# keep (docs/training.md).
ELSEWHERE = {"corefud-scorer.py", "ua-scorer.py", "crac2024_zero_nodes_eval.py", "crac2026_empty_nodes_eval.py",
             "classify_coreference_errors.py", "nlp_util/coreference.py", "metrics.py"}


def test_the_pages_name_files_that_exist():
    # A module is named by its path in the package (measures/metrics.py),
    # anything else by its path from the top of a clone (tests/test_web.py).
    named = {name: page for page, text in PAGES.items()
             for name in re.findall(r"`([\w.-]+(?:/[\w.-]+)*(?:\.py|/))`", text)}
    missing = [f"{page}: {name}" for name, page in sorted(named.items())
               if name not in ELSEWHERE and not name.startswith("..") and name.lower() == name
               and not any((base / name).exists() for base in (ROOT, ROOT / "corefud_scorer"))]
    assert len(named) > 50 and not missing, missing


def test_install_hints_say_what_works_from_a_clone():
    # The package is on no index: a hint naming it alone would fail.
    sources = list(PAGES.values()) + [path.read_text(encoding="utf-8") for path in (ROOT / "corefud_scorer").rglob("*.py")]
    for text in sources:
        for hint in re.findall(r"pip install '?corefud-scorer\[\w+\]'?", text):
            assert "finds nothing" in text[text.index(hint):text.index(hint) + 120], hint
    assert ". .venv/bin/activate" in README and ".venv/bin/corefud-scorer" in README
    assert "pip install '.[plot]'" in README and "pip install '.[docs]'" in PAGES["docs/usage.md"]


def test_the_training_loop_block_runs():
    (block,) = blocks("python", PAGES["docs/training.md"])
    names: dict = {}
    exec(compile(block, "docs/training.md", "exec"), names)  # noqa: S102 - the page's own example
    assert round(names["f1"], 4) == 0.6464
    # What perl scorer.pl v8.01 prints for these clusters (the predicted (5, 5) in two clusters).
    muc, bcub, ceafe = names["evaluator"].evaluators
    assert (muc.get_f1(), bcub.get_counts(), round(ceafe.get_f1(), 4)) == (0.5, (8 / 3, 4.0, 3.0, 4.0), 0.7333)
