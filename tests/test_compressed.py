"""gzip files are read as the text they hold, by their first bytes (standard
input included); other compressions are refused in one line naming them."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import shutil
import sys
import zipfile

import pytest

from conftest import FIXTURES, run_cli

EXAMPLE = FIXTURES / "example"
PAIRS = [
    (EXAMPLE / "key.conllu", EXAMPLE / "response.conllu", []),
    (FIXTURES / "anaphora" / "station.key.ua.conllu", FIXTURES / "anaphora" / "station.response.ua.conllu", []),
    (FIXTURES / "seed" / "pradhan2014.key.conll", FIXTURES / "seed" / "pradhan2014.response.conll", ["-s"]),
]


@pytest.mark.parametrize("key, response, flags", PAIRS, ids=["corefud", "ua", "conll2012"])
def test_a_gzip_file_scores_as_the_file_it_holds(tmp_path, key, response, flags):
    # Named without .gz: the first bytes decide, not the name.
    packed_key, packed_response = tmp_path / "key.gz", tmp_path / "response"
    packed_key.write_bytes(gzip.compress(key.read_bytes()))
    packed_response.write_bytes(gzip.compress(response.read_bytes()))
    plain = run_cli(key, response, *flags, "--output", "json")
    for pair in ([packed_key, response], [key, packed_response], [packed_key, packed_response]):
        packed = run_cli(*pair, *flags, "--output", "json")
        assert packed.code == 0, packed.err
        assert packed.json["metrics"] == plain.json["metrics"]
        assert packed.json["settings"]["format"] == plain.json["settings"]["format"]


def test_gzip_on_standard_input(monkeypatch):
    data = gzip.compress((EXAMPLE / "key.conllu").read_bytes())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    run = run_cli("-", EXAMPLE / "response.conllu", "--output", "json")
    assert run.code == 0, run.err
    assert run.json["metrics"] == run_cli(EXAMPLE / "key.conllu", EXAMPLE / "response.conllu",
                                          "--output", "json").json["metrics"]


def _zip(data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("key.conllu", data)
    return out.getvalue()


@pytest.mark.parametrize("compress, name, command", [
    (bz2.compress, "bzip2", "bunzip2"),
    (lzma.compress, "xz", "unxz"),
    (_zip, "zip", "unzip"),
    # zstd's frame magic and a frame header; the refusal reads no further.
    (lambda data: b"\x28\xb5\x2f\xfd\x24\x00" + data, "zstd", "unzstd"),
])
def test_another_compression_is_named_in_one_line(tmp_path, compress, name, command):
    path = tmp_path / "key.conllu"
    path.write_bytes(compress((EXAMPLE / "key.conllu").read_bytes()))
    run = run_cli(path, EXAMPLE / "response.conllu")
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines() == [f"corefud-scorer: error: {path}: compressed with {name}: decompress it first "
                                    f"({command}); gzip files are read as they are"]


def test_a_cut_gzip_file_is_one_line(tmp_path):
    path = tmp_path / "key.conllu.gz"
    path.write_bytes(gzip.compress((EXAMPLE / "key.conllu").read_bytes())[:200])
    run = run_cli(path, EXAMPLE / "response.conllu")
    assert run.code == 2 and run.out == ""
    (line,) = run.err.splitlines()
    assert line.startswith(f"corefud-scorer: error: {path}:") and "damaged gzip data" in line


def test_bench_pairs_a_compressed_key_with_a_plain_response(tmp_path):
    keys = tmp_path / "key"
    keys.mkdir()
    for path in (FIXTURES / "bench" / "key").iterdir():
        (keys / (path.name + ".gz")).write_bytes(gzip.compress(path.read_bytes()))
    plain = run_cli("bench", FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys", "--output", "json")
    packed = run_cli("bench", keys, FIXTURES / "bench" / "sys", "--output", "json")
    assert packed.code == 0, packed.err
    assert [d["dataset"] for d in packed.json["datasets"]] == [d["dataset"] for d in plain.json["datasets"]]
    assert packed.json["macro"] == plain.json["macro"]
    shutil.copy(FIXTURES / "bench" / "key" / "cs_toy-corefud-dev.conllu", keys)
    twice = run_cli("bench", keys, FIXTURES / "bench" / "sys")
    assert twice.code == 2 and "two files of dataset 'cs_toy'" in twice.err


def test_a_file_is_read_once_to_tell_its_format(tmp_path, monkeypatch):
    from corefud_scorer.formats import readers

    reads = []
    real_head = readers.head
    monkeypatch.setattr(readers, "head", lambda path, size=8192: reads.append(path) or real_head(path, size))
    path = tmp_path / "key.conll"
    path.write_text("#begin document (a); part 000\na 0 0 x (1)\n#end document\n", encoding="utf-8")
    assert [readers.detect_format(str(path)) for _ in range(3)] == ["conll"] * 3
    assert len(reads) == 1
    # Changed (size and time): read again.
    path.write_text("# newdoc id = a\n# global.Entity = eid-etype-head-other\n", encoding="utf-8")
    os.utime(path, ns=(1, 1))
    assert readers.detect_format(str(path)) == "corefud" and len(reads) == 2
