"""Reproductions of numbers that were wrong without a word, each now right
or refused in one line."""

from __future__ import annotations

import shutil

import pytest

from conftest import FIXTURES, run_cli

UA_HEADER = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS REFERENCE\n"
# One entity of two overt mentions, one of two zeros.
ZERO_ONLY_UA = UA_HEADER + """# newdoc id = d1
# sent_id = s1
# text = John came . Mary left .
1\tJohn\t_\t_\t_\t_\t0\troot\t_\t_\t(EntityID=1|MarkableID=m1)\t_\t_\t_
2\tcame\t_\t_\t_\t_\t1\tdep\t_\t_\t_\t_\t_\t_
2.1\t_\t_\t_\t_\t_\t_\t_\t2:nsubj\t_\t(EntityID=2|MarkableID=m2)\t_\t_\t_
3\t.\t_\t_\t_\t_\t1\tdep\t_\t_\t_\t_\t_\t_
4\tMary\t_\t_\t_\t_\t1\tdep\t_\t_\t(EntityID=1|MarkableID=m3)\t_\t_\t_
5\tleft\t_\t_\t_\t_\t1\tdep\t_\t_\t_\t_\t_\t_
5.1\t_\t_\t_\t_\t_\t_\t_\t5:nsubj\t_\t(EntityID=2|MarkableID=m4)\t_\t_\t_
6\t.\t_\t_\t_\t_\t1\tdep\t_\t_\t_\t_\t_\t_
"""


def figures(metrics: dict):
    """(name, figure, value) for every figure of a JSON ``metrics`` object."""
    for name, score in metrics.items():
        for figure in ("recall", "precision", "f1", "value"):
            if score.get(figure) is not None:
                yield name, figure, score[figure]


@pytest.fixture
def zero_only(tmp_path):
    key = tmp_path / "key.ua.conllu"
    key.write_text(ZERO_ONLY_UA)
    copy = tmp_path / "copy.ua.conllu"
    copy.write_text(ZERO_ONLY_UA)
    return key, copy


@pytest.mark.parametrize("flags", [["-s"], ["-s", "-m", "every"], ["-s", "-l"], ["-s", "-l", "-m", "all"],
                                   ["-m", "all"], ["-s", "--sync", "union", "-m", "every"]])
def test_an_entity_of_zeros_left_out_vanishes(zero_only, flags):
    run = run_cli(*zero_only, *flags, "--output", "json", "-j", "1")
    assert run.code == 0, run.err
    data = run.json
    assert data["key_entities"] == data["response_entities"] == (1 if "-s" in flags else 1)
    for name, figure, value in figures(data["metrics"]):
        counts = data["metrics"][name].get("counts") or {}
        if name == "conll" or any(v for v in counts.values() if isinstance(v, (int, float))):
            assert value == pytest.approx(1.0), (name, figure)


def test_an_entity_of_zeros_kept_with_keep_zeros(zero_only):
    data = run_cli(*zero_only, "-s", "--keep-zeros", "--output", "json").json
    assert data["key_entities"] == 2 and data["key_mentions"] == 4
    assert data["metrics"]["muc"]["counts"]["recall_den"] == 2


def test_the_library_and_the_command_line_agree_on_ua_files():
    from corefud_scorer import score

    key = FIXTURES / "anaphora" / "station.key.ua.conllu"
    response = FIXTURES / "anaphora" / "station.response.ua.conllu"
    result = score(key, response)
    cli = run_cli(key, response, "--output", "json", "-j", "1").json
    assert result.settings["match"] == cli["settings"]["match"] == "exact"
    assert result.settings["keep_zeros"] is cli["settings"]["keep_zeros"] is False
    assert result.settings["zero_match_method"] == cli["settings"]["zero_match_method"] == "linear"
    assert list(result.metrics) == list(cli["metrics"])[:3] == ["muc", "bcub", "ceafe"]
    for name in ("muc", "bcub", "ceafe"):
        assert result.metrics[name].f1 == cli["metrics"][name]["f1"]


SEED = FIXTURES / "seed"


def _seed(ext, *flags):
    run = run_cli(SEED / f"pradhan2014.key.{ext}", SEED / f"pradhan2014.response.{ext}", *flags,
                  "--output", "json", "-q", "-j", "1")
    assert run.code == 0, run.err
    return run.json


@pytest.mark.parametrize("flags", [["-m", "every"], ["-m", "muc", "bcub", "ceafe", "lea", "--sync", "intersection"],
                                   ["-m", "muc", "bcub", "kappa", "--sync", "key"],
                                   ["-m", "bcub", "entropy", "--sync", "all"]])
def test_conll_2012_files_score_the_further_measures_and_synchronisation(flags):
    conll, conllu = _seed("conll", "-a", "exact", *flags), _seed("conllu", "-a", "exact", *flags)
    assert conll["settings"]["sync"] == conllu["settings"]["sync"] if "--sync" in flags else True
    assert [(n, f) for n, f, _ in figures(conll["metrics"])] == [(n, f) for n, f, _ in figures(conllu["metrics"])]
    for (name, figure, a), (_, _, b) in zip(figures(conll["metrics"]), figures(conllu["metrics"])):
        if name in ("blanc", "zero", "mor"):
            continue  # v8.01's BLANC rule; the CoNLL-U copy has heads and words of its own
        assert a == pytest.approx(b), (name, figure)
    for option, synced in conll.get("synchronisation", {}).items():
        for (name, figure, a), (_, _, b) in zip(figures(synced["metrics"]),
                                                figures(conllu["synchronisation"][option]["metrics"])):
            assert a == pytest.approx(b), (option, name, figure)


def test_conll_2012_synchronisation_changes_the_numbers():
    plain = _seed("conll", "-m", "bcub")["metrics"]["bcub"]["f1"]
    synced = _seed("conll", "-m", "bcub", "--sync", "intersection")["metrics"]["bcub"]["f1"]
    assert round(plain, 4) == 0.4545 and round(synced, 4) == 0.6667


def test_conll_2012_further_measures_are_not_zero():
    metrics = _seed("conll", "-m", "bcub-all", "entropy", "kappa")["metrics"]
    assert round(metrics["entropy"]["f1"], 4) == 0.4813
    assert metrics["kappa"]["value"] == 0.0
    assert round(metrics["bcub-all"]["f1"], 4) == 0.5015


@pytest.mark.parametrize("flags, said", [
    (["-a", "head"], "-a head: needs mention heads"),
    (["-a", "partial-craft"], "-a partial-craft: needs minimum spans"),
    (["-s", "-l"], "-l/--keep-split-antecedents: the CoNLL-2012 format has no split antecedents"),
    (["-m", "bridging"], "-m bridging: the CoNLL-2012 format has no bridging"),
    (["-t", "crac24"], "-t/--shared-task: the CRAC presets are for CorefUD files"),
])
def test_what_conll_2012_files_cannot_honour_is_refused_in_one_line(flags, said, tmp_path):
    missing = tmp_path / "absent.conll"  # refused before the response is read
    run = run_cli(SEED / "pradhan2014.key.conll", missing, *flags)
    assert run.code == 2 and run.out == ""
    assert run.err.strip().splitlines() == [f"corefud-scorer: error: {said}" + run.err.strip().split(said, 1)[1]]


def test_synchronisation_with_split_antecedents_is_refused(tmp_path):
    key = FIXTURES / "anaphora" / "station.key.ua.conllu"
    run = run_cli(key, tmp_path / "absent", "-s", "-l", "--sync", "union")
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1
    assert "--sync: not with split antecedents" in run.err


def test_discourse_deixis_is_refused_on_corefud_files(tmp_path):
    run = run_cli(FIXTURES / "example" / "key.conllu", tmp_path / "absent", "-d")
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1
    assert "no discourse-deixis layer" in run.err


def test_bad_input_in_a_later_document_of_a_parallel_run_is_one_line(tmp_path):
    """The process pool is shut down before the interpreter exits, so the
    error line is all that is printed (a pool left running could print a
    traceback from its threads at exit, now and then)."""
    import subprocess
    import sys

    text = (FIXTURES / "example" / "key.conllu").read_text()
    first = text.split("# newdoc")[1]
    documents = [("# newdoc" + first).replace("id = walk", f"id = walk{n}").replace("sent_id = walk-", f"sent_id = w{n}-")
                 for n in range(12)]
    # The last document opens a mention it never closes.
    documents[-1] = documents[-1].replace("Entity=e3)", "_", 1)
    key = tmp_path / "key.conllu"
    key.write_text(text.split("# newdoc")[0] + "".join(documents))
    for _ in range(15):
        run = subprocess.run([sys.executable, "-m", "corefud_scorer", str(key), str(key), "-j", "2"],
                             capture_output=True, text=True)
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr.splitlines() == [f"corefud-scorer: error: {key}:407: malformed Entity annotation: "
                                           "Mention e3 opened at <walk11-1#7, the>, but not closed."], run.stderr
