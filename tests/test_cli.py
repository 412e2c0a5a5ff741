"""The command line: 1.2's text byte for byte, the JSON contract, flags."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from corefud_scorer import __version__
from conftest import FIXTURES, ROOT, run_cli

EXAMPLE = FIXTURES / "example"
KEY, RESPONSE = EXAMPLE / "key.conllu", EXAMPLE / "response.conllu"


@pytest.mark.parametrize("flags, expected", [
    (["-a", "head", "-s"], "expected.head-s.txt"),
    (["-a", "partial", "-z", "linear"], "expected.partial-linear.txt"),
    (["-x", "-m", "muc", "ceafe", "lea", "bcub"], "expected.exact-4metrics.txt"),
])
def test_text_output_is_scorer_1_2s(flags, expected):
    # The expected files are what corefud-scorer.py 1.2 printed for these calls.
    run = run_cli(KEY, RESPONSE, *flags)
    assert run.code == 0, run.err
    assert run.out == (EXAMPLE / expected).read_text(encoding="utf-8")


def test_json_output_carries_fractions_counts_and_settings():
    run = run_cli(KEY, RESPONSE, "-a", "head", "-s", "--output", "json")
    assert run.code == 0
    data = run.json
    metrics = data["metrics"]
    assert list(metrics) == ["muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero", "conll"]
    # MUC 57.14 / 66.67 in the text output: 4/7 and 4/6.
    assert metrics["muc"]["recall"] == pytest.approx(4 / 7, abs=1e-15)
    assert metrics["muc"]["counts"] == {"recall_num": 4.0, "recall_den": 7.0,
                                        "precision_num": 4.0, "precision_den": 6.0}
    conll = (metrics["muc"]["f1"] + metrics["bcub"]["f1"] + metrics["ceafe"]["f1"]) / 3
    assert metrics["conll"]["f1"] == pytest.approx(conll, abs=1e-15)
    blanc = metrics["blanc"]
    assert blanc["recall"] == pytest.approx(
        (blanc["parts"]["coreference"]["recall"] + blanc["parts"]["non_coreference"]["recall"]) / 2)
    settings = data["settings"]
    assert settings["match"] == "head" and settings["keep_singletons"] is True
    assert settings["zero_match_method"] == "dependent"
    assert settings["key_sha256"] == hashlib.sha256(KEY.read_bytes()).hexdigest()
    assert settings["udapi_version"]
    assert data["documents"] == 2


def test_zero_score_without_zeros_is_not_applicable(write):
    key = write("k.conllu", (FIXTURES / "seed" / "pradhan2014.key.conllu").read_text())
    run = run_cli(key, key, "--output", "json")
    zero = run.json["metrics"]["zero"]
    assert zero["recall"] is zero["precision"] is zero["f1"] is None
    assert zero["counts"] == {"recall_num": 0, "recall_den": 0, "precision_num": 0, "precision_den": 0}
    text = run_cli(key, key, "-m", "zero")
    assert text.out.splitlines()[-1].startswith("Recall: n/a  Precision: n/a  F1: n/a")


def test_exact_flag_is_exact_match_and_contradicts_other_modes():
    assert run_cli(KEY, RESPONSE, "-x").out == run_cli(KEY, RESPONSE, "-a", "exact").out
    assert run_cli(KEY, RESPONSE, "-x", "-a", "exact").out == run_cli(KEY, RESPONSE, "-a", "exact").out
    clash = run_cli(KEY, RESPONSE, "-x", "-a", "partial")
    assert clash.code == 2 and clash.out == "" and "-x/--exact-match contradicts -a partial" in clash.err


def test_conll_score_needs_its_three_metrics():
    run = run_cli(KEY, RESPONSE, "-m", "muc", "bcub")
    assert "CoNLL score" not in run.out
    assert run.out.splitlines()[1] == "The following metrics will be evaluated: muc, bcub"


def test_mention_metric_is_available_but_not_in_all():
    run = run_cli(KEY, RESPONSE, "-m", "mention", "--output", "json")
    assert set(run.json["metrics"]) == {"mention"}
    assert "mention" not in run_cli(KEY, RESPONSE, "--output", "json").json["metrics"]


def test_version_and_bad_flag():
    version = run_cli("--version")
    assert version.code == 0 and version.out.strip() == f"corefud-scorer {__version__}"
    bad = run_cli(KEY, RESPONSE, "-a", "fuzzy")
    assert bad.code == 2 and "usage:" in bad.err and bad.out == ""


def test_module_and_console_entry_points_run():
    done = subprocess.run([sys.executable, "-m", "corefud_scorer", str(KEY), str(RESPONSE), "-a", "head", "-s"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0
    assert done.stdout == (EXAMPLE / "expected.head-s.txt").read_text(encoding="utf-8")


def test_api_scores_loaded_documents_as_it_scores_paths():
    from corefud_scorer import Options, score, score_documents
    from corefud_scorer.formats.readers.corefud import read_file

    options = Options(match="head", keep_singletons=True)
    from_paths = score(str(KEY), str(RESPONSE), options)
    loaded = score_documents(read_file(str(KEY)), read_file(str(RESPONSE)), options)
    assert {n: m.counts for n, m in loaded.metrics.items()} == {n: m.counts for n, m in from_paths.metrics.items()}
    assert loaded.conll == from_paths.conll


def test_the_progress_bar_counts_the_documents_of_every_format(tmp_path):
    # Its total comes from a quick scan for the lines each reader opens a
    # document with; it must agree with what the reader reads.
    import gzip

    from corefud_scorer.jobs.convert import convert
    from corefud_scorer.formats.readers import count_documents, detect_format, read_documents

    files = [FIXTURES / "example" / "key.conllu", FIXTURES / "anaphora" / "station.key.ua.conllu",
             FIXTURES / "seed" / "pradhan2014.key.conll"]
    jsonl = tmp_path / "key.jsonl"
    convert(str(files[0]), str(jsonl))
    packed = tmp_path / "key.conllu.gz"
    packed.write_bytes(gzip.compress(files[0].read_bytes()))
    for path in [*files, jsonl, packed]:
        fmt = detect_format(str(path))
        assert count_documents(str(path)) == len(list(read_documents(str(path), "key", fmt))), path
