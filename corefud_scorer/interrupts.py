"""Ctrl-C in a command: one line, ``PROG: interrupted``, and exit code 130,
whenever it comes.

A command calls :func:`install` before it imports anything heavy: from
then on an interrupt ends the process at once with that line (there is
nothing to close yet, and an exception could surface as a traceback from
an import or from the interpreter's exit). While the command's ``main``
runs (:func:`raising`), the first interrupt is a ``KeyboardInterrupt``
instead, so that temporary files are removed, the process pool is shut
down and ``main`` says it was interrupted; a second one ends the process
at once. Python drops an exception raised where it cannot propagate (in a
callback run after ``fork``, a finalizer) and prints it: such an interrupt
ends the process shortly after instead (an alarm), as it does should the
interrupt not be reported within a few seconds. Forked workers leave
interrupts to the command, which stops them.

Nothing here runs in a library caller's process unless it asks.
"""

from __future__ import annotations

import os
import signal
import sys
from contextlib import contextmanager

INTERRUPTED = 130

_prog = "corefud-scorer"
_owner: int | None = None  # the command's process; its forked workers are others
_told = False


# Seconds the command has to unwind after an interrupt before it is ended.
GRACE = 3.0


def _alarm(seconds: float) -> None:
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, seconds)


def report(prog: str, stream=None) -> int:
    """Say that the command was interrupted (once in a command's process);
    the exit code."""
    global _told
    owner = _owner == os.getpid()
    if owner:
        _alarm(0)
        if _told:
            return INTERRUPTED
        _told = True
    try:
        stream = stream or sys.stderr
        stream.write(f"{prog}: interrupted\n")
        stream.flush()
    except (OSError, ValueError, AttributeError):  # closed, or no stderr at all
        pass
    if owner:
        _end_children()
    return INTERRUPTED


def leave(code: int) -> None:
    """End the command with ``code``. After an interrupt the interpreter's
    clean-up is skipped: it waits for every worker, and one forked in the
    middle of the interrupt may hold a lock it never gets back."""
    if _told and _owner == os.getpid():
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        os._exit(code)
    sys.exit(code)


def _end_children() -> None:
    # A forked worker holds both ends of its queue's pipe: left alone, it
    # would wait for work forever once the command is gone.
    for pid in _children():
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass


def _exit_at_once(_signum, _frame) -> None:
    if os.getpid() != _owner:
        return
    # Whatever state the process is in (a module half imported), it ends here.
    try:
        if not _told:
            report(_prog)
        else:
            _end_children()
    finally:
        os._exit(INTERRUPTED)


def _children() -> set[int]:
    """This process's children: those multiprocessing knows, and on Linux
    every one (a worker forked the moment the interrupt came is not known
    yet)."""
    me, found = os.getpid(), set()
    try:
        # Possibly halfway through its import: whatever it offers now.
        found.update(child.pid for child in sys.modules["multiprocessing"].active_children())
    except Exception:
        pass
    try:
        entries = [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return found
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == me:
                    found.add(int(entry))
        except (OSError, ValueError, IndexError):
            pass
    return found


def _raise_once(_signum, _frame) -> None:
    if os.getpid() != _owner:
        return
    signal.signal(signal.SIGINT, _exit_at_once)
    if hasattr(signal, "SIGALRM"):
        signal.signal(signal.SIGALRM, _exit_at_once)
        _alarm(GRACE)
    raise KeyboardInterrupt


def install(prog: str) -> None:
    """From now on, in this process, an interrupt ends the command at once."""
    global _prog, _owner
    _prog, _owner = prog, os.getpid()
    try:
        signal.signal(signal.SIGINT, _exit_at_once)
    except ValueError:  # not the main thread: interrupts are not ours to take
        _owner = None


def _unraisable(previous):
    def hook(unraisable) -> None:
        if issubclass(unraisable.exc_type, KeyboardInterrupt) and os.getpid() == _owner:
            # Lost where it was raised: the alarm ends the command, soon,
            # once what was under way (a fork) is done.
            _alarm(0.1)
            return
        previous(unraisable)
    return hook


@contextmanager
def raising():
    """Within: the first interrupt raises ``KeyboardInterrupt``; after, and
    whatever happens within, an interrupt ends the command at once again.
    Without :func:`install`, nothing changes."""
    if _owner != os.getpid():
        yield
        return
    previous = sys.unraisablehook
    sys.unraisablehook = _unraisable(previous)
    signal.signal(signal.SIGINT, _raise_once)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, _exit_at_once)
        sys.unraisablehook = previous


def ignore_in_worker() -> None:
    """A pool worker's start: the parent process handles interrupts."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
