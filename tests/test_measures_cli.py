"""The further measures and markable synchronisation through the command line
and the API, on the seed papers' fixtures (one mention a token)."""

from __future__ import annotations

import sys
from dataclasses import replace
from fractions import Fraction as Fr

import pytest
from hypothesis import given, settings, strategies as st

from corefud_scorer import Options, score
from corefud_scorer.results import ALL_METRICS, EVERY_METRICS
from corefud_scorer.errors import OptionError
from corefud_scorer.jobs.options import for_format
from corefud_scorer.measures.synchronisation import SYNC_OPTIONS
from corefud_scorer.measures.registry import FURTHER as MEASURE_NAMES
from corefud_scorer.measures.metrics import Counts
from conftest import FIXTURES, ROOT, conllu, run_cli
from schema import validate_bench, validate_result

sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402

SEED = FIXTURES / "seed"
KEY, RESPONSE = SEED / "pradhan2014.key.conllu", SEED / "pradhan2014.response.conllu"
BAGGA_KEY = SEED / "bagga1998.key.conllu"
EXACT = ("-a", "exact", "-z", "linear", "-s")


def read_back(value: float) -> Fr:
    return Fr(value).limit_denominator(1000)


def test_all_keeps_1_2s_set_and_every_adds_the_further_measures():
    assert Options().metric_list == ALL_METRICS
    assert Options(metrics=("every",)).metric_list == EVERY_METRICS
    assert Options(metrics=("all", "alpha")).metric_list == ALL_METRICS + ("alpha",)
    Options(sync="sideways")  # a plain value: checked where it is settled
    with pytest.raises(OptionError, match="sync must be one of"):
        for_format(Options(sync="sideways"))


def test_text_output_adds_the_measures_after_1_2s_lines():
    plain = run_cli(KEY, RESPONSE, *EXACT)
    every = run_cli(KEY, RESPONSE, *EXACT, "-m", "every")
    assert plain.code == every.code == 0
    # 1.2's lines, mention identification included, then the further measures.
    body = plain.out.split("\n\n", 1)[1]
    tail = every.out.split("\n\n", 1)[1]
    conll_at = tail.index("CoNLL score")
    assert tail[:conll_at].startswith(body[:body.index("CoNLL score")])
    lines = tail[conll_at:].splitlines()[1:]
    assert lines[::2] == list(MEASURE_NAMES)
    values = dict(zip(lines[::2], lines[1::2]))
    assert values["alpha"].startswith("Value: ") and values["kappa"] == "Value: 0.00"
    assert values["pairwise"] == "Recall: 22.22  Precision: 25.00  F1: 23.53"


def test_json_names_each_measure_and_records_the_shared_mention_set():
    run = run_cli(KEY, RESPONSE, *EXACT, "-m", "pairwise", "kappa", "entropy", "--output", "json")
    assert run.code == 0, run.err
    data = validate_result(run.json)
    assert list(data["metrics"]) == ["pairwise", "kappa", "entropy"]
    pairwise = data["metrics"]["pairwise"]
    assert (read_back(pairwise["precision"]), read_back(pairwise["recall"])) == (Fr(1, 4), Fr(2, 9))
    assert pairwise["counts"] == {"recall_num": 2.0, "recall_den": 9.0, "precision_num": 2.0, "precision_den": 8.0}
    # Kappa on the union of the mentions: 36 pairs of 9 mentions.
    kappa = data["metrics"]["kappa"]
    assert set(kappa) == {"value", "counts"} and kappa["counts"]["pairs"] == 36
    assert {"recall", "precision", "f1", "variation_of_information", "counts"} == set(data["metrics"]["entropy"])
    assert data["settings"]["shared_mention_set"] == "union"
    assert "sync" not in data["settings"]


@pytest.mark.parametrize("option, muc, bcub", [
    ("intersection", (Fr(1, 2), Fr(2, 3)), (Fr(5, 9), Fr(5, 6))),
    ("union", (Fr(2, 5), Fr(2, 5)), (Fr(31, 54), Fr(11, 18))),
    ("key", (Fr(2, 5), Fr(2, 3)), (Fr(19, 42), Fr(6, 7))),
    ("response", (Fr(1, 2), Fr(2, 5)), (Fr(2, 3), Fr(9, 16))),
])
def test_sync_option_rebuilds_the_partitions(option, muc, bcub):
    run = run_cli(KEY, RESPONSE, *EXACT, "-m", "muc", "bcub", "alpha", "--sync", option, "--output", "json")
    assert run.code == 0, run.err
    data = run.json
    assert data["settings"]["sync"] == option and data["settings"]["shared_mention_set"] == option
    for name, expected in (("muc", muc), ("bcub", bcub)):
        got = data["metrics"][name]
        assert (read_back(got["recall"]), read_back(got["precision"])) == expected, name
    text = run_cli(KEY, RESPONSE, *EXACT, "-m", "muc", "--sync", option)
    assert f"Markable synchronisation: {option}" in text.out.splitlines()[2]


def test_sync_all_gives_the_four_score_sets_and_mention_identification():
    run = run_cli(KEY, RESPONSE, *EXACT, "-m", "muc", "bcub", "ceafe", "kappa", "--sync", "all", "--output", "json")
    assert run.code == 0, run.err
    data = validate_result(run.json)
    assert data["settings"]["sync"] == "all"
    # The top-level metrics stay unsynchronised.
    assert read_back(data["metrics"]["muc"]["recall"]) == Fr(2, 5)
    assert list(data["synchronisation"]) == list(SYNC_OPTIONS)
    assert read_back(data["synchronisation"]["key"]["metrics"]["bcub"]["recall"]) == Fr(19, 42)
    assert read_back(data["synchronisation"]["intersection"]["metrics"]["muc"]["precision"]) == Fr(2, 3)
    assert "conll" in data["synchronisation"]["union"]["metrics"]
    found = data["mention_identification"]
    assert (read_back(found["recall"]), read_back(found["precision"])) == (Fr(6, 7), Fr(3, 4))
    text = run_cli(KEY, RESPONSE, *EXACT, "-m", "muc", "bcub", "ceafe", "kappa", "--sync", "all").out
    assert "Mention identification  Recall: 85.71  Precision: 75.00  F1: 80.00" in text
    row = next(line for line in text.splitlines() if line.startswith("bcub "))
    assert row.split()[1:] == ["55.56", "83.33", "66.67", "57.41", "61.11", "59.20",
                               "45.24", "85.71", "59.22", "66.67", "56.25", "61.02"]


def test_api_sync_and_unsynchronised_mention_measures():
    options = Options(metrics=("every",), match="exact", zero_match="linear", keep_singletons=True, sync="all")
    result = score(str(KEY), str(RESPONSE), options)
    assert read_back(result.synchronisation["response"]["metrics"]["bcub"].precision) == Fr(9, 16)
    # Mention-level metrics read the aligned mentions: no synchronisation.
    for option in SYNC_OPTIONS:
        assert result.synchronisation[option]["metrics"]["mor"] == result.metrics["mor"]
    # Per-document statistics are kept per synchronisation too.
    assert set(result.documents[0].synchronised) == set(SYNC_OPTIONS)


def test_bagga_baldwin_per_entity_through_the_command_line():
    run = run_cli(BAGGA_KEY, SEED / "bagga1998.fig2.response.conllu", *EXACT, "-m", "bcub", "bcub-entity",
                  "--output", "json")
    metrics = run.json["metrics"]
    assert read_back(metrics["bcub"]["precision"]) == Fr(16, 21)
    assert read_back(metrics["bcub-entity"]["precision"]) == Fr(39, 49)


def test_sync_contradicting_a_preset_or_all_in_bench_is_a_usage_error():
    run = run_cli(KEY, RESPONSE, "-t", "crac24", "--sync", "union")
    assert run.code == 2 and "sync" in run.err
    bench = run_cli("bench", FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys", "--sync", "all")
    assert bench.code == 2 and "--sync all" in bench.err


def test_every_measure_fits_the_json_schema_per_document_and_in_bench():
    run = run_cli(KEY, RESPONSE, *EXACT, "-m", "every", "--sync", "all", "--per-doc", "--output", "json")
    assert run.code == 0, run.err
    data = validate_result(run.json)
    assert list(data["metrics"]) == list(EVERY_METRICS) + ["conll"]
    bench = run_cli("bench", FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys", "-m", "every",
                    "--sync", "union", "--per-doc", "--output", "json")
    assert bench.code == 0, bench.err
    data = validate_bench(bench.json)
    assert data["settings"]["sync"] == "union"
    values = [row["metrics"]["alpha"]["value"] for row in data["datasets"]]
    assert data["macro"]["metrics"]["alpha"]["value"] == pytest.approx(sum(values) / len(values))
    table = run_cli("bench", FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys", "-m", "muc", "kappa")
    assert table.code == 0 and table.out.splitlines()[0].split()[-1] == "kappa"


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), match=st.sampled_from(["exact", "partial", "head"]), keep=st.booleans())
def test_every_measure_is_at_its_maximum_on_a_perfect_response(tmp_path_factory, seed, match, keep):
    folder = tmp_path_factory.mktemp("gen")
    key, perfect = folder / "key.conllu", folder / "perfect.conllu"
    generate.write_pair(str(key), str(perfect), seed, docs=1 + seed % 3, tokens_per_doc=150, perfect=True)
    options = Options(metrics=("every",), match=match, keep_singletons=keep)
    for sync in (None, "all"):
        result = score(str(key), str(perfect), replace(options, sync=sync))
        scored = [result.metrics] + [s["metrics"] for s in result.synchronisation.values()]
        for metrics in scored:
            for name in MEASURE_NAMES:
                m = metrics[name]
                if name in ("alpha", "kappa"):
                    assert m.value in (1.0, None), name
                elif isinstance(m.counts, Counts) and not (m.counts.recall_den and m.counts.precision_den):
                    continue
                else:
                    assert (m.recall, m.precision) == (pytest.approx(1.0, abs=1e-12),) * 2, name


@pytest.mark.parametrize("match, aligned", [("head", 2), ("partial", 2), ("exact", 1)])
def test_mentions_aligned_by_the_matching_are_one_markable(tmp_path, match, aligned):
    # Key 'the old dog' ... 'loudly' in one entity; the response has 'old dog'
    # (the same head, inside the key's span) ... 'loudly'.
    words = ["the", "old", "dog", "barked", "loudly", "."]

    def sentence(entities):
        return [(i, w, entities.get(i)) for i, w in enumerate(words, 1)]

    key, response = tmp_path / "k.conllu", tmp_path / "r.conllu"
    key.write_text(conllu({"d": [sentence({1: "(e1-x-3-", 3: "e1)", 5: "(e1-x-1)"})]}))
    response.write_text(conllu({"d": [sentence({2: "(r1-x-2-", 3: "r1)", 5: "(r1-x-1)"})]}))
    options = Options(metrics=("bcub",), match=match, zero_match="linear", keep_singletons=True, sync="all")
    result = score(str(key), str(response), options)
    found = result.mention_identification.counts
    assert (found.recall_num, found.recall_den, found.precision_den) == (aligned, 2, 2)
    # The intersection keeps the aligned mentions only, on both sides.
    intersection = result.synchronisation["intersection"]["metrics"]["bcub"]
    assert intersection.counts.recall_den == intersection.counts.precision_den == aligned
    assert (intersection.recall, intersection.precision) == (1.0, 1.0)
    # The union adds each twinless mention to the other side as a singleton.
    union = result.synchronisation["union"]["metrics"]["bcub"].counts
    assert union.recall_den == union.precision_den == 4 - aligned


def test_several_systems_take_every_measure_but_the_coefficients(tmp_path):
    second = tmp_path / "second.conllu"
    second.write_bytes(RESPONSE.read_bytes())
    run = run_cli(KEY, RESPONSE, second, *EXACT, "-m", "muc", "bcub-entity", "core-de", "entropy",
                  "--sync", "key", "--paired-bs", "50", "--output", "json")
    assert run.code == 0, run.err
    assert "|sync:key|" in run.json["signature"]
    # The same file twice: no difference, on entropy as on the others.
    assert run.json["tests"]["entropy"]["second.conllu"] == {"difference": 0.0, "interval": [0.0, 0.0], "p_value": 1.0}
    for flags in (["-m", "muc", "alpha"], ["-m", "kappa"], ["-m", "muc", "--sync", "all"]):
        refused = run_cli(KEY, RESPONSE, second, *EXACT, *flags)
        assert refused.code == 2 and "not with several systems" in refused.err, flags
    assert run_cli(KEY, RESPONSE, *EXACT, "-m", "kappa", "--confidence", "50").code == 2


def test_sync_all_table_holds_only_the_measures_sync_rebuilds():
    # Bridging, MOR and the zero score are not read off the contingency:
    # they are printed once, not as four identical synchronised columns.
    station = FIXTURES / "anaphora"
    run = run_cli(station / "station.key.conllu", station / "station.response.conllu", "-s", "--sync", "all",
                  "-m", "muc", "bridging", "mor", "zero", "pairwise")
    assert run.code == 0, run.err
    table = run.out.split("Markable synchronisation")[1].split("\n\n")[0]
    rows = [line.split()[0] for line in table.splitlines()[4:] if line.strip()]
    assert rows == ["muc", "pairwise"]
