"""Where the service scores requests: each in a process of its own
(:mod:`corefud_scorer.jobs.confined`), forked from a server of processes that
imported the scorer once, within the request's time and memory limits. At
most ``workers`` requests are scored at once and ``queue`` more wait; a
request beyond them is refused at once (:class:`Busy`, an HTTP 503 with
``Retry-After``). A request whose time is up, or whose client left, has its
process killed, which frees its place; stopping the service kills every
process still scoring, so that none outlives the server."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import deque
from multiprocessing import forkserver, resource_tracker

from ..jobs.confined import Budget, Confined, context

# Imported once by the server of processes, so that a request's process starts at once
# (Udapi, which the CoNLL-U reader imports when it first parses, and every format's reader too).
PRELOAD = ("corefud_scorer.web.runner", "udapi.core.document", "udapi.block.read.conllu",
           "corefud_scorer.formats.readers.ua", "corefud_scorer.formats.readers.conll2012",
           "corefud_scorer.formats.readers.jsonlines")
# Requests that may wait for a worker, by default, per worker.
QUEUE_PER_WORKER = 4
# How many recent requests' durations estimate the wait a refusal announces.
RECENT = 20


class Busy(Exception):
    """Every place is taken; ``retry_after``: the seconds a client should wait."""

    def __init__(self, retry_after: int):
        super().__init__(retry_after)
        self.retry_after = retry_after


class Workers:
    """The scoring processes of one service."""

    def __init__(self, workers: int, queue: int, budget: Budget):
        self.workers, self.queue, self.budget = workers, queue, budget
        self._context = context(PRELOAD)
        self._slots: asyncio.Semaphore | None = None
        self._admitted = 0
        self._scoring: set[Confined] = set()
        self._durations: deque[float] = deque(maxlen=RECENT)

    def start(self) -> None:
        """Start the server of processes now (it imports the scorer), not
        on the first request."""
        if self._context.get_start_method() == "forkserver":
            forkserver.ensure_running()

    def stop(self) -> None:
        """Kill every process still scoring, then the server of processes
        and its helper, waited for, so that nothing is left behind, not even
        a process no one reaps."""
        for confined in list(self._scoring):
            confined.discard()
        self._scoring.clear()
        if self._context.get_start_method() == "forkserver":
            # multiprocessing's own stops (what its tests use); absent, the helpers end with the server.
            for helper in (getattr(forkserver, "_forkserver", None), getattr(resource_tracker, "_resource_tracker", None)):
                with contextlib.suppress(AttributeError, OSError, ChildProcessError):
                    helper._stop()

    @property
    def status(self) -> dict:
        return {"workers": self.workers, "scoring": len(self._scoring),
                "waiting": max(0, self._admitted - len(self._scoring)), "queue": self.queue}

    @contextlib.contextmanager
    def admitted(self):
        """A place for one request, from before its upload is read to its
        answer; :class:`Busy` when every place is taken."""
        if self._admitted >= self.workers + self.queue:
            raise Busy(self._retry_after())
        self._admitted += 1
        try:
            yield
        finally:
            self._admitted -= 1

    def _retry_after(self) -> int:
        typical = sum(self._durations) / len(self._durations) if self._durations else 1.0
        return max(1, math.ceil(typical * (self._admitted - self.workers + 1) / self.workers))

    async def run(self, call, *args):
        """``call(*args)`` in a process of its own once a worker's place is
        free: its value, its exception, or :class:`~corefud_scorer.jobs.confined.Overrun`.
        Cancelled (the client left), the process is killed."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        async with self._slots:
            started = time.monotonic()
            confined = Confined(call, args, self.budget, self._context)
            self._scoring.add(confined)
            try:
                await self._ended(confined)
                return confined.outcome()
            finally:
                self._scoring.discard(confined)
                confined.discard()
                self._durations.append(time.monotonic() - started)

    async def _ended(self, confined: Confined) -> None:
        """Until the process ends, or is killed when its time is up."""
        loop = asyncio.get_running_loop()
        ended = loop.create_future()
        loop.add_reader(confined.sentinel, lambda: ended.done() or ended.set_result(None))
        try:
            await asyncio.wait_for(ended, self.budget.seconds)
        except asyncio.TimeoutError:
            confined.kill(timed_out=True)
        finally:
            loop.remove_reader(confined.sentinel)
