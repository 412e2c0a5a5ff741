"""Scoring many datasets: pairing, averages, formats, presets, parallel runs."""

from __future__ import annotations

import csv
import io
import json
import shutil
from fractions import Fraction as Fr

import pytest

from corefud_scorer import Options, score
from corefud_scorer.jobs.bench import benchmark, dataset_name, pair_folders, read_manifest
from corefud_scorer.measures.metrics import Counts
from corefud_scorer.presets import PRESETS

from conftest import FIXTURES, run_cli
from schema import validate_bench, validate_result

KEYS, SYSTEMS = FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys"
NAMES = ["cs_toy", "el_toy", "hi_toy", "ru_toy"]
# MUC (recall num, den, precision num, den) per dataset, counted by hand from
# the fixtures (singletons dropped): see the comments in test_muc_by_hand.
MUC = {"cs_toy": (2, 3, 2, 3), "el_toy": (2, 2, 2, 3), "hi_toy": (2, 2, 2, 2), "ru_toy": (1, 3, 1, 2)}


def test_dataset_names_and_pairing():
    assert dataset_name("cs_pdt-corefud-dev.conllu") == "cs_pdt"
    assert dataset_name("/x/en_gum-corefud-train.conllu") == "en_gum"
    assert dataset_name("plain.conllu") == "plain"
    datasets = pair_folders(str(KEYS), str(SYSTEMS))
    assert [d.name for d in datasets] == NAMES
    assert all(d.key.startswith(str(KEYS)) and d.response.startswith(str(SYSTEMS)) for d in datasets)


def test_muc_by_hand():
    # cs: d1 key {1a 2a}{3a 5b}, response {3a 1b 5b} (+ singleton 1a dropped): recall
    #     0 + 1, precision 3 - 2 = 1; d2 perfect, one link.  el: the response merges
    #     both entities: recall 2/2, precision 4 - 2 = 2 of 3.  hi: perfect.  ru: d1
    #     perfect; d2 one mention each side unaligned: 0/1 both; d3 response singleton
    #     dropped: recall 0/1, precision 0/0.
    bench = benchmark(pair_folders(str(KEYS), str(SYSTEMS)), Options(metrics=("muc", "bcub", "ceafe")))
    for dataset, result in zip(bench.datasets, bench.results):
        assert result.metrics["muc"].counts == Counts(*map(float, MUC[dataset.name])), dataset.name
    f1 = {n: 2 * Fr(rn, rd) * Fr(pn, pd) / (Fr(rn, rd) + Fr(pn, pd)) for n, (rn, rd, pn, pd) in MUC.items()}
    assert bench.macro["muc"].f1 == pytest.approx(float(sum(f1.values()) / 4), abs=1e-12)
    assert bench.macro["muc"].recall == pytest.approx(float(sum(Fr(v[0], v[1]) for v in MUC.values()) / 4))
    # micro: summed statistics, 7/10 both ways
    assert bench.micro["muc"].counts == Counts(7.0, 10.0, 7.0, 10.0)
    assert bench.micro["muc"].f1 == pytest.approx(0.7)
    # the macro CoNLL score is the mean of the datasets' CoNLL scores
    assert bench.macro_conll == pytest.approx(sum(r.conll for r in bench.results) / 4, abs=1e-15)


def test_each_dataset_scores_as_on_its_own():
    options = Options(match="head")
    bench = benchmark(pair_folders(str(KEYS), str(SYSTEMS)), options)
    for dataset, result in zip(bench.datasets, bench.results):
        alone = score(dataset.key, dataset.response, options)
        assert {n: m.counts for n, m in alone.metrics.items()} == \
               {n: m.counts for n, m in result.metrics.items()}


def test_unpaired_and_doubled_files_are_errors(tmp_path):
    keys, systems = tmp_path / "k", tmp_path / "s"
    shutil.copytree(KEYS, keys)
    shutil.copytree(SYSTEMS, systems)
    (systems / "ru_toy-corefud-dev.conllu").unlink()
    (systems / "xx_extra-corefud-dev.conllu").write_text("")
    run = run_cli("bench", keys, systems)
    assert run.code == 2 and run.out == ""
    assert "ru_toy-corefud-dev.conllu has no response" in run.err
    assert "xx_extra-corefud-dev.conllu has no key" in run.err
    assert len(run.err.splitlines()) == 1
    shutil.copy(keys / "cs_toy-corefud-dev.conllu", keys / "cs_toy-corefud-test.conllu")
    run = run_cli("bench", keys, keys)
    assert run.code == 2 and "two files of dataset 'cs_toy'" in run.err


def test_manifest(tmp_path):
    manifest = tmp_path / "list.txt"
    lines = [f"{n} {KEYS / (n + '-corefud-dev.conllu')} {SYSTEMS / (n + '-corefud-dev.conllu')}" for n in NAMES]
    manifest.write_text("# dataset key response\n" + "\n".join(lines) + "\n")
    assert [d.name for d in read_manifest(str(manifest))] == NAMES
    by_folder = run_cli("bench", KEYS, SYSTEMS, "--output", "csv", "-j", "1")
    by_manifest = run_cli("bench", manifest, "--output", "csv", "-j", "1")
    assert by_manifest.out == by_folder.out
    manifest.write_text("cs_toy only-two-fields\n")
    run = run_cli("bench", manifest)
    assert run.code == 2 and "list.txt:1: expected 'dataset key response'" in run.err


def test_jobs_do_not_change_the_output():
    one = run_cli("bench", KEYS, SYSTEMS, "--per-doc", "--output", "json", "-j", "1")
    two = run_cli("bench", KEYS, SYSTEMS, "--per-doc", "--output", "json", "-j", "2")
    assert one.code == two.code == 0
    assert one.out == two.out
    key = FIXTURES / "example" / "key.conllu"
    response = FIXTURES / "example" / "response.conllu"
    assert run_cli(key, response, "-j", "1").out == run_cli(key, response, "-j", "2").out


def test_formats_parse_back_to_the_same_numbers():
    as_json = validate_bench(json.loads(run_cli("bench", KEYS, SYSTEMS, "--output", "json", "--per-doc").out))
    as_csv = list(csv.DictReader(io.StringIO(run_cli("bench", KEYS, SYSTEMS, "--output", "csv", "--per-doc").out)))
    assert [r["level"] for r in as_csv] == (["dataset"] + ["document"] * 2 + ["dataset", "document"] * 2
                                            + ["dataset"] + ["document"] * 3 + ["macro", "micro"])
    json_rows = ([("dataset", r["dataset"], "", r) for r in as_json["datasets"]]
                 + [("document", r["dataset"], r["document"], r) for r in as_json["per_document"]]
                 + [("micro", "micro-average", "", as_json["micro"])])
    csv_index = {(r["level"], r["dataset"], r["document"]): r for r in as_csv}
    for level, dataset, document, row in json_rows:
        other = csv_index[level, dataset, document]
        for name, metric in row["metrics"].items():
            if name == "conll":
                assert float(other["conll_f1"]) == metric["f1"]
                continue
            for field in ("recall", "precision", "f1"):
                cell = other[f"{name}_{field}"]
                assert (None if cell == "" else float(cell)) == metric[field], (level, name, field)
        for column in ("tokens", "key_mentions", "response_entities"):
            assert other[column] == str(row[column])  # integers stay integers
    macro = csv_index["macro", "macro-average", ""]
    assert float(macro["conll_f1"]) == as_json["macro"]["metrics"]["conll"]["f1"]
    assert macro["tokens"] == ""
    assert [r["dataset"] for r in as_json["datasets"]] == NAMES
    assert len(as_json["per_document"]) == 7
    markdown = run_cli("bench", KEYS, SYSTEMS, "--output", "markdown").out.splitlines()
    assert markdown[0].startswith("| dataset | muc F1 |") and markdown[1].startswith("| --- | ---: |")
    assert len(markdown) == 2 + 4 + 2
    text = run_cli("bench", KEYS, SYSTEMS).out.splitlines()
    assert text[-2].startswith("macro") and text[-1].startswith("micro")
    assert max(len(line) for line in text) <= 100
    wide = run_cli("bench", KEYS, SYSTEMS, "--columns", "all").out.splitlines()
    assert "muc R" in wide[0] and "muc R" not in text[0] and max(map(len, wide)) > 100


def test_single_pair_per_document_rows():
    key, response = KEYS / "cs_toy-corefud-dev.conllu", SYSTEMS / "cs_toy-corefud-dev.conllu"
    data = validate_result(run_cli(key, response, "--per-doc", "--output", "json").json)
    assert [row["document"] for row in data["per_document"]] == ["cs_toy-d1", "cs_toy-d2"]
    assert data["per_document"][0]["metrics"]["muc"]["recall"] == 0.5
    assert data["per_document"][0]["metrics"]["muc"]["counts"]["recall_den"] == 2
    text = run_cli(key, response, "--per-doc").out
    assert text.splitlines()[-1].startswith("cs_toy-d2")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_fix_their_settings(name):
    preset = PRESETS[name]
    data = run_cli(KEYS / "cs_toy-corefud-dev.conllu", SYSTEMS / "cs_toy-corefud-dev.conllu",
                   "-t", name, "--output", "json").json
    settings = data["settings"]
    assert settings["shared_task"] == name
    assert settings["match"] == preset.match
    assert settings["keep_singletons"] == preset.keep_singletons
    assert settings["zero_match_method"] == preset.zero_match
    assert settings["metrics"] == list(preset.metrics)
    other = "exact" if preset.match != "exact" else "head"
    clash = run_cli(KEYS / "cs_toy-corefud-dev.conllu", SYSTEMS / "cs_toy-corefud-dev.conllu",
                    "-t", name, "-a", other)
    assert clash.code == 2 and f"--shared-task {name} sets match" in clash.err
    agree = run_cli(KEYS / "cs_toy-corefud-dev.conllu", SYSTEMS / "cs_toy-corefud-dev.conllu",
                    "-t", name, "-a", preset.match)
    assert agree.code == 0
    assert agree.out.splitlines()[0].startswith(f"CRAC 20{name[-2:]} shared task settings ({name}): {preset.match} match")


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    for name, magic in (("scores.png", b"\x89PNG\r\n\x1a\n"), ("scores.pdf", b"%PDF"), ("scores.svg", b"<?xml")):
        run = run_cli("bench", KEYS, SYSTEMS, "--plot", tmp_path / name)
        assert run.code == 0, run.err
        assert (tmp_path / name).read_bytes().startswith(magic)
    svg = (tmp_path / "scores.svg").read_text()
    assert "<text" in svg and "cs_toy" in svg  # labels kept as text, not paths
    assert ">70.9<" in svg  # value labels (cs_toy CoNLL F1 70.94)
    assert "sys: CoNLL F1 per dataset" in svg and "(head match, without singletons" in svg  # system and settings
    other = tmp_path / "other"
    shutil.copytree(SYSTEMS, other)
    run = run_cli("bench", KEYS, SYSTEMS, other, "--plot", tmp_path / "two.svg")
    assert run.code == 0, run.err
    two = (tmp_path / "two.svg").read_text()
    assert two.count(">70.9<") == 2 and ">other<" in two  # side by side, with a legend


@pytest.mark.parametrize("folder", ["sys", "a_system_folder_with_a_rather_long_name_as_real_ones_have"])
def test_plot_title_stays_whole_inside_the_figure(tmp_path, folder):
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from corefud_scorer.render.plot import draw_benchmark

    # Two datasets: the narrowest figure, where the title was cut.
    bench = benchmark(pair_folders(str(KEYS), str(SYSTEMS))[:2], Options(), jobs=1)
    figure = draw_benchmark(bench, [folder])
    try:
        figure.canvas.draw()
        title = figure.axes[0].title
        box = title.get_window_extent(figure.canvas.get_renderer())
        assert box.x0 >= 0 and box.x1 <= figure.bbox.x1 and box.y1 <= figure.bbox.y1
        assert "zeros by dependencies)" in title.get_text()
        assert " ".join(title.get_text().split()).startswith(f"{folder}: CoNLL F1 per dataset")
    finally:
        plt.close(figure)


def test_plot_problems_are_found_before_any_file_is_read(tmp_path, monkeypatch):
    # The inputs do not exist: an error about them would mean they were read first.
    missing = tmp_path / "nowhere"
    bad = run_cli("bench", missing, missing, "--plot", tmp_path / "scores.jpg")
    assert bad.code == 2 and bad.out == "" and "must end in .png, .svg or .pdf" in bad.err
    bad = run_cli("bench", missing, missing, "--plot", tmp_path / "no" / "such" / "scores.png")
    assert bad.code == 2 and "no such folder" in bad.err
    monkeypatch.setitem(__import__("sys").modules, "matplotlib", None)
    bad = run_cli("bench", missing, missing, "--plot", tmp_path / "scores.png")
    assert bad.code == 2 and "needs matplotlib" in bad.err


def test_progress_bar_only_on_a_terminal_and_not_when_quiet():
    from corefud_scorer.cli import main

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    for stream, flags, shown in ((Terminal(), [], True), (Terminal(), ["-q"], False), (io.StringIO(), [], False)):
        out = io.StringIO()
        assert main(["bench", str(KEYS), str(SYSTEMS), "-j", "1", *flags], stdout=out, stderr=stream) == 0
        assert ("/7 [" in stream.getvalue() and "doc/s" in stream.getvalue()) == shown
        assert out.getvalue().splitlines()[-1].startswith("micro-average")


@pytest.mark.parametrize("suffix", [".conll", ".jsonl", ".conll.gz"])
def test_folders_of_every_format_are_paired_and_score_as_each_pair(tmp_path, suffix):
    # The toy datasets written in another format: paired by name as the
    # CoNLL-U files are, each dataset scoring as its own pair does.
    import gzip

    from corefud_scorer.jobs.convert import convert

    folders = {}
    for side, source in (("key", KEYS), ("sys", SYSTEMS)):
        folder = tmp_path / side
        folder.mkdir()
        for path in sorted(source.iterdir()):
            name = path.name.replace("-corefud-dev.conllu", "")
            plain = folder / (name + suffix.replace(".gz", ""))
            convert(str(path), str(plain))
            if suffix.endswith(".gz"):
                (folder / (name + suffix)).write_bytes(gzip.compress(plain.read_bytes()))
                plain.unlink()
        folders[side] = folder
    datasets = pair_folders(str(folders["key"]), str(folders["sys"]))
    assert [d.name for d in datasets] == NAMES
    options = Options(metrics=("muc", "bcub", "ceafe"), keep_singletons=True)
    bench = benchmark(datasets, options)
    for dataset, result in zip(datasets, bench.results):
        alone = score(dataset.key, dataset.response, options)
        assert result.conll == alone.conll and result.conll is not None, dataset.name
    run = run_cli("bench", folders["key"], folders["sys"], "-s", "-m", "muc", "bcub", "ceafe", "--output", "json",
                  "-q", "-j", "1")
    assert run.code == 0, run.err
    assert [d["dataset"] for d in run.json["datasets"]] == NAMES
    assert run.json["macro"]["metrics"]["conll"]["f1"] == pytest.approx(bench.macro_conll, abs=0)


def test_a_folder_without_a_file_the_scorer_reads_names_the_endings(tmp_path):
    (tmp_path / "key").mkdir()
    (tmp_path / "sys").mkdir()
    (tmp_path / "key" / "notes.txt").write_text("x")
    run = run_cli("bench", tmp_path / "key", tmp_path / "sys")
    assert run.code == 2 and run.out == ""
    assert "no file of a format the scorer reads" in run.err and "*.conll," in run.err and "*.jsonl" in run.err


@pytest.mark.parametrize("seed", [7, 32])
def test_the_ua_benchmark_generator_writes_a_pair_that_scores(tmp_path, seed):
    # Seed 32 opens a document with a non-referring markable holding a nested
    # one, which once had no entity to join.
    import sys

    sys.path.insert(0, str(FIXTURES.parent / "bench"))
    try:
        import ua
    finally:
        sys.path.remove(str(FIXTURES.parent / "bench"))
    key, response = tmp_path / "key.conllu", tmp_path / "response.conllu"
    ua.write_pair(str(key), str(response), 2000, 4, seed)
    assert score(str(key), str(key), Options(keep_singletons=True, keep_split_antecedents=True)).conll == 1.0
    assert 0 < score(str(key), str(response), Options(keep_singletons=True)).conll < 1
