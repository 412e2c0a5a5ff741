#!/usr/bin/env python3
"""Load on the web service: concurrent clients posting a generated pair.

Starts ``corefud-scorer serve`` on 127.0.0.1 (nowhere else), with its uploads
in a fresh temporary folder, and lets ``--clients`` threads post the same key
and response (``bench/generate.py``, ``--tokens`` words in one document) until
``--requests`` answers have come back or ``--time-limit`` seconds have passed.
It prints requests per second, latency percentiles, the peak memory of the
server and its workers, whether every answer is the CLI's JSON to the byte,
and whether any uploaded file is left.

    python bench/load.py                      # 20 clients, 100 requests, 20k tokens
    python bench/load.py --requests 40 --workers 2
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from generate import write_pair  # noqa: E402

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def multipart(files: list[tuple[str, Path]]) -> tuple[bytes, str]:
    boundary = "corefud-load-7f3a"
    body = b""
    for field, path in files:
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; "
                 f"filename=\"{path.name}\"\r\nContent-Type: application/octet-stream\r\n\r\n").encode()
        body += path.read_bytes() + b"\r\n"
    body += f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants, from /proc."""
    total, stack = 0, [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
            with open(f"/proc/{current}/task/{current}/children") as children:
                stack.extend(int(c) for c in children.read().split())
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return total


def wait_ready(port: int, process: subprocess.Popen, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server exited: " + process.stderr.read().decode())
        try:
            connection = http.client.HTTPConnection(HOST, port, timeout=2)
            connection.request("GET", "/api/health")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start in time")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=100, help="answers to collect (default 100)")
    parser.add_argument("--tokens", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=None, help="the server's scoring processes (default: all cores)")
    parser.add_argument("--time-limit", type=float, default=600, help="stop sending after this many seconds")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="corefud-load-") as work:
        work = Path(work)
        key, response = work / "key.conllu", work / "response.conllu"
        write_pair(str(key), str(response), 20, docs=1, tokens_per_doc=args.tokens)
        started = time.perf_counter()
        expected = subprocess.run([sys.executable, "-m", "corefud_scorer", key.name, response.name, "--output", "json",
                                   "-j", "1"], cwd=work, capture_output=True, text=True, check=True).stdout
        cli_seconds = time.perf_counter() - started
        body, kind = multipart([("key", key), ("responses", response)])
        uploads = work / "uploads"
        uploads.mkdir()
        port = free_port()
        # Room in the queue for every client: the load measures scoring, not refusals (503).
        command = [sys.executable, "-m", "corefud_scorer", "serve", "--host", HOST, "--port", str(port),
                   "--queue", str(args.clients)]
        if args.workers:
            command += ["--workers", str(args.workers)]
        server = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "TMPDIR": str(uploads)},
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_ready(port, server)
            # One request alone first (it also starts a worker), then the load.
            alone = []
            for _ in range(3):
                connection = http.client.HTTPConnection(HOST, port, timeout=300)
                started = time.perf_counter()
                connection.request("POST", "/api/score", body, {"Content-Type": kind})
                answer = connection.getresponse()
                if answer.read().decode() != expected:
                    raise SystemExit("the answer of a request alone differs from the CLI's JSON")
                alone.append(time.perf_counter() - started)
            idle = tree_rss(server.pid)
            peak = [idle]
            sampling = threading.Event()

            def sample():
                while not sampling.wait(0.05):
                    peak[0] = max(peak[0], tree_rss(server.pid))

            lock = threading.Lock()
            sent = [0]
            latencies, mismatches, failures = [], [], []
            deadline = time.monotonic() + args.time_limit

            def client():
                connection = http.client.HTTPConnection(HOST, port, timeout=300)
                while True:
                    with lock:
                        if sent[0] >= args.requests or time.monotonic() > deadline:
                            return
                        sent[0] += 1
                    started = time.perf_counter()
                    try:
                        connection.request("POST", "/api/score", body, {"Content-Type": kind})
                        answer = connection.getresponse()
                        text = answer.read().decode()
                    except (OSError, http.client.HTTPException) as err:
                        with lock:
                            failures.append(repr(err))
                        connection.close()
                        connection = http.client.HTTPConnection(HOST, port, timeout=300)
                        continue
                    elapsed = time.perf_counter() - started
                    with lock:
                        latencies.append(elapsed)
                        if answer.status != 200 or text != expected:
                            mismatches.append((answer.status, text[:200]))

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            threads = [threading.Thread(target=client) for _ in range(args.clients)]
            started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            wall = time.perf_counter() - started
            sampling.set()
            sampler.join()
            health = http.client.HTTPConnection(HOST, port, timeout=10)
            health.request("GET", "/api/health")
            alive = health.getresponse().status == 200
        finally:
            server.terminate()
            server.wait(timeout=30)
        left = [p.name for p in uploads.iterdir()]

    done = len(latencies)
    ordered = sorted(latencies)
    p95 = ordered[max(0, int(round(0.95 * done)) - 1)] if done else float("nan")
    size = len(body) / 2 ** 20
    rows = [
        ("clients", f"{args.clients}"),
        ("requests answered", f"{done} of {args.requests}" + (" (time limit reached)" if done < args.requests else "")),
        ("upload per request", f"{size:.1f} MiB ({args.tokens:,} tokens each side)"),
        ("the CLI alone (new process, -j 1)", f"{cli_seconds:.2f} s"),
        ("one request alone (best of 3)", f"{min(alone):.2f} s ({min(alone) / cli_seconds:.2f} x the CLI)"),
        ("wall time", f"{wall:.1f} s"),
        ("requests per second", f"{done / wall:.2f}"),
        ("latency median", f"{statistics.median(ordered):.2f} s" if done else "n/a"),
        ("latency p95", f"{p95:.2f} s"),
        ("latency max", f"{ordered[-1]:.2f} s" if done else "n/a"),
        ("memory before the load (server + workers)", f"{idle / 2 ** 20:.0f} MiB"),
        ("memory peak (server + workers)", f"{peak[0] / 2 ** 20:.0f} MiB"),
        ("answers equal to the CLI's JSON", f"{done - len(mismatches)} of {done}"),
        ("failed connections", f"{len(failures)}"),
        ("health answered after the load", "yes" if alive else "NO"),
        ("temporary files left", f"{len(left)}"),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"| {'measure'.ljust(width)} | value |\n|{'-' * (width + 2)}|-------|")
    for name, value in rows:
        print(f"| {name.ljust(width)} | {value} |")
    for status, text in mismatches[:3]:
        print(f"mismatch: {status} {text}", file=sys.stderr)
    for failure in failures[:3]:
        print(f"failure: {failure}", file=sys.stderr)
    ok = done == args.requests and not mismatches and not failures and not left and alive
    print("verdict:", "pass" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
