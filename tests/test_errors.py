"""Every bad input ends in one line on stderr naming the place, exit 2, and
nothing on stdout; valid oddities (CRLF, no final blank line) are accepted."""

from __future__ import annotations

import re

from conftest import FIXTURES, conllu, run_cli

KEY = FIXTURES / "example" / "key.conllu"
RESPONSE = FIXTURES / "example" / "response.conllu"


def assert_error(run, pattern):
    assert run.code == 2, (run.code, run.out, run.err)
    assert run.out == ""
    lines = run.err.splitlines()
    assert len(lines) == 1, run.err
    assert lines[0].startswith("corefud-scorer: error: ")
    assert re.search(pattern, lines[0]), lines[0]
    assert "Traceback" not in run.err


def variant(write, name, transform):
    text = RESPONSE.read_text(encoding="utf-8")
    return write(name, transform(text))


def test_missing_file(tmp_path):
    assert_error(run_cli(KEY, tmp_path / "nope.conllu"), r"nope\.conllu: no such file")


def test_directory(tmp_path):
    assert_error(run_cli(tmp_path, RESPONSE), r": is a directory")


def test_empty_file(write):
    assert_error(run_cli(KEY, write("empty.conllu", "")), r"empty\.conllu: holds no sentence")


def test_not_utf8(write):
    path = write("latin.conllu", RESPONSE.read_text().replace("walked", "w\u00e1lked").encode("latin-1"), "wb")
    assert_error(run_cli(KEY, path), r"latin\.conllu:4: not UTF-8")


def test_wrong_column_count(write):
    path = variant(write, "cols.conllu", lambda t: t.replace("1\tMary\t_", "1\tMary", 1))
    assert_error(run_cli(KEY, path), r"cols\.conllu:5: expected 10 tab-separated columns, found 9")


def test_bad_token_id(write):
    path = variant(write, "id.conllu", lambda t: t.replace("\n2\twalked", "\nx\twalked", 1))
    assert_error(run_cli(KEY, path), r"id\.conllu:6: bad token ID 'x'")


def test_bad_empty_node_id(write):
    path = variant(write, "empty-id.conllu", lambda t: t.replace("\n3.1\t", "\n3.x\t", 1))
    assert_error(run_cli(KEY, path), r"empty-id\.conllu:20: bad token ID '3\.x'")


def test_crlf_and_missing_final_blank_line_are_accepted(write):
    expected = run_cli(KEY, RESPONSE).out
    crlf = variant(write, "crlf.conllu", lambda t: t.replace("\n", "\r\n"))
    bare = variant(write, "bare.conllu", lambda t: t.rstrip("\n"))
    assert run_cli(KEY, crlf).out == expected
    assert run_cli(KEY, bare).out == expected


def test_different_sent_id(write):
    path = variant(write, "sid.conllu", lambda t: t.replace("sent_id = walk-2", "sent_id = walk-9"))
    assert_error(run_cli(KEY, path), r"key\.conllu:15 vs .*sid\.conllu:15: sent_id differs: 'walk-2' vs 'walk-9'")


def test_different_word_form(write):
    path = variant(write, "form.conllu", lambda t: t.replace("\tbarked\t", "\tbarks\t"))
    assert_error(run_cli(KEY, path), r"key\.conllu:18 vs .*form\.conllu:18: word 2 of sentence 'walk-2' differs")


def test_different_newdoc_id(write):
    path = variant(write, "nd.conllu", lambda t: t.replace("newdoc id = letter", "newdoc id = other"))
    assert_error(run_cli(KEY, path), r"document starts differ: 'letter' vs 'other'")


def test_different_newdoc_position(write):
    path = variant(write, "nd2.conllu", lambda t: t.replace("# newdoc id = letter\n", ""))
    assert_error(run_cli(KEY, path), r"key\.conllu:27 vs .*nd2\.conllu:37: document 'walk' ends after 3 sentences")


def test_fewer_sentences(write):
    path = variant(write, "short.conllu", lambda t: t[:t.index("# sent_id = letter-2")])
    assert_error(run_cli(KEY, path), r"document 'letter' ends after 1 sentence in the response")


def test_response_without_a_document(write):
    path = variant(write, "onedoc.conllu", lambda t: t[:t.index("# newdoc id = letter")])
    assert_error(run_cli(KEY, path), r"document 'letter' has no counterpart")


def test_unclosed_mention(write):
    path = variant(write, "open.conllu", lambda t: t.replace("Entity=r3)", "_", 1))
    assert_error(run_cli(KEY, path), r"open\.conllu:11: malformed Entity annotation: Mention r3 opened")


def test_closing_without_opening(write):
    path = variant(write, "close.conllu", lambda t: t.replace("Entity=(r1-person-1)", "Entity=r1)", 1))
    assert_error(run_cli(KEY, path), r"close\.conllu:5: malformed annotation: Mention r1 closed .* but not opened")


def test_mention_crossing_a_document_boundary(write):
    docs = {"a": [[(1, "x", "(e1-p-1-"), (2, "y", None)]],
            "b": [[(1, "z", "e1)"), (2, "w", None)]]}
    path = write("cross.conllu", conllu(docs))
    run = run_cli(path, path)
    assert_error(run, r"cross\.conllu:\d+: malformed")


def test_entity_spanning_documents_is_split_with_a_warning(write):
    docs = {"a": [[(1, "x", "(e1-p-1)"), (2, "y", "(e1-p-1)")]],
            "b": [[(1, "z", "(e1-p-1)"), (2, "w", "(e1-p-1)")]]}
    path = write("span.conllu", conllu(docs))
    run = run_cli(path, path, "--output", "json")
    assert run.code == 0
    assert "entities spanning documents, split per document" in run.err
    # Split: two entities of two mentions, so MUC has 2 links, not 3.
    assert run.json["metrics"]["muc"]["counts"]["recall_den"] == 2.0
    assert run_cli(path, path, "-q").err == ""


def test_warnings_come_once_per_kind_with_counts(write):
    docs = {"a": [[(1, "x", "(e1-p-1)"), (2, "y", "(e1-p-1)"), (3, "z", "(e2-p-1)"), (4, "v", "(e3-p-1)")]],
            "b": [[(1, "x", "(e4-p-1)(e4-p-1)"), (2, "y", "(e4-p-1)"), (3, "z", "(e5-q-1)"),
                   (4, "v", "(e5-r-1)")]]}
    path = write("warn.conllu", conllu(docs))
    other = write("warn2.conllu", conllu(docs))
    run = run_cli(path, other)
    assert run.code == 0
    lines = run.err.splitlines()
    assert all(line.startswith("corefud-scorer: warning: ") for line in lines)
    # Singletons dropped by default were asked for: a count, not a warning.
    assert not any("singleton" in line for line in lines)
    data = run_cli(path, other, "--output", "json").json
    # e2 and e3 on each side (b has none)
    assert data["counts"] == {"key_singletons_dropped": 2, "response_singletons_dropped": 2}
    verbose = run_cli(path, other, "-v").err.splitlines()
    assert any(line.endswith("key singletons dropped: 2") for line in verbose)
    assert run_cli(path, other, "-s", "--output", "json").json["counts"] == {
        "key_singletons_dropped": 0, "response_singletons_dropped": 0}
    assert any("warn.conllu: mentions repeated within their entity, counted once: 1" in line for line in lines)
    assert any("warn.conllu: Udapi: etype mismatch in <node>: 1 (first: etype mismatch in <b-1#4, v>: "
               "q != r (line 14))" in line for line in lines)
    assert run.out.startswith("The scorer is evaluating")
    assert run_cli(path, other, "-q").err == ""


def test_grp_ids_are_per_document_so_nothing_spans_documents(write):
    docs = {"a": [[(1, "x", "(1-p-1)"), (2, "y", "(1-p-1)")]],
            "b": [[(1, "z", "(1-p-1)"), (2, "w", "(1-p-1)")]]}
    text = conllu(docs).replace("global.Entity = eid-etype-head-other", "global.Entity = GRP-etype-head-other")
    path = write("grp.conllu", text)
    for jobs in ("1", "2"):
        run = run_cli(path, write("grp2.conllu", text), "-j", jobs, "--output", "json")
        assert run.code == 0 and "spanning documents" not in run.err
        assert run.json["metrics"]["muc"]["counts"]["recall_den"] == 2.0


def test_entity_without_global_entity_header(write):
    path = variant(write, "nohdr.conllu", lambda t: t.replace("# global.Entity = eid-etype-head-other\n", ""))
    assert_error(run_cli(KEY, path), r"nohdr\.conllu:1: Entity= annotations but no '# global.Entity' header")
