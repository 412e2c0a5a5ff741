"""Where the bytes to score come from: a path, standard input (``-``) or a
file-like object, each turned into a local file that readers can open, and
named in messages as the caller named it."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile

from .errors import ScorerError

STDIN = "-"


def display_name(source) -> str:
    if isinstance(source, (str, os.PathLike)):
        return "<stdin>" if str(source) == STDIN else str(source)
    return str(getattr(source, "name", None) or "<stream>")


@contextlib.contextmanager
def local_files(*sources):
    """Yield ``[(name, path), ...]`` for the sources, spooling standard input
    and file-like objects into temporary files removed on exit; errors raised
    inside name the sources, not the temporary files."""
    if sum(1 for s in sources if isinstance(s, (str, os.PathLike)) and str(s) == STDIN) > 1:
        raise ScorerError("only one of the files can be read from standard input ('-')")
    spooled = []
    renames = {}
    try:
        files = []
        for source in sources:
            name = display_name(source)
            if isinstance(source, (str, os.PathLike)) and str(source) != STDIN:
                files.append((name, os.fspath(source)))
                continue
            stream = sys.stdin.buffer if not hasattr(source, "read") else source
            data = stream.read()
            if isinstance(data, str):
                data = data.encode("utf-8")
            handle = tempfile.NamedTemporaryFile(prefix="corefud-scorer-", suffix=".input", delete=False)
            with handle:
                handle.write(data)
            spooled.append(handle.name)
            renames[handle.name] = name
            files.append((name, handle.name))
        try:
            yield files
        except ScorerError as err:
            err.where = [(renames.get(path, path), line) for path, line in err.where]
            raise
    finally:
        for path in spooled:
            with contextlib.suppress(OSError):
                os.unlink(path)
