"""Error analysis names entities by the ids written in the files, whatever
the number of processes, the call or the request.

UD GUM's header (``GRP-...``) numbers entities per document; Udapi reads
such ids as ``dN.<id>`` with N from a counter global to the process, which
must not reach a report."""

from __future__ import annotations

import json

import pytest

from corefud_scorer.formats.readers.corefud import read_file

from conftest import run_cli

# (form, upos, Entity= value or None) per token, per sentence, per document.
DOCUMENTS = {
    "doc_a": [[("Kim", "PROPN", "(1-person-new)"), ("met", "VERB", None), ("Lee", "PROPN", "(p7-person-new)")],
              [("She", "PRON", "(1-person-giv)"), ("thanked", "VERB", None), ("him", "PRON", "(p7-person-giv)")]],
    "doc_b": [[("Kim", "PROPN", "(1-person-new)"), ("saw", "VERB", None), ("Ann", "PROPN", "(2-person-new)")],
              [("She", "PRON", "(2-person-giv)"), ("waved", "VERB", None), ("Kim", "PROPN", "(1-person-giv)")]],
}
# The response links "him" to Kim and the second "Kim" to Ann.
RESPONSE = {("doc_a", 1, 2): "(1-person-giv)", ("doc_b", 1, 2): "(2-person-giv)"}


def grp_file(changes=None) -> str:
    changes = changes or {}
    lines = []
    for d, (name, sentences) in enumerate(DOCUMENTS.items()):
        lines.append(f"# newdoc id = {name}")
        if d == 0:
            lines.append("# global.Entity = GRP-etype-infstat")
        for s, tokens in enumerate(sentences):
            lines += [f"# sent_id = {name}-{s + 1}", "# text = " + " ".join(t[0] for t in tokens)]
            for t, (form, upos, entity) in enumerate(tokens):
                entity = changes.get((name, s, t), entity)
                head, rel = (0, "root") if t == 0 else (1, "dep")
                lines.append("\t".join([str(t + 1), form, form.lower(), upos, "_", "_", str(head), rel,
                                        f"{head}:{rel}", f"Entity={entity}" if entity else "_"]))
            lines.append("")
    return "\n".join(lines) + "\n"


@pytest.fixture
def grp(write):
    return write("key.conllu", grp_file()), write("sys.conllu", grp_file(RESPONSE))


def _ids(errors: dict) -> list[str]:
    return [i for o in errors["occurrences"] for i in o["key_entities"] + o["response_entities"]]


def test_the_reader_gives_the_files_ids(grp):
    key, _ = grp
    for _ in range(2):  # a second reading in the same process reads alike
        assert [[e.eid for e in doc.entities] for doc in read_file(str(key))] == [["1", "p7"], ["1", "2"]]


def test_the_same_ids_whatever_jobs_or_call(grp):
    key, response = grp
    runs = [run_cli("errors", key, response, "-s", "-j", jobs, "--output", "json") for jobs in (1, 2, 1)]
    assert all(run.code == 0 for run in runs), runs[0].err
    assert runs[0].out == runs[1].out == runs[2].out
    errors = runs[0].json["errors"]
    assert errors["counts"]["divided_entity"] == 2 and errors["counts"]["conflated_entities"] == 2
    assert set(_ids(errors)) == {"1", "2", "p7"}
    conflated = [(o["document"], o["key_entities"], o["response_entities"])
                 for o in errors["occurrences"] if o["category"] == "conflated_entities"]
    assert conflated == [("doc_a", ["1", "p7"], ["1"]), ("doc_b", ["2", "1"], ["2"])]
    text = run_cli("errors", key, response, "-s", "-j", 2)
    assert "[doc_a] response entity 1 joins key entities 1, p7" in text.out
    assert ".p7" not in text.out and "d1." not in text.out


def test_a_udapi_message_names_the_files_id(write):
    bad = grp_file({("doc_b", 0, 2): "(2-person-new"})  # opened, never closed
    path = write("bad.conllu", bad)
    runs = [run_cli(path, path, "-j", jobs) for jobs in (1, 2)]
    assert runs[0].code == runs[1].code == 2
    assert runs[0].err == runs[1].err
    assert "d1." not in runs[0].err and "d2." not in runs[0].err


def test_the_web_api_answers_the_files_ids(grp):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from corefud_scorer.web.app import create_app

    key, response = grp
    app = create_app(max_upload_mb=1, tmp_dir=str(key.parent), workers=1)
    answers = []
    with TestClient(app) as client:
        for _ in range(3):
            files = [("key", (key.name, key.read_bytes())), ("responses", (response.name, response.read_bytes())),
                     ("errors", (None, "true")), ("keep_singletons", (None, "true"))]
            answer = client.post("/api/score", files=files)
            assert answer.status_code == 200, answer.text
            answers.append(answer.text)
    assert answers[0] == answers[1] == answers[2]
    assert set(_ids(json.loads(answers[0])["errors"])) == {"1", "2", "p7"}
