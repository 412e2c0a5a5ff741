"""Entity ids recurring across the documents of one file (AnCora's
``NOCOREF:Gen``): a span in two entities is scored with the entity that
comes last in scorer 1.2's file order; SplitAnte/Bridge links to another
document's entity are left out with a warning. Expected values are scorer
1.2's on the same files."""

from __future__ import annotations

import pytest

from conftest import conllu, run_cli

SHARED = "spans in two entities, one of them named in an earlier document"
LINKS = "SplitAnte/Bridge links to an entity of another document left out"


def issue_case(first_id="X"):
    """Key: d1 has A in ``first_id``; d2 has C, D in e2 and E in X. The
    response puts D into e2 and X, and E into nothing."""
    d1 = [[(1, "A", f"({first_id}--1)"), (2, "B", None)]]
    key = {"d1": d1, "d2": [[(1, "C", "(e2--1)"), (2, "D", "(e2--1)"), (3, "E", "(X--1)")]]}
    response = {"d1": d1, "d2": [[(1, "C", "(e2--1)"), (2, "D", "(e2--1)(X--1)"), (3, "E", None)]]}
    return conllu(key), conllu(response)


def scores(run, *metrics):
    assert run.code == 0, run.err
    return {m: (run.json["metrics"][m]["recall"], run.json["metrics"][m]["precision"]) for m in metrics}


def test_id_first_used_in_an_earlier_document_sorts_first(write):
    key, response = issue_case()
    key_path, response_path = write("key.conllu", key), write("response.conllu", response)
    runs = [run_cli(key_path, response_path, "-a", "exact", "-s", "-m", "muc", "bcub", "lea",
                    "--output", "json", "-j", jobs) for jobs in ("1", "2")]
    # 1.2: X (first mention in d1) precedes e2 in d2, so D is looked up in e2.
    expected = {"muc": (1.0, 1.0), "bcub": (0.75, 1.0), "lea": (0.75, 0.75)}
    for run in runs:
        assert scores(run, "muc", "bcub", "lea") == expected
    assert runs[0].json["metrics"] == runs[1].json["metrics"]
    warnings = [w for w in runs[0].json["warnings"] if SHARED in w]
    # Once for the file, on the response side, naming D's line (line 10) and both entities.
    assert len(warnings) == 1
    assert warnings[0].startswith("response ")
    assert warnings[0].endswith(": 1 (first: line 10, in X and e2)")


def test_renaming_the_earlier_id_gives_the_document_order(write):
    key, response = issue_case(first_id="Y")
    run = run_cli(write("key.conllu", key), write("response.conllu", response),
                  "-a", "exact", "-s", "-m", "muc", "bcub", "lea", "--output", "json")
    # 1.2: e2 precedes X (both start in d2), so D is looked up in X.
    assert scores(run, "muc", "bcub", "lea") == {"muc": (0.0, 1.0), "bcub": (0.5, 1.0), "lea": (0.25, 0.75)}
    assert not any(SHARED in w for w in run.json["warnings"])


@pytest.mark.parametrize("longer, expected", [
    # Y is the longer of two mentions starting on A: it sorts first, X last, D goes to X.
    ("Y", {"muc": (0.5, 2 / 3), "bcub": (5 / 6, 17 / 21), "lea": (2 / 3, 5 / 7)}),
    # X is the longer: Y sorts last, D goes to Y, as the document order would have it.
    ("X", {"muc": (1.0, 2 / 3), "bcub": (1.0, 17 / 21), "lea": (1.0, 5 / 7)}),
])
def test_two_earlier_ids_keep_the_order_of_their_first_mentions(write, longer, expected):
    shorter = "X" if longer == "Y" else "Y"
    d1 = [[(1, "A", f"({longer}--1({shorter}--1)"), (2, "B", f"{longer})")]]
    key = {"d1": d1, "d2": [[(1, "C", "(X--1)"), (2, "D", "(Y--1)"), (3, "E", "(Y--1)"), (4, "F", "(X--1)")]]}
    response = {"d1": d1,
                "d2": [[(1, "C", "(X--1)"), (2, "D", "(Y--1)(X--1)"), (3, "E", "(Y--1)"), (4, "F", "(X--1)")]]}
    run = run_cli(write("key.conllu", conllu(key)), write("response.conllu", conllu(response)),
                  "-a", "exact", "-s", "-m", "muc", "bcub", "lea", "--output", "json")
    got = scores(run, "muc", "bcub", "lea")
    for metric, values in expected.items():
        assert got[metric] == pytest.approx(values, abs=1e-12)


def linked(link):
    """d1 defines Z, d2 links to it (or to whatever ``link`` names), d3 defines W."""
    return {"d1": [[(1, "A", "(X--1)"), (2, "B", "(Z--1)")]],
            "d2": [[(1, "C", "(e2--1)"), (2, "D", "(e2--1)" + (f"|{link}" if link else "")),
                    (3, "E", "(X--1)")]],
            "d3": [[(1, "F", "(W--1)"), (2, "G", "(W--1)")]]}


@pytest.mark.parametrize("link", ["SplitAnte=X<e2,Z<e2", "Bridge=Z<e2:part", "Bridge=W<e2"])
def test_links_to_another_documents_entity_are_left_out_with_a_warning(write, link):
    path = write("linked.conllu", conllu(linked(link)))
    plain = write("plain.conllu", conllu(linked(None)))
    run = run_cli(path, path, "-s", "--output", "json")
    assert run.code == 0, run.err
    dropped = link.split("=")[0] + "=" + link.split("=")[1].split(",")[-1]
    assert f"key {path}: {LINKS}" in run.err
    assert f"(first: {dropped} (line 10))" in run.err
    # Identity scores do not read the links: as if they were not there.
    assert run.json["metrics"] == run_cli(plain, plain, "-s", "--output", "json").json["metrics"]


def test_a_link_to_an_entity_defined_nowhere_is_an_error(write):
    path = write("nowhere.conllu", conllu(linked("Bridge=Q<e2")))
    run = run_cli(path, path)
    assert run.code == 2 and run.out == ""
    assert run.err.strip() == (f"corefud-scorer: error: {path}:10: Bridge refers to entity Q, "
                               "which no Entity= in the file defines")
