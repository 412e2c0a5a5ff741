"""Files from strangers: bombs, endless lines, absurd nesting, archives of
too many members or members that climb out, files that take too long. Each
is made here, small enough to be quick but past the limits (lowered for the
test), and each is refused in one line naming the file and the line, within
a bounded time and memory of the process that reads it (its peak resident
memory, as the kernel counts it), by the command line, ``codalab`` and the
service alike."""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from webserver import serving

sys.path.insert(0, str(ROOT / "bench"))
import hostile_files as made  # noqa: E402
from hostile import Sampler, post, process_tree, running  # noqa: E402

from corefud_scorer.jobs.confined import Budget, Overrun, run  # noqa: E402
from corefud_scorer.errors import ScorerError  # noqa: E402

PREFIX = "corefud-scorer: error: "
# What a refusal may cost beyond a run that scores a small pair: far less
# than any of the bombs below would take to be held whole.
MARGIN_MB = 64
# Limits lowered for the tests, each far below what its bomb holds.
LOW = {"COREFUD_SCORER_MAX_LINE_MB": "4", "COREFUD_SCORER_MAX_UNPACKED_MB": "16",
       "COREFUD_SCORER_MAX_ZIP_MEMBERS": "20"}


@dataclass
class Child:
    code: int
    out: str
    err: str
    seconds: float
    peak_mb: float


def child(*args, env=None, timeout: float = 60) -> Child:
    """``corefud-scorer ARGS`` in a process of its own: its answer, time
    and peak memory (its own or its children's, the larger)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        process = subprocess.Popen([sys.executable, "-m", "corefud_scorer", *map(str, args)], stdout=out,
                                   stderr=err, env={**os.environ, **(env or {})}, cwd=ROOT)
        timer = threading.Timer(timeout, process.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return Child(process.returncode, out.read().decode(), err.read().decode(), seconds, usage.ru_maxrss / 1024)


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> float:
    """The peak memory of a run that scores a small pair."""
    key = tmp_path_factory.mktemp("baseline") / "key.conllu"
    made.small_key(str(key))
    run = child(key, key)
    assert run.code == 0, run.err
    return run.peak_mb


def _one_error(run: Child) -> str:
    lines = run.err.splitlines()
    assert run.code == 2 and len(lines) == 1 and lines[0].startswith(PREFIX), run.err
    return lines[0][len(PREFIX):]


def test_a_gzip_bomb_is_refused_while_it_unpacks(tmp_path, baseline):
    # 512 MB of valid CoNLL-2012 token lines in a file of a few hundred KB
    bomb = tmp_path / "bomb.conll"
    made.gzip_bomb(str(bomb), 512, made.CONLL_TOKEN, first=made.CONLL_BEGIN)
    assert bomb.stat().st_size < 2 * made.MB
    run = child(bomb, bomb, env=LOW, timeout=30)
    message = _one_error(run)
    assert re.fullmatch(rf"{re.escape(str(bomb))}:\d+: unpacks to more than 16 MB, the limit on what "
                        r"a compressed file may hold \(COREFUD_SCORER_MAX_UNPACKED_MB\)", message), message
    assert run.seconds < 15 and run.peak_mb < baseline + MARGIN_MB, (run.seconds, run.peak_mb, baseline)


@pytest.mark.parametrize("fmt", ["corefud", "jsonlines"])
def test_a_line_past_the_limit_is_refused_when_seen(tmp_path, baseline, fmt):
    # 256 MB of zero bytes and no line end, read line by line (CoNLL-U) or whole (jsonlines)
    endless = tmp_path / "endless.gz"
    made.gzip_bomb(str(endless), 256)
    run = child(endless, endless, "--format", fmt, env=LOW, timeout=30)
    assert _one_error(run) == (f"{endless}:1: a line longer than 4 MB, the limit on a line "
                               "(COREFUD_SCORER_MAX_LINE_MB)")
    assert run.seconds < 15 and run.peak_mb < baseline + MARGIN_MB, (run.seconds, run.peak_mb, baseline)


def test_twenty_thousand_nested_mentions_are_refused_at_once(tmp_path):
    # the file: growing with the square of the nesting, it ran past 120 s
    deep = tmp_path / "deep.conllu"
    made.nested(str(deep), 20000)
    run = child(deep, deep, timeout=30)
    assert _one_error(run) == (f"{deep}:4: a word in 20,000 mentions, more than the limit of 100 mentions on one "
                               "word (COREFUD_SCORER_MAX_MENTIONS_PER_WORD)")
    assert run.seconds < 10


@pytest.mark.parametrize("fmt, name, line", [("corefud", "deep.conllu", 4), ("ua", "deep.conllua", 4),
                                             ("conll", "deep.conll", 2), ("jsonlines", "deep.jsonl", 1)])
def test_every_reader_takes_the_limit_and_refuses_one_more(tmp_path, monkeypatch, fmt, name, line):
    from conftest import run_cli

    monkeypatch.setenv("COREFUD_SCORER_MAX_MENTIONS_PER_WORD", "5")
    path = tmp_path / name
    for mentions, refused in ((5, False), (6, True)):
        (made.nested if fmt == "corefud" else lambda p, n: made.nested_in(fmt, p, n))(str(path), mentions)
        run = run_cli(path, path, "-s", "-a", "exact")
        if refused:
            assert run.code == 2 and run.err.splitlines() == [
                f"{PREFIX}{path}:{line}: a word in 6 mentions, more than the limit of 5 mentions on one word "
                "(COREFUD_SCORER_MAX_MENTIONS_PER_WORD)"]
        else:
            assert run.code == 0, run.err


def test_a_limit_set_wrong_is_one_line(tmp_path, monkeypatch):
    from conftest import run_cli

    monkeypatch.setenv("COREFUD_SCORER_MAX_LINE_MB", "lots")
    key = tmp_path / "key.conllu"
    made.small_key(str(key))
    run = run_cli(key, key)
    assert run.code == 2 and run.err == f"{PREFIX}COREFUD_SCORER_MAX_LINE_MB=lots: give a number above 0\n"


def test_lines_are_read_as_a_file_reads_them_and_refused_at_their_line(monkeypatch):
    """Random text, chunks and limits: the bounded reader's lines are the
    text's, and the first line over the limit is the one refused."""
    import gzip

    from corefud_scorer.formats.readers import files

    rng = random.Random(7)
    for trial in range(300):
        monkeypatch.setattr(files, "CHUNK", rng.randint(1, 9))
        limit = rng.randint(1, 12)
        monkeypatch.setenv("COREFUD_SCORER_MAX_LINE_MB", repr(limit / made.MB))
        data = b"".join(rng.choice([b"a", b"\n", b"bb", b"cccc", b"\n\n", b"dddddddd", b"\r"])
                        for _ in range(rng.randint(0, 40)))
        lines = io.BytesIO(data).readlines()  # as a file's lines are, each with its line end
        too_long = next((n for n, line in enumerate(data.split(b"\n"), 1) if len(line) > limit), None)
        for whole in (False, True):
            packed = trial % 2 == 1
            raw = gzip.GzipFile(fileobj=io.BytesIO(gzip.compress(data))) if packed else io.BytesIO(data)
            try:
                with files.BoundedText(raw, "text", packed) as handle:
                    got = handle.read() if whole else list(handle)
            except ScorerError as err:
                assert err.where == [("text", too_long)], (data, limit)
            else:
                assert too_long is None and got == (data if whole else lines), (data, limit)


def _bomb_zip_input(tmp_path) -> Path:
    input_dir = tmp_path / "input"
    (input_dir / "ref").mkdir(parents=True)
    (input_dir / "res").mkdir()
    made.small_key(str(input_dir / "ref" / "gum.conllu"))
    made.zip_bomb(str(input_dir / "res" / "submission.zip"), "gum.conllu", 64)
    return input_dir


def _outputs(folder: Path) -> tuple[dict, dict]:
    txt = dict(line.split(": ", 1) for line in (folder / "scores.txt").read_text().splitlines())
    return {k: float(v) for k, v in txt.items()}, json.loads((folder / "scores.json").read_text())


def test_codalab_names_a_zip_bomb_and_writes_its_outputs(tmp_path, baseline):
    input_dir = _bomb_zip_input(tmp_path)
    run = child("codalab", input_dir, tmp_path / "out", env=LOW, timeout=30)
    assert run.code == 0, run.err
    txt, data = _outputs(tmp_path / "out")
    # 64 MB of zero bytes: refused at the line limit while it is unpacked, never written whole
    member = input_dir / "res" / "submission.zip" / "gum.conllu"
    assert data["problems"][0] == f"{member}:1: a line longer than 4 MB, the limit on a line (COREFUD_SCORER_MAX_LINE_MB)"
    assert txt["gum_head"] == 0.0 and data["datasets"][0]["status"] == "missing"
    assert "gum.conllu:1: a line longer than 4 MB" in (tmp_path / "out" / "detailed_results.html").read_text()
    assert run.seconds < 15 and run.peak_mb < baseline + MARGIN_MB, (run.seconds, run.peak_mb, baseline)


def test_codalab_scores_the_other_datasets_whatever_one_holds(tmp_path, baseline):
    """One dataset an endless line, one nested past reason, one that takes
    too long: each named with its problem, the good one scored."""
    keys, systems = FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys"
    ref, res = tmp_path / "input" / "ref", tmp_path / "input" / "res"
    shutil.copytree(keys, ref)
    res.mkdir()
    shutil.copy(systems / "cs_toy-corefud-dev.conllu", res)
    made.gzip_bomb(str(res / "el_toy-corefud-dev.conllu.gz"), 256)
    made.nested(str(res / "hi_toy-corefud-dev.conllu"), 20000)
    made.nested(str(ref / "slow.conllu"), 1, words=4000)
    made.nested(str(res / "slow.conllu"), 50, words=4000)  # the same words: Udapi takes a minute to read it
    (ref / "ru_toy-corefud-dev.conllu").unlink()
    run = child("codalab", tmp_path / "input", tmp_path / "out", "--max-seconds", "1", env=LOW, timeout=60)
    assert run.code == 0, run.err
    txt, data = _outputs(tmp_path / "out")
    found = {d["dataset"]: (d["status"], d["problem"]) for d in data["datasets"]}
    assert found["cs_toy"] == ("scored", None) and txt["cs_toy_head"] > 0
    assert found["el_toy"][0] == "malformed" and "el_toy-corefud-dev.conllu.gz:1: a line longer than 4 MB" in \
        found["el_toy"][1]
    assert found["hi_toy"][0] == "malformed" and "a word in 20,000 mentions" in found["hi_toy"][1]
    assert found["slow"] == ("error", "dataset slow: scoring slow.conllu took longer than the limit of 1 s; "
                                      "it counts 0")
    assert txt["el_toy_head"] == txt["hi_toy_head"] == txt["slow_head"] == 0.0
    assert run.seconds < 30 and run.peak_mb < baseline + MARGIN_MB, (run.seconds, run.peak_mb, baseline)


def test_too_many_members_and_members_that_climb_out_are_refused(tmp_path, monkeypatch):
    from corefud_scorer.jobs.codalab import unpack

    monkeypatch.setenv("COREFUD_SCORER_MAX_ZIP_MEMBERS", "20")
    crowded = tmp_path / "crowded.zip"
    made.many_members(str(crowded), 21)
    with pytest.raises(ScorerError, match=r"the archive holds 21 members, more than the limit of 20 "
                                          r"\(COREFUD_SCORER_MAX_ZIP_MEMBERS\)"):
        unpack(str(crowded), str(tmp_path / "crowded"))
    made.many_members(str(crowded), 20)
    unpack(str(crowded), str(tmp_path / "twenty"))
    assert len(list((tmp_path / "twenty").iterdir())) == 20
    for name in ("../../outside.conllu", "/tmp/corefud-scorer-absolute.conllu", "a/../../outside.conllu"):
        slipping = tmp_path / "slip.zip"
        made.slipping(str(slipping), ("fine.conllu", name))
        into = tmp_path / "deep" / "into"
        with pytest.raises(ScorerError, match=f"the archive's member {re.escape(repr(name))} points outside it"):
            unpack(str(slipping), str(into))
        assert not into.exists() and not (tmp_path / "outside.conllu").exists()
        assert not Path("/tmp/corefud-scorer-absolute.conllu").exists()


def test_what_a_zip_unpacks_to_is_counted_as_it_comes(tmp_path, monkeypatch):
    from corefud_scorer.jobs.codalab import unpack

    monkeypatch.setenv("COREFUD_SCORER_MAX_UNPACKED_MB", "1")
    archive = tmp_path / "lines.zip"
    made.zip_bomb(str(archive), "big.conllu", 8, made.CONLL_TOKEN)  # a member past the limit
    with pytest.raises(ScorerError) as refused:
        unpack(str(archive), str(tmp_path / "one"))
    assert refused.value.where[0][0] == str(archive / "big.conllu")
    assert refused.value.message.startswith("unpacks to more than 1 MB, the limit on what a compressed file may hold")
    made.zip_bomb(str(archive), ["a.conllu", "b.conllu"], 0.75, made.CONLL_TOKEN)  # each within, not both
    with pytest.raises(ScorerError, match=r"lines.zip: the archive unpacks to more than 1 MB, the limit "
                                          r"\(COREFUD_SCORER_MAX_UNPACKED_MB\)"):
        unpack(str(archive), str(tmp_path / "two"))
    made.zip_bomb(str(archive), ["a.conllu", "notes.md"], 0.75, made.CONLL_TOKEN)  # what no reader reads stays
    unpack(str(archive), str(tmp_path / "three"))
    assert [p.name for p in (tmp_path / "three").iterdir()] == ["a.conllu"]


def test_a_confined_call_gives_its_value_its_error_or_what_it_overran():
    assert run(pow, 2, 10, budget=Budget(10, 1024)) == 1024
    with pytest.raises(ScorerError, match="f.conllu:3: bad"):
        run(_raises, budget=Budget(10, 1024))
    started = time.monotonic()
    with pytest.raises(Overrun, match="took longer than the limit of 0.5 s") as overrun:
        run(time.sleep, 30, budget=Budget(0.5, 1024))
    assert overrun.value.kind == "time" and time.monotonic() - started < 5
    with pytest.raises(Overrun, match="needed more memory than the limit of 1024 MB") as overrun:
        run(bytearray, 2 ** 31, budget=Budget(10, 1024))
    assert overrun.value.kind == "memory"


def _raises():
    raise ScorerError("bad", ("f.conllu", 3))


def _answer(port: int, key: Path, response: Path, timeout: float = 60) -> tuple[int, dict, dict]:
    status, headers, text = post(port, key, response, timeout)
    return status, headers, json.loads(text or "{}")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_service_bounds_each_request_and_leaves_nothing_when_stopped(tmp_path):
    pytest.importorskip("fastapi")
    key, slow, bomb = tmp_path / "key.conllu", tmp_path / "slow.conllu", tmp_path / "bomb.conllu.gz"
    made.small_key(str(key))
    made.nested(str(slow), 50, words=4000)
    made.gzip_bomb(str(bomb), 256)
    with serving(tmp_path, "--workers", "1", "--queue", "0", "--max-seconds", "1", env=LOW) as (server, port):
        peaks = []
        for response, status in ((key, 200), (bomb, 400)):
            sampler = Sampler(server.pid)
            sampler.start()
            answer = _answer(port, key, response)
            peaks.append(sampler.stop())
            assert answer[0] == status, answer
        # a 256 MB bomb: refused at the line limit, for hardly more memory than a small pair takes
        assert answer[2]["error"] == "bomb.conllu.gz:1: a line longer than 4 MB, the limit on a line " \
                                     "(COREFUD_SCORER_MAX_LINE_MB)"
        assert peaks[1] < peaks[0] + MARGIN_MB, peaks
        # one request takes the one worker; another finds no place, and is told when to come back
        late = {}
        first = threading.Thread(target=lambda: late.setdefault("first", _answer(port, slow, slow)))
        started = time.monotonic()
        first.start()
        time.sleep(0.4)
        status, headers, answer = _answer(port, key, key, timeout=10)
        assert status == 503 and int(headers["retry-after"]) >= 1 and "busy" in answer["error"]
        first.join()
        status, _, answer = late["first"]
        assert status == 413 and answer["error"].startswith("scoring the files took longer than the limit of 1 s")
        assert time.monotonic() - started < 6
        # stopped while scoring: no process outlives the server
        threading.Thread(target=lambda: late.setdefault("again", _answer(port, slow, slow)), daemon=True).start()
        time.sleep(0.5)
        tree = process_tree(server.pid)
        assert len(tree) >= 2
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=15)
        deadline = time.monotonic() + 5
        while any(running(pid) for pid in tree[1:]):
            assert time.monotonic() < deadline, f"left running: {tree[1:]}"
            time.sleep(0.1)


def test_the_limit_reads_the_first_entity_item_of_a_misc_column():
    """The mentions-per-word limit counts the brackets of the first item of
    MISC that starts with ``Entity=``, however the column is made."""
    from hypothesis import given, strategies as st

    from corefud_scorer.formats.readers.corefud_sentence import _entity_value

    items = st.sampled_from(["Entity=(e1)", "Entity=", "XEntity=(a", "SpaceAfter=No", "Entity=e2)(e3", "",
                             "Entity=(x-1)", "Bridge=e1<e2", "E=", "Entity"])

    @given(st.lists(items, max_size=5))
    def check(parts):
        misc = "|".join(parts)
        first = next((item for item in misc.split("|") if item.startswith("Entity=")), None)
        assert _entity_value(misc) == (None if first is None else first[len("Entity="):])

    check()
