"""``corefud-scorer validate``: every problem planted in a response is found,
with its kind and line, in each format; a valid submission has none; the
scoring command still stops at the first problem of each planted file."""

from __future__ import annotations

import pytest

from conftest import FIXTURES, conllu, run_cli


def line_of(text: str, needle: str) -> int:
    """The line (from 1) of the one line holding ``needle``."""
    found = [n for n, line in enumerate(text.split("\n"), 1) if needle in line]
    assert len(found) == 1, (needle, found)
    return found[0]


def replace_line(lines: list[str], needle: str, old: str, new: str) -> None:
    """In the one line holding ``needle``, ``old`` (once) becomes ``new``."""
    found = [i for i, line in enumerate(lines) if needle in line]
    assert len(found) == 1 and old in lines[found[0]], (needle, found)
    lines[found[0]] = lines[found[0]].replace(old, new, 1)


def drop_block(lines: list[str], first: str, last: str) -> None:
    """Lines from the one holding ``first`` to the one holding ``last``, and
    the blank line after them, taken out."""
    start = next(i for i, line in enumerate(lines) if first in line)
    end = next(i for i in range(start, len(lines)) if last in lines[i])
    del lines[start:end + 2]


def validate(tmp_path, key_text: str, response_text: str, name: str, *flags):
    key, response = tmp_path / f"key.{name}", tmp_path / f"response.{name}"
    key.write_text(key_text, encoding="utf-8")
    response.write_text(response_text, encoding="utf-8")
    run = run_cli("validate", response, "--key", key, "--output", "json", *flags)
    return run, key, response


def found(run) -> list[tuple[str, int | None]]:
    return [(p["kind"], p["line"]) for p in run.json["problems"]]


def assert_scoring_stops_at_one_error(key, response, *flags):
    run = run_cli(key, response, "-j", "1", *flags)
    assert run.code == 2 and run.out == ""
    lines = run.err.strip().split("\n")
    assert len(lines) == 1 and lines[0].startswith("corefud-scorer: error: ") and f"{response}" in lines[0], run.err
    return lines[0]


# --- CorefUD ---------------------------------------------------------------

def corefud_key() -> str:
    """Four documents of three sentences: a one-word mention of the document's
    person, an empty node standing for it again, a two-word mention."""
    documents = {}
    for d in range(1, 5):
        sentences = []
        for s in range(1, 4):
            sentences.append([(1, f"A{d}{s}", f"(e{d}1-person-1)"), (2, f"saw{d}{s}", None),
                              ("2.1", f"zero{d}{s}", f"(e{d}1-person-1)", "2:nsubj"),
                              (3, f"the{d}{s}", f"(e{d}{s}2-animal-2-"), (4, f"dog{d}{s}", f"e{d}{s}2)"),
                              (5, f"end{d}{s}", None)])
        documents[f"d{d}"] = sentences
    return conllu(documents)


def _column(lines, needle, index, value):
    found = [i for i, line in enumerate(lines) if needle in line]
    assert len(found) == 1
    columns = lines[found[0]].split("\t")
    columns[index] = value
    lines[found[0]] = "\t".join(columns)


# Each planted problem: how to plant it, its kind, and the text of the line it is reported at.
COREFUD_PLANTED = {
    "unclosed bracket": (lambda ls: _column(ls, "\tdog11\t", 9, "_"), "brackets", "\tthe11\t"),
    "closing bracket with no opening": (lambda ls: replace_line(ls, "\tA12\t", "(e11-person-1)", "(e11-person-1)e9)"),
                                        "brackets", "\tA12\t"),
    "bad entity id": (lambda ls: replace_line(ls, "\tA13\t", "(e11-", "(e11=x-"), "entity-id", "\tA13\t"),
    "head index outside its mention": (lambda ls: replace_line(ls, "\tA11\t", "person-1)", "person-3)"),
                                       "head", "\tA11\t"),
    "head index outside a longer mention": (lambda ls: replace_line(ls, "\tthe12\t", "animal-2-", "animal-5-"),
                                            "head", "\tdog12\t"),
    "empty node with a bad id": (lambda ls: _column(ls, "\tzero21\t", 0, "2.2"), "empty-node", "\tzero21\t"),
    "head out of range": (lambda ls: _column(ls, "\tdog22\t", 6, "9"), "head", "\tdog22\t"),
    "word form changed": (lambda ls: replace_line(ls, "\tdog23\t", "dog23", "cat23"), "word-form", "\tcat23\t"),
    "sentence missing": (lambda ls: drop_block(ls, "# sent_id = d4-2", "\tend42\t"), "sentence-missing", None),
    "document missing": (lambda ls: drop_block(ls, "# newdoc id = d3", "\tend33\t"), "document-missing", None),
}


def planted(key_text: str, plantings) -> str:
    lines = key_text.split("\n")
    for plant in plantings:
        plant(lines)
    return "\n".join(lines)


# The kinds of what a response lacks, reported where it belongs rather than at a planted line.
MISSING = ("sentence-missing", "document-missing")


def validate_planted(tmp_path, key_text: str, table: dict, name: str, extra=()):
    """Plant every problem of ``table`` (plant, kind, needle) and ``extra``
    plantings in a copy of the key and validate it: each problem with a
    needle is found at the needle's line, and nothing else is but what the
    response lacks. Returns the run, both files and the response's text."""
    response_text = planted(key_text, [plant for plant, _, _ in table.values()] + list(extra))
    run, key, response = validate(tmp_path, key_text, response_text, name)
    assert run.code == 2
    expected = sorted((kind, line_of(response_text, needle)) for _, kind, needle in table.values()
                      if needle is not None)
    assert sorted(p for p in found(run) if p[0] not in MISSING) == expected
    return run, key, response, response_text


def test_corefud_every_planted_problem_is_found(tmp_path):
    run, key, response, response_text = validate_planted(tmp_path, corefud_key(), COREFUD_PLANTED, "conllu")
    assert run.json["would_score"] is False
    problems = run.json["problems"]
    # What the response lacks is reported where it belongs: before the next document or sentence.
    assert sorted((p["message"], p["line"]) for p in problems if p["kind"].endswith("missing")) == [
        ("document 'd3' of the key is missing from the response", line_of(response_text, "# newdoc id = d4")),
        ("sentence 'd4-2' of document 'd4' is missing from the response", line_of(response_text, "# sent_id = d4-3"))]
    assert all(p["file"] == str(response) and p["hint"] for p in problems)
    assert run.json["warnings"] == []
    # The text lists the same problems, one line each with what to do under it.
    text = run_cli("validate", response, "--key", key)
    assert text.code == 2
    assert text.out.count("\n    to do: ") == len(problems)
    assert text.out.endswith(f"{len(problems)} errors, 0 warnings in 1 file: the submission would not be scored\n")


def test_a_valid_submission_has_no_problem(tmp_path):
    key_text = corefud_key()
    run, _, _ = validate(tmp_path, key_text, key_text, "conllu")
    assert run.code == 0
    assert run.json["would_score"] is True and run.json["problems"] == [] and run.json["warnings"] == []
    example = run_cli("validate", FIXTURES / "example" / "response.conllu", "--key", FIXTURES / "example" / "key.conllu")
    assert example.code == 0
    assert example.out == "0 errors, 0 warnings in 1 file: the submission would be scored\n"


def test_folders_are_paired_as_bench_pairs_them(tmp_path):
    keys, responses = tmp_path / "gold", tmp_path / "sys"
    keys.mkdir()
    responses.mkdir()
    key_text = corefud_key()
    for name in ("aa_x-corefud-dev.conllu", "bb_y-corefud-dev.conllu", "cc_z-corefud-dev.conllu"):
        (keys / name).write_text(key_text, encoding="utf-8")
    (responses / "aa_x-corefud-dev.conllu").write_text(key_text, encoding="utf-8")
    bad = planted(key_text, [COREFUD_PLANTED["head out of range"][0]])
    (responses / "bb_y-corefud-dev.conllu").write_text(bad, encoding="utf-8")
    (responses / "dd_w-corefud-dev.conllu").write_text(key_text, encoding="utf-8")
    run = run_cli("validate", responses, "--key", keys, "--output", "json")
    assert run.code == 2
    assert [(p["kind"], p["file"], p["line"]) for p in run.json["problems"]] == [
        ("pairing", str(responses), None),
        ("pairing", str(responses / "dd_w-corefud-dev.conllu"), None),
        ("head", str(responses / "bb_y-corefud-dev.conllu"), line_of(bad, "\tdog22\t"))]
    assert "cc_z-corefud-dev.conllu" in run.json["problems"][0]["message"]
    assert [f["response"] for f in run.json["files"]] == [str(responses / "aa_x-corefud-dev.conllu"),
                                                          str(responses / "bb_y-corefud-dev.conllu")]
    # The bench fixtures are valid; their Udapi notes are warnings, as scoring warns about them.
    bench = run_cli("validate", FIXTURES / "bench" / "sys", "--key", FIXTURES / "bench" / "key", "--output", "json")
    assert bench.code == 0 and bench.json["problems"] == []
    assert [w["kind"] for w in bench.json["warnings"]] == ["warning", "warning"]


def test_an_unreadable_submission_is_one_problem(tmp_path):
    key = tmp_path / "key.conllu"
    key.write_text(corefud_key(), encoding="utf-8")
    run = run_cli("validate", tmp_path / "absent.conllu", "--key", key, "--output", "json")
    assert run.code == 2
    assert found(run) == [("file", None)] and run.json["problems"][0]["message"] == "no such file"


# --- CoNLL-2012 ------------------------------------------------------------

def conll_key() -> str:
    lines = []
    for d in range(1, 5):
        lines.append(f"#begin document (doc{d}); part 000")
        for s in range(1, 4):
            for t, mark in enumerate(["(1)", "(2", "2)", "-", "-"]):
                lines.append(f"doc{d}\t0\t{t}\tw{d}{s}{t}\tNN\t{mark}")
            lines.append("")
        lines.append("#end document")
    return "\n".join(lines) + "\n"


CONLL_PLANTED = {
    "unclosed bracket": (lambda ls: replace_line(ls, "\tw112\t", "2)", "-"), "brackets", "\tw111\t"),
    "closing bracket with no opening": (lambda ls: replace_line(ls, "\tw124\t", "-", "7)"), "brackets", "\tw124\t"),
    "bad entity id": (lambda ls: replace_line(ls, "\tw130\t", "(1)", "(a)"), "entity-id", "\tw130\t"),
    "sentence missing": (lambda ls: drop_block(ls, "\tw220\t", "\tw224\t"), "sentence-missing", None),
    "document missing": (lambda ls: _drop_document(ls, "doc3"), "document-missing", None),
}


def _drop_document(lines: list[str], name: str) -> None:
    start = lines.index(f"#begin document ({name}); part 000")
    end = next(i for i in range(start, len(lines)) if lines[i] == "#end document")
    del lines[start:end + 1]


def test_conll_every_planted_problem_is_found(tmp_path):
    key_text = conll_key()

    def changed_form(lines):  # a word form changed: a warning, not a problem
        replace_line(lines, "\tw413\t", "w413", "v413")

    run, _, _, response_text = validate_planted(tmp_path, key_text, CONLL_PLANTED, "conll", [changed_form])
    assert sorted(p["message"] for p in run.json["problems"] if p["kind"].endswith("missing")) == [
        "document '(doc3); part 000' of the key is missing from the response",
        "sentence 2 of document '(doc2); part 000' is missing from the response"]
    # Word forms that differ are scored by position with a warning, as scorer.pl does: a warning here.
    assert [(w["kind"], w["line"]) for w in run.json["warnings"]] == [("word-form", line_of(response_text, "v413"))]
    strict, _, _ = validate(tmp_path, key_text, response_text, "conll", "--form-check")
    assert ("word-form", line_of(response_text, "v413")) in found(strict)


# --- Universal Anaphora ----------------------------------------------------

UA_COLUMNS = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY"


def ua_key() -> str:
    lines = [UA_COLUMNS]
    for d in range(1, 5):
        for s in range(1, 4):
            if s == 1:
                lines.append(f"# newdoc id = u{d}")
            lines.append(f"# sent_id = u{d}-{s}")
            rows = [("1", f"A{d}{s}", f"(EntityID=e{d}1|MarkableID=m{d}{s}1)"), ("2", f"saw{d}{s}", "_"),
                    ("2.1", "_", f"(EntityID=e{d}1|MarkableID=m{d}{s}0)"),
                    ("3", f"the{d}{s}", f"(EntityID=e{d}{s}2|MarkableID=m{d}{s}2"), ("4", f"dog{d}{s}", ")"),
                    ("5", f"end{d}{s}", "_")]
            for ord_, form, mark in rows:
                lines.append("\t".join([ord_, form, "_", "_", "_", "_", "_", "_", "_", "_", mark]))
            lines.append("")
    return "\n".join(lines) + "\n"


UA_PLANTED = {
    "unclosed bracket": (lambda ls: replace_line(ls, "\tdog11\t", "\t)", "\t_"), "brackets", "\tthe11\t"),
    "closing bracket with no opening": (lambda ls: _ua_identity(ls, "\tend21\t", ")"), "brackets", "\tend21\t"),
    "bad entity id": (lambda ls: _ua_identity(ls, "\tA13\t", "(MarkableID=m131)"), "entity-id", "\tA13\t"),
    "markable left open on an empty node": (lambda ls: _ua_identity(ls, "MarkableID=m220)", "(EntityID=e21|MarkableID=m220"),
                                            "empty-node", "MarkableID=m220"),
    "minimum span out of the document": (lambda ls: _ua_identity(ls, "\tthe23\t", "(EntityID=e232|MarkableID=m232|Min=99"),
                                         "head", "\tthe23\t"),
    "word form changed": (lambda ls: replace_line(ls, "\tdog41\t", "dog41", "cat41"), "word-form", "\tcat41\t"),
    "sentence missing": (lambda ls: drop_block(ls, "# sent_id = u4-2", "\tend42\t"), "sentence-missing", None),
    "document missing": (lambda ls: drop_block(ls, "# newdoc id = u3", "\tend33\t"), "document-missing", None),
}


def _ua_identity(lines: list[str], needle: str, value: str) -> None:
    found_ = [i for i, line in enumerate(lines) if needle in line]
    assert len(found_) == 1
    columns = lines[found_[0]].split("\t")
    columns[10] = value
    lines[found_[0]] = "\t".join(columns)


def test_ua_every_planted_problem_is_found(tmp_path):
    run, _, _, _ = validate_planted(tmp_path, ua_key(), UA_PLANTED, "conllu")
    assert sorted(p["message"] for p in run.json["problems"] if p["kind"].endswith("missing")) == [
        "document 'u3' of the key is missing from the response",
        "sentence 'u4-2' of document 'u4' is missing from the response"]
    assert run.json["warnings"] == []


def test_a_missing_header_is_one_problem_naming_each_document(tmp_path):
    key_text = corefud_key()
    response_text = "\n".join(line for line in key_text.split("\n") if not line.startswith("# global.Entity"))
    run, key, response = validate(tmp_path, key_text, response_text, "conllu")
    starts = [line_of(response_text, f"# newdoc id = d{d}") for d in range(1, 5)]
    message = ("Entity= annotations but no '# global.Entity' header before them "
               "(CorefUD 1.x declares it on the first sentence)")
    assert run.code == 2
    assert [(p["kind"], p["line"], p["message"]) for p in run.json["problems"]] == [
        ("header", starts[0], f"{message} (and at lines {', '.join(map(str, starts[1:]))})")]
    assert assert_scoring_stops_at_one_error(key, response).endswith(f"{response}:{starts[0]}: {message}")


# Each format: its key, the problems planted in it, the format validate is told.
FORMATS = {"corefud": (corefud_key, COREFUD_PLANTED, "conllu"), "conll": (conll_key, CONLL_PLANTED, "conll"),
           "ua": (ua_key, UA_PLANTED, "conllu")}


@pytest.mark.parametrize("fmt, name", [(fmt, name) for fmt, (_, plants, _) in FORMATS.items() for name in plants])
def test_scoring_stops_at_the_first_problem_of_each_planted_file(tmp_path, fmt, name):
    make_key, plants, told = FORMATS[fmt]
    plant, kind, needle = plants[name]
    key_text = make_key()
    response_text = planted(key_text, [plant])
    run, key, response = validate(tmp_path, key_text, response_text, told)
    assert run.code == 2 and [k for k, _ in found(run)] == [kind]
    error = assert_scoring_stops_at_one_error(key, response)
    if needle is not None:
        # Found while reading: the scoring names the same line with the same words.
        line = line_of(response_text, needle)
        assert found(run) == [(kind, line)]
        assert error.endswith(f"{response}:{line}: {run.json['problems'][0]['message']}")


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_valid_submission_of_each_format_has_no_problem(tmp_path, fmt):
    make_key, _, told = FORMATS[fmt]
    run, _, _ = validate(tmp_path, make_key(), make_key(), told)
    assert run.code == 0
    assert run.json["would_score"] is True and run.json["problems"] == [] and run.json["warnings"] == []
