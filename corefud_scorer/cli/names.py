"""The systems' names on the command line: ``--names`` or each path's
shortest distinct ending, each name once."""

from __future__ import annotations

import argparse
import os
import re


def _repeated(names: list[str]) -> str | None:
    """The first name given a second time, if any."""
    seen = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


def distinct(parser, names: list[str]) -> None:
    repeated = _repeated(names)
    if repeated is not None:
        parser.error(f"{repeated} is given twice: each system once")


def short_names(paths: list[str]) -> list[str]:
    """Each path by its shortest ending (of whole path components) that no
    other path ends with: ``a/x/sys.conllu`` and ``b/x/sys.conllu`` are
    ``a/x/sys.conllu`` and ``b/x/sys.conllu``, ``runs/one.conllu`` and
    ``runs/two.conllu`` are ``one.conllu`` and ``two.conllu``."""
    parts = [[p for p in os.path.normpath(path).split(os.sep) if p] or [path] for path in paths]
    names = []
    for i, mine in enumerate(parts):
        others = [theirs for j, theirs in enumerate(parts) if j != i]
        for k in range(1, len(mine) + 1):
            if all(theirs[-k:] != mine[-k:] for theirs in others):
                break
        names.append(os.path.normpath(paths[i]) if k == len(mine) else "/".join(mine[-k:]))
    return names


def split_names(text: str) -> list[str]:
    """``--names A,B,C``: names separated by commas, ``\\,`` standing for a
    comma inside a name."""
    return [name.replace("\\,", ",").strip() for name in re.split(r"(?<!\\),", text)]


def names_from(args: argparse.Namespace, parser: argparse.ArgumentParser, paths: list[str]) -> list[str]:
    """The systems' names: ``--names``, one per system and each once, or
    each path's shortest ending that tells it from the others."""
    if args.names is None:
        return short_names(paths)
    names = split_names(args.names)
    if len(names) != len(paths):
        parser.error(f"--names gives {len(names)} name{'s' if len(names) != 1 else ''} for "
                     f"{len(paths)} system{'s' if len(paths) != 1 else ''}: one per response, separated by commas")
    if not all(names):
        parser.error("--names: a name is empty")
    repeated = _repeated(names)
    if repeated is not None:
        parser.error(f"--names: {repeated} is given twice: each system its own name")
    return names
