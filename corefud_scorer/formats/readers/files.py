"""Opening and decoding a file for a reader, with the errors named as the
readers name them: the file, and the line of a byte that is not UTF-8.

A gzip file (told by its first bytes, whatever its name, standard input
included) is read as the text it holds; a file compressed another way is
refused in one line naming the compression."""

from __future__ import annotations

import gzip
import zlib
from typing import Iterator

from ...errors import ScorerError

GZIP = b"\x1f\x8b"
# The first bytes of the other compressions a corpus file is kept in, with
# the command that undoes each.
OTHER_COMPRESSIONS = (
    (b"BZh", "bzip2", "bunzip2"),
    (b"\xfd7zXZ\x00", "xz", "unxz"),
    (b"PK\x03\x04", "zip", "unzip"),
    (b"(\xb5/\xfd", "zstd", "unzstd"),
    (b"7z\xbc\xaf\x27\x1c", "7z", "7z x"),
)


class _Gunzipped:
    """A gzip file's text as bytes, line by line or whole; damaged or cut
    compressed data is an ``OSError`` saying so, as any failure to read."""

    def __init__(self, path: str):
        self._file = gzip.open(path, "rb")

    def _guarded(self, step):
        try:
            return step()
        except (EOFError, zlib.error, gzip.BadGzipFile) as err:
            raise OSError(f"damaged gzip data ({err})") from None

    def __iter__(self):
        while True:
            line = self._guarded(self._file.readline)
            if not line:
                return
            yield line

    def read(self, size: int = -1) -> bytes:
        return self._guarded(lambda: self._file.read(size))

    def close(self) -> None:
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *_exc):
        self.close()


def _compression(start: bytes, path: str) -> bool:
    """Whether ``start`` opens a gzip file; another compression is refused."""
    if start.startswith(GZIP):
        return True
    for magic, name, command in OTHER_COMPRESSIONS:
        if start.startswith(magic):
            raise ScorerError(f"compressed with {name}: decompress it first ({command}); "
                              "gzip files are read as they are", (path, None))
    return False


def open_bytes(path: str, kind: str):
    """The file opened for reading bytes (a gzip file's text); ``kind``
    names the format in the error for a directory (``CoNLL-U``,
    ``CoNLL-2012``)."""
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        raise ScorerError("no such file", (path, None)) from None
    except IsADirectoryError:
        raise ScorerError(f"is a directory, not a {kind} file", (path, None)) from None
    except PermissionError:
        raise ScorerError("permission denied", (path, None)) from None
    except OSError as err:
        raise ScorerError(f"cannot open: {err.strerror}", (path, None)) from None
    try:
        start = handle.read(8)
        handle.seek(0)
    except OSError:
        return handle  # a stream that cannot seek: read as it is
    try:
        compressed = _compression(start, path)
    except ScorerError:
        handle.close()
        raise
    if not compressed:
        return handle
    handle.close()
    return _Gunzipped(path)


def head(path: str, size: int = 8192) -> bytes:
    """The first ``size`` bytes of the text (a gzip file's decompressed),
    for telling formats apart; nothing when the file cannot be read (its
    reader says why)."""
    try:
        with open_bytes(path, "file") as handle:
            return handle.read(size)
    except (ScorerError, OSError):
        return b""


def text_lines(path: str, kind: str, problems=None) -> Iterator[tuple[int, str]]:
    """The file's lines as text, numbered from 1, without their line ends
    and byte-order mark: the lines its whole text split at each line break
    gives (a file ending with a line break ends with an empty line), read
    one by one. A line that is not UTF-8 is an ``encoding`` problem
    (:class:`~corefud_scorer.formats.problems.Problems`; raised without one), read
    with replacement characters when problems are collected."""
    handle = open_bytes(path, kind)
    lineno = 0
    try:
        with handle:
            data = b""
            for lineno, data in enumerate(handle, 1):
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError as err:
                    error = ScorerError(f"not UTF-8 text ({err.reason})", (path, lineno))
                    if problems is None:
                        raise error from None
                    problems.error("encoding", error)
                    text = data.decode("utf-8", errors="replace")
                if lineno == 1 and text.startswith("\ufeff"):
                    text = text[1:]
                yield lineno, text.rstrip("\r\n")
            if data.endswith(b"\n") or not lineno:
                yield lineno + 1, ""
    except OSError as err:
        raise ScorerError(f"cannot read: {err.strerror or err}", (path, lineno or None)) from None


def read_text(path: str, kind: str) -> str:
    """The whole file as text, without a byte-order mark."""
    handle = open_bytes(path, kind)
    try:
        with handle:
            data = handle.read()
    except OSError as err:
        raise ScorerError(f"cannot read: {err.strerror or err}", (path, None)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ScorerError(f"not UTF-8 text ({err.reason})", (path, data.count(b"\n", 0, err.start) + 1)) from None
    return text[1:] if text.startswith("\ufeff") else text
