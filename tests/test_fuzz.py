"""Mutated input never crashes the scorer: it scores (exit 0, a valid result)
or refuses (exit 2, one line on stderr, nothing on stdout)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

from conftest import FIXTURES, ROOT, run_cli

SOURCES = [FIXTURES / "example" / "key.conllu", FIXTURES / "example" / "response.conllu"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return b"\n"
    lines = data.split(b"\n")
    kind = rng.randrange(9)
    i = rng.randrange(len(lines))
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3:
        return data[:rng.randrange(len(data))]
    elif kind == 4:
        line = bytearray(lines[i])
        for pos in [p for p, c in enumerate(line) if c in b"()"][:2]:
            line[pos] = ord(")") if line[pos] == ord("(") else ord("(")
        lines[i] = bytes(line)
    elif kind == 5:
        pos = rng.randrange(len(data))
        return data[:pos] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4))) + data[pos:]
    elif kind == 6:
        fields = lines[i].split(b"\t")
        if len(fields) == 10:
            fields[rng.choice([0, 1, 6, 8, 9])] = rng.choice([b"_", b"3.x", b"0", b"99", b"Entity=(", b"e1)", b""])
            lines[i] = b"\t".join(fields)
    elif kind == 7:
        lines[i] = lines[i].replace(b"\t", b" ", 1)
    else:
        lines[i] = lines[i].replace(b"-1)", b"-9)").replace(b"-2-", b"-7-")
    return b"\n".join(lines)


def check(run):
    assert "Traceback" not in run.err, run.err
    if run.code == 0:
        data = json.loads(run.out)
        for name, value in data["metrics"].items():
            if value is not None:
                for key in ("recall", "precision", "f1"):
                    if key in value:
                        assert 0.0 <= value[key] <= 1.0, (name, value)
    else:
        assert run.code == 2, (run.code, run.err)
        assert run.out == ""
        assert len(run.err.strip().splitlines()) == 1, run.err
        assert run.err.startswith("corefud-scorer: error: ")


def test_mutated_files_score_or_fail_cleanly(tmp_path):
    rng = random.Random(20261123)
    key = SOURCES[0]
    runs = 0
    codes = set()
    # A fixed number of mutated files, so that what is tested does not
    # depend on the machine's speed.
    for runs in range(120):
        source = rng.choice(SOURCES)
        data = source.read_bytes()
        for _ in range(rng.randrange(1, 4)):
            data = mutate(data, rng)
        path = tmp_path / f"m{runs}.conllu"
        path.write_bytes(data)
        flags = rng.choice([["-a", "exact"], ["-a", "head"], ["-a", "partial", "-z", "linear"], ["-s"]])
        pair = (key, path) if rng.random() < 0.7 else (path, key)
        run = run_cli(*pair, *flags, "-j", "1", "--output", "json")
        check(run)
        codes.add(run.code)
    assert codes == {0, 2}


def test_a_few_real_processes_fail_cleanly(tmp_path):
    rng = random.Random(5)
    data = SOURCES[1].read_bytes()
    for n in range(3):
        mutated = mutate(mutate(data, rng), rng)
        path = tmp_path / f"p{n}.conllu"
        path.write_bytes(mutated)
        done = subprocess.run([sys.executable, "-m", "corefud_scorer", str(SOURCES[0]), str(path),
                               "--output", "json"], capture_output=True, text=True, cwd=ROOT)
        assert "Traceback" not in done.stderr
        assert done.returncode in (0, 2)
        if done.returncode == 2:
            assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
