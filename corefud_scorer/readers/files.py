"""Opening and decoding a file for a reader, with the errors named as the
readers name them: the file, and the line of a byte that is not UTF-8."""

from __future__ import annotations

from ..errors import ScorerError


def open_bytes(path: str, kind: str):
    """The file opened for reading bytes; ``kind`` names the format in the
    error for a directory (``CoNLL-U``, ``CoNLL-2012``)."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise ScorerError("no such file", (path, None)) from None
    except IsADirectoryError:
        raise ScorerError(f"is a directory, not a {kind} file", (path, None)) from None
    except PermissionError:
        raise ScorerError("permission denied", (path, None)) from None
    except OSError as err:
        raise ScorerError(f"cannot open: {err.strerror}", (path, None)) from None


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
