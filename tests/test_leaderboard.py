"""bench --leaderboard: its four columns equal four bench runs to the last
digit, every document is read once for all of them, the clusters follow
the paired test between neighbours, and the LaTeX table is held to a
golden file."""

from __future__ import annotations

import csv
import gc
import io
import re
import sys
from pathlib import Path

import pytest

from corefud_scorer import __version__
from corefud_scorer.jobs.leaderboard import Leaderboard, Row, significant
from corefud_scorer.jobs.comparison import Resampling

from conftest import FIXTURES, ROOT, run_cli

sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402

KEYS, SYSTEMS = FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys"
GOLDEN = ROOT / "tests" / "golden" / "leaderboard-crac23.tex"
COLUMNS = {"head": ["-a", "head"], "partial": ["-a", "partial"], "exact": ["-a", "exact"],
           "with_singletons": ["-a", "head", "-s"]}


@pytest.fixture(autouse=True, scope="module")
def _frozen_heap():
    """Udapi collects garbage after each document it reads; what the test
    process holds already is left out of that walk (as the command's
    :func:`corefud_scorer.memory.freeze` leaves its own)."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


def _documents(text: str) -> list[str]:
    return [part for part in re.split(r"(?m)^(?=# newdoc)", text) if part]


def write_datasets(root):
    """Two generated datasets and five systems: the response, the key twice
    (two systems that tie), one taking every other document from the key,
    and one taking one document in four from it."""
    folders = {name: root / name for name in ("gold", "base", "perfect", "twin", "mixed", "some")}
    for folder in folders.values():
        folder.mkdir()
    for seed, name in ((41, "en_a-corefud-dev.conllu"), (42, "cs_b-corefud-dev.conllu")):
        key, response = generate.generate_pair(seed, docs=10, tokens_per_doc=50, zeros=0.08)
        pairs = list(zip(_documents(key), _documents(response)))
        texts = {"gold": key, "base": response, "perfect": key, "twin": key,
                 "mixed": "".join(k if i % 2 else r for i, (k, r) in enumerate(pairs)),
                 "some": "".join(k if i % 4 == 0 else r for i, (k, r) in enumerate(pairs))}
        for label, text in texts.items():
            (folders[label] / name).write_text(text, encoding="utf-8")
    return folders


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return write_datasets(tmp_path_factory.mktemp("leaderboard"))


def _macro(run, systems):
    data = run.json
    entries = data["systems"] if "systems" in data else [{"name": Path(systems[0]).name, **data}]
    return {e["name"]: e for e in entries}


def _check_against_bench(gold, systems, preset, zero_method, zero):
    board = run_cli("bench", gold, *systems, "--leaderboard", "-t", preset, "--paired-ar", "199",
                    "--output", "json", "-q", "-j", "1")
    assert board.code == 0, board.err
    data = board.json
    rows = {row["system"]: row for row in data["leaderboard"]}
    assert [set(row) for row in data["leaderboard"]] == \
        [{"system", "rank", "cluster", "head", "partial", "exact", "with_singletons"}] * len(systems)
    metrics = ["muc", "bcub", "ceafe"] + (["zero"] if zero else [])
    for column, flags in COLUMNS.items():
        if preset == "crac22" and column == "with_singletons":
            flags = ["-a", "partial", "-s"]
        run = run_cli("bench", gold, *systems, *flags, "-z", zero_method, "-m", *metrics, "--output", "json",
                      "-q", "-j", "1")
        assert run.code == 0, run.err
        bench = _macro(run, systems)
        for system in systems:
            assert rows[Path(system).name][column] == bench[Path(system).name]["macro"]["metrics"]["conll"]["f1"], \
                (column, system)
            if column == data["primary"] and zero:
                assert data["zero"][Path(system).name] == bench[Path(system).name]["macro"]["metrics"]["zero"]["f1"]
            if column == data["primary"]:
                for dataset, entry in zip(data["datasets"], bench[Path(system).name]["datasets"]):
                    assert dataset["dataset"] == entry["dataset"]
                    mine = next(s for s in dataset["systems"] if s["system"] == Path(system).name)
                    assert mine[column] == entry["metrics"]["conll"]["f1"]
    return data


def test_columns_equal_four_bench_runs_on_generated_datasets(generated):
    systems = [generated[k] for k in ("base", "perfect", "mixed", "twin", "some")]
    data = _check_against_bench(generated["gold"], systems, "crac26", "dependent", zero=True)
    ranked = [row["system"] for row in data["leaderboard"]]
    assert ranked[:2] == [Path(generated["perfect"]).name, Path(generated["twin"]).name]
    assert ranked[2:] == [Path(generated["mixed"]).name, Path(generated["some"]).name, Path(generated["base"]).name]
    assert [row["rank"] for row in data["leaderboard"]] == [1, 1, 3, 4, 5]


def test_columns_equal_four_bench_runs_on_the_fixtures_with_crac22():
    data = _check_against_bench(KEYS, [SYSTEMS, KEYS], "crac22", "linear", zero=False)
    assert data["primary"] == "partial" and data["zero"] is None
    assert data["leaderboard"][0]["system"] == Path(KEYS).name and data["leaderboard"][0]["partial"] == 1.0


def test_clusters_follow_the_test_between_neighbours(generated):
    systems = [generated[k] for k in ("base", "perfect", "mixed", "twin", "some")]
    data = run_cli("bench", generated["gold"], *systems, "--leaderboard", "-t", "crac26", "--paired-ar", "999",
                   "--output", "json", "-q", "-j", "1").json
    rows, tests = data["leaderboard"], data["comparisons"]
    # the tie: the key twice, difference 0, p = 1, one cluster
    assert tests[0]["difference"] == 0 and tests[0]["p_value"] == 1.0
    assert rows[0]["cluster"] == rows[1]["cluster"] == 1
    # the rule: a new cluster exactly where the neighbours differ significantly
    for above, row, test in zip(rows, rows[1:], tests):
        assert test["system"] == row["system"] and test["above"] == above["system"]
        assert row["cluster"] == above["cluster"] + (test["p_value"] < 0.05)
    # the systems built to differ: a perfect system against one with every other document wrong
    assert tests[1]["p_value"] < 0.05 and rows[2]["cluster"] == 2
    # each p-value is bench's own paired test with the system above as the baseline
    for above, row, test in zip(rows, rows[1:], tests):
        run = run_cli("bench", generated["gold"], generated[above["system"]], generated[row["system"]], "-t", "crac26",
                      "--paired-ar", "999", "--output", "json", "-q", "-j", "1")
        paired = run.json["tests"]["conll"][row["system"]]
        assert paired["p_value"] == test["p_value"] and paired["difference"] == test["difference"]


def test_the_cluster_rule_on_built_p_values():
    assert significant(0.01, 0.95) and not significant(0.05, 0.95) and not significant(None, 0.95)
    assert not significant(0.2, 0.95) and significant(0.049, 0.95)


def test_extra_measures_are_columns_equal_to_bench_and_leave_the_ranking(generated):
    """-m empty-nodes (and lea, to show the rule is the registry's, not the
    measure's) under -t crac26: each a column equal to bench's macro F1 with
    the year's matching, per dataset too; ranks, clusters and the seven keys
    otherwise as without -m."""
    systems = [generated[k] for k in ("base", "perfect", "mixed", "twin", "some")]
    common = ["bench", generated["gold"], *systems, "--leaderboard", "-t", "crac26", "--paired-ar", "199",
              "--output", "json", "-q", "-j", "1"]
    plain = run_cli(*common).json
    board = run_cli(*common, "-m", "empty-nodes", "lea")
    assert board.code == 0, board.err
    data = board.json
    keys = {"system", "rank", "cluster", "head", "partial", "exact", "with_singletons"}
    assert [set(row) for row in data["leaderboard"]] == [keys | {"empty-nodes", "lea"}] * len(systems)
    assert [set(row) for row in plain["leaderboard"]] == [keys] * len(systems)
    assert [{k: row[k] for k in keys} for row in data["leaderboard"]] == plain["leaderboard"]
    assert data["zero"] == plain["zero"] and data["comparisons"] == plain["comparisons"]
    run = run_cli("bench", generated["gold"], *systems, "-a", "head", "-z", "dependent", "-m", "empty-nodes", "lea",
                  "--output", "json", "-q", "-j", "1")
    bench = _macro(run, systems)
    values = set()
    for row in data["leaderboard"]:
        for measure in ("empty-nodes", "lea"):
            assert row[measure] == bench[row["system"]]["macro"]["metrics"][measure]["f1"], (row["system"], measure)
        values.add(row["empty-nodes"])
    # empty nodes predicted with errors: the column tells the systems apart, not 1 for all
    assert len(values) >= 3 and all(0 < v <= 1 for v in values)
    for g, dataset in enumerate(data["datasets"]):
        for entry in dataset["systems"]:
            expected = bench[entry["system"]]["datasets"][g]
            assert expected["dataset"] == dataset["dataset"]
            assert entry["empty-nodes"] == expected["metrics"]["empty-nodes"]["f1"]
            assert set(entry) == {"system", "head", "zero", "empty-nodes", "lea"}
    # the ranking is the primary score's, not the extra column's (some ranks
    # below mixed with more empty nodes right)
    heads = [row["head"] for row in data["leaderboard"]]
    assert heads == sorted(heads, reverse=True)
    nodes = {row["system"]: row["empty-nodes"] for row in data["leaderboard"]}
    assert nodes[Path(generated["some"]).name] > nodes[Path(generated["mixed"]).name]


def test_extra_measures_in_text_markdown_csv_and_latex(generated):
    systems = [generated[k] for k in ("base", "mixed")]
    args = ["bench", generated["gold"], *systems, "--leaderboard", "-m", "empty-nodes", "--paired-bs", "99",
            "-q", "-j", "1"]
    data = run_cli(*args, "--output", "json").json
    assert data["shared_task"] is None and data["zero"] is not None  # without -t: the format's zero score
    text = run_cli(*args).out
    first = data["leaderboard"][0]
    assert re.search(rf"(?m)^1 +1 +{first['system']} +{first['head'] * 100:.2f} .* "
                     rf"{first['empty-nodes'] * 100:.2f}\s*$", text)
    assert "empty-nodes (F1, head match) per dataset:" in text
    for dataset in data["datasets"]:
        cells = " +".join(f"{s['empty-nodes'] * 100:.2f}" for s in dataset["systems"])
        assert re.search(rf"(?m)^{dataset['dataset']} +{cells}$", text), dataset["dataset"]
    markdown = run_cli(*args, "--output", "markdown").out
    assert "| rank | cluster | system | head | partial | exact | with singletons | zero | empty-nodes | p (vs above) |" \
        in markdown
    rows = list(csv.DictReader(io.StringIO(run_cli(*args, "--output", "csv").out)))
    for r in rows:
        if r["level"] == "system":
            row = next(x for x in data["leaderboard"] if x["system"] == r["system"])
            assert float(r["empty-nodes"]) == row["empty-nodes"]
        else:
            entry = next(s for d in data["datasets"] if d["dataset"] == r["dataset"] for s in d["systems"]
                         if s["system"] == r["system"])
            assert float(r["empty-nodes"]) == entry["empty-nodes"] and r["partial"] == ""
    tex = run_cli(*args, "--output", "latex").out
    assert "Rank & Cluster & System & Head & Partial & Exact & With singletons & Zero & Empty-nodes \\\\" in tex
    assert tex.count("\\begin{table}") == 3 and "\\caption{empty-nodes F1 (head match) per dataset.}" in tex


def test_asking_for_the_years_own_measures_adds_nothing():
    args = ["bench", KEYS, SYSTEMS, KEYS, "--leaderboard", "-t", "crac24", "--paired-bs", "99", "-q", "-j", "1",
            "--output", "json"]
    asked = run_cli(*args, "-m", "conll", "zero")
    assert asked.code == 0, asked.err
    assert asked.out == run_cli(*args).out


@pytest.mark.parametrize("extra", [(), ("empty-nodes",)])
def test_each_document_is_read_and_loaded_once(generated, monkeypatch, extra):
    from corefud_scorer.jobs.bench import pair_folders
    from corefud_scorer.jobs.leaderboard import build
    from corefud_scorer.formats.readers import corefud
    from corefud_scorer.results import Options

    loads = []
    load = corefud.CorefUDDocument.load

    def counting_load(self):
        loads.append(self.path)
        return load(self)

    monkeypatch.setattr(corefud.CorefUDDocument, "load", counting_load)
    systems = [pair_folders(str(generated["gold"]), str(generated[k])) for k in ("base", "mixed")]
    board = build(["base", "mixed"], systems, Options.preset("crac26"), Resampling(paired_bs=50), metrics=extra)
    for dataset in systems[0]:
        assert loads.count(dataset.key) == 10
    assert loads.count(systems[1][0].response) == 10 and len(loads) == 3 * 2 * 10
    assert [row.system for row in board.rows] == ["mixed", "base"]
    assert all(set(row.extra) == set(extra) for row in board.rows)


def _strip_version(text: str) -> str:
    return text.replace(f"corefud-scorer {__version__}|", "corefud-scorer VERSION|")


def test_latex_table_is_the_golden_file():
    run = run_cli("bench", KEYS, SYSTEMS, KEYS, "--leaderboard", "-t", "crac23", "--paired-bs", "199",
                  "--output", "latex", "-q", "-j", "1")
    assert run.code == 0, run.err
    assert _strip_version(run.out) == GOLDEN.read_text(encoding="utf-8")


def test_text_markdown_and_csv_hold_the_json_figures():
    args = ["bench", KEYS, SYSTEMS, KEYS, "--leaderboard", "-t", "crac24", "--paired-bs", "199", "-q", "-j", "1"]
    data = run_cli(*args, "--output", "json").json
    rows = list(csv.DictReader(io.StringIO(run_cli(*args, "--output", "csv").out)))
    systems = [r for r in rows if r["level"] == "system"]
    assert [r["system"] for r in systems] == [row["system"] for row in data["leaderboard"]]
    for r, row in zip(systems, data["leaderboard"]):
        assert all(float(r[c]) == row[c] for c in ("head", "partial", "exact", "with_singletons"))
        assert int(r["rank"]) == row["rank"] and int(r["cluster"]) == row["cluster"]
    per_dataset = [r for r in rows if r["level"] == "dataset"]
    assert len(per_dataset) == 4 * 2 and all(r["partial"] == "" and r["head"] for r in per_dataset)
    text = run_cli(*args).out
    assert text.startswith("CRAC 2024 shared task settings (crac24)")
    first = data["leaderboard"][1]
    assert re.search(rf"(?m)^2 +2 +{re.escape(first['system'])} +{first['head'] * 100:.2f} ", text)
    markdown = run_cli(*args, "--output", "markdown").out
    assert "| rank | cluster | system | head | partial | exact | with singletons | zero | p (vs above) |" in markdown
    assert "| dataset | " + " | ".join(row["system"] for row in data["leaderboard"]) + " |" in markdown


@pytest.mark.parametrize("flags, message", [
    (["--output", "latex"], "--output latex prints the --leaderboard table"),
    (["--leaderboard", "-s"], "--leaderboard: not with -s"),
    (["--leaderboard", "-m", "alpha"], "-m alpha: is one number, not an F1"),
    (["--leaderboard", "-t", "crac26", "-m", "every"], "-m alpha kappa: are one number"),
    (["--leaderboard", "--per-doc"], "--leaderboard: not with --per-doc"),
    (["--leaderboard", "-d"], "--leaderboard: not with -d"),
    (["--leaderboard", "-a", "partial-craft"], "its columns are head, partial and exact matching"),
    (["--leaderboard", "-t", "crac26", "-a", "exact"], "--shared-task crac26 sets match"),
])
def test_refused_flags(flags, message):
    run = run_cli("bench", KEYS, SYSTEMS, *flags)
    assert run.code == 2 and run.out == "" and message in run.err
    assert len([line for line in run.err.splitlines() if "error" in line]) == 1


def test_latex_escapes_and_rules_between_clusters():
    from corefud_scorer.render.leaderboard import render_latex

    scores = {"head": 0.5, "partial": 0.6, "exact": 0.4, "with_singletons": 0.55}
    board = Leaderboard("head", [Row("a_b&c", 1, 1, scores, None), Row("d%e", 2, 2, dict(scores, head=0.25), None)],
                        ["x_y"], {"x_y": {"a_b&c": (0.5, None), "d%e": (0.25, None)}}, False, Resampling(), "sig")
    tex = render_latex(board)
    assert r"1 & 1 & a\_b\&c & \textbf{50.00} & \textbf{60.00}" in tex
    assert "\\midrule\n2 & 2 & d\\%e & 25.00 & \\textbf{60.00}" in tex
    assert r"System & x\_y \\" in tex
