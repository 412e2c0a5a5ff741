"""How the command line answers a mistake in its flags and ``--help``.

A mistake is two lines: a one-line usage (the positional arguments and
``[options]``, never the option list) and the message, in plain words, as the
last line. ``--help`` lists the subcommands, one line each, before the
options.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Mapping

from ..errors import plain_list
from ..formats.readers.limits import statement

# argparse's own wording, with Python's quoting of values and lists (compiled
# by re at the first mistake, not at every start).
_INVALID_CHOICE = r"^(argument [^:]+): invalid choice: '?(.*?)'? \(choose from (.*)\)$"
_QUOTED = r"'([^']*)'"


def plain_message(message: str) -> str:
    """argparse's messages without Python's quotes and brackets."""
    found = re.match(_INVALID_CHOICE, message)
    if found:
        where, value, choices = found.groups()
        return f"{where}: {value} is not one of {plain_list(re.findall(_QUOTED, choices) or choices.split(', '), 'or')}"
    return message


def terminal_columns(fallback: int = 80) -> int:
    """The terminal's width as ``shutil.get_terminal_size()`` gives it
    (``COLUMNS``, else standard output's terminal, else ``fallback``)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = fallback
        columns = columns or fallback
    return columns


class Formatter(argparse.HelpFormatter):
    """argparse's layout at argparse's width, read here: argparse makes a
    formatter for every flag it is given, each importing shutil (and the
    compressions it imports) to ask for the terminal's size."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position,
                         terminal_columns() - 2 if width is None else width)


class Parser(argparse.ArgumentParser):
    """An argument parser whose mistakes are a short usage and one line;
    ``commands`` (name -> one line) are listed by ``--help``."""

    def __init__(self, *args, commands: Mapping[str, str] | None = None, **kwargs):
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)
        # Kept as given: a line is read only when --help prints it.
        self.commands = commands if commands is not None else {}

    def short_usage(self) -> str:
        if self.usage:
            lines = ["usage: " + self.usage % {"prog": self.prog}]
        else:
            formatter = self._get_formatter()
            positionals = " ".join(formatter._format_args(action, action.metavar or action.dest)
                                   for action in self._get_positional_actions())
            lines = [f"usage: {self.prog} [options] {positionals}".rstrip()]
        if self.commands:
            lines.append(f"       {self.prog} {{{','.join(self.commands)}}} ...")
        return "\n".join(lines) + f"  ({self.prog} --help lists the options)\n"

    def error(self, message: str):
        self._print_message(self.short_usage(), sys.stderr)
        self.exit(2, f"{self.prog}: error: {plain_message(message)}\n")

    def format_help(self) -> str:
        # argparse's own layout, with the commands after the description.
        formatter = self._get_formatter()
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups)
        formatter.add_text(self.description)
        if self.commands:
            formatter.start_section(f"commands ({self.prog} COMMAND --help for each)")
            formatter.add_arguments([argparse.Action([], name, metavar=name, help=line)
                                     for name, line in self.commands.items()])
            formatter.end_section()
        for group in self._action_groups:
            formatter.start_section(group.title)
            formatter.add_text(group.description)
            formatter.add_arguments(group._group_actions)
            formatter.end_section()
        # Every command states the limits on what it reads (files come from strangers).
        formatter.add_text(self.epilog or statement())
        return formatter.format_help()
