"""Several systems in one call, intervals and tests from the command line:
the same figures as one call per system, the JSON layout, the signature,
and the key read once."""

from __future__ import annotations

import os
import re
import sys

import pytest

from corefud_scorer import Options, score
from corefud_scorer.api import score_systems
from corefud_scorer.measures.registry import CONLL_SCORE as CONLL
from corefud_scorer.jobs.significance import approximate_randomization, paired_bootstrap
from corefud_scorer.jobs.stacked import Statistics

from conftest import FIXTURES, ROOT, run_cli
from schema import validate_bench, validate_result

sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402

EXAMPLE = FIXTURES / "example"
KEY, RESPONSE = EXAMPLE / "key.conllu", EXAMPLE / "response.conllu"
CRAC = ["-m", "muc", "bcub", "ceafe", "zero"]


def _documents(text: str) -> list[str]:
    return [part for part in re.split(r"(?m)^(?=# newdoc)", text) if part]


def write_systems(folder, seed=21, docs=16, tokens=60, name="en_test-corefud-dev.conllu"):
    """A generated key, its generated response, the key itself (a perfect
    system) and a system taking every other document from the key."""
    key, response = generate.generate_pair(seed, docs=docs, tokens_per_doc=tokens)
    mixed = "".join(k if i % 2 else r for i, (k, r) in enumerate(zip(_documents(key), _documents(response))))
    paths = {}
    for label, text in (("gold", key), ("base", response), ("perfect", key), ("mixed", mixed)):
        (folder / label).mkdir(exist_ok=True)
        paths[label] = folder / label / name
        paths[label].write_text(text, encoding="utf-8")
    return paths


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return write_systems(tmp_path_factory.mktemp("systems"))


# --- one response, nothing asked: as before ---

def test_one_response_is_unchanged_and_json_has_the_signature():
    run = run_cli(KEY, RESPONSE, "-s")
    assert run.code == 0 and run.out == (EXAMPLE / "expected.head-s.txt").read_text()
    data = run_cli(KEY, RESPONSE, "--output", "json").json
    validate_result(data)
    assert data["signature"].startswith("corefud-scorer ")
    assert data["signature"].endswith("|m:muc,bcub,ceafe,ceafm,blanc,lea,mor,zero|test:none|seed:12345")


def test_width_and_score_only():
    run = run_cli(KEY, RESPONSE, "-s", "-w", "3")
    expected = (EXAMPLE / "expected.head-s.txt").read_text()
    assert len(run.out.splitlines()) == len(expected.splitlines())
    conll = float(re.search(r"CoNLL score: (\S+)", expected).group(1))
    printed = re.search(r"CoNLL score: (\d+\.(\d+))", run.out)
    assert len(printed.group(2)) == 3 and abs(float(printed.group(1)) - conll) <= 0.005
    only = run_cli(KEY, RESPONSE, "-s", "-b", "-w", "4")
    result = score(KEY, RESPONSE, Options(keep_singletons=True))
    assert only.out == "%.4f\n" % (result.conll * 100)
    assert run_cli(KEY, RESPONSE, KEY, "-b", "-m", "muc").out == "%.2f\n100.00\n" % (
        score(KEY, RESPONSE, Options(metrics="muc")).metrics["muc"].f1 * 100)
    # Without the CoNLL score, the first measure asked for: an agreement
    # coefficient's value, the same figure a plot and the error analysis use.
    alpha = score(KEY, RESPONSE, Options(metrics=["alpha", "muc"])).metrics["alpha"].value
    assert run_cli(KEY, RESPONSE, "-b", "-m", "alpha", "muc").out == "%.2f\n" % (alpha * 100)
    from corefud_scorer.render.plot import primary_score
    assert primary_score(score(KEY, RESPONSE, Options(metrics=["alpha", "muc"]))) == ("alpha", alpha)
    assert primary_score(score(KEY, RESPONSE, Options(metrics=["muc", "alpha"])))[0] == "muc F1"


# --- several systems ---

def test_several_systems_give_each_the_figures_of_its_own_call(generated):
    g = generated
    run = run_cli(g["gold"], g["base"], g["perfect"], g["mixed"], *CRAC, "--paired-bs", "--output", "json", "-q",
                  "-j", "2")
    assert run.code == 0, run.err
    data = run.json
    # Each named by the shortest ending of its path that tells it apart.
    named = {f"{k}/{g[k].name}": g[k] for k in ("base", "perfect", "mixed")}
    assert [s["name"] for s in data["systems"]] == list(named)
    for entry in data["systems"]:
        alone = run_cli(g["gold"], named[entry["name"]], *CRAC, "--output", "json", "-q", "-j", "1").json
        validate_result(entry)
        assert {k: v for k, v in entry.items() if k != "name"} == {k: v for k, v in alone.items() if k != "signature"}
    assert set(data["tests"]) == {"muc", "bcub", "ceafe", "zero", CONLL}
    for metric, by_system in data["tests"].items():
        assert list(by_system) == list(named)[1:]
        base = data["systems"][0]["metrics"][metric]["f1"]
        for entry in data["systems"][1:]:
            test = by_system[entry["name"]]
            assert test["difference"] == entry["metrics"][metric]["f1"] - base
            low, high = test["interval"]
            assert low <= test["difference"] <= high
    # The key itself against its generated response, over 16 documents.
    assert data["tests"][CONLL][f"perfect/{g['perfect'].name}"]["p_value"] < 0.01
    assert data["signature"].endswith("|m:muc,bcub,ceafe,zero|test:bs-1000|seed:12345")


def test_command_line_tests_are_those_of_the_library(generated):
    g = generated
    run = run_cli(g["gold"], g["base"], g["mixed"], *CRAC, "--paired-ar", "3000", "--seed", "7",
                  "--output", "json", "-q", "-j", "1")
    options = Options(metrics=tuple(CRAC[1:]))
    results = [score(g["gold"], g[k], options) for k in ("base", "mixed")]
    stats = Statistics.from_documents([[r.documents] for r in results], options.metric_list)
    (expected,) = approximate_randomization(stats, 3000, seed=7)
    for name, test in expected.items():
        got = run.json["tests"][name][f"mixed/{g['mixed'].name}"]
        assert got == {"difference": test.difference, "interval": list(test.interval), "p_value": test.p_value}
    # Every other document is the key's: better.
    assert expected[CONLL].difference > 0 and expected[CONLL].p_value < 1


def test_text_table_has_a_row_per_system_and_the_signature(generated):
    g = generated
    run = run_cli(g["gold"], g["base"], g["perfect"], *CRAC, "--paired-ar", "500", "--confidence", "200", "-q",
                  "-j", "1")
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0].startswith("The scorer is evaluating") and lines[2] == ""
    table = lines[3:lines.index("", 3)]
    assert table[0].split()[:2] == ["metric", "system"] and "p-value" in table[0]
    body = table[1:]
    assert [row.split()[0] for row in body] == [m for m in ("muc", "bcub", "ceafe", "zero", CONLL) for _ in (0, 1)]
    assert all(row.split()[1] == f"{'base' if k % 2 == 0 else 'perfect'}/{g['base'].name}" for k, row in enumerate(body))
    assert all("baseline" in row for row in body[::2])
    perfect_muc = body[1]
    # 1/501, significant: marked as sacreBLEU marks it, the mark explained below.
    assert "100.00 [100.00, 100.00]" in perfect_muc and perfect_muc.endswith("0.0020*")
    assert lines[-2] == f"* p < 0.05: the difference from the baseline (base/{g['base'].name}) is significant at the 0.05 level"
    assert lines[-1].startswith("Signature: corefud-scorer ") and \
        lines[-1].endswith("|test:ar-500|ci:95%-200|seed:12345")


def test_confidence_for_one_system_adds_intervals_to_the_json():
    data = run_cli(KEY, RESPONSE, "--confidence", "300", "--output", "json").json
    validate_result(data)
    for name, metric in data["metrics"].items():
        assert metric["interval"][0] <= metric["interval"][1]
        if name != CONLL:
            assert set(metric) >= {"recall_interval", "precision_interval"}
    assert "systems" not in data and "tests" not in data
    assert data["signature"].endswith("|test:none|ci:95%-300|seed:12345")


def test_the_key_is_read_and_loaded_once(generated, monkeypatch):
    from corefud_scorer.formats.readers import corefud

    loads, reads = [], []
    load, read = corefud.CorefUDDocument.load, corefud.read_documents

    def counting_load(self):
        loads.append(self.path)
        return load(self)

    def counting_read(path, side="key"):
        reads.append(str(path))
        return read(path, side)

    monkeypatch.setattr(corefud.CorefUDDocument, "load", counting_load)
    monkeypatch.setattr(corefud, "read_documents", counting_read)
    g = generated
    ((base, perfect, mixed),) = score_systems([(g["gold"], [g["base"], g["perfect"], g["mixed"]])])
    assert reads.count(str(g["gold"])) == 1
    assert loads.count(str(g["gold"])) == 16 and loads.count(str(g["mixed"])) == 16
    assert perfect.conll == 1.0 and base.conll < mixed.conll < 1.0


def test_bench_with_several_systems(tmp_path):
    first = write_systems(tmp_path, seed=31, docs=6, tokens=40, name="en_a-corefud-dev.conllu")
    write_systems(tmp_path, seed=32, docs=8, tokens=40, name="cs_b-corefud-dev.conllu")
    folders = [str(first[k].parent) for k in ("gold", "base", "perfect", "mixed")]
    run = run_cli("bench", *folders, "-t", "crac24", "--paired-bs", "--confidence", "--output", "json", "-q",
                  "-j", "2")
    assert run.code == 0, run.err
    data = run.json
    named = {os.path.basename(folder): folder for folder in folders[1:]}
    assert [s["name"] for s in data["systems"]] == ["base", "perfect", "mixed"]
    for entry in data["systems"][::2]:
        alone = run_cli("bench", folders[0], named[entry["name"]], "-t", "crac24", "--output", "json", "-q",
                        "-j", "1").json
        validate_bench(entry)
        macro = entry["macro"]["metrics"]
        for name, figure in alone["macro"]["metrics"].items():
            assert macro[name]["f1"] == figure["f1"]
            assert macro[name]["interval"][0] <= macro[name]["interval"][1]
        assert entry["datasets"] == alone["datasets"]
    perfect = data["tests"][CONLL]["perfect"]
    assert perfect["difference"] == 1.0 - data["systems"][0]["macro"]["metrics"][CONLL]["f1"]
    assert perfect["p_value"] == 1 / 1001
    text = run_cli("bench", *folders, "-m", "muc", "-q", "-j", "1").out
    assert [line.split()[:2] for line in text.splitlines()[1:4]] == [["cs_b", "base"], ["cs_b", "perfect"],
                                                                      ["cs_b", "mixed"]]
    assert "Macro-average over 2 datasets:" in text and text.splitlines()[-1].startswith("Signature: ")
    only = run_cli("bench", *folders, "-t", "crac24", "-b", "-q", "-j", "1").out.split()
    assert [float(x) for x in only] == [round(s["macro"]["metrics"][CONLL]["f1"] * 100, 2) for s in data["systems"]]


def test_bench_intervals_resample_within_datasets(tmp_path):
    first = write_systems(tmp_path, seed=41, docs=6, tokens=40, name="en_a-corefud-dev.conllu")
    write_systems(tmp_path, seed=42, docs=6, tokens=40, name="cs_b-corefud-dev.conllu")
    folders = [str(first[k].parent) for k in ("gold", "base", "mixed")]
    data = run_cli("bench", *folders, "-m", "muc", "bcub", "ceafe", "--paired-bs", "400", "--output", "json",
                   "-q", "-j", "1").json
    from corefud_scorer.jobs.bench import benchmark, pair_folders

    options = Options(metrics=("muc", "bcub", "ceafe"))
    benches = [benchmark(pair_folders(folders[0], f), options) for f in folders[1:]]
    stats = Statistics.from_documents([[r.documents for r in b.results] for b in benches], options.metric_list)
    (expected,) = paired_bootstrap(stats, 400)
    assert data["tests"][CONLL]["mixed"]["p_value"] == expected[CONLL].p_value
    assert data["tests"][CONLL]["mixed"]["interval"] == list(expected[CONLL].interval)


# --- usage errors and bad input ---

@pytest.mark.parametrize("args, message", [
    ((KEY, RESPONSE, "--paired-bs"), "--paired-bs compares systems"),
    ((KEY, RESPONSE, KEY, "--paired-bs", "--paired-ar"), "not allowed with argument"),
    ((KEY, RESPONSE, RESPONSE), "given twice"),
    ((KEY, RESPONSE, KEY, "-b", "--output", "json"), "-b/--score-only prints text"),
    ((KEY, RESPONSE, "--confidence", "0"), "must be at least 1"),
    ((KEY, RESPONSE, "-w", "11"), "at most 10 decimals"),
    (("bench", EXAMPLE, EXAMPLE, "--confidence", "--output", "csv"), "not csv"),
])
def test_usage_errors(args, message):
    run = run_cli(*args)
    assert run.code == 2 and message in run.err and run.out == ""


def test_a_response_missing_a_document_is_named(generated, tmp_path):
    g = generated
    short = tmp_path / "short.conllu"
    short.write_text("".join(_documents(g["base"].read_text(encoding="utf-8"))[:-1]), encoding="utf-8")
    run = run_cli(g["gold"], g["base"], short, "--paired-bs", "-j", "1")
    assert run.code == 2 and run.out == ""
    assert run.err.count("\n") == 1 and str(short) in run.err and "no counterpart" in run.err
