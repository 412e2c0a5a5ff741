#!/usr/bin/env python3
"""What files from strangers cost the scorer, before its limits and after:
issue 37's cases at their sizes (a zip of 3 GB of zeros in a submission, a
gzip upload of 1.5 GB of zeros, 20,000 mentions nested on one word, a line
of 400 MB) through ``codalab``, the command line and the server, and a
server stopped (SIGTERM) while it scores. Both sides run in one call: the
scorer as it was (``--before DIR``, a source tree, else ``git archive`` of
``--base``) and this tree.

Each run is a process group of its own, its address space capped
(``--cap-gb``, inherited by its children) and killed past ``--timeout``
seconds, so that the side without limits cannot take the machine: such a
run reads "killed at N s" or "MemoryError at the N GB cap". Memory is the
peak of the process tree's proportional set size (Pss: pages shared between
a server and its workers counted once), sampled from /proc every 50 ms; the
server's is taken while it answers. Files are made in a temporary folder,
deleted at the end with what the runs left in it (their TMPDIR); the server
listens on 127.0.0.1 only.

    python bench/hostile.py                  # every case, full size (some 15 minutes)
    python bench/hostile.py --scale 0.01 --timeout 20   # a quick look
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import hostile_files as made

ROOT = Path(__file__).resolve().parent.parent
BASE = "aa6a244"  # main before the limits


@dataclass
class Outcome:
    seconds: float
    peak_mb: float
    answer: str
    killed: str | None = None

    def time(self) -> str:
        if self.killed and self.killed.startswith("MemoryError"):
            return f"{self.killed}, {self.seconds:.0f} s"
        return self.killed or f"{self.seconds:.1f} s"


def process_tree(pid: int) -> list[int]:
    """A process and its descendants."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [p for c in (task / "children").read_text().split() for p in process_tree(int(c))]
        except OSError:
            pass
    return found


def pss_mb(pids) -> float:
    """The memory of processes, the pages they share divided among them (Pss)."""
    total = 0
    for pid in pids:
        try:
            found = re.search(r"^Pss:\s+(\d+) kB", Path(f"/proc/{pid}/smaps_rollup").read_text(), re.M)
        except OSError:
            continue
        total += int(found.group(1)) if found else 0
    return total / 1024


class Sampler(threading.Thread):
    """The peak memory of a process tree while it runs."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0.0, True

    def run(self):
        while self.running and Path(f"/proc/{self.pid}").exists():
            self.peak = max(self.peak, pss_mb(process_tree(self.pid)))
            time.sleep(0.05)

    def stop(self) -> float:
        self.running = False
        self.join()
        return self.peak


class Side:
    """One version of the scorer: how to start it."""

    def __init__(self, name: str, tree: Path, cap_gb: float, timeout: float, temp: Path):
        self.name, self.tree, self.cap, self.timeout = name, tree, int(cap_gb * 2 ** 30), timeout
        self.temp = temp  # what a killed run leaves behind goes with the bench's folder

    def popen(self, *args, **kwargs) -> subprocess.Popen:
        env = {**os.environ, "PYTHONPATH": str(self.tree), "TMPDIR": str(self.temp)}
        env.pop("COREFUD_SCORER_MAX_LINE_MB", None)
        return subprocess.Popen([sys.executable, "-m", "corefud_scorer", *map(str, args)], env=env, cwd=self.tree,
                                start_new_session=True, preexec_fn=self._capped, **kwargs)

    def _capped(self):
        resource.setrlimit(resource.RLIMIT_AS, (self.cap, self.cap))

    def command(self, *args) -> Outcome:
        """A command to its end, or killed at the timeout."""
        with tempfile.TemporaryFile() as err:
            started = time.monotonic()
            process = self.popen(*args, stdout=subprocess.DEVNULL, stderr=err)
            sampler = Sampler(process.pid)
            sampler.start()
            killed = None
            try:
                process.wait(self.timeout)
            except subprocess.TimeoutExpired:
                killed = f"killed at {self.timeout:.0f} s"
            peak = sampler.stop()
            _kill_group(process)
            seconds = time.monotonic() - started
            err.seek(0)
            text = err.read().decode("utf-8", "replace")
        if "MemoryError" in text:
            killed = f"MemoryError at the {self.cap / 2 ** 30:g} GB cap"
        return Outcome(seconds, peak, f"exit {process.returncode}: {_said(text)}", killed)


def _said(text: str) -> str:
    """What a run said on stderr, folders left out: its lines (a traceback's
    last), shortened."""
    lines = [line for line in text.splitlines() if line.strip()]
    if any(line.startswith("Traceback") for line in lines):
        lines = lines[-1:]
    return re.sub(r"/\S*/", "", " / ".join(lines))[:240]


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``serve`` of one side on 127.0.0.1, one worker."""

    def __init__(self, side: Side):
        self.side, self.port = side, _free_port()
        self.process = side.popen("serve", "--port", self.port, "--workers", "1", stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while True:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", "/api/health")
                if connection.getresponse().status == 200:
                    return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the {side.name} server did not start")
                time.sleep(0.2)

    def post(self, key: Path, response: Path) -> Outcome:
        sampler = Sampler(self.process.pid)
        sampler.start()
        started = time.monotonic()
        try:
            status, _, text = post(self.port, key, response, self.side.timeout)
            answer, killed = f"HTTP {status}: {_said(text)}", None
        except (OSError, http.client.HTTPException) as err:
            answer, killed = f"no answer ({type(err).__name__})", f"no answer in {self.side.timeout:.0f} s"
        return Outcome(time.monotonic() - started, sampler.stop(), answer, killed)

    def stop(self) -> None:
        _kill_group(self.process)


def post(port: int, key: Path, response: Path, timeout: float) -> tuple[int, dict, str]:
    """``POST /api/score`` of two files: the status, the headers and the body."""
    boundary = "hostile-bench"
    body = b""
    for field, path in (("key", key), ("responses", response)):
        body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{path.name}\"\r\n"
                 "\r\n").encode() + path.read_bytes() + b"\r\n"
    body += f"--{boundary}--\r\n".encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("POST", "/api/score", body, {"Content-Type": f"multipart/form-data; boundary={boundary}"})
    answer = connection.getresponse()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read().decode("utf-8", "replace")


def stopped_while_busy(side: Side, slow: Path, stop: signal.Signals) -> Outcome:
    """``stop`` (SIGTERM, SIGKILL) to a server scoring a slow request: how
    long it takes to exit, and how many of its processes still run 10 s
    later (ended then by this script, which started them)."""
    server = Server(side)
    threading.Thread(target=lambda: _try_post(server.port, slow, slow), daemon=True).start()
    time.sleep(3)
    tree = process_tree(server.process.pid)
    started = time.monotonic()
    server.process.send_signal(stop)
    try:
        server.process.wait(30)
        seconds, killed = time.monotonic() - started, None
    except subprocess.TimeoutExpired:
        seconds, killed = 30.0, "not exited in 30 s"
    time.sleep(10)
    left = [pid for pid in tree[1:] if running(pid)]
    answer = (f"{'exited' if killed is None else 'not exited'} in {seconds:.1f} s; of its {len(tree) - 1} "
              f"processes {len(left)} still running 10 s later")
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    server.stop()
    return Outcome(seconds, 0.0, answer, killed)


def _try_post(port, key, response):
    try:
        post(port, key, response, 600)
    except (OSError, http.client.HTTPException):
        pass


def running(pid: int) -> bool:
    """Whether a process runs (a zombie does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _codalab_input(folder: Path, key: Path, name: str, response: Path | None = None, zipped: Path | None = None):
    (folder / "ref").mkdir(parents=True)
    (folder / "res").mkdir()
    os.link(key, folder / "ref" / "gum.conllu")
    if zipped is not None:
        os.link(zipped, folder / "res" / "submission.zip")
    else:
        os.link(response, folder / "res" / name)
    return folder


def cases(work: Path, scale: float):
    """(case, entry point, what runs it on a side) for every case."""
    key, deep, line, bomb, bomb_line, zipped = (work / n for n in (
        "key.conllu", "deep.conllu", "line.conllu", "bomb.conllu.gz", "line.conllu.gz", "bomb.zip"))
    made.small_key(str(key))
    made.nested(str(deep), 20000)
    wide = work / "wide.conllu"
    made.nested(str(wide), 50, words=20000)  # valid, within every limit, and minutes for Udapi to read
    made.long_line(str(line), max(1, round(400 * scale)))
    made.gzip_bomb(str(bomb), max(1, round(1536 * scale)))
    made.gzip_bomb(str(bomb_line), max(1, round(400 * scale)))
    made.zip_bomb(str(zipped), "gum.conllu", max(1, round(3072 * scale)))
    count = iter(range(1000))

    def codalab(name, response=None, zipped_=None):
        return lambda side: side.command("codalab", _codalab_input(work / f"in{next(count)}", key, name, response,
                                                                   zipped_), work / f"out{next(count)}")

    def served(response):
        def run(side):
            server = Server(side)
            try:
                return server.post(key if response is not deep else deep, response)
            finally:
                server.stop()
        return run

    gb = lambda mb: f"{mb * scale / 1024:g} GB"  # noqa: E731
    return [
        (f"zip of {gb(3072)} of zeros in res/", "codalab", codalab("", zipped_=zipped)),
        (f"gzip of {gb(1536)} of zeros", "server", served(bomb)),
        (f"gzip of {gb(1536)} of zeros", "command line", lambda side: side.command(key, bomb)),
        (f"gzip of {gb(1536)} of zeros", "codalab", codalab("gum.conllu.gz", bomb)),
        ("20,000 nested mentions", "command line", lambda side: side.command(deep, deep)),
        ("20,000 nested mentions", "server", served(deep)),
        ("20,000 nested mentions", "codalab", codalab("gum.conllu", deep)),
        (f"a line of {400 * scale:g} MB", "command line", lambda side: side.command(key, line)),
        (f"a line of {400 * scale:g} MB", "codalab", codalab("gum.conllu", line)),
        (f"a line of {400 * scale:g} MB (gzip)", "server", served(bomb_line)),
        ("SIGTERM while scoring a slow file", "server", lambda side: stopped_while_busy(side, wide, signal.SIGTERM)),
        ("SIGKILL while scoring a slow file", "server", lambda side: stopped_while_busy(side, wide, signal.SIGKILL)),
    ]


def _mb(outcome: Outcome) -> str:
    return f"{outcome.peak_mb:,.0f} MB" if outcome.peak_mb else "-"


def _ratio(before: Outcome, after: Outcome, attribute: str) -> str:
    b, a = getattr(before, attribute), getattr(after, attribute)
    if not a or not b:
        return "-"
    return f"{'>' if before.killed and attribute == 'seconds' else ''}{b / a:.1f}x"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, help="a source tree of the scorer without the limits")
    parser.add_argument("--base", default=BASE, help="the commit --before is taken from (default: %(default)s)")
    parser.add_argument("--scale", type=float, default=1.0, help="the sizes of the bombs and the line, times this")
    parser.add_argument("--cap-gb", type=float, default=8.0, help="address space of a run (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=150.0, help="seconds a run may take (default: %(default)s)")
    parser.add_argument("--only", help="cases whose name or entry point holds one of these words (a,b)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="corefud-scorer-hostile-") as temp:
        work = Path(temp)
        before = args.before
        if before is None:
            before = work / "before"
            before.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.base], check=True, capture_output=True)
            subprocess.run(["tar", "-x", "-C", str(before)], input=archive.stdout, check=True)
        (work / "tmp").mkdir()
        sides = [Side(f"before ({args.base})", before, args.cap_gb, args.timeout, work / "tmp"),
                 Side("after", ROOT, args.cap_gb, args.timeout, work / "tmp")]
        rows = []
        for case, entry, run in cases(work, args.scale):
            if args.only and not any(word in case or word in entry for word in args.only.split(",")):
                continue
            outcomes = [run(side) for side in sides]
            rows.append((case, entry, *outcomes))
            print(f"{case} | {entry} | " + " | ".join(f"{o.time()}, {o.peak_mb:.0f} MB, {o.answer}" for o in outcomes),
                  flush=True)
    print(f"\n| case | entry point | before: time | peak | after: time | peak | time ratio | memory ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for case, entry, b, a in rows:
        print(f"| {case} | {entry} | {b.time()} | {_mb(b)} | {a.time()} | {_mb(a)} | "
              f"{_ratio(b, a, 'seconds')} | {_ratio(b, a, 'peak_mb')} |")
    print("\nanswers:")
    for case, entry, b, a in rows:
        print(f"- {case}, {entry}:\n  before: {b.answer}\n  after:  {a.answer}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
