"""Universal Anaphora: the UA reader, split antecedents, bridging and
non-referring markables, on UA files and on CorefUD files.

``fixtures/anaphora/station.*`` is one document in both formats:

    John(e1) met Mary(e2) at the station(e4) . They(e3) liked it(e4) .
    The door(e5) was old . It rained .

Key: e3 is the plural of e1 and e2; "The door" bridges to e4 (antecedent
markable "it"); "It" is non-referring (UA only: CorefUD has no such mark).
Response: e3 is the plural of e1 alone; the same bridging link, and an
invented one from "Mary" to e1; "It" and "rained" non-referring.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest

from corefud_scorer import Options, score
from corefud_scorer.errors import ScorerError
from corefud_scorer.cli import main
from corefud_scorer.alignment.match import align, craft_score
from corefud_scorer.model import Mention
from corefud_scorer.formats.readers import detect_format

HERE = Path(__file__).resolve().parent.parent / "fixtures" / "anaphora"
UA = (HERE / "station.key.ua.conllu", HERE / "station.response.ua.conllu")
COREFUD = (HERE / "station.key.conllu", HERE / "station.response.conllu")
SPLIT = dict(keep_singletons=True, keep_split_antecedents=True, match="exact")
EVERY = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mention", "mor", "bridging",
         "non-referring")


def triple(score_):
    return (score_.recall, score_.precision, score_.f1)


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


def test_formats_are_detected():
    assert detect_format(str(UA[0])) == "ua"
    assert detect_format(str(COREFUD[0])) == "corefud"


def test_split_antecedents_worked_by_hand():
    # MUC recall: the split antecedents align with recall 1/2 (e1 of {e1, e2}),
    # so e3 {They, split} keeps 2 - 1/2 - 1 = 1/2 link of 1, e4 its 1 of 1.
    # Precision: the response split {e1} is all in the key's: 1 of 1 in e3, 1 in e4.
    # B-cubed recall: e3 has 1 + 1/2 of its 2 mentions in one response entity,
    # (1.5^2)/2 = 1.125; the others are whole: (1 + 1 + 1.125 + 2 + 1) / 7.
    result = score(*UA, Options(metrics=EVERY, format="ua", keep_zeros=False, **SPLIT))
    m = result.metrics
    assert (m["muc"].recall_num, m["muc"].recall_den) == (1.5, 2.0)
    assert (m["muc"].precision_num, m["muc"].precision_den) == (2.0, 2.0)
    assert (m["bcub"].recall_num, m["bcub"].recall_den) == (6.125, 7.0)
    assert triple(m["bcub"])[:2] == (0.875, 1.0)
    # MOR overlaps words, which a split antecedent has none of.
    assert not m["mor"].applicable
    assert result.settings["format"] == "ua"


def test_bridging_and_non_referring_worked_by_hand():
    m = score(*UA, Options(metrics=("bridging", "non-referring"), format="ua", match="exact",
                           keep_zeros=False)).metrics
    # One key anaphor found with its antecedent, one response anaphor invented.
    for part in ("anaphor_recognition", "markable", "entity"):
        assert triple(m["bridging"].parts[part]) == pytest.approx((1.0, 0.5, 2 / 3))
    # "It" found; "rained" invented.
    assert triple(m["non-referring"]) == pytest.approx((1.0, 0.5, 2 / 3))


def test_ua_and_corefud_files_give_the_same_numbers():
    ua = score(*UA, Options(metrics=EVERY, format="ua", keep_zeros=False, **SPLIT)).metrics
    # CorefUD files have no non-referring markables: asked for, they are refused.
    held = tuple(name for name in EVERY if name != "non-referring")
    corefud = score(*COREFUD, Options(metrics=held, **SPLIT)).metrics
    for name in held:
        assert triple(ua[name]) == triple(corefud[name]), name
        for part in ua[name].parts:
            assert triple(ua[name].parts[part]) == triple(corefud[name].parts[part])
    with pytest.raises(ScorerError, match="^-m non-referring: CorefUD files have no non-referring markables"):
        score(*COREFUD, Options(metrics=EVERY, **SPLIT))


def test_entity_level_bridging(tmp_path):
    # The response anchors "The door" on "the station", another mention of
    # the key's antecedent entity: wrong markable, right entity.
    response = tmp_path / "anchor.conllu"
    response.write_text(UA[1].read_text().replace("MentionAnchor=m5", "MentionAnchor=m4"))
    parts = score(UA[0], response, Options(metrics=("bridging",), format="ua", match="exact",
                                           keep_zeros=False)).metrics["bridging"].parts
    assert triple(parts["anaphor_recognition"]) == pytest.approx((1.0, 0.5, 2 / 3))
    assert triple(parts["markable"]) == (0.0, 0.0, 0.0)
    assert triple(parts["entity"]) == pytest.approx((1.0, 0.5, 2 / 3))


def test_corefud_defaults_ignore_split_antecedents_and_bridging(tmp_path):
    # Without -l or the bridging metric, SplitAnte= and Bridge= change nothing.
    plain = []
    for path in COREFUD:
        lines = [line.replace("|SplitAnte=e1<e3,e2<e3", "").replace("|SplitAnte=e1<e3", "")
                 .replace("Bridge=e4<e5:part|", "").replace("Bridge=e1<e2:other|", "")
                 for line in path.read_text().splitlines(keepends=True)]
        stripped = tmp_path / path.name
        stripped.write_text("".join(lines))
        plain.append(stripped)
    assert "SplitAnte" not in plain[0].read_text() and "Bridge" not in plain[1].read_text()
    for flags in ([], ["-s"], ["-a", "exact", "-s"]):
        assert run([*COREFUD, *flags])[1] == run([*plain, *flags])[1]


def test_cli_ua_text_and_json():
    code, out, err = run([*UA, "-s", "-l", "-m", "all"])
    assert code == 0, err
    assert out.startswith("The scorer is evaluating coreferential mentions, singletons, "
                          "split-antecedents, non-referring mentions, bridging relations "
                          "using exact match evaluation setting.\nThe following metrics will be "
                          "evaluated: muc, bcub, ceafe, ceafm, blanc, lea, mention, mor, "
                          "non-referring, bridging\n\nmuc\n"
                          "Recall: 75.00  Precision: 100.00  F1: 85.71\n")
    assert "Full bridging scores (Entity Level):\nRecall: 100.00  Precision: 50.00  F1: 66.67\n" in out
    code, out, _ = run([*UA, "-s", "-l", "-m", "all", "--output", "json"])
    data = json.loads(out)
    assert data["settings"]["format"] == "ua"
    assert data["metrics"]["mor"]["f1"] is None
    assert set(data["metrics"]["bridging"]["parts"]) == {"anaphor_recognition", "markable", "entity"}
    assert data["metrics"]["non-referring"]["recall"] == 1.0


def test_ua_defaults_are_the_ua_scorers():
    code, out, _ = run(UA)
    assert code == 0
    # exact matching, singletons and zeros left out, MUC B-cubed CEAF-e.
    assert out.splitlines()[:2] == [
        "The scorer is evaluating coreferential mentions using exact match evaluation setting.",
        "The following metrics will be evaluated: muc, bcub, ceafe"]
    assert out.endswith("CoNLL score: %s\n" % out.rsplit("CoNLL score: ", 1)[1].strip())


def test_split_antecedents_need_singletons(capsys):
    with pytest.raises(SystemExit) as stop:
        run([*UA, "-l"])
    assert stop.value.code == 2 and "--keep-singletons" in capsys.readouterr().err


@pytest.mark.parametrize("change, message, line", [
    (("met\t_\t_\t_\t_\t1\tdep\t_\t_\t_", "met\t_\t_\t_\t_\t1\tdep\t_\t_\t(EntityID=9|MarkableID=m9"),
     "'m9' is opened but never closed", 6),
    (("door\t_\t_\t_\t_\t1\tdep\t_\t_\t)", "door\t_\t_\t_\t_\t1\tdep\t_\t_\t))"),
     "none is open", 23),
    (("ElementOf=3)", "ElementOf=8)"), "ElementOf=8 names no entity", 5),
    (("REFERENCE", "REFERENCES"), "unknown column 'REFERENCES'", 1),
    (("MarkableID=m5)", "MarkableID=m5|Min)"), "markable attribute 'Min' is not NAME=VALUE", 17),
])
def test_bad_ua_input_is_one_line_error(tmp_path, change, message, line):
    bad = tmp_path / "bad.conllu"
    bad.write_text(UA[0].read_text().replace(*change, 1))
    code, out, err = run([bad, UA[1], "--format", "ua"])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert f"{bad}:{line}:" in err and message in err


def test_validation_reports_every_attribute_that_is_not_name_value(tmp_path):
    bad = tmp_path / "bad.conllu"
    bad.write_text(UA[1].read_text().replace("MarkableID=m5)", "MarkableID=m5|Min|x=1|y)", 1))
    code, out, err = run(["validate", "--key", UA[0], bad])
    assert code == 2
    assert [line for line in out.splitlines() if "NAME=VALUE" in line] == [
        f"{bad}:17: error [entity-id]: markable attribute 'Min' is not NAME=VALUE",
        f"{bad}:17: error [entity-id]: markable attribute 'y' is not NAME=VALUE"]


@pytest.mark.parametrize("side", [0, 1])
@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    (b"\xff\xfe\x00 not text", "not UTF-8 text"),
    (b"", "holds no sentence: not a UA file"),
    (gzip.compress(b"# newdoc id = d\n" * 200)[:30], "damaged gzip data"),
])
def test_a_file_naming_no_format_is_read_in_the_others_and_its_problem_said(tmp_path, side, content, message):
    # Detected in the default format only for want of another, it does not
    # make the pair's formats differ: the other file's reader says what is wrong.
    bad = tmp_path / "bad.conllu"
    if content is not None:
        bad.write_bytes(content)
    files = list(UA)
    files[side] = bad
    code, out, err = run(files)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith(f"corefud-scorer: error: {bad}") and message in err


def test_formats_must_agree():
    code, out, err = run([UA[0], COREFUD[1]])
    assert code == 2 and out == "" and "format" in err


def test_word_forms_checked_unless_told(tmp_path):
    response = tmp_path / "forms.conllu"
    response.write_text(UA[1].read_text().replace("\tdoor\t", "\tgate\t"))
    assert run([UA[0], response])[0] == 2
    assert run([UA[0], response, "--no-form-check"])[0] == 0


def test_craft_partial_matching():
    # Key: words 1-3 then 7-8 (first part 1-3); CRAFT matches a response
    # with a part inside the key's first part, by the key's shared share.
    key = Mention((1, 2, 3, 7, 8), 1, spans=((1, 3), (7, 8)))
    inside = Mention((2, 3), 2)
    outside = Mention((3, 4), 3)
    assert craft_score(key, inside) == 2 / 5
    assert craft_score(key, outside) == 0.0
    pairs = align({key.words: key}, {inside.words: inside, outside.words: outside},
                  "partial-craft", "linear")
    assert list(pairs) == [(key.words, inside.words)]
