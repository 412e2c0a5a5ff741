"""The commands by their first word, each refusing bad input in one line:
what ``corefud-scorer`` runs. A command's one line in ``--help`` is the
first line of its function's docstring."""

from __future__ import annotations

from functools import partial

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
# Started by the command line's entry point (cli/serve.py), which imports the
# web extra only then.
SERVE = {"serve": "The evaluation page and HTTP API on this machine (needs the web extra)"}


def summary(command) -> str:
    """A command's one line: the first line of its docstring."""
    lines = (command.__doc__ or "").strip().splitlines()
    return lines[0].rstrip(".") if lines else ""


def summaries() -> dict[str, str]:
    """Every subcommand with its one line, ``serve`` last."""
    return {**{name: summary(command) for name, command in COMMANDS.items()}, **SERVE}


def run(argv: list[str], stdout, stderr) -> int:
    """``corefud-scorer COMMAND ...`` for a command of :data:`COMMANDS`, or ``KEY SYS ...``."""
    if argv and argv[0] in COMMANDS:
        return guarded(COMMANDS[argv[0]], argv[1:], stdout, stderr)
    return guarded(partial(pair_main, commands=summaries()), argv, stdout, stderr)


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
