"""corefud-scorer codalab: the scoring program on a folder laid out as the
platform lays it out and on a zip gives bench's figures; a missing dataset
and a malformed file give their scores and name the problem; nothing ends
in a traceback; --bundle writes the folder to upload."""

from __future__ import annotations

import gc
import gzip
import json
import os
import re
import shlex
import shutil
import stat
import zipfile

import pytest

from conftest import FIXTURES, run_cli

KEYS, SYSTEMS = FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys"
NAMES = ["cs_toy", "el_toy", "hi_toy", "ru_toy"]
COLUMNS = {"head": ["-a", "head"], "partial": ["-a", "partial"], "exact": ["-a", "exact"],
           "with_singletons": ["-a", "head", "-s"]}


@pytest.fixture(autouse=True, scope="module")
def _frozen_heap():
    # Udapi collects garbage after each document: leave the test process's heap out of it.
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


@pytest.fixture(scope="module")
def bench():
    """Each column's macro CoNLL F1 and each dataset's head F1 from bench
    itself, and the zero score's macro-average."""
    out = {}
    for column, flags in COLUMNS.items():
        run = run_cli("bench", KEYS, SYSTEMS, *flags, "-z", "dependent", "-m", "muc", "bcub", "ceafe", "zero",
                      "--output", "json", "-q", "-j", "1")
        assert run.code == 0, run.err
        out[column] = run.json
    return out


def _platform(tmp_path, submission=SYSTEMS, nested=True):
    """``input/ref`` and ``input/res`` as the platform unpacks them: the
    submission's files in one folder (as a zip of a folder unpacks)."""
    ref = tmp_path / "input" / "ref"
    shutil.copytree(KEYS, ref)
    res = tmp_path / "input" / "res"
    shutil.copytree(submission, res / "my-submission" if nested else res)
    return tmp_path / "input", tmp_path / "output"


def _read(output):
    txt = dict(line.split(": ", 1) for line in (output / "scores.txt").read_text().splitlines())
    return {k: float(v) for k, v in txt.items()}, json.loads((output / "scores.json").read_text())


def _agrees_with_bench(txt, data, bench):
    for column in COLUMNS:
        expected = bench[column]["macro"]["metrics"]["conll"]["f1"]
        assert txt[column] == expected and data["scores"][column] == expected, column
    for entry, dataset in zip(bench["head"]["datasets"], data["datasets"]):
        assert txt[f"{entry['dataset']}_head"] == entry["metrics"]["conll"]["f1"] == dataset["head"]
    assert data["scores"]["zero"] == bench["head"]["macro"]["metrics"]["zero"]["f1"]


def test_platform_layout_gives_bench_figures(tmp_path, bench):
    input_dir, output = _platform(tmp_path)
    run = run_cli("codalab", input_dir, output, "-t", "crac26")
    assert run.code == 0 and run.err == ""
    txt, data = _read(output)
    _agrees_with_bench(txt, data, bench)
    assert data["problems"] == [] and {d["status"] for d in data["datasets"]} == {"scored"}
    # what the scorer warns about is shown, files by name only
    assert data["datasets"][1]["warnings"] == [
        "response el_toy-corefud-dev.conllu: Udapi: etype mismatch in <node>: 2 "
        "(first: etype mismatch in <el_toy-d1-1#5, σκύλο>: p != a (line 8))"]
    page = (output / "detailed_results.html").read_text()
    assert "Every dataset was scored." in page and "<td>ru_toy</td><td>scored</td><td>50.00</td>" in page


def test_a_zip_gives_the_same_files(tmp_path, bench):
    input_dir, output = _platform(tmp_path / "folder", nested=False)
    assert run_cli("codalab", input_dir, output, "-t", "crac26").code == 0
    (tmp_path / "input" / "res").mkdir(parents=True)
    shutil.copytree(KEYS, tmp_path / "input" / "ref")
    with zipfile.ZipFile(tmp_path / "input" / "res" / "submission.zip", "w") as archive:
        for path in sorted(SYSTEMS.iterdir()):
            archive.write(path, f"out/{path.name}")
    run = run_cli("codalab", tmp_path / "input", tmp_path / "output", "-t", "crac26")
    assert run.code == 0, run.err
    assert (tmp_path / "output" / "scores.txt").read_text() == (output / "scores.txt").read_text()
    assert (tmp_path / "output" / "scores.json").read_text() == (output / "scores.json").read_text()
    _agrees_with_bench(*_read(tmp_path / "output"), bench)


def test_missing_dataset_and_malformed_file_count_zero_and_are_named(tmp_path, bench):
    submission = tmp_path / "submission"
    shutil.copytree(SYSTEMS, submission)
    (submission / "hi_toy-corefud-dev.conllu").unlink()
    lines = (submission / "ru_toy-corefud-dev.conllu").read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    lines[at] = "1\tbroken\n"
    (submission / "ru_toy-corefud-dev.conllu").write_text("".join(lines))
    (submission / "xx_other-corefud-dev.conllu").write_text("")
    input_dir, output = _platform(tmp_path, submission)
    run = run_cli("codalab", input_dir, output, "-t", "crac26")
    assert run.code == 0 and "Traceback" not in run.err
    txt, data = _read(output)
    heads = {d["dataset"]: d["metrics"]["conll"]["f1"] for d in bench["head"]["datasets"]}
    # the two scored datasets as bench scores them, the other two as 0, over four
    assert txt["head"] == (heads["cs_toy"] + heads["el_toy"] + 0.0 + 0.0) / 4
    singletons = {d["dataset"]: d["metrics"]["conll"]["f1"] for d in bench["with_singletons"]["datasets"]}
    assert txt["with_singletons"] == (singletons["cs_toy"] + singletons["el_toy"]) / 4
    assert txt["hi_toy_head"] == 0.0 and txt["ru_toy_head"] == 0.0 and "zero" not in txt
    status = {d["dataset"]: (d["status"], d["problem"]) for d in data["datasets"]}
    assert status["hi_toy"][0] == "missing" and "hi_toy-corefud-dev.conllu" in status["hi_toy"][1]
    assert status["ru_toy"][0] == "malformed"
    assert f"ru_toy-corefud-dev.conllu:{at + 1}: expected 10 tab-separated columns" in status["ru_toy"][1]
    assert str(tmp_path) not in status["ru_toy"][1]
    assert any("xx_other-corefud-dev.conllu" in p for p in data["problems"])
    assert len(data["problems"]) == 3 and len(run.err.splitlines()) == 3
    page = (output / "detailed_results.html").read_text()
    assert "no file in the submission" in page and "expected 10 tab-separated columns" in page


@pytest.mark.parametrize("gold, flags, message", [
    (None, [], "nowhere: no gold folder 'ref'"),
    ({"notes.txt": "x"}, [], "ref: no gold file of a format the scorer reads"),
    # a CRAC preset matches heads, which CoNLL-2012 files do not have
    ({"toy.conll": (FIXTURES / "seed" / "pradhan2014.key.conll")}, ["-t", "crac26"],
     "toy.conll: the head column cannot score this gold file"),
])
def test_what_the_gold_folder_lacks_is_one_line_and_no_score(tmp_path, gold, flags, message):
    """The program's own setup, not the submission: no 0.0 on the
    leaderboard and exit code 0, but one line and 2, nothing written."""
    input_dir = tmp_path / "nowhere"
    if gold is not None:
        (input_dir / "ref").mkdir(parents=True)
        for name, content in gold.items():
            target = input_dir / "ref" / name
            target.write_text(content) if isinstance(content, str) else shutil.copy(content, target)
        shutil.copytree(input_dir / "ref", input_dir / "res")
    run = run_cli("codalab", input_dir, tmp_path / "out", *flags)
    assert run.code == 2 and run.out == "" and len(run.err.splitlines()) == 1, run.err
    assert run.err.startswith("corefud-scorer: error: ") and message in run.err
    assert list((tmp_path / "out").iterdir()) == []


def test_an_unexpected_failure_is_named_not_a_traceback(tmp_path, monkeypatch):
    from corefud_scorer.jobs import codalab

    def fails(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(codalab, "evaluate", fails)
    input_dir, output = _platform(tmp_path)
    run = run_cli("codalab", input_dir, output)
    assert run.code == 0 and "the scorer failed: RuntimeError: a bug" in run.err
    assert json.loads((output / "scores.json").read_text())["error"] == "the scorer failed: RuntimeError: a bug"


def test_an_output_folder_that_cannot_be_made_is_one_error_line(tmp_path):
    (tmp_path / "file").write_text("")
    run = run_cli("codalab", tmp_path, tmp_path / "file" / "out")
    assert run.code == 2 and len(run.err.splitlines()) == 1 and "cannot create the output folder" in run.err


def test_bundle_writes_metadata_whose_command_runs(tmp_path, bench):
    run = run_cli("codalab", "--bundle", tmp_path / "program", "-t", "crac26")
    assert run.code == 0
    metadata = (tmp_path / "program" / "metadata").read_text()
    assert metadata.startswith("command: python3 -m corefud_scorer codalab -t crac26 $input $output\n")
    assert "scores.txt" in (tmp_path / "program" / "README.md").read_text()
    input_dir, output = _platform(tmp_path)
    words = shlex.split(metadata.splitlines()[0].split(": ", 1)[1])
    argv = [str(input_dir) if w == "$input" else str(output) if w == "$output" else w for w in words[3:]]
    assert run_cli(*argv).code == 0
    _agrees_with_bench(*_read(output), bench)
    assert run_cli("codalab", "--bundle", tmp_path / "p", tmp_path, tmp_path).code == 2


def test_a_missing_dataset_counts_zero_in_the_zero_score_where_its_key_has_zeros(tmp_path):
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "bench"))
    import generate

    ref, res = tmp_path / "input" / "ref", tmp_path / "input" / "res"
    ref.mkdir(parents=True)
    res.mkdir()
    for seed, name in ((51, "en_a-corefud-test.conllu"), (52, "cs_b-corefud-test.conllu")):
        generate.write_pair(str(ref / name), str(tmp_path / name), seed, docs=3, tokens_per_doc=60, zeros=0.1)
    shutil.copy(tmp_path / "en_a-corefud-test.conllu", res)
    run = run_cli("codalab", tmp_path / "input", tmp_path / "output", "-t", "crac26")
    assert run.code == 0 and "dataset cs_b: no file in the submission" in run.err
    txt, data = _read(tmp_path / "output")
    alone = run_cli(ref / "en_a-corefud-test.conllu", tmp_path / "en_a-corefud-test.conllu", "-t", "crac26",
                    "--output", "json", "-q", "-j", "1").json
    zero = alone["metrics"]["zero"]["f1"]
    assert zero is not None and 0 < zero < 1
    # the datasets in file-name order: cs_b (missing: 0, its key has zeros), then en_a
    assert txt["zero"] == data["scores"]["zero"] == (0.0 + zero) / 2
    assert txt["head"] == (0.0 + alone["metrics"]["conll"]["f1"]) / 2
    assert [d["zero"] for d in data["datasets"]] == [0.0, zero]


def _generated_platform(tmp_path):
    """Two generated datasets whose keys carry empty nodes (zeros) and whose
    responses miss, move and add some, laid out as the platform lays them out."""
    import sys

    from conftest import ROOT

    sys.path.insert(0, str(ROOT / "bench"))
    import generate

    ref, res, sys_dir = tmp_path / "input" / "ref", tmp_path / "input" / "res", tmp_path / "sys"
    for folder in (ref, res, sys_dir):
        folder.mkdir(parents=True)
    for seed, name in ((61, "en_a-corefud-test.conllu"), (62, "cs_b-corefud-test.conllu")):
        generate.write_pair(str(ref / name), str(sys_dir / name), seed, docs=3, tokens_per_doc=60, zeros=0.1)
        shutil.copy(sys_dir / name, res)
    return ref, res, sys_dir


def test_empty_nodes_are_scored_when_asked(tmp_path):
    ref, res, sys_dir = _generated_platform(tmp_path)
    run = run_cli("codalab", tmp_path / "input", tmp_path / "output", "-t", "crac26", "-m", "empty-nodes")
    assert run.code == 0 and run.err == "", run.err
    txt, data = _read(tmp_path / "output")
    bench = run_cli("bench", ref, sys_dir, "-a", "head", "-z", "dependent", "-m", "muc", "bcub", "ceafe", "zero",
                    "empty-nodes", "--output", "json", "-q", "-j", "1").json
    expected = bench["macro"]["metrics"]["empty-nodes"]["f1"]
    assert 0 < expected < 1
    assert txt["empty-nodes"] == data["scores"]["empty-nodes"] == expected
    macro = bench["macro"]["metrics"]
    assert txt["head"] == macro["conll"]["f1"] and txt["zero"] == macro["zero"]["f1"]
    assert [d["empty-nodes"] for d in data["datasets"]] == \
        [d["metrics"]["empty-nodes"]["f1"] for d in bench["datasets"]]
    assert "<th>empty-nodes</th>" in (tmp_path / "output" / "detailed_results.html").read_text()
    # not asked: no line, and the other figures unchanged
    assert run_cli("codalab", tmp_path / "input", tmp_path / "plain", "-t", "crac26").code == 0
    plain, plain_data = _read(tmp_path / "plain")
    assert "empty-nodes" not in plain and "empty-nodes" not in plain_data["scores"]
    assert {k: v for k, v in txt.items() if k != "empty-nodes"} == plain
    # a missing dataset counts 0 (its key has empty nodes)
    (res / "cs_b-corefud-test.conllu").unlink()
    assert run_cli("codalab", tmp_path / "input", tmp_path / "missing", "-t", "crac26", "-m", "empty-nodes",
                   "-q").code == 0
    missing, _ = _read(tmp_path / "missing")
    en = next(d for d in bench["datasets"] if d["dataset"] == "en_a")["metrics"]["empty-nodes"]["f1"]
    assert missing["empty-nodes"] == (0.0 + en) / 2
    # the bundle's command asks for them too, and runs
    assert run_cli("codalab", "--bundle", tmp_path / "program", "-t", "crac26", "-m", "empty-nodes").code == 0
    metadata = (tmp_path / "program" / "metadata").read_text()
    assert metadata.startswith("command: python3 -m corefud_scorer codalab -t crac26 $input $output -m empty-nodes\n")
    assert "`empty-nodes`" in (tmp_path / "program" / "README.md").read_text()
    shutil.copy(sys_dir / "cs_b-corefud-test.conllu", res)
    words = shlex.split(metadata.splitlines()[0].split(": ", 1)[1])
    argv = [str(tmp_path / "input") if w == "$input" else str(tmp_path / "bundled") if w == "$output" else w
            for w in words[3:]]
    assert run_cli(*argv).code == 0 and _read(tmp_path / "bundled")[0] == txt


def test_a_measure_without_f1_is_refused_in_one_line(tmp_path):
    run = run_cli("codalab", tmp_path / "in", tmp_path / "out", "-m", "alpha")
    assert run.code == 2 and "-m alpha: is one number, not an F1" in run.err and not (tmp_path / "out").exists()


def test_a_malformed_file_lists_every_problem_validation_finds(tmp_path):
    submission = tmp_path / "submission"
    shutil.copytree(SYSTEMS, submission)
    path = submission / "ru_toy-corefud-dev.conllu"
    lines = path.read_text().splitlines(keepends=True)
    words = [i for i, line in enumerate(lines) if line[:1].isdigit() and "." not in line.split("\t")[0]]
    # one problem in each of its three documents
    planted = {words[0]: "columns", words[8]: "word-form", words[-1]: "brackets"}
    lines[words[0]] = "1\tbroken\n"
    cells = lines[words[8]].split("\t")
    lines[words[8]] = "\t".join([cells[0], "NOTAWORD", *cells[2:]])
    cells = lines[words[-1]].split("\t")
    lines[words[-1]] = "\t".join([*cells[:9], "Entity=(e99\n"])
    path.write_text("".join(lines))
    input_dir, output = _platform(tmp_path, submission)
    run = run_cli("codalab", input_dir, output, "-t", "crac26")
    assert run.code == 0 and "Traceback" not in run.err
    txt, data = _read(output)
    status = {d["dataset"]: d for d in data["datasets"]}
    assert [status[n]["status"] for n in NAMES] == ["scored", "scored", "scored", "malformed"]
    assert txt["cs_toy_head"] > 0 and txt["ru_toy_head"] == 0.0
    found = status["ru_toy"]["validation"]
    # each planted problem, at its line, with what to do
    for at, kind in planted.items():
        assert any(p["line"] == at + 1 and p["kind"] == kind and p["hint"] for p in found), (at + 1, kind)
    assert all(p["file"] == "ru_toy-corefud-dev.conllu" for p in found)
    # the same list validate gives
    checked = run_cli("validate", path, "--key", KEYS / "ru_toy-corefud-dev.conllu", "--output", "json").json
    assert [(p["line"], p["kind"], p["message"]) for p in found if p["severity"] == "error"] == \
        [(p["line"], p["kind"], p["message"]) for p in checked["problems"]]
    assert f"({len(found)} problems found in the file, each listed)" in status["ru_toy"]["problem"]
    page = (output / "detailed_results.html").read_text()
    assert f"Every problem found in ru_toy-corefud-dev.conllu ({len(found)})" in page
    for p in found:
        assert f"<code>ru_toy-corefud-dev.conllu:{p['line']}</code>" in page
    assert "NOTAWORD" in page and "to do: " in page
    assert str(tmp_path) not in (output / "scores.json").read_text() + page


def _release_named(tmp_path):
    """A UA dataset and a CorefUD one under the names releases give them
    (upper case, gzip), the UA response merging two of the key's entities."""
    ref, res, plain = tmp_path / "in" / "ref", tmp_path / "in" / "res", tmp_path / "plain"
    for folder in (ref, res, plain):
        folder.mkdir(parents=True)
    key = (FIXTURES / "anaphora" / "station.key.ua.conllu").read_text()
    at = key.rindex("EntityID=4")
    (plain / "station.key.ua.conllu").write_text(key)
    (plain / "station.response.ua.conllu").write_text(key[:at] + "EntityID=1" + key[at + len("EntityID=4"):])
    shutil.copy(KEYS / "cs_toy-corefud-dev.conllu", plain / "cs.key.conllu")
    shutil.copy(SYSTEMS / "cs_toy-corefud-dev.conllu", plain / "cs.response.conllu")
    (ref / "station.CONLLUA.gz").write_bytes(gzip.compress((plain / "station.key.ua.conllu").read_bytes()))
    (res / "station.conllua").write_bytes((plain / "station.response.ua.conllu").read_bytes())
    shutil.copy(plain / "cs.key.conllu", ref / "cs_toy-corefud-dev.CONLLU")
    (res / "cs_toy-corefud-dev.Conllu.gz").write_bytes(gzip.compress((plain / "cs.response.conllu").read_bytes()))
    return tmp_path / "in", plain


def test_files_of_every_format_and_release_name_are_scored_as_single_pairs(tmp_path):
    input_dir, plain = _release_named(tmp_path)
    run = run_cli("codalab", input_dir, tmp_path / "out")
    assert run.code == 0 and run.err == "", run.err
    txt, data = _read(tmp_path / "out")
    assert [(d["dataset"], d["status"]) for d in data["datasets"]] == [("cs_toy", "scored"), ("station", "scored")]
    pairs = {"cs_toy": ("cs.key.conllu", "cs.response.conllu"),
             "station": ("station.key.ua.conllu", "station.response.ua.conllu")}
    for dataset in data["datasets"]:
        key, response = pairs[dataset["dataset"]]
        for column, flags in COLUMNS.items():
            pair = run_cli(plain / key, plain / response, *flags, "-m", "muc", "bcub", "ceafe", "--output", "json")
            assert pair.code == 0, pair.err
            assert dataset[column] == pair.json["metrics"]["conll"]["f1"], (dataset["dataset"], column)
    assert 0 < txt["station_head"] < 1


def test_outputs_and_bundle_are_readable_by_other_users(tmp_path):
    input_dir, _ = _release_named(tmp_path)
    saved = os.umask(0o022)
    try:
        assert run_cli("codalab", input_dir, tmp_path / "out").code == 0
        assert run_cli("codalab", "--bundle", tmp_path / "program").code == 0
    finally:
        os.umask(saved)
    written = [*(tmp_path / "out").iterdir(), *(tmp_path / "program").iterdir()]
    assert sorted(p.name for p in written) == ["README.md", "detailed_results.html", "metadata", "scores.json",
                                               "scores.txt"]
    assert {oct(stat.S_IMODE(p.stat().st_mode)) for p in written} == {"0o644"}


def test_the_page_shows_what_scores_txt_counts_for_every_dataset(tmp_path):
    submission = tmp_path / "submission"
    shutil.copytree(SYSTEMS, submission)
    (submission / "hi_toy-corefud-dev.conllu").unlink()
    (submission / "ru_toy-corefud-dev.conllu").write_text("1\tbroken\n")
    input_dir, output = _platform(tmp_path, submission)
    assert run_cli("codalab", input_dir, output, "-t", "crac26").code == 0
    txt, data = _read(output)
    page = (output / "detailed_results.html").read_text()
    rows = {name: (status, head) for name, status, head
            in re.findall(r"<tr><td>([^<]+)</td><td>(.*?)</td><td>([^<]+)</td>", page)}
    for name in NAMES:
        assert rows[name][1] == f"{txt[f'{name}_head'] * 100:.2f}", name
    assert "malformed: counts 0" in rows["ru_toy"][0] and "missing: counts 0" in rows["hi_toy"][0]
    assert rows["ru_toy"][1] == rows["hi_toy"][1] == "0.00" and data["datasets"][3]["status"] == "malformed"


def test_the_bundle_says_how_to_install_the_scorer(tmp_path):
    assert run_cli("codalab", "--bundle", tmp_path / "program").code == 0
    readme = (tmp_path / "program" / "README.md").read_text()
    assert "pip install corefud-scorer" not in readme
    assert "python3 -m pip wheel --no-deps -w dist ." in readme and "pip install .` in a clone" in readme
