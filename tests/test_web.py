"""The HTTP service: its answers are the command line's JSON and errors, its
limits hold, and it keeps nothing."""

from __future__ import annotations

import http.client
import json
import re
import socket
import subprocess
import sys
import time
import warnings

import pytest

from conftest import FIXTURES, ROOT, conllu, run_cli
from webserver import leftovers, running_server

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
with warnings.catch_warnings():
    # Starlette now prefers the httpx2 fork; httpx still does the job.
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

from corefud_scorer.web.app import create_app  # noqa: E402
from corefud_scorer.jobs.options import FIELDS  # noqa: E402
from corefud_scorer.web.options import OptionError, read_form  # noqa: E402

EXAMPLE = FIXTURES / "example"
SEED = FIXTURES / "seed"
ANAPHORA = FIXTURES / "anaphora"
PREFIX = "corefud-scorer: error: "


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """One app and its worker for the module: a worker's start costs more
    than most calls."""
    folder = tmp_path_factory.mktemp("uploads")
    app = create_app(max_upload_mb=1, tmp_dir=str(folder), workers=1)
    with TestClient(app) as test_client:
        yield test_client, folder


@pytest.fixture
def uploads(service):
    return service[1]


@pytest.fixture
def client(service):
    yield service[0]
    assert list(service[1].iterdir()) == [], "an upload was left behind"


def post(client, key, responses, **fields):
    files = [("key", (key.name, key.read_bytes()))]
    files += [("responses", (r.name, r.read_bytes())) for r in responses]
    data = []
    for name, value in fields.items():
        for v in value if isinstance(value, list) else [value]:
            data.append((name, v))
    # httpx takes the fields as a list of pairs through `files` as well
    return client.post("/api/score", files=files + [(n, (None, v)) for n, v in data])


def cli_in(folder, monkeypatch, *args):
    """The CLI run from ``folder`` on bare file names, as the API names them."""
    monkeypatch.chdir(folder)
    return run_cli(*args)


CASES = [
    (EXAMPLE, "key.conllu", ["response.conllu"], {}, []),
    (EXAMPLE, "key.conllu", ["response.conllu"], {"match": "head", "keep_singletons": "true", "per_doc": "true"},
     ["-a", "head", "-s", "--per-doc"]),
    (EXAMPLE, "key.conllu", ["response.conllu"], {"match": "partial", "zero_match_method": "linear"},
     ["-a", "partial", "-z", "linear"]),
    (EXAMPLE, "key.conllu", ["response.conllu"], {"exact_match": "on", "metrics": ["muc", "ceafe", "lea", "bcub"]},
     ["-x", "-m", "muc", "ceafe", "lea", "bcub"]),
    (EXAMPLE, "key.conllu", ["response.conllu"], {"metrics": "muc, bcub mention"}, ["-m", "muc", "bcub", "mention"]),
    (EXAMPLE, "key.conllu", ["response.conllu"], {"shared_task": "crac24", "per_doc": "1"}, ["-t", "crac24", "--per-doc"]),
    (SEED, "bagga1998.key.conllu", ["bagga1998.fig2.response.conllu"], {"keep_singletons": "true"}, ["-s"]),
    (SEED, "bagga1998.key.conllu", ["bagga1998.fig4.response.conllu"], {"keep_singletons": "true"}, ["-s"]),
    (SEED, "pradhan2014.key.conllu", ["pradhan2014.response.conllu"], {"keep_singletons": "true", "per_doc": "true"},
     ["-s", "--per-doc"]),
    (SEED, "pradhan2014.key.conllu", ["pradhan2014.response.conllu"], {"match": "exact"}, ["-a", "exact"]),
    # UA files: split antecedents, discourse deixis, zeros, synchronisation, the further measures.
    (ANAPHORA, "station.key.ua.conllu", ["station.response.ua.conllu"],
     {"keep_split_antecedents": "true", "keep_singletons": "true", "per_doc": "true"}, ["-l", "-s", "--per-doc"]),
    (ANAPHORA, "station.key.ua.conllu", ["station.response.ua.conllu"], {"evaluate_discourse_deixis": "true"}, ["-d"]),
    (ANAPHORA, "station.key.ua.conllu", ["station.response.ua.conllu"], {"only_split_antecedent": "on"},
     ["--only-split-antecedent"]),
    (ANAPHORA, "station.key.ua.conllu", ["station.response.ua.conllu"],
     {"keep_zeros": "true", "metrics": "every", "allow_boundary_crossing": "true"},
     ["--keep-zeros", "-m", "every", "--allow-boundary-crossing"]),
    (ANAPHORA, "station.key.ua.conllu", ["station.response.ua.conllu"],
     {"sync": "union", "metrics": ["muc", "bcub", "ceafe", "alpha", "entropy"], "format": "ua"},
     ["--sync", "union", "-m", "muc", "bcub", "ceafe", "alpha", "entropy", "--format", "ua"]),
    (ANAPHORA, "station.key.ua.conllu", ["station.response.ua.conllu"], {"metrics": "bridging non-referring"},
     ["-m", "bridging", "non-referring"]),
    (EXAMPLE, "key.conllu", ["response.conllu"], {"sync": "all", "metrics": "conll mention"},
     ["--sync", "all", "-m", "conll", "mention"]),
    (EXAMPLE, "key.conllu", ["response.conllu"], {"confidence": "50", "seed": "7", "no_form_check": "true"},
     ["--confidence", "50", "--seed", "7", "--no-form-check"]),
    (EXAMPLE, "key.conllu", ["response.conllu"], {"errors": "true", "match": "partial-craft"},
     ["--errors", "-a", "partial-craft"]),
    # CoNLL-2012 files: v8.01's reading, its filters and the forms compared with a warning.
    (SEED, "pradhan2014.key.conll", ["pradhan2014.response.conll"],
     {"remove_nested_mentions": "true", "per_doc": "true"}, ["--remove-nested-mentions", "--per-doc"]),
    (SEED, "pradhan2014.key.conll", ["pradhan2014.response.conll"], {"form_check": "true", "metrics": "all"},
     ["--form-check", "-m", "all"]),
]


@pytest.mark.parametrize("folder, key, responses, fields, flags", CASES)
def test_scores_are_the_clis_json(client, monkeypatch, folder, key, responses, fields, flags):
    answer = post(client, folder / key, [folder / r for r in responses], **fields)
    assert answer.status_code == 200, answer.text
    run = cli_in(folder, monkeypatch, key, *responses, *flags, "--output", "json")
    assert run.code == 0
    # The same text, not only the same numbers: the CLI's JSON with the
    # uploaded names where its paths were.
    assert answer.text == run.out
    data = answer.json()
    assert data["settings"]["key_file"] == key
    assert data["metrics"] == run.json["metrics"]
    assert "uploads" not in answer.text and "corefud-scorer-" not in answer.text


def test_the_numbers_are_real(client):
    data = post(client, EXAMPLE / "key.conllu", [EXAMPLE / "response.conllu"], match="head",
                keep_singletons="true").json()
    # 1.2's text prints MUC 57.14 / 66.67 for this call: 4/7 and 4/6.
    assert data["metrics"]["muc"]["counts"] == {"recall_num": 4.0, "recall_den": 7.0,
                                                "precision_num": 4.0, "precision_den": 6.0}


def _response_variant(tmp_path, name, transform):
    path = tmp_path / name
    path.write_text(transform((EXAMPLE / "response.conllu").read_text(encoding="utf-8")), encoding="utf-8")
    return path


def _cross(_):
    return conllu({"a": [[(1, "x", "(e1-p-1-"), (2, "y", None)]], "b": [[(1, "z", "e1)"), (2, "w", None)]]})


# The bad inputs of tests/test_errors.py that an upload can carry (a missing
# file or a folder cannot be uploaded), each with that test's pattern.
BAD = [
    ("empty.conllu", lambda t: "", r"empty\.conllu: holds no sentence"),
    ("cols.conllu", lambda t: t.replace("1\tMary\t_", "1\tMary", 1),
     r"cols\.conllu:5: expected 10 tab-separated columns, found 9"),
    ("id.conllu", lambda t: t.replace("\n2\twalked", "\nx\twalked", 1), r"id\.conllu:6: bad token ID 'x'"),
    ("empty-id.conllu", lambda t: t.replace("\n3.1\t", "\n3.x\t", 1), r"empty-id\.conllu:20: bad token ID '3\.x'"),
    ("sid.conllu", lambda t: t.replace("sent_id = walk-2", "sent_id = walk-9"),
     r"key\.conllu:15 vs sid\.conllu:15: sent_id differs: 'walk-2' vs 'walk-9'"),
    ("form.conllu", lambda t: t.replace("\tbarked\t", "\tbarks\t"),
     r"key\.conllu:18 vs form\.conllu:18: word 2 of sentence 'walk-2' differs"),
    ("nd.conllu", lambda t: t.replace("newdoc id = letter", "newdoc id = other"),
     r"document starts differ: 'letter' vs 'other'"),
    ("nd2.conllu", lambda t: t.replace("# newdoc id = letter\n", ""),
     r"key\.conllu:27 vs nd2\.conllu:37: document 'walk' ends after 3 sentences"),
    ("short.conllu", lambda t: t[:t.index("# sent_id = letter-2")],
     r"document 'letter' ends after 1 sentence in the response"),
    ("onedoc.conllu", lambda t: t[:t.index("# newdoc id = letter")], r"document 'letter' has no counterpart"),
    ("open.conllu", lambda t: t.replace("Entity=r3)", "_", 1),
     r"open\.conllu:11: malformed Entity annotation: Mention r3 opened"),
    ("close.conllu", lambda t: t.replace("Entity=(r1-person-1)", "Entity=r1)", 1),
     r"close\.conllu:5: malformed annotation: Mention r1 closed .* but not opened"),
    ("nohdr.conllu", lambda t: t.replace("# global.Entity = eid-etype-head-other\n", ""),
     r"nohdr\.conllu:1: Entity= annotations but no '# global.Entity' header"),
    ("cross.conllu", _cross, r"cross\.conllu:\d+: malformed"),
]


@pytest.mark.parametrize("name, transform, pattern", BAD, ids=[b[0] for b in BAD])
def test_every_bad_input_gives_the_clis_error(client, tmp_path, monkeypatch, name, transform, pattern):
    files = tmp_path / "files"
    files.mkdir()
    bad = _response_variant(files, name, transform)
    key = files / "key.conllu"
    key.write_bytes((EXAMPLE / "key.conllu").read_bytes())
    if name == "cross.conllu":
        key = bad  # both sides, as in test_errors.py
    answer = post(client, key, [bad])
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert re.search(pattern, body["error"]), body
    run = cli_in(files, monkeypatch, key.name, bad.name)
    assert run.code == 2
    assert body["error"] == run.err.strip()[len(PREFIX):]
    assert {(f["field"], f["name"]) for f in body["files"]} <= {("key", key.name), ("responses", bad.name)}
    assert body["files"], "the page needs to know which file is bad"


def test_a_warning_names_the_upload_where_the_cli_names_the_file(client, tmp_path, monkeypatch):
    # CoNLL-2012 word forms that differ are scored with a warning quoting the place.
    folder = tmp_path / "conll"
    folder.mkdir()
    (folder / "key.conll").write_bytes((SEED / "pradhan2014.key.conll").read_bytes())
    changed = (SEED / "pradhan2014.response.conll").read_text().replace("\t2\tc\t", "\t2\tC\t", 1)
    (folder / "changed.conll").write_text(changed)
    answer = post(client, folder / "key.conll", [folder / "changed.conll"])
    run = cli_in(folder, monkeypatch, "key.conll", "changed.conll", "--output", "json")
    assert answer.status_code == 200 and answer.text == run.out
    (warning,) = answer.json()["warnings"]
    assert "changed.conll:4 'C' where the key has 'c'" in warning, warning
    assert str(tmp_path) not in answer.text


def test_standard_input_is_named_in_warnings_too(tmp_path, monkeypatch):
    import io

    from corefud_scorer import Options, score

    changed = (SEED / "pradhan2014.response.conll").read_text().replace("\t2\tc\t", "\t2\tC\t", 1)
    stream = io.BytesIO(changed.encode())
    stream.name = "<stdin>"
    result = score(str(SEED / "pradhan2014.key.conll"), stream, Options(format="conll"))
    (warning,) = result.warnings
    assert "<stdin>:4 'C' where the key has 'c'" in warning, warning


def test_not_utf8(client, tmp_path):
    bad = tmp_path / "latin.conllu"
    bad.write_bytes((EXAMPLE / "response.conllu").read_text().replace("walked", "w\u00e1lked").encode("latin-1"))
    answer = post(client, EXAMPLE / "key.conllu", [bad])
    assert answer.status_code == 400
    assert re.fullmatch(r"latin\.conllu:4: not UTF-8.*", answer.json()["error"])
    assert answer.json()["files"] == [{"field": "responses", "index": 0, "name": "latin.conllu"}]


def test_client_file_names_are_labels_never_paths(client, uploads):
    key = (EXAMPLE / "key.conllu").read_bytes()
    response = (EXAMPLE / "response.conllu").read_bytes()
    answer = client.post("/api/score", files=[("key", ("../../etc/passwd", key)),
                                              ("responses", ('..\\x"y.conllu', response))])
    assert answer.status_code == 200
    settings = answer.json()["settings"]
    assert settings["key_file"] == "passwd"
    assert settings["response_file"] == 'x"y.conllu'


@pytest.mark.parametrize("fields, status, pattern", [
    ({"match": "fuzzy"}, 422, r"'fuzzy' is not one of exact, partial, partial-corefud, head, partial-craft"),
    ({"no_such_option": "1"}, 422, r"unknown field 'no_such_option'"),
    ({"keep_singletons": "maybe"}, 422, r"expected true or false"),
    ({"metrics": "muc --plot"}, 422, r"'--plot' is not one of"),
    ({"keep_split_antecedents": "true"}, 422, r"^keep_split_antecedents needs keep_singletons"),
    ({"remove_nested_mentions": "true"}, 422, r"^remove_nested_mentions: is defined for CoNLL-2012 files"),
    ({"paired_bs": "true"}, 422, r"^paired_bs compares systems: give at least two responses"),
    ({"confidence": "-5"}, 422, r"field 'confidence': must be at least 1: -5"),
    ({"confidence": "100000000"}, 422, r"field 'confidence': at most 100,000, not 100,000,000"),
    ({"seed": "x"}, 422, r"field 'seed': not a whole number"),
    ({"metrics": "alpha", "confidence": "true"}, 422, r"^alpha: not with several systems, confidence or the tests"),
    ({"errors": "true", "confidence": "true"}, 422, r"^errors analyses one response file"),
    ({"shared_task": "crac24", "match": "exact"}, 422,
     r"^shared_task=crac24 sets match to head; the fields ask for exact"),
    ({"metrics": "non-referring"}, 422, r"^metrics=non-referring: CorefUD files have no non-referring markables"),
    ({"output": "text"}, 422, r"unknown field 'output'"),
    ({"jobs": "8"}, 422, r"unknown field 'jobs'"),
])
def test_bad_options_are_422(client, fields, status, pattern):
    answer = post(client, EXAMPLE / "key.conllu", [EXAMPLE / "response.conllu"], **fields)
    assert answer.status_code == status, answer.text
    assert re.search(pattern, answer.json()["error"]), answer.json()
    assert "files" not in answer.json()


def test_missing_files_and_not_multipart(client):
    only_key = client.post("/api/score", files=[("key", ("k", (EXAMPLE / "key.conllu").read_bytes()))])
    assert only_key.status_code == 400 and "no response file" in only_key.json()["error"]
    no_key = client.post("/api/score", files=[("responses", ("r", b"x"))])
    assert no_key.status_code == 400 and "no key file" in no_key.json()["error"]
    assert client.post("/api/score", json={"key": "x"}).status_code == 400


def _multipart(size: int) -> tuple[bytes, str]:
    boundary = "b0undary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"key\"; filename=\"big.conllu\"\r\n\r\n").encode()
    body += b"#" * size + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def test_upload_past_the_limit_is_413(client, uploads):
    body, kind = _multipart(2 * 2 ** 20)
    declared = client.post("/api/score", content=body, headers={"content-type": kind})
    assert declared.status_code == 413
    assert "limit of 1 MB" in declared.json()["error"]
    # Chunked, no Content-Length: counted while it streams.
    chunks = [body[i:i + 65536] for i in range(0, len(body), 65536)]
    streamed = client.post("/api/score", content=iter(chunks), headers={"content-type": kind})
    assert streamed.status_code == 413
    assert list(uploads.iterdir()) == []


def test_health_options_and_docs(client):
    assert client.get("/api/health").json()["status"] == "ok"
    options = client.get("/api/options").json()
    names = {f["name"] for f in options["fields"]}
    assert {"match", "keep_singletons", "zero_match_method", "metrics", "shared_task", "per_doc"} <= names
    assert not names & {"jobs", "output", "quiet", "plot", "version"}
    assert options["listening"]["local_only"] is True
    schema = client.get("/openapi.json").json()
    body = schema["paths"]["/api/score"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"]
    assert {"key", "responses", "match", "metrics"} <= set(body["properties"])
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/static/docs.js" in docs.text and "cdn" not in docs.text.lower()
    page = client.get("/")
    assert "only this machine can reach it" in page.text and "{{" not in page.text
    assert client.get("/static/app.js").status_code == 200


# The command line's flags about the process and the terminal, not about what
# is scored or what the JSON holds: the server decides them. (--names: the
# server names systems by the uploads' file names.)
NOT_SCORING = {"help", "version", "jobs", "quiet", "verbose", "output", "width", "score_only", "names"}


def _cli_scoring_flags():
    from corefud_scorer.cli.flags import build_parser

    return {action.dest: action for action in build_parser()._actions
            if action.option_strings and action.dest not in NOT_SCORING}


def _a_value(action) -> str:
    """A value of the field that the command line's flag takes."""
    if action.nargs == 0:
        return "true"
    if action.choices:
        return str(list(action.choices)[-1])
    return str(action.const or action.default or 1)


def test_the_api_takes_every_scoring_flag_of_the_command_line(client):
    cli = _cli_scoring_flags()
    api = {f["name"]: f for f in client.get("/api/options").json()["fields"]}
    # A flag the command line gains without a field fails here, and so does a field it lacks.
    assert set(cli) == set(api), (sorted(set(cli) - set(api)), sorted(set(api) - set(cli)))
    for name, action in cli.items():
        field = api[name]
        assert action.option_strings[-1] == field["flag"].split("/")[-1], name
        assert sorted(action.choices or []) == sorted(field["choices"] or []), name
        kind = {0: "flag", "+": "choices", "?": "count"}.get(action.nargs, "number" if action.type else "choice")
        assert kind == field["kind"], name
        if kind == "count":
            assert action.const == field["default"], name
        elif kind == "number":
            assert action.default == field["default"], name
        # The API reads each: no "unknown field", whatever the scorer then says of the call.
        asked = read_form({name: [_a_value(action)]})
        assert name in asked
        answer = post(client, EXAMPLE / "key.conllu", [EXAMPLE / "response.conllu"], **{name: _a_value(action)})
        assert "unknown field" not in answer.text, (name, answer.text)
        assert answer.status_code in (200, 422), (name, answer.text)


def test_the_form_reads_as_the_flags_do():
    assert read_form({"metrics": ["muc, bcub", "lea"], "keep_singletons": ["on"], "confidence": ["true"],
                      "paired_ar": ["250"], "seed": ["0"], "match": [""], "paired_bs": ["false"]}) == \
        {"metrics": ["muc", "bcub", "lea"], "keep_singletons": True, "confidence": FIELDS["confidence"].default,
         "paired_ar": 250, "seed": 0}
    assert FIELDS["confidence"].default == 1000 and FIELDS["paired_ar"].default == 10000
    with pytest.raises(OptionError, match="given 2 times"):
        read_form({"match": ["head", "exact"]})
    with pytest.raises(OptionError, match="unknown field 'plot'"):
        read_form({"plot": ["/tmp/x.png"]})


def test_what_a_format_refuses_is_its_profiles_word(client):
    from corefud_scorer.formats.readers import profile

    formats = client.get("/api/options").json()["formats"]
    conll, ua, corefud = profile("conll"), formats["ua"]["refused"], formats["corefud"]["refused"]
    refused = formats["conll"]["refused"]
    # In the service's own terms: "use match=exact", not the command line's "use -a exact".
    assert refused["match"] == {"head": conll.why_not["head"].replace("-a exact", "match=exact"),
                                "partial": conll.why_not["partial"].replace("-a exact", "match=exact"),
                                "partial-corefud": conll.why_not["partial"].replace("-a exact", "match=exact"),
                                "partial-craft": conll.why_not["partial-craft"].replace("-a exact", "match=exact")}
    assert refused["keep_split_antecedents"] == "the CoNLL-2012 format has no split antecedents"
    assert refused["shared_task"] == "the CRAC presets are for CorefUD files, not CoNLL-2012"
    assert refused["metrics"]["bridging"] == "the CoNLL-2012 format has no bridging"
    assert "np_only" not in refused and "remove_nested_mentions" not in refused
    assert ua["np_only"] == "needs the parse column of CoNLL-2012 files" and "keep_split_antecedents" not in ua
    assert corefud["evaluate_discourse_deixis"].startswith("CorefUD files have no discourse-deixis layer")
    # The same reason as the refusal of the call.
    answer = post(client, SEED / "pradhan2014.key.conll", [SEED / "pradhan2014.response.conll"], match="head")
    assert answer.status_code == 422 and answer.json()["error"] == f"match=head: {refused['match']['head']}"
    measures = client.get("/api/options").json()["measures"]
    assert measures["alpha"]["resampled"] is False and measures["alpha"]["further"] is True
    assert measures["muc"] == {"further": False, "resampled": True, "one_number": False, "reads": "contingency"}


def test_the_format_of_a_key_and_the_icon(client):
    assert client.post("/api/format", content=(SEED / "pradhan2014.key.conll").read_bytes()).json() == \
        {"format": "conll"}
    assert client.post("/api/format", content=(ANAPHORA / "station.key.ua.conllu").read_bytes()[:8192]).json() == \
        {"format": "ua"}
    assert client.post("/api/format", content=(EXAMPLE / "key.conllu").read_bytes()).json() == {"format": "corefud"}
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.text.startswith("<svg")


def test_the_core_import_stays_without_the_web_framework():
    code = ("import sys, corefud_scorer, corefud_scorer.cli; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('fastapi', 'starlette', 'uvicorn') "
            "or m.startswith('corefud_scorer.web')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# ---- a real server: the 413 reaches a client still sending, a client that
# leaves mid-upload leaves nothing, and the server answers while it scores ----

@pytest.fixture(scope="module")
def server(tmp_path_factory):
    pytest.importorskip("uvicorn")
    temp = tmp_path_factory.mktemp("server-tmp")
    with running_server(temp, max_upload_mb=8) as port:
        yield {"port": port, "temp": temp}


def _leftovers(temp):
    return leftovers(temp)


def test_real_server_413_reaches_a_client_still_sending(server):
    body, kind = _multipart(20 * 2 ** 20)
    with socket.create_connection(("127.0.0.1", server["port"]), timeout=30) as s:
        s.sendall(f"POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: {kind}\r\n"
                  f"Content-Length: {len(body)}\r\n\r\n".encode())
        s.sendall(body)  # would fail with a reset if the server stopped reading
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"limit of 8 MB" in answer
    assert _leftovers(server["temp"]) == []


def test_real_server_client_leaving_mid_upload_leaves_nothing(server):
    start = (f"--b\r\nContent-Disposition: form-data; name=\"key\"; filename=\"k\"\r\n\r\n"
             + "# sent_id = 1\n" * 20000).encode()
    with socket.create_connection(("127.0.0.1", server["port"]), timeout=30) as s:
        s.sendall(f"POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                  f"Content-Length: 1000000\r\n\r\n".encode() + start)
        time.sleep(0.5)
        assert _leftovers(server["temp"]), "the upload is being stored while it arrives"
    deadline = time.monotonic() + 10
    while _leftovers(server["temp"]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _leftovers(server["temp"]) == []


def test_real_server_client_leaving_while_scored_leaves_nothing(server, tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    from generate import write_pair

    key, response = tmp_path / "k.conllu", tmp_path / "r.conllu"
    write_pair(str(key), str(response), 4, docs=1, tokens_per_doc=20000)
    body = b""
    for field, path in (("key", key), ("responses", response)):
        body += (f"--b\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"x\"\r\n\r\n").encode()
        body += path.read_bytes() + b"\r\n"
    body += b"--b--\r\n"
    with socket.create_connection(("127.0.0.1", server["port"]), timeout=30) as s:
        s.sendall(f"POST /api/score HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                  f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        deadline = time.monotonic() + 10
        while not _leftovers(server["temp"]) and time.monotonic() < deadline:
            time.sleep(0.01)
    # The watcher cancels the call or the answer finds nobody: either way the files go.
    deadline = time.monotonic() + 10
    while _leftovers(server["temp"]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _leftovers(server["temp"]) == []


def test_real_server_scores_and_answers_health_meanwhile(server, tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    from generate import write_pair

    key, response = tmp_path / "k.conllu", tmp_path / "r.conllu"
    write_pair(str(key), str(response), 3, docs=1, tokens_per_doc=20000)
    import threading

    result = {}

    def score():
        boundary = "x7"
        parts = b""
        for field, path in (("key", key), ("responses", response)):
            parts += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; "
                      f"filename=\"{path.name}\"\r\n\r\n").encode() + path.read_bytes() + b"\r\n"
        parts += f"--{boundary}--\r\n".encode()
        connection = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=120)
        connection.request("POST", "/api/score", parts, {"Content-Type": f"multipart/form-data; boundary={boundary}"})
        answer = connection.getresponse()
        result["status"], result["body"] = answer.status, answer.read()

    thread = threading.Thread(target=score)
    thread.start()
    time.sleep(0.3)
    health = []
    while thread.is_alive():
        started = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=10)
        connection.request("GET", "/api/health")
        assert connection.getresponse().status == 200
        health.append(time.monotonic() - started)
        time.sleep(0.05)
    thread.join()
    assert result["status"] == 200
    data = json.loads(result["body"])
    run = run_cli(key, response, "--output", "json")
    assert data["metrics"] == run.json["metrics"]
    assert health and max(health) < 1.0, health
    assert _leftovers(server["temp"]) == []


def test_a_crash_in_the_scorer_is_not_taken_for_bad_input(monkeypatch):
    from corefud_scorer.web import runner
    from corefud_scorer.web.upload import Upload

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(runner, "run", broken)
    key = Upload("key", 0, str(EXAMPLE / "key.conllu"), "key.conllu")
    response = Upload("responses", 0, str(EXAMPLE / "response.conllu"), "response.conllu")
    answer = runner.score_request(key, [response], {})
    assert (answer.status, answer.text, answer.files) == (500, "internal error: RuntimeError: a bug", [])


def test_several_systems_with_intervals_and_tests_are_the_clis_json(client, tmp_path, monkeypatch):
    folder = tmp_path / "systems"
    folder.mkdir()
    for name, source in (("key.conllu", "key.conllu"), ("sys_a.conllu", "response.conllu"), ("sys_b.conllu", "key.conllu")):
        (folder / name).write_bytes((EXAMPLE / source).read_bytes())
    answer = post(client, folder / "key.conllu", [folder / "sys_a.conllu", folder / "sys_b.conllu"],
                  confidence="200", paired_bs="200", per_doc="true")
    assert answer.status_code == 200, answer.text
    run = cli_in(folder, monkeypatch, "key.conllu", "sys_a.conllu", "sys_b.conllu", "--confidence", "200",
                 "--paired-bs", "200", "--per-doc", "--output", "json")
    assert answer.text == run.out
    data = answer.json()
    assert [s["name"] for s in data["systems"]] == ["sys_a.conllu", "sys_b.conllu"]
    assert set(data["tests"]["muc"]) == {"sys_b.conllu"}


def test_several_systems_are_named_by_their_file_names_made_distinct(client, tmp_path):
    # Two uploads named alike (from two folders) and one with a comma.
    for folder, source in (("one", "response.conllu"), ("two", "key.conllu")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "sys.conllu").write_bytes((EXAMPLE / source).read_bytes())
    (tmp_path / "a, b.conllu").write_bytes((EXAMPLE / "key.conllu").read_bytes())
    answer = post(client, EXAMPLE / "key.conllu",
                  [tmp_path / "one" / "sys.conllu", tmp_path / "two" / "sys.conllu", tmp_path / "a, b.conllu"],
                  metrics="muc")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert [s["name"] for s in data["systems"]] == ["sys.conllu", "sys.conllu (2)", "a, b.conllu"]
    assert [s["settings"]["response_file"] for s in data["systems"]] == ["sys.conllu", "sys.conllu", "a, b.conllu"]
    assert data["systems"][1]["metrics"]["muc"]["f1"] == 1.0


@pytest.mark.parametrize("fields, flags", [
    ({"errors": "true", "keep_singletons": "true"}, ["--errors", "-s"]),
    ({"sync": "union", "metrics": "muc bcub ceafe"}, ["--sync", "union", "-m", "muc", "bcub", "ceafe"]),
    ({"sync": "all"}, ["--sync", "all"]),
])
def test_more_options_are_the_clis_json(client, monkeypatch, fields, flags):
    answer = post(client, EXAMPLE / "key.conllu", [EXAMPLE / "response.conllu"], **fields)
    assert answer.status_code == 200, answer.text
    run = cli_in(EXAMPLE, monkeypatch, "key.conllu", "response.conllu", *flags, "--output", "json")
    assert answer.text == run.out
