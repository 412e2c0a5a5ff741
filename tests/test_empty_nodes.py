"""-m empty-nodes against the official CRAC empty-node evaluation scripts.

The figures the scripts printed on the generated files of
``empty_node_files.py`` are kept in ``empty_nodes_expected/official.json``
(``tools/empty_nodes_expected.py``). Where the scripts are beside the project
(``../peers/crac2026_empty_nodes_baseline``,
``../peers/crac2024_zero_nodes_baseline``) they are also run here: their
output must still be the kept one, and their unrounded figures must equal
the scorer's.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from corefud_scorer.measures.empty_nodes import ALL, PARTS, EmptyNodeCounts, compare
from corefud_scorer.model import EmptyNode

from conftest import ROOT, run_cli
import empty_node_files

EXPECTED = json.loads((ROOT / "tests" / "empty_nodes_expected" / "official.json").read_text(encoding="utf-8"))
PEERS = next((p for p in (ROOT.parent / "peers", ROOT.parent.parent / "peers")
              if (p / "crac2026_empty_nodes_baseline").is_dir()), ROOT.parent / "peers")
SCRIPTS = {"crac2026": PEERS / "crac2026_empty_nodes_baseline" / "crac2026_empty_nodes_eval.py",
           "crac2024": PEERS / "crac2024_zero_nodes_baseline" / "crac2024_zero_nodes_eval.py"}
# The scripts' names of the scorer's parts (2024's WO_DEP is 2026's DEP_WO).
OFFICIAL = {"crac2026": {"ARC": "arc", "DEP": "dep", "WO": "wo", "DEP_WO": "dep_wo", "FORM": "form",
                         "LEMMA": "lemma", "UPOS": "upos", "XPOS": "xpos", "FEATS": "feats", "ALL": "all"},
            "crac2024": {"WO": "position", "ARC": "arc", "DEP": "dep", "WO_DEP": "dep_wo"}}
FIGURES = {"f1": "f1", "p": "precision", "r": "recall"}


def _script(year: str):
    if not SCRIPTS[year].is_file():
        pytest.skip(f"{SCRIPTS[year]} absent")
    return SCRIPTS[year]


def _evaluate(year: str):
    spec = importlib.util.spec_from_file_location(f"official_{year}", _script(year))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.evaluate


def _printed(text: str) -> dict:
    """The scripts' lines ``NAME: f1=..%, p=..%, r=..%`` as {NAME: {f1, p, r}} in percent."""
    out = {}
    for line in text.splitlines():
        name, _, rest = line.partition(": ")
        out[name] = {k: float(v.rstrip("%")) for k, v in (item.split("=") for item in rest.split(", "))}
    return out


def _parts(key: str, response: str, *flags) -> dict:
    run = run_cli(key, response, "-m", "empty-nodes", "--output", "json", "-q", *flags)
    assert run.code == 0, run.err
    return run.json["metrics"]["empty-nodes"]


def _agrees_with_printed(parts: dict, case: str) -> None:
    for year, names in OFFICIAL.items():
        printed = _printed(EXPECTED[case][year])
        assert set(printed) == set(names)
        for name, part in names.items():
            for short, field in FIGURES.items():
                ours = 100 * parts[part][field]
                assert abs(ours - printed[name][short]) <= 0.005 + 1e-9, (case, year, name, short, ours)


@pytest.mark.parametrize("kind", empty_node_files.KINDS)
def test_parts_equal_the_official_scripts(tmp_path, kind):
    key, response = empty_node_files.pair(tmp_path, kind)
    metric = _parts(key, response)
    parts = metric["parts"]
    assert list(parts) == list(PARTS)
    _agrees_with_printed(parts, kind)
    # The measure's own figures are ALL's.
    assert [metric[f] for f in FIGURES.values()] == [parts[ALL][f] for f in FIGURES.values()]
    # Each part's counts: found over key nodes, found over response nodes.
    for part in parts.values():
        counts = part["counts"]
        assert counts["recall_num"] == counts["precision_num"]
    if kind in ("missing", "spurious", "moved", "head", "mixed"):
        assert parts[ALL]["f1"] < 1
    if kind == "second-deps":  # no part reads a second DEPS item
        assert all(part["f1"] == 1 for part in parts.values())


@pytest.mark.parametrize("kind", empty_node_files.KINDS)
def test_official_scripts_run_beside(tmp_path, kind):
    """The scripts, where present: the kept output is still theirs, and
    their unrounded figures are the scorer's."""
    key, response = empty_node_files.pair(tmp_path, kind)
    system, gold = (Path(p).read_text(encoding="utf-8") for p in (response, key))
    parts = _parts(key, response)["parts"]
    for year, names in OFFICIAL.items():
        script = _script(year)
        printed = subprocess.run([sys.executable, str(script), response, key], check=True,
                                 capture_output=True, text=True).stdout
        assert printed == EXPECTED[kind][year]
        scores = _evaluate(year)(system, gold)
        for name, part in names.items():
            for short, field in FIGURES.items():
                assert abs(getattr(scores[name], short) - parts[part][field]) < 1e-12, (year, name, short)


def test_perfect_response_scores_one_on_every_part(tmp_path):
    key, _ = empty_node_files.pair(tmp_path, "mixed")
    metric = _parts(key, key)
    assert len(metric["parts"]) == len(PARTS)
    for part in metric["parts"].values():
        assert (part["recall"], part["precision"], part["f1"]) == (1.0, 1.0, 1.0)
        assert part["counts"]["recall_den"] == 27  # the key's empty nodes
    assert metric["f1"] == 1.0


def test_no_empty_node_on_either_side_is_not_applicable(tmp_path):
    """As the zero score: undefined, not 0 (the official scripts print 0)."""
    docs = [[(words, []) for words, _ in sentences] for sentences in empty_node_files.key(1)]
    path = tmp_path / "none.conllu"
    path.write_text(empty_node_files.conllu(docs), encoding="utf-8")
    metric = _parts(path, path)
    assert metric["f1"] is None and metric["recall"] is None
    assert all(part["f1"] is None for part in metric["parts"].values())
    run = run_cli(path, path, "-m", "empty-nodes")
    assert "n/a  (not applicable: no empty node in the key or the response)" in run.out


def test_text_has_one_line_per_part(tmp_path):
    key, response = empty_node_files.pair(tmp_path, "moved")
    run = run_cli(key, response, "-m", "empty-nodes")
    assert run.code == 0, run.err
    lines = {line.split()[0]: line for line in run.out.splitlines() if line.split() and line.split()[0] in PARTS}
    assert list(lines) == list(PARTS)
    # 16 of 27 nodes keep their position (official WO: 59.26%); arc is untouched.
    assert lines["wo"].split()[1:] == ["Recall:", "59.26", "Precision:", "59.26", "F1:", "59.26"]
    assert lines["arc"].split()[-1] == "100.00"


def _node(sentence, word, deps, form="_", lemma="_", upos="PRON", xpos="_", feats="_"):
    return EmptyNode(sentence, word, form, lemma, upos, xpos, feats, deps)


def test_counted_as_multisets_and_by_sentence():
    key = [_node(0, 2, "3:nsubj"), _node(0, 2, "3:nsubj"), _node(1, 2, "3:nsubj")]
    response = [_node(0, 2, "3:nsubj"), _node(1, 2, "3:obj"), _node(1, 2, "3:obj"), _node(2, 2, "3:nsubj")]
    counts = compare(key, response)
    # arc: one of the two in sentence 0, one in sentence 1; sentence 2's is spurious.
    assert (counts.arc.recall_num, counts.arc.recall_den, counts.arc.precision_den) == (2, 3, 4)
    assert counts.dep.recall_num == 1
    # position ignores the head, not the sentence.
    assert counts.position.recall_num == 2


def test_head_that_is_an_empty_node_is_compared_as_written(tmp_path):
    """The official scripts stop on such a head (int("5.1")); here it is a
    head like any other, equal only to the same text."""
    key = [_node(0, 1, "1.1:conj"), _node(0, 1, "2:nsubj"), _node(0, 3, "2.1:obj")]
    response = [_node(0, 1, "1.1:conj"), _node(0, 1, "1.2:nsubj"), _node(0, 3, "2.10:obj"),
                _node(0, 1, "02:nsubj")]
    counts = compare(key, response)
    # 1.1 matches; 1.2 is not 2; 2.10 is not 2.1 as written; 02 is 2, as the scripts read it.
    assert (counts.arc.recall_num, counts.all.recall_num) == (2, 2)
    # Through the reader: empty nodes headed by empty nodes, on both sides.
    lines = ["# global.Entity = eid-etype-head-other", "# sent_id = s1", "# text = a b c",
             "1\ta\ta\tNOUN\t_\t_\t0\troot\t0:root\tEntity=(e1-thing-1)", "1.1\t_\t_\tPRON\t_\t_\t_\t_\t3:nsubj\t_",
             "1.2\t_\t_\tPRON\t_\t_\t_\t_\t1.1:conj\t_", "2\tb\tb\tNOUN\t_\t_\t1\tdep\t1:dep\t_",
             "3\tc\tc\tNOUN\t_\t_\t1\tdep\t1:dep\t_", ""]
    key_path = tmp_path / "key.conllu"
    key_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    lines[5] = "1.2\t_\t_\tPRON\t_\t_\t_\t_\t1.2:conj\t_"
    response_path = tmp_path / "sys.conllu"
    response_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    parts = _parts(key_path, response_path)["parts"]
    assert parts["arc"]["counts"] == {"recall_num": 1.0, "recall_den": 2.0, "precision_num": 1.0,
                                      "precision_den": 2.0}
    assert parts["position"]["f1"] == 1.0


def test_documents_add_up_to_the_corpus(tmp_path):
    """Sufficient statistics: each document's counts sum to the corpus's."""
    key, response = empty_node_files.pair(tmp_path, "mixed")
    run = run_cli(key, response, "-m", "empty-nodes", "--per-doc", "--output", "json", "-q")
    data = run.json
    assert len(data["per_document"]) == 3
    for part in PARTS:
        for field in ("recall_num", "recall_den", "precision_den"):
            total = sum(d["metrics"]["empty-nodes"]["counts"][part][field] for d in data["per_document"])
            assert total == data["metrics"]["empty-nodes"]["counts"][part][field]
    assert EmptyNodeCounts().parts.keys() == set(PARTS) and [f.name for f in fields(EmptyNodeCounts)] == list(PARTS)


def test_bench_micro_average_is_the_official_on_the_whole(tmp_path):
    gold, system = tmp_path / "gold", tmp_path / "sys"
    gold.mkdir(), system.mkdir()
    for kind in ("mixed", "head"):
        key, response = empty_node_files.pair(tmp_path, kind)
        Path(gold / f"{kind}-corefud-dev.conllu").write_bytes(Path(key).read_bytes())
        Path(system / f"{kind}-corefud-dev.conllu").write_bytes(Path(response).read_bytes())
    run = run_cli("bench", gold, system, "-m", "empty-nodes", "--output", "json")
    assert run.code == 0, run.err
    data = run.json
    by_dataset = {d["dataset"]: d["metrics"]["empty-nodes"] for d in data["datasets"]}
    for kind, metric in by_dataset.items():
        _agrees_with_printed(metric["parts"], kind)
    _agrees_with_printed(data["micro"]["metrics"]["empty-nodes"]["parts"], "bench")
    macro = data["macro"]["metrics"]["empty-nodes"]["f1"]
    assert abs(macro - (by_dataset["mixed"]["f1"] + by_dataset["head"]["f1"]) / 2) < 1e-12


def test_ua_files_give_the_same_parts(tmp_path):
    """The UA reader keeps the empty nodes' columns too."""
    key, response = empty_node_files.pair(tmp_path, "mixed")
    ua = {}
    for name, path in (("key", key), ("sys", response)):
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        out = ["# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY"]
        for n, line in enumerate(lines[1:]):
            if line and not line.startswith("#"):
                cells = line.split("\t")
                cells[9] = "_"
                # The CorefUD file's singleton on each first word.
                identity = f"(EntityID=e{n}|MarkableID=m{n})" if cells[0] == "1" else "_"
                line = "\t".join(cells + [identity])
            out.append(line)
        ua[name] = tmp_path / f"{name}.ua.conll"
        ua[name].write_text("\n".join(out) + "\n", encoding="utf-8")
    corefud = _parts(key, response)
    universal = _parts(ua["key"], ua["sys"], "--format", "ua")
    assert universal["parts"] == corefud["parts"]


def test_conll_2012_refuses_it_in_one_line():
    key = ROOT / "fixtures" / "seed" / "pradhan2014.key.conll"
    run = run_cli(key, key, "-m", "empty-nodes")
    errors = [line for line in run.err.splitlines() if line.strip()]
    assert run.code == 2 and len(errors) == 1, run.err
    assert "the CoNLL-2012 format has no empty nodes" in errors[0]


def test_resampled_as_the_all_part(tmp_path):
    key, response = empty_node_files.pair(tmp_path, "mixed")
    run = run_cli(key, response, "-m", "empty-nodes", "--confidence", "50", "--output", "json", "-q")
    assert run.code == 0, run.err
    metric = run.json["metrics"]["empty-nodes"]
    low, high = metric["interval"]
    assert low <= metric["f1"] <= high and low < high
