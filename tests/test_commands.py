"""Every command reads every format as a single pair does: bench (and its
leaderboard) with each format's defaults and release file names, validate
of jsonlines responses, n/a where nothing can be scored, and the smaller
defects of the commands (a folder given as a file, a p-value below the
last decimal, the per-document table's width)."""

from __future__ import annotations

import gzip
import re
import shutil
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
import matrix_files

FORMATS = ("corefud", "ua", "conll", "jsonlines")
KINDS = ("rich", "plain")


def folders(root: Path, fmt: str, kinds=KINDS, name=None) -> dict[str, Path]:
    """``key``, ``sys`` (realistic responses) and ``copy`` (perfect ones)
    folders of one format, a dataset per kind; ``name(kind)`` the files'
    name (the kind and the format's ending by default)."""
    out = {side: root / side for side in ("key", "copy", "sys")}
    for path in out.values():
        path.mkdir(parents=True)
    for kind in kinds:
        files = matrix_files.write_pair(root, fmt, kind, seed=7)
        target = name(kind) if name else kind + matrix_files.SUFFIX[fmt]
        for side, path in zip(("key", "copy", "sys"), files):
            shutil.move(path, out[side] / target)
    return out


def figures(block: dict) -> dict:
    """Every figure of a JSON metrics block (and its statistics) by path."""
    out = {}

    def walk(path, node):
        if isinstance(node, dict):
            for key, value in node.items():
                walk(f"{path}.{key}" if path else key, value)
        elif isinstance(node, (int, float)) or node is None:
            out[path] = node
    walk("", block)
    return out


def pair_json(key, response, *flags):
    run = run_cli(key, response, *flags, "--output", "json", "-q", "-j", "1")
    assert run.code == 0, run.err
    return run.json


# --- 1: bench reads every format with its defaults ---

@pytest.mark.parametrize("flags", [(), ("-m", "all"), ("--confidence", "50")], ids=["defaults", "all", "confidence"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_bench_scores_each_dataset_as_its_pair_in_every_format(tmp_path, fmt, flags):
    dirs = folders(tmp_path, fmt)
    run = run_cli("bench", dirs["key"], dirs["sys"], *flags, "--output", "json", "-q", "-j", "1")
    assert run.code == 0, run.err
    data = run.json
    for dataset in data["datasets"]:
        file = dataset["dataset"] + matrix_files.SUFFIX[fmt]
        alone = pair_json(dirs["key"] / file, dirs["sys"] / file, *flags)
        point = {k: v for k, v in figures(alone["metrics"]).items() if "interval" not in k}
        assert figures(dataset["metrics"]) == point, dataset["dataset"]
        assert data["settings"]["metrics"] == alone["settings"]["metrics"]
        assert data["settings"]["match"] == alone["settings"]["match"]
    assert [d["dataset"] for d in data["datasets"]] == sorted(KINDS)


# --- 2: release names, in any case, plain or gzip ---

def test_bench_pairs_release_names_in_any_case_and_gzip(tmp_path):
    names = {"rich": "AMI_dev.CONLLUA", "plain": "light_dev.CONLLUA.gz"}
    dirs = folders(tmp_path, "ua", name=lambda kind: names[kind].removesuffix(".gz"))
    for side in ("key", "sys"):
        plain = dirs[side] / "light_dev.CONLLUA"
        with gzip.open(dirs[side] / "light_dev.CONLLUA.gz", "wb") as handle:
            handle.write(plain.read_bytes())
        if side == "key":
            plain.unlink()
    (dirs["sys"] / "light_dev.CONLLUA.gz").rename(dirs["sys"] / "light_dev.CONLLUA.GZ")
    (dirs["sys"] / "light_dev.CONLLUA").unlink()
    run = run_cli("bench", dirs["key"], dirs["sys"], "--output", "json", "-q", "-j", "1")
    assert run.code == 0, run.err
    got = {d["dataset"]: d["metrics"] for d in run.json["datasets"]}
    assert sorted(got) == ["AMI_dev", "light_dev"]
    assert got["AMI_dev"] == pair_json(dirs["key"] / "AMI_dev.CONLLUA", dirs["sys"] / "AMI_dev.CONLLUA")["metrics"]
    assert got["light_dev"] == pair_json(dirs["key"] / "light_dev.CONLLUA.gz",
                                         dirs["sys"] / "light_dev.CONLLUA.GZ")["metrics"]


# --- 3: the leaderboard ranks by the files' format's defaults ---

@pytest.mark.parametrize("fmt", ["ua", "conll", "jsonlines"])
def test_leaderboard_ranks_by_the_formats_defaults(tmp_path, fmt):
    dirs = folders(tmp_path, fmt)
    run = run_cli("bench", dirs["key"], dirs["sys"], dirs["copy"], "--names", "sys,copy", "--leaderboard",
                  "--paired-bs", "20", "--output", "json", "-q", "-j", "1")
    assert run.code == 0, run.err
    board = run.json
    assert board["primary"] == "exact"
    assert f"|fmt:{fmt}|match:exact|" in board["signature"]
    assert "zero" not in board["signature"].split("|m:")[1].split("|")[0]
    assert board["zero"] is None
    # The columns the format can fill: CoNLL-2012 and jsonlines have no heads.
    expected = ["head", "partial", "exact", "with_singletons"] if fmt == "ua" else ["exact", "with_singletons"]
    assert [k for k in board["leaderboard"][0] if k not in ("system", "rank", "cluster")] == expected
    for dataset in board["datasets"]:
        file = dataset["dataset"] + matrix_files.SUFFIX[fmt]
        for system in dataset["systems"]:
            alone = pair_json(dirs["key"] / file, dirs[system["system"]] / file)
            assert system["exact"] == alone["metrics"]["conll"]["f1"], (dataset["dataset"], system["system"])


# --- 4: validate reads jsonlines responses ---

@pytest.mark.parametrize("key_format", ["jsonlines", "conll"])
def test_validate_reads_a_jsonlines_response(tmp_path, key_format):
    (tmp_path / "key").mkdir()
    key = matrix_files.write_pair(tmp_path / "key", key_format, "plain", seed=7)[0]
    response = matrix_files.write_pair(tmp_path, "jsonlines", "plain", seed=7)[2]
    run = run_cli("validate", response, "--key", key)
    assert run.code == 0, run.err
    assert run.out.endswith("0 errors, 0 warnings in 1 file: the submission would be scored\n")
    lines = Path(response).read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1][:-1]  # the second document's JSON cut short
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = run_cli("validate", broken, "--key", key, "--output", "json")
    assert run.code == 2, run.err
    problems = run.json["problems"]
    assert [(p["file"], p["line"]) for p in problems] == [(str(broken), 2)], problems
    assert run.json["would_score"] is False


# --- 8: nothing to score is n/a, not 0 ---

def test_layers_with_nothing_on_either_side_are_not_applicable(tmp_path):
    key, copy, _ = matrix_files.write_pair(tmp_path, "ua", "plain", seed=7)
    data = pair_json(key, copy, "-m", "every")
    for name in ("non-referring", "bridging"):
        assert data["metrics"][name]["counts"] and not any(figures(data["metrics"][name]["counts"]).values())
        assert [data["metrics"][name][k] for k in ("recall", "precision", "f1")] == [None, None, None], name
    text = run_cli(key, copy, "-m", "every", "-q").out
    assert "Recall: n/a  Precision: n/a  F1: n/a  (not applicable: no non-referring markable in the key " \
           "or the response)\n" in text
    assert text.count("(not applicable: no bridging anaphor in the key or the response)") == 3
    assert not re.search(r"(?<![\d.])0\.00", text)
    # Where the layers hold something, a perfect response scores 1 on them.
    (tmp_path / "rich").mkdir()
    key, copy, _ = matrix_files.write_pair(tmp_path / "rich", "ua", "rich", seed=1)
    assert "-Pseudo" in Path(key).read_text(encoding="utf-8")
    data = pair_json(key, copy, "-m", "every")
    assert data["metrics"]["non-referring"]["f1"] == 1.0 and data["metrics"]["bridging"]["f1"] == 1.0


def test_non_referring_is_refused_on_corefud_files(tmp_path):
    key, copy, _ = matrix_files.write_pair(tmp_path, "corefud", "rich", seed=7)
    for command in ((key, copy), ("bench", tmp_path, tmp_path)):
        run = run_cli(*command, "-m", "muc", "non-referring")
        assert run.code == 2 and run.out == ""
        assert run.err.splitlines()[-1] == ("corefud-scorer: error: -m non-referring: CorefUD files have no "
                                            "non-referring markables (a UA file's markables of no entity)")


# Measures 1.2 defines as 0 where nothing is counted (no link, no mention): a
# perfect response is 1 on them wherever something is counted.
@pytest.mark.parametrize("flags", [(), ("-s",)], ids=["no-singletons", "singletons"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_perfect_response_gives_one_or_na_on_every_figure(tmp_path, fmt, flags):
    for kind in ("rich", "plain", "zeros"):
        (tmp_path / kind).mkdir()
        key, copy, _ = matrix_files.write_pair(tmp_path / kind, fmt, kind, seed=7)
        zeros = ("--keep-zeros",) if fmt == "ua" else ()
        data = pair_json(key, copy, "-m", "every", *flags, *zeros)
        conll = data["metrics"].pop("conll")
        assert conll["f1"] == 1.0 and set(conll["parts"].values()) == {1.0}, (kind, conll)
        for name, figure in data["metrics"].items():
            parts = {name: figure, **{f"{name}.{p}": sub for p, sub in (figure.get("parts") or {}).items()
                                      if isinstance(sub, dict)}}
            for label, score in parts.items():
                counted = any(figures(score.get("counts", {})).values())
                values = [score.get(k) for k in ("recall", "precision", "f1", "value") if k in score]
                if counted:
                    assert all(v == 1.0 for v in values), (kind, label, score)
                else:
                    assert all(v is None for v in values) or name == "blanc", (kind, label, score)


# --- 9: the smaller defects ---

def test_a_folder_given_as_a_file_points_to_bench(tmp_path):
    dirs = folders(tmp_path, "corefud", kinds=("plain",))
    for args in ((dirs["key"], dirs["sys"]), (dirs["key"] / "plain.conllu", dirs["sys"]),
                 ("errors", dirs["key"], dirs["sys"])):
        run = run_cli(*args)
        assert run.code == 2 and run.out == ""
        (line,) = run.err.splitlines()
        assert re.fullmatch(r"corefud-scorer: error: \S+: is a directory, not a file: 'corefud-scorer bench "
                            r"KEY_DIR SYS_DIR' scores the files of two folders, paired by name", line), line


def test_a_p_value_below_the_last_decimal_is_not_printed_as_zero(tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import generate
        generate.write_pair(str(tmp_path / "key.conllu"), str(tmp_path / "sys.conllu"), 3, docs=30,
                            tokens_per_doc=60)
    finally:
        sys.path.remove(str(ROOT / "bench"))
    shutil.copy(tmp_path / "key.conllu", tmp_path / "copy.conllu")
    run = run_cli(tmp_path / "key.conllu", tmp_path / "copy.conllu", tmp_path / "sys.conllu", "-m", "muc",
                  "--paired-ar", "200000", "-q", "-j", "1")
    assert run.code == 0, run.err
    muc = next(line for line in run.out.splitlines() if line.startswith("muc") and "sys.conllu" in line)
    assert muc.endswith("< 0.0001*") and "0.0000" not in run.out
    data = run_cli(tmp_path / "key.conllu", tmp_path / "copy.conllu", tmp_path / "sys.conllu", "-m", "muc",
                   "--paired-ar", "200000", "--output", "json", "-q", "-j", "1").json
    assert data["tests"]["muc"]["sys.conllu"]["p_value"] == 1 / 200001


def _long_ids(paths, long_id):
    for path in paths:
        text = Path(path).read_text(encoding="utf-8")
        Path(path).write_text(text.replace("# newdoc id = ", f"# newdoc id = {long_id}", 1), encoding="utf-8")


@pytest.mark.parametrize("systems", [1, 2])
def test_the_per_document_table_fits_a_terminal(tmp_path, systems):
    from corefud_scorer import Options, score
    from corefud_scorer.measures.registry import MEASURES
    from corefud_scorer.render.fitted_table import render_fitted
    from corefud_scorer.render.tables import document_rows, render_table
    from corefud_scorer.results import EVERY_METRICS

    key, copy, response = matrix_files.write_pair(tmp_path, "ua", "rich", seed=7)
    # One document id far too long for a column: numbered, with a legend.
    long_id = "a-document-of-a-corpus-whose-id-is-longer-than-a-column-"
    _long_ids([key, copy, response], long_id)
    responses = [response] if systems == 1 else [response, copy]
    # Several systems resample: every measure but the agreement coefficients.
    metrics = ["every"] if systems == 1 else [m for m in EVERY_METRICS if MEASURES[m].resampled]
    run = run_cli(key, *responses, "-m", *metrics, "--keep-zeros", "--per-doc", "-q", "-j", "1")
    assert run.code == 0, run.err
    table = run.out[run.out.index(f"\n#1  {long_id}") + 1:]
    assert max(len(line) for line in table.splitlines()) <= 120
    # The blocks hold the whole table's cells: per row, each column's cell.
    options = Options(metrics=tuple(metrics), keep_zeros=True)
    names = [Path(path).name for path in responses]
    rows = [{"system": name, **row} if systems > 1 else row for name, path in zip(names, responses)
            for row in document_rows(score(key, path, options))]
    whole = render_table(rows, "text").splitlines()
    assert max(len(line) for line in whole) > 120
    fitted = render_fitted(rows)
    assert fitted.startswith(f"#1  {long_id}") and fitted in run.out
    blocks = [block.splitlines() for block in fitted.split("\n\n")[1:]]
    assert len(blocks) > 1 and all(len(line) <= 120 for block in blocks for line in block)
    header = _cells(whole[0])
    for index, line in enumerate(whole[1:], 1):
        got = {}
        for block in blocks:
            got.update(zip(_cells(block[0]), _cells(block[index])))
        document = rows[index - 1]["document"]
        assert got.pop("document") == f"#{[r['document'] for r in rows].index(document) % (len(rows) // systems) + 1}"
        assert got == {k: v for k, v in zip(header, _cells(line)) if k != "document"}, index


def _cells(line: str) -> list[str]:
    """A table line's cells (two spaces apart; a header cell may hold one)."""
    return [cell for cell in re.split(r"\s{2,}", line.strip()) if cell]
