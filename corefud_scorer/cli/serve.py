"""``corefud-scorer serve``: start the page and API on uvicorn."""

from __future__ import annotations

import argparse
import errno
import gc
import signal
import socket
import sys

from ..web.place import LOOPBACK, where
from ..jobs.confined import REQUEST_BUDGET
from ..web.workers import QUEUE_PER_WORKER
from .flags import add_budget_flags, budget_of
from .usage import Parser

# Seconds running requests get to finish once the server is told to stop.
GRACE_SECONDS = 3

PROG = "corefud-scorer serve"


def build_serve_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROG, description="Serve the evaluation page and the JSON API. Only this machine can "
        "reach it unless --host 0.0.0.0 is given. Each request is scored in a process of its own, "
        "within --max-seconds and --max-memory-mb; GET /api/options states every limit.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="127.0.0.1 (this machine only, the default) or 0.0.0.0 (every interface)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default: %(default)s)")
    parser.add_argument("--max-upload-mb", type=float, default=200,
                        help="largest request body, in MB; larger ones get 413 (default: %(default)s)")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes scoring requests side by side (default: all cores)")
    parser.add_argument("--queue", type=int, default=None,
                        help="requests that may wait for a worker; more get 503 with Retry-After "
                        f"(default: {QUEUE_PER_WORKER} per worker)")
    add_budget_flags(parser, REQUEST_BUDGET, "request", "the request ends in 413 and its process is killed")
    return parser


def check_host(host: str) -> str | None:
    """Why ``host`` is refused, or None: loopback, or 0.0.0.0/:: for every
    interface; never one chosen interface, which would be easy to mistake."""
    if host in LOOPBACK or host.startswith("127.") or host in ("0.0.0.0", "::"):
        return None
    return f"--host {host}: give 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (a port in use, or
    one this user may not take), or None: tried before anything is printed,
    with the address reuse the server itself asks for."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            return f"port {port} on {host} is in use: give another with --port"
        if err.errno == errno.EACCES:
            return f"port {port} on {host}: permission denied (ports below 1024 need privileges): give another with --port"
        return f"cannot listen on {host} port {port}: {err.strerror or err}"
    return None


def serve_main(argv: list[str], stdout=None, stderr=None) -> int:
    """``corefud-scorer serve``: the page and API, once the flags and the
    port are known to be right."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = build_serve_parser()
    args = parser.parse_args(argv)
    problem = check_host(args.host)
    if problem:
        parser.error(problem)
    if not 0 < args.port < 65536:
        parser.error(f"--port {args.port}: give a port from 1 to 65535")
    for flag, value in (("--max-upload-mb", args.max_upload_mb), ("--workers", args.workers or 1)):
        if not value > 0:
            parser.error(f"{flag} must be above 0")
    if args.queue is not None and args.queue < 0:
        parser.error("--queue must be 0 or more")
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError as err:
        print(f"corefud-scorer: error: serve needs the web extra ({err.name} is missing): "
              "pip install fastapi uvicorn python-multipart (in a clone of the scorer: pip install '.[web]')",
              file=stderr)
        return 2
    problem = port_problem(args.host, args.port)
    if problem:
        print(f"corefud-scorer: error: {problem}", file=stderr)
        return 2
    # The scoring command leaves the collector off for its one short run; a
    # server runs for long, so it turns it back on.
    gc.enable()
    app = create_app(max_upload_mb=args.max_upload_mb, workers=args.workers, host=args.host, port=args.port,
                     budget=budget_of(args), queue=args.queue)
    place = where(args.host, args.port)
    shown = place["url"] if place["local_only"] else f"http://127.0.0.1:{args.port}/ (here) or http://THIS-MACHINE:{args.port}/"
    print(f"corefud-scorer {place['note']}\nopen {shown}  (API docs at /docs; Ctrl-C stops)",
          file=stdout, flush=True)
    # Once stopped, uvicorn raises again the SIGTERM it stopped for: it ends the
    # command here, as a normal exit, which removes what multiprocessing made.
    signal.signal(signal.SIGTERM, _stopped)
    try:
        # Stopped (SIGTERM, Ctrl-C), running requests get a moment, then their processes are killed.
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                    timeout_graceful_shutdown=GRACE_SECONDS)
    finally:
        app.state.workers.stop()  # a second Ctrl-C skips the application's own shutdown
    return 0


def _stopped(_signum, _frame) -> None:
    raise SystemExit(0)
