"""The commands by their first word, each refusing bad input in one line:
what ``corefud-scorer`` runs. A command's one line in ``--help`` is the
first line of its function's docstring. A command's module is imported
when it runs (or ``--help`` reads its line): a command does not pay for
the others."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from importlib import import_module

from ..errors import ScorerError
from ..interrupts import report as report_interrupt
from .flags import PROG


class _Command:
    # A command's function by module and name, imported when it is called
    # or its docstring (its line in --help) is read.

    def __init__(self, module: str, name: str):
        self.module, self.name = module, name

    @property
    def function(self):
        return getattr(import_module(self.module, __package__), self.name)

    @property
    def __doc__(self):  # noqa: D105  (the function's, for its line in --help)
        return self.function.__doc__

    def __call__(self, argv: list[str], stdout, stderr) -> int:
        return self.function(argv, stdout, stderr)


COMMANDS = {"bench": _Command(".bench", "bench_main"), "errors": _Command(".analysis", "errors_main"),
            "codalab": _Command(".codalab", "codalab_main"), "convert": _Command(".convert", "convert_main"),
            "validate": _Command(".validate", "validate_main")}
# Started by the command line's entry point (cli/serve.py), which imports the
# web extra only then.
SERVE = {"serve": "The evaluation page and HTTP API on this machine (needs the web extra)"}


def summary(command) -> str:
    """A command's one line: the first line of its docstring."""
    lines = (command.__doc__ or "").strip().splitlines()
    return lines[0].rstrip(".") if lines else ""


class _Summaries(Mapping):
    """Every subcommand with its one line, ``serve`` last; a line is read
    (its command's module imported) only when asked for."""

    def __getitem__(self, name: str) -> str:
        return summary(COMMANDS[name]) if name in COMMANDS else SERVE[name]

    def __iter__(self):
        return iter([*COMMANDS, *SERVE])

    def __len__(self) -> int:
        return len(COMMANDS) + len(SERVE)


def summaries() -> Mapping[str, str]:
    """Every subcommand with its one line, ``serve`` last."""
    return _Summaries()


def run(argv: list[str], stdout, stderr) -> int:
    """``corefud-scorer COMMAND ...`` for a command of :data:`COMMANDS`, or ``KEY SYS ...``."""
    if argv and argv[0] in COMMANDS:
        return guarded(COMMANDS[argv[0]], argv[1:], stdout, stderr)
    from .pair import pair_main

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
