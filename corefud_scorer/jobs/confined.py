"""A call run in a process of its own under a memory and a time limit, so
that no input, however it was made, takes more than its share of the
machine: past its memory the call fails inside its process (its address
space is capped), past its time the process is killed, and a process whose
parent is gone is killed with it. ``codalab`` scores each dataset so, and
the service each request.

The call's value, or the exception it raised, comes back through a file
(never a pipe that a large answer would fill while nobody reads it).
"""

from __future__ import annotations

import os
import pickle
import resource
import shutil
import signal
import tempfile
from dataclasses import dataclass

MB = 2 ** 20
# CPU seconds a process is granted past its time limit before the kernel
# stops it (the parent kills it at the limit; this holds if the parent died).
CPU_GRACE = 5


@dataclass(frozen=True)
class Budget:
    """What one call may take: wall-clock seconds and megabytes of address
    space (None: no limit)."""
    seconds: float | None = None
    memory_mb: float | None = None

    def describe(self) -> str:
        parts = ([f"{self.seconds:g} s"] if self.seconds else []) + (
            [f"{self.memory_mb:g} MB of memory"] if self.memory_mb else [])
        return " and ".join(parts) or "no limit"


# What scoring one dataset of a submission (``codalab``) may take by default:
# a CorefUD test file takes seconds to a few minutes and well under a GB.
DATASET_BUDGET = Budget(seconds=600, memory_mb=4096)
# What scoring one request of the service may take by default: a 200 MB
# upload scores in a few minutes, in well under the memory.
REQUEST_BUDGET = Budget(seconds=300, memory_mb=4096)


class Overrun(Exception):
    """The call went past its budget (``kind`` time or memory) or its
    process died (``kind`` died): the message says which, as words that can
    follow "scoring the file"."""

    def __init__(self, message: str, kind: str):
        super().__init__(message, kind)
        self.kind = kind

    def __str__(self) -> str:
        return self.args[0]


def _die_with_parent() -> None:
    """Linux: the kernel kills this process when its parent exits."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _release_forkserver() -> None:
    """A process forked by multiprocessing's server of processes holds that
    server's liveness pipe, to start processes of its own; this one starts
    none, and holding the pipe would keep the server, its parent, alive
    after the caller is gone (multiprocessing keeps the pipe in a private
    attribute)."""
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    fd = getattr(server, "_forkserver_alive_fd", None)
    if fd is not None:
        os.close(fd)
        server._forkserver_alive_fd = None


def _limit(kind: int, soft: int, hard: int | None = None) -> None:
    """Lower a resource limit, never raise it; a system that does not
    enforce it (RLIMIT_AS on macOS) leaves the time limit and the parent's
    watch."""
    current = resource.getrlimit(kind)[1]
    hard = current if hard is None or (current != resource.RLIM_INFINITY and hard > current) else hard
    if current != resource.RLIM_INFINITY and soft > current:
        return
    try:
        resource.setrlimit(kind, (soft, hard))
    except (ValueError, OSError):
        pass


def _confine(budget: Budget) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent answers an interrupt
    _release_forkserver()
    _die_with_parent()
    _limit(resource.RLIMIT_CORE, 0, 0)
    if budget.memory_mb:
        _limit(resource.RLIMIT_AS, int(budget.memory_mb * MB))
    if budget.seconds:
        cpu = int(budget.seconds) + CPU_GRACE
        _limit(resource.RLIMIT_CPU, cpu, cpu + CPU_GRACE)


def _child(call, args: tuple, budget: Budget, result: str) -> None:
    """The process's work: the call under the budget, its outcome to ``result``."""
    _confine(budget)
    try:
        outcome = ("value", call(*args))
    except MemoryError:
        outcome = ("memory", None)
    except BaseException as err:  # noqa: BLE001 - every outcome goes to the parent
        outcome = ("raised", err)
    try:
        data = pickle.dumps(outcome)
    except MemoryError:
        data = pickle.dumps(("memory", None))
    except Exception as err:  # noqa: BLE001 - an outcome that does not pickle
        data = pickle.dumps(("raised", RuntimeError(f"{type(err).__name__}: {err}")))
    with open(result + ".part", "wb") as handle:
        handle.write(data)
    os.replace(result + ".part", result)


def context(preload: tuple[str, ...] = ()):
    """The way to start processes: forked from a server of processes that
    imported ``preload`` once (a threaded caller, the service), else forked
    from the caller itself (a command, which has no threads)."""
    import multiprocessing  # not before a process is started: a command that starts none goes without

    if preload and "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(list(preload))
        return ctx
    return multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")


class Confined:
    """One call started in a process of its own under ``budget``; ``sentinel``
    becomes readable when it ends, :meth:`outcome` then gives its value."""

    def __init__(self, call, args: tuple, budget: Budget, ctx=None):
        self.budget = budget
        self._folder = tempfile.mkdtemp(prefix="corefud-scorer-call-")
        self._result = os.path.join(self._folder, "outcome")
        self.process = (ctx or context()).Process(target=_child, args=(call, args, budget, self._result),
                                                  daemon=True)
        self.process.start()
        self.sentinel = self.process.sentinel
        self.timed_out = False

    def kill(self, timed_out: bool = False) -> None:
        self.timed_out = self.timed_out or timed_out
        if self.process.is_alive():
            self.process.kill()
        self.process.join()

    def discard(self) -> None:
        """Remove the outcome's folder (the process killed first)."""
        self.kill()
        shutil.rmtree(self._folder, ignore_errors=True)

    def outcome(self):
        """The call's value; its exception raised again; :class:`Overrun`
        past the budget or when the process died."""
        self.kill()
        try:
            with open(self._result, "rb") as handle:
                kind, value = pickle.load(handle)
        except FileNotFoundError:
            kind, value = "died", self.process.exitcode
        finally:
            self.discard()
        if kind == "value":
            return value
        if kind == "raised":
            raise value
        raise self._overrun(kind, value)

    def _overrun(self, kind: str, exitcode) -> Overrun:
        if self.timed_out or exitcode == -signal.SIGXCPU:
            return Overrun(f"took longer than the limit of {self.budget.seconds:g} s", "time")
        if kind == "memory":
            return Overrun(f"needed more memory than the limit of {self.budget.memory_mb:g} MB", "memory")
        if exitcode is not None and exitcode < 0:
            try:
                name = signal.Signals(-exitcode).name
            except ValueError:
                name = f"signal {-exitcode}"
            return Overrun(f"was stopped by {name}{' (out of memory?)' if exitcode == -signal.SIGKILL else ''}",
                           "died")
        return Overrun(f"ended without an answer (exit code {exitcode})", "died")


def run(call, *args, budget: Budget):
    """``call(*args)`` in a process of its own under ``budget``: its value,
    its exception, or :class:`Overrun`. An interrupt kills the process."""
    confined = Confined(call, args, budget)
    try:
        confined.process.join(budget.seconds)
        if confined.process.is_alive():
            confined.kill(timed_out=True)
    except BaseException:
        confined.discard()
        raise
    return confined.outcome()
