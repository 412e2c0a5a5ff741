"""A real ``corefud-scorer serve`` in a subprocess, for the tests that need
sockets and a browser."""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(temp: Path, *flags: str, env: dict | None = None):
    """Yield the process and the port of ``serve FLAGS`` on 127.0.0.1,
    its uploads under ``temp``, once it answers."""
    port = free_port()
    env = {**os.environ, **(env or {}), "TMPDIR": str(temp)}
    process = subprocess.Popen([sys.executable, "-m", "corefud_scorer", "serve", "--port", str(port), *flags],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                connection.request("GET", "/api/health")
                if connection.getresponse().status == 200:
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()
                    raise RuntimeError("the server did not start: " + process.stderr.read())
                time.sleep(0.2)
        yield process, port
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@contextlib.contextmanager
def running_server(temp: Path, max_upload_mb: float = 8, workers: int = 1):
    """Yield the port of a server whose uploads go under ``temp``."""
    with serving(temp, "--max-upload-mb", str(max_upload_mb), "--workers", str(workers)) as (_, port):
        yield port


def leftovers(temp: Path) -> list[Path]:
    return [p for p in temp.rglob("*") if "corefud-scorer-" in str(p)]
