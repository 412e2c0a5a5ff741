"""The scoring commands by their first word, each refusing bad input in
one line: what ``corefud-scorer`` runs."""

from __future__ import annotations

from ..errors import ScorerError
from ..interrupts import report as report_interrupt
from .analysis import errors_main
from .bench import bench_main
from .codalab import codalab_main
from .convert import convert_main
from .flags import PROG
from .pair import pair_main
from .validate import validate_main

COMMANDS = {"bench": bench_main, "errors": errors_main, "codalab": codalab_main, "convert": convert_main,
            "validate": validate_main}


def run(argv: list[str], stdout, stderr) -> int:
    """``corefud-scorer bench ...``, ``errors ...``, ``codalab ...``, ``convert ...`` or ``KEY SYS ...``."""
    if argv and argv[0] in COMMANDS:
        return guarded(COMMANDS[argv[0]], argv[1:], stdout, stderr)
    return guarded(pair_main, argv, stdout, stderr)


def guarded(command, argv: list[str], stdout, stderr) -> int:
    """A command's exit code; bad input is its one error line and 2, an
    interrupt one line and 130."""
    try:
        return command(argv, stdout, stderr)
    except ScorerError as err:
        print(f"{PROG}: error: {err}", file=stderr)
        return 2
    except KeyboardInterrupt:
        return report_interrupt(PROG, stderr)
