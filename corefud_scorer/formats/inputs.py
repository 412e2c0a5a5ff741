"""Where the bytes to score come from: a path, standard input (``-``), a
file-like object or a local file with a name of its own (:class:`NamedFile`),
each turned into a local file that readers can open, and named in messages as
the caller named it."""

from __future__ import annotations

import contextlib
import os
import sys

from ..errors import ScorerError

STDIN = "-"
# Bytes of standard input copied at a time.
CHUNK = 1 << 20


class NamedFile:
    """A local file read where it is, named ``name`` in messages, warnings
    and settings (an upload kept under a name the server chose)."""

    __slots__ = ("path", "name")

    def __init__(self, path: str, name: str):
        self.path = path
        self.name = name


def display_name(source) -> str:
    if isinstance(source, NamedFile):
        return source.name
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
            if isinstance(source, NamedFile):
                files.append((name, source.path))
                renames[source.path] = name
                continue
            if isinstance(source, (str, os.PathLike)) and str(source) != STDIN:
                files.append((name, os.fspath(source)))
                continue
            stream = sys.stdin.buffer if not hasattr(source, "read") else source
            import tempfile  # only for a stream: a pair of paths does not pay for it

            handle = tempfile.NamedTemporaryFile(prefix="corefud-scorer-", suffix=".input", delete=False)
            # Removed on exit even when reading the stream fails or is interrupted.
            spooled.append(handle.name)
            with handle:
                _spool(stream, handle)
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


def _spool(stream, handle) -> None:
    """Copy a stream to a file a chunk at a time: standard input is never
    held whole (the readers bound what they read of the copy)."""
    while True:
        data = stream.read(CHUNK)
        if not data:
            return
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)


def named_in(text: str, files: list[tuple[str, str]]) -> str:
    """``text`` (a warning, which may quote a place) with each local file
    that has a name of its own called by that name; longest paths first, so
    that ``response-1`` never eats the start of ``response-10``."""
    for name, path in sorted(files, key=lambda f: len(f[1]), reverse=True):
        if name != path and path in text:
            text = text.replace(path, name)
    return text
