"""Error analysis: the worked example of the design note, one hand-built case
per category, corrections that reach the key, and no mention charged twice."""

from __future__ import annotations

import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from corefud_scorer.api import Options, score
from corefud_scorer.jobs.error_analysis import (CATEGORIES, analyse, analyse_documents, analyse_files, core_span,
                                            mention_kind)
from corefud_scorer.model import Document, DocumentText, Entity, Mention, Word, position
from corefud_scorer.formats.readers.corefud import iter_raw_documents, read_documents, read_file
from corefud_scorer.jobs.pipeline import align_documents

from conftest import LONG, ROOT, run_cli
from schema import validate_result

sys.path.insert(0, str(ROOT / "bench"))
import generate  # noqa: E402

EXACT = Options(match="exact")
NONE = dict.fromkeys(CATEGORIES, 0)


# --- documents made of one-word mentions named by letters ---

LETTERS = "abcdefghjkpqxyz"


def mention(name: str) -> Mention:
    pos = position(0, LETTERS.index(name) + 1)
    return Mention((pos,), pos)


def document(entities: list[str], text=None) -> Document:
    return Document("d", [Entity(f"e{i}", [mention(c) for c in e]) for i, e in enumerate(entities)],
                    tokens=len(LETTERS), text=text)


def pronoun_text(*pronouns: str) -> DocumentText:
    """Every letter a noun, except the given ones, which are pronouns."""
    words = {position(0, i + 1): Word(c, "PRON" if c in pronouns else "NOUN", "_")
             for i, c in enumerate(LETTERS)}
    return DocumentText(["s1"], words)


def counts(key, response, options=EXACT, **expected):
    report = analyse_documents([key], [response], options)
    assert report.counts == {**NONE, **expected}
    # Correcting everything gives the key, whatever the metric.
    full = report.cost["cumulative"][CATEGORIES[-1]]
    assert all(value == pytest.approx(1.0) for value in full.values() if value is not None)
    return report


def test_the_notes_worked_example():
    report = counts(document(["abcd", "ef", "gh", "jk"]), document(["ab", "cdef", "xy", "jz"]),
                    divided_entity=1, conflated_entities=1, missing_entity=1, extra_entity=1,
                    extra_mention=1, missing_mention=1)
    by_category = {o["category"]: o for o in report.occurrences}
    assert by_category["conflated_entities"]["key_entities"] == ["e0", "e1"]
    assert by_category["conflated_entities"]["response_entities"] == ["e1"]
    assert by_category["divided_entity"]["response_entities"] == ["e0", "e1"]
    assert [m["tokens"] for m in by_category["missing_entity"]["mentions"]] == ["7", "8"]
    assert [m["tokens"] for m in by_category["extra_entity"]["mentions"]] == ["13", "14"]
    assert by_category["extra_mention"]["mentions"][0]["tokens"] == "15"
    assert by_category["missing_mention"]["mentions"][0]["tokens"] == "10"


def test_a_spurious_first_mention_is_still_an_extra_mention():
    # The analyser would let x anchor {x, j} and charge j as conflated.
    counts(document(["jk", "ab"]), document(["xj", "ab"]), extra_mention=1, missing_mention=1)


def test_a_dropped_first_mention_is_a_missing_mention():
    counts(document(["abc"]), document(["bc"]), missing_mention=1)


def test_conflated_entities():
    report = counts(document(["ab", "cd"]), document(["abcd"]), conflated_entities=1)
    assert report.cost["alone"]["conflated_entities"]["conll"] == pytest.approx(1.0)


def test_divided_entity():
    report = counts(document(["abcd"]), document(["ab", "cd"]), divided_entity=1)
    assert report.cost["alone"]["divided_entity"]["muc"] == pytest.approx(1.0)


def test_missing_and_extra_entity():
    counts(document(["ab", "cd"]), document(["ab"]), missing_entity=1)
    counts(document(["ab"]), document(["ab", "xy"]), extra_entity=1)


def test_an_entity_found_only_as_a_pronoun_is_missing():
    key, response = document(["ab", "cdp"]), document(["abp"])
    key.text = pronoun_text("p")
    counts(key, response, missing_entity=1, conflated_entities=1)
    # Found as a noun instead: its missing mentions are mentions, not an entity.
    key.text = pronoun_text()
    counts(key, response, missing_mention=2, conflated_entities=1)


def test_an_entity_of_extras_beside_key_pronouns_is_extra():
    key, response = document(["ap", "bc"]), document(["pxy", "bc"])
    key.text = pronoun_text("p")
    counts(key, response, extra_entity=1, missing_mention=1)


def test_zeros_are_their_own_kind_and_anchor_nothing():
    key_text = pronoun_text()
    z = position(0, 1.1)
    key_text.words[z] = Word("_", None, None)
    zero = Mention((z,), z, is_zero=True)
    assert mention_kind(zero, key_text) == "zero"
    key = Document("d", [Entity("e0", [zero, mention("c"), mention("d")])], text=key_text)
    response = Document("d", [Entity("r0", [Mention((z,), z, is_zero=True), mention("x")])])
    report = counts(key, response, Options(match="exact", zero_match="linear"),
                    missing_entity=1, extra_mention=1)
    assert [m["kind"] for o in report.occurrences for m in o["mentions"]] == ["nominal", "nominal", "nominal"]


def test_singletons_kept():
    keep = Options(match="exact", keep_singletons=True)
    counts(document(["ab", "c"]), document(["ab"]), keep, missing_mention=1)
    counts(document(["ab"]), document(["ab", "x"]), keep, extra_mention=1)
    # Dropped on both sides without -s, as the score drops them.
    counts(document(["ab", "c"]), document(["ab", "x"]))


def _span_text():
    # "the old dog ( it ) 's" with trees: article, noun phrase, punctuation, possessive.
    forms = [("the", "DET", "Definite=Def|PronType=Art"), ("old", "ADJ", "_"), ("dog", "NOUN", "_"),
             ("(", "PUNCT", "_"), ("it", "PRON", "PronType=Prs"), (")", "PUNCT", "_"),
             ("'s", "PART", "Poss=Yes")]
    return DocumentText(["s1"], {position(0, i + 1): Word(*w) for i, w in enumerate(forms)})


def span(first: int, last: int, head: int) -> Mention:
    return Mention(tuple(position(0, i) for i in range(first, last + 1)), position(0, head))


def test_span_errors_by_alignment_core_span_and_head():
    text = _span_text()
    assert core_span(span(1, 3, 3), text) == span(2, 3, 3).words
    assert core_span(span(4, 6, 5), text) == span(5, 5, 5).words
    other = [span(5, 5, 5), span(7, 7, 7)]

    def docs(key_mention, response_mention):
        key = Document("d", [Entity("e", [key_mention, *other])], text=text)
        return key, Document("d", [Entity("r", [response_mention, *other])])

    # Head matching aligns them: a span error all the same.
    key, response = docs(span(1, 3, 3), span(2, 3, 3))
    report = counts(key, response, Options(match="head"), span_error=1)
    assert report.occurrences[0]["words"] == ["old dog", "the old dog"]
    # Exact matching: the article set aside, the spans are equal.
    counts(*docs(span(1, 3, 3), span(2, 3, 3)), span_error=1)
    # Exact matching, different cores: one key and one response mention with one head.
    key, response = docs(span(1, 3, 3), span(3, 4, 3))
    report = counts(key, response, span_error=1)
    assert report.cost["baseline"]["muc"] < 1.0
    assert report.cost["alone"]["span_error"]["muc"] == pytest.approx(1.0)


def test_without_trees_the_token_rules_and_english_pronouns():
    words = {position(0, i + 1): Word(form, tag, None)
             for i, (form, tag) in enumerate([("the", "DT"), ("dog", "NN"), ("'s", "POS"), ("she", "PRP"),
                                              ("him", "XX"), ("Kim", "NNP")])}
    text = DocumentText(["s1"], words, trees=False)
    assert core_span(span(1, 3, 2), text) == span(2, 2, 2).words
    assert [mention_kind(span(i, i, i), text) for i in (2, 4, 5, 6)] == ["nominal", "pronoun", "pronoun", "name"]
    key = Document("d", [Entity("e", [span(1, 3, 2), span(4, 4, 4)])], text=text)
    response = Document("d", [Entity("r", [span(2, 2, 2), span(4, 4, 4)])])
    report = analyse_documents([key], [response], EXACT)
    assert report.counts["span_error"] == 1
    assert report.to_json()["method"]["pronouns"].startswith("English")


def test_a_reader_without_words_is_read_as_it_is(story, monkeypatch):
    from types import SimpleNamespace

    from corefud_scorer.formats import readers
    from corefud_scorer.formats.readers import corefud

    def plain(path, side="key"):  # a reader that cannot give words
        return corefud.read_documents(path, side)

    monkeypatch.setattr(readers, "reader", lambda fmt: SimpleNamespace(read_documents=plain, PROFILE=corefud.PROFILE))
    key, response = story
    report = analyse_files(str(key), str(response), Options(match="exact", keep_singletons=True, format="corefud"))
    assert report.to_json()["method"]["pronouns"].startswith("none known")
    assert report.counts["missing_mention"] == 1
    assert report.occurrences[-1]["mentions"][0]["kind"] == "nominal"


# --- generated files: every setting ---

SETTINGS = [Options(match=m, zero_match=z, keep_singletons=s)
            for m in ("exact", "partial", "head") for z in ("linear", "dependent") for s in (False, True)]


def _check_once(errors):
    """No mention is charged twice: response mentions once among the
    response-side categories, key mentions once among the key-side ones."""
    response_side = [r for part in errors.conflated for r in part.mentions]
    response_side += errors.extra_mentions + [r for extras in errors.extra_entities for r in extras]
    assert len(response_side) == len(set(response_side))
    key_side = [errors.key_of[r] for _, part in errors.divided for r in part.mentions]
    key_side += [k for k, _ in errors.missing_mentions]
    key_side += [k for missing, _ in errors.missing_entities for k in missing]
    assert len(key_side) == len(set(key_side))
    span_response = [r for r, _ in errors.span_errors]
    span_key = [k for _, k in errors.span_errors]
    assert len(set(span_response)) == len(span_response) and len(set(span_key)) == len(span_key)
    # A span error's mentions are found: neither extra nor missing.
    extras = set(errors.extra_mentions) | {r for extras in errors.extra_entities for r in extras}
    missing = {k for k, _ in errors.missing_mentions} | {k for m, _ in errors.missing_entities for k in m}
    assert not extras & set(span_response) and not missing & set(span_key)
    # Extras are exactly the response mentions without a key partner, and
    # missing mentions exactly the key mentions without a response partner.
    assert extras == {r for r, k in enumerate(errors.key_of) if k is None}
    assert missing == {k for k, r in enumerate(errors.found_of) if r is None}
    assert sum(errors.counts.values()) == len(errors.occurrences)


@settings(max_examples=12 if LONG else 4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10_000), ties=st.sampled_from([0.0, 0.2]))
def test_generated_files_every_setting(tmp_path_factory, seed, ties):
    folder = tmp_path_factory.mktemp("gen")
    key_path, response_path = folder / "k.conllu", folder / "r.conllu"
    generate.write_pair(str(key_path), str(response_path), seed, docs=2, tokens_per_doc=250, ties=ties)
    key_docs = _read_with_text(key_path)
    response_docs = _read_with_text(response_path)
    # The default run takes every fourth setting, a different quarter by seed.
    for options in SETTINGS if LONG else SETTINGS[seed % 4::4]:
        for key_doc, response_doc in zip(key_docs, response_docs):
            p = align_documents(key_doc, response_doc, options)
            _check_once(analyse(p.key.entities, p.response.entities, p.key.entity_of, p.response.entity_of,
                                p.alignment, p.identity, options.zero_match, key_doc.text, key_doc.doc_id))
        report = analyse_documents(key_docs, response_docs, options)
        result = score(str(key_path), str(response_path), options)
        # The analysis starts from the score printed, and its corrections reach the key.
        assert report.cost["baseline"]["conll"] == result.conll
        assert all(report.cost["baseline"][name] == result.metrics[name].f1 for name in result.metrics)
        full = report.cost["cumulative"][CATEGORIES[-1]]
        assert all(value == pytest.approx(1.0) for value in full.values() if value is not None)
        # (Correcting spans also moves zeros paired by dependencies onto the
        # key's empty nodes, which mention overlap reads: not checked here.)
        for category in CATEGORIES[1:]:
            if report.counts[category] == 0:
                assert report.cost["alone"][category] == report.cost["baseline"]


def _read_with_text(path):
    return [source.load() for source in read_documents(str(path), words=True)]


def test_parallel_rescoring_gives_the_same_costs(tmp_path, monkeypatch):
    from corefud_scorer.jobs.error_analysis import costs

    key_path, response_path = tmp_path / "k.conllu", tmp_path / "r.conllu"
    generate.write_pair(str(key_path), str(response_path), 7, docs=1, tokens_per_doc=600)
    key_docs, response_docs = _read_with_text(key_path), _read_with_text(response_path)
    alone = analyse_documents(key_docs, response_docs, Options())
    monkeypatch.setattr(costs, "PARALLEL_MENTIONS", 0)
    together = analyse_documents(key_docs, response_docs, Options(), jobs=2)
    assert together.cost == alone.cost and together.counts == alone.counts
    assert sum(together.counts.values()) > 10


# --- the reader option and the command line ---

STORY_KEY = """# newdoc id = d1
# global.Entity = eid-etype-head-other
# sent_id = s1
1\tThe\tthe\tDET\t_\tDefinite=Def|PronType=Art\t2\tdet\t2:det\tEntity=(e1-animal-2
2\tdog\tdog\tNOUN\t_\tNumber=Sing\t3\tnsubj\t3:nsubj\tEntity=e1)
3\tsaw\tsee\tVERB\t_\tTense=Past\t0\troot\t0:root\t_
4\tMary\tMary\tPROPN\t_\tNumber=Sing\t3\tobj\t3:obj\tEntity=(e2-person-1)
5\t.\t.\tPUNCT\t_\t_\t3\tpunct\t3:punct\t_

# sent_id = s2
1\tShe\tshe\tPRON\t_\tPronType=Prs\t2\tnsubj\t2:nsubj\tEntity=(e2-person-1)
2\tfed\tfeed\tVERB\t_\tTense=Past\t0\troot\t0:root\t_
3\tit\tit\tPRON\t_\tPronType=Prs\t2\tobj\t2:obj\tEntity=(e1-animal-1)
4\t.\t.\tPUNCT\t_\t_\t2\tpunct\t2:punct\t_
"""


def _response(text: str) -> str:
    """The story with 'dog' alone as the mention, and 'She' not marked."""
    text = text.replace("\tEntity=(e1-animal-2\n", "\t_\n").replace("\tEntity=e1)\n", "\tEntity=(e1-animal-1)\n")
    return text.replace("PronType=Prs\t2\tnsubj\t2:nsubj\tEntity=(e2-person-1)", "PronType=Prs\t2\tnsubj\t2:nsubj\t_")


@pytest.fixture
def story(write):
    return write("key.conllu", STORY_KEY), write("sys.conllu", _response(STORY_KEY))


def test_reader_keeps_upos_and_feats_only_when_asked(story):
    key, _ = story
    plain = next(iter_raw_documents(str(key)))
    kept = next(iter_raw_documents(str(key), words=True))
    assert plain.lines[3].split("\t")[3] == "_"
    assert kept.lines[3].split("\t")[3:6] == ["DET", "_", "Definite=Def|PronType=Art"]
    assert read_file(str(key))[0].text is None


def test_errors_command_json(story):
    key, response = story
    run = run_cli("errors", key, response, "-a", "exact", "-s", "--output", "json")
    assert run.code == 0, run.err
    assert run.json["schema_version"] == 1 and run.json["settings"]["match"] == "exact"
    errors = run.json["errors"]
    assert list(errors["counts"]) == ["span_error", "missing_mention", "extra_mention", "missing_entity",
                                      "extra_entity", "divided_entity", "conflated_entities"]
    assert errors["counts"] == {**NONE, "span_error": 1, "missing_mention": 1}
    span, missing = errors["occurrences"]
    assert span["words"] == ["dog", "The dog"] and span["sentence"] == "s1"
    assert span["key_entities"] == ["e1"] and span["response_entities"] == ["e1"]
    assert missing["mentions"][0] == {"side": "key", "sentence": "s2", "tokens": "1", "words": "She",
                                      "kind": "pronoun"}
    assert errors["per_document"] == [{"document": "d1", "counts": errors["counts"]}]
    assert errors["cost"]["cumulative"]["missing_entity"]["conll"] == pytest.approx(1.0)
    assert errors["cost"]["alone"]["span_error"]["muc"] > errors["cost"]["baseline"]["muc"]


def test_errors_flag_adds_the_object_and_keeps_the_rest(story):
    key, response = story
    plain = run_cli(key, response, "--output", "json", "-j", "1")
    with_errors = run_cli(key, response, "--output", "json", "--errors", "-j", "1")
    data = validate_result(with_errors.json)
    errors = data.pop("errors")
    assert data == plain.json
    assert errors["counts"]["span_error"] == 1
    # The same matching: head matching aligns the two, a span error all the same.
    assert errors["cost"]["baseline"]["conll"] == plain.json["metrics"]["conll"]["f1"]
    text = run_cli(key, response, "--errors", "-q")
    assert text.out.startswith(run_cli(key, response, "-q").out)
    assert "Span Error" in text.out


def test_errors_command_text_and_plot(story, tmp_path):
    key, response = story
    plot = tmp_path / "costs.png"
    run = run_cli("errors", key, response, "-s", "--plot", plot)
    assert run.code == 0, run.err
    rows = {" ".join(line.split()[:2]): line.split()[2:] for line in run.out.splitlines() if "example" not in line}
    # Head matching: the span error costs nothing; the missing pronoun costs all.
    assert rows["Span Error"] == ["1", "75.64", "+0.00", "75.64", "+0.00"]
    assert rows["Missing Mention"] == ["1", "100.00", "+24.36", "100.00", "+24.36"]
    assert 'response s1:2 "dog" for key s1:1-2 "The dog"' in run.out
    assert 's2:1 "She" (pronoun) of key entity e2' in run.out
    assert "pronouns: UPOS PRON, or DET with PronType" in run.out
    assert plot.stat().st_size > 1000


def test_errors_command_bad_input(story, write):
    key, _ = story
    bad = write("bad.conllu", STORY_KEY.replace("1\tShe", "7\tShe"))
    run = run_cli("errors", key, bad)
    assert run.code == 2 and run.out == ""
    assert run.err.count("\n") == 1 and "bad.conllu:11:" in run.err


def test_a_conll_2012_file_is_analysed_with_token_rules_and_english_pronouns():
    root = ROOT / "fixtures" / "seed"
    report = analyse_files(str(root / "pradhan2014.key.conll"), str(root / "pradhan2014.response.conll"),
                           Options(match="exact", keep_singletons=True, format="conll"))
    method = report.to_json()["method"]
    assert "no trees" in method["heads"] and "English" in method["pronouns"]
    extra = [o for o in report.occurrences if o["category"] == "extra_mention"]
    # response entity {f, g, h, i}: h and i are extra, and "i" is the English pronoun
    assert sorted(m["kind"] for o in extra for m in o["mentions"]) == ["nominal", "pronoun"]
    assert report.counts["divided_entity"] == 2 and report.counts["conflated_entities"] == 1
