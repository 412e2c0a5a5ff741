"""The command line: parse and check flags, call the library, render.

``corefud-scorer KEY SYS`` takes the flags of ``corefud-scorer.py`` 1.2 and
prints its text; ``corefud-scorer bench KEY_DIR SYS_DIR`` (or ``bench
MANIFEST``) scores many datasets at once (``--leaderboard``: the official
results table); ``corefud-scorer errors KEY SYS`` analyses what the response
got wrong; ``corefud-scorer codalab INPUT_DIR OUTPUT_DIR`` is a CodaLab
scoring program. Every flag, output path and
optional dependency is checked before a file is read. Nothing here computes
a score.
"""

from __future__ import annotations

import sys

from .. import interrupts, memory
from ..errors import run_command

from .commands import guarded, run
from .flags import INTERRUPTED, PROG, build_parser, options_from  # noqa: F401  (the command line's names)


def entry_point() -> None:
    """The ``corefud-scorer`` command, with the command's collection policy
    (:mod:`~corefud_scorer.memory`)."""
    memory.manage()
    code = run_command(PROG, main)
    memory.freeze()
    interrupts.leave(code)


def main(argv: list[str] | None = None, stdout=None, stderr=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if argv and argv[0] == "serve":
        # The web service, imported only here: it calls the library, never
        # the command line.
        from .serve import serve_main

        return guarded(serve_main, argv[1:], stdout, stderr)
    return run(argv, stdout, stderr)
