"""Several systems are named by the shortest ending of their paths that
tells them apart (or by --names), significant differences are marked, and
intervals and tests resting on too few documents are warned about."""

from __future__ import annotations

import pytest

from conftest import FIXTURES, run_cli
from test_systems import write_systems

from corefud_scorer.cli.names import short_names, split_names
from corefud_scorer.jobs.comparison import Resampling, few_documents
from corefud_scorer.jobs.significance import TRUSTWORTHY_DOCUMENTS

EXAMPLE = FIXTURES / "example"
KEY, RESPONSE = EXAMPLE / "key.conllu", EXAMPLE / "response.conllu"


@pytest.mark.parametrize("paths, names", [
    (["runs/one.conllu", "runs/two.conllu"], ["one.conllu", "two.conllu"]),
    (["a/x/sys.conllu", "b/x/sys.conllu", "c/y/sys.conllu"], ["a/x/sys.conllu", "b/x/sys.conllu", "y/sys.conllu"]),
    (["/data/exp/sys", "exp/sys", "other/sys"], ["/data/exp/sys", "exp/sys", "other/sys"]),
    (["./out/sys/", "out/base/"], ["sys", "base"]),
    (["-", "x.conllu"], ["-", "x.conllu"]),
    (["only/one.conllu"], ["one.conllu"]),
])
def test_shortest_distinct_endings(paths, names):
    assert short_names(paths) == names


def test_names_with_commas_survive_the_round_trip():
    assert split_names("A, B,C") == ["A", "B", "C"]
    assert split_names("a\\, b,c") == ["a, b", "c"]


def test_text_and_json_name_systems_by_their_endings(tmp_path):
    for folder in ("run1", "run2"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "sys.conllu").write_bytes(RESPONSE.read_bytes())
    (tmp_path / "run2" / "sys.conllu").write_bytes(KEY.read_bytes())
    files = [tmp_path / "run1" / "sys.conllu", tmp_path / "run2" / "sys.conllu"]
    text = run_cli(KEY, *files, "-m", "muc", "-q").out.splitlines()
    assert [line.split()[:2] for line in text[4:6]] == [["muc", "run1/sys.conllu"], ["muc", "run2/sys.conllu"]]
    assert max(len(line) for line in text[3:6]) < 80
    data = run_cli(KEY, *files, "-m", "muc", "--output", "json", "-q").json
    assert [s["name"] for s in data["systems"]] == ["run1/sys.conllu", "run2/sys.conllu"]
    assert [s["settings"]["response_file"] for s in data["systems"]] == [str(f) for f in files]
    named = run_cli(KEY, *files, "-m", "muc", "--names", "baseline,big model", "--paired-bs", "100",
                    "--output", "json", "-q").json
    assert [s["name"] for s in named["systems"]] == ["baseline", "big model"]
    assert set(named["tests"]["muc"]) == {"big model"}


@pytest.mark.parametrize("names, message", [
    ("a", "--names gives 1 name for 2 systems: one per response, separated by commas"),
    ("a,b,c", "--names gives 3 names for 2 systems"),
    ("a,a", "--names: a is given twice: each system its own name"),
    ("a,", "--names: a name is empty"),
])
def test_bad_names_are_one_line(names, message):
    run = run_cli(KEY, RESPONSE, KEY, "--names", names)
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines()[-1].startswith("corefud-scorer: error: " + message)


def test_bench_names_folders_by_their_last_component(tmp_path):
    other = tmp_path / "deep" / "sys"
    other.mkdir(parents=True)
    for path in (FIXTURES / "bench" / "sys").iterdir():
        (other / path.name).write_bytes(path.read_bytes())
    data = run_cli("bench", FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys", other, "--output", "json",
                   "-q", "-m", "muc").json
    assert [s["name"] for s in data["systems"]] == ["bench/sys", "deep/sys"]
    run = run_cli("bench", FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys", other, "--names", "A,B", "-q",
                  "-m", "muc")
    assert [line.split()[1] for line in run.out.splitlines()[1:3]] == ["A", "B"]


def test_a_significant_difference_is_marked_and_explained():
    text = run_cli(KEY, RESPONSE, KEY, "-m", "muc", "--paired-bs", "200", "-q").out.splitlines()
    assert text[5].split()[-1] == "0.0050*"  # 1/201: the key itself is better on every sample
    assert text[-2] == "* p < 0.05: the difference from the baseline (response.conllu) is significant at the 0.05 level"


def test_no_mark_where_the_difference_is_not_significant(tmp_path):
    copy = tmp_path / "copy.conllu"
    copy.write_bytes(RESPONSE.read_bytes())
    text = run_cli(KEY, RESPONSE, copy, "-m", "muc", "--paired-ar", "200", "-q").out
    row = [line for line in text.splitlines() if line.startswith("muc") and "copy.conllu" in line][0]
    assert row.split()[-1] == "1.0000" and "*" not in row
    assert "* p < 0.05" in text  # the legend stands with every test


# --- too few documents ---

def test_few_documents_are_warned_about_on_stderr_and_in_json():
    run = run_cli(KEY, RESPONSE, KEY, "-m", "muc", "--paired-bs", "100", "--confidence", "100")
    warning = ("corefud-scorer: warning: the intervals and the test rest on 2 documents, fewer than 30: "
               "too few to trust")
    assert any(line.startswith(warning) for line in run.err.splitlines())
    data = run_cli(KEY, RESPONSE, KEY, "-m", "muc", "--paired-bs", "100", "--output", "json", "-q").json
    assert any(w.startswith("the test rests on 2 documents") for w in data["warnings"])
    one = run_cli(KEY, RESPONSE, "--confidence", "100", "--output", "json", "-q").json
    assert any(w.startswith("the intervals rest on 2 documents") for w in one["warnings"])
    quiet = run_cli(KEY, RESPONSE, KEY, "-m", "muc", "--paired-bs", "100", "-q")
    assert quiet.err == ""
    assert "warning" not in run_cli(KEY, RESPONSE, KEY, "-m", "muc").err  # nothing resampled, nothing said


def test_enough_documents_give_no_warning(tmp_path):
    g = write_systems(tmp_path, seed=5, docs=TRUSTWORTHY_DOCUMENTS, tokens=6)
    run = run_cli(g["gold"], g["base"], "-m", "muc", "--confidence", "50", "-j", "1", "--output", "json")
    assert run.code == 0 and "fewer than" not in run.err
    assert run.json["warnings"] == []


def test_bench_names_the_small_datasets():
    run = run_cli("bench", FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys", "-m", "muc", "--confidence", "50")
    assert ("corefud-scorer: warning: the intervals are resampled within datasets of fewer than 30 documents "
            "(cs_toy 2, el_toy 1, hi_toy 1 and 1 more): too few to trust") in run.err


def test_the_threshold_counts_per_group():
    asked = Resampling(confidence=100)
    assert few_documents(asked, [29]).startswith("the intervals rest on 29 documents, fewer than 30")
    assert few_documents(asked, [30]) is None
    assert few_documents(Resampling(), [2]) is None
    assert few_documents(Resampling(paired_ar=10), [40, 3], ["big", "small"]) == (
        "the test is resampled within datasets of fewer than 30 documents (small 3): too few to trust: resampling "
        "so few documents understates the variation (intervals too narrow, p-values too small)")
