"""Opening and decoding a file for a reader, with the errors named as the
readers name them: the file, and the line of a byte that is not UTF-8.

A gzip file (told by its first bytes, whatever its name, standard input
included) is read as the text it holds; a file compressed another way is
refused in one line naming the compression.

Files come from strangers, so reading is bounded (:mod:`.limits`): a line
longer than the limit is refused as soon as that many bytes have come
without a line end, and a gzip file's text as soon as it passes its limit,
while it is being decompressed; neither is ever held whole first."""

from __future__ import annotations

import io
from collections.abc import Iterator
from itertools import chain

from ...errors import ScorerError
from ...lazy import lazy
from .limits import MB, limits, variable

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
# Imported when a gzip file is read (or its errors are caught): a plain file does not pay for them.
gzip = lazy("gzip")
zlib = lazy("zlib")
# Bytes read at a time: one chunk and one line at most are held. Small, so
# that the blocks of two files read side by side fit in memory already
# mapped: a new megabyte costs its page faults in every run.
CHUNK = 1 << 16


def _megabytes(size: int) -> str:
    return f"{size / MB:g} MB"


class BoundedText:
    """A file's bytes (a compressed file's text) in chunks, line by line or
    whole, refused in one line naming the file and the line where a line
    grows past the limit or a compressed file's text past its own. Damaged or cut compressed
    data is an ``OSError`` saying so, as any failure to read."""

    def __init__(self, raw, path: str, compressed: bool):
        self._raw = raw
        self._path = path
        bounds = limits()
        self._line_limit = bounds.line_bytes
        self._unpacked_limit = bounds.unpacked_bytes if compressed else None
        self._read = 0      # bytes of text read so far
        self._newlines = 0  # line ends before the chunk being read

    def _chunk(self, size: int = CHUNK) -> bytes:
        try:
            data = self._raw.read(size)
        except (EOFError, zlib.error, gzip.BadGzipFile) as err:
            raise OSError(f"damaged gzip data ({err})") from None
        self._read += len(data)
        if self._unpacked_limit is not None and self._read > self._unpacked_limit:
            raise ScorerError(f"unpacks to more than {_megabytes(self._unpacked_limit)}, the limit on what a "
                              f"compressed file may hold ({variable('unpacked_bytes')})", (self._path, self._newlines + 1))
        return data

    def _too_long(self, line: int) -> ScorerError:
        return ScorerError(f"a line longer than {_megabytes(self._line_limit)}, the limit on a line "
                           f"({variable('line_bytes')})", (self._path, line))

    def __iter__(self):
        """The lines, each with its line end, as a file's lines are."""
        return chain.from_iterable(self._line_lists())

    def _line_lists(self):
        pending: list[bytes] = []  # the line under way, in the chunks it came in
        waiting = 0  # its length
        while True:
            data = self._chunk()
            if not data:
                break
            if b"\n" not in data:  # a long line: joined once it ends, never chunk by chunk
                pending.append(data)
                waiting += len(data)
                if waiting > self._line_limit:
                    raise self._too_long(self._newlines + 1)
                continue
            buffer = io.BytesIO(data)
            lines = [b"".join([*pending, buffer.readline()])] if pending else []
            lines += buffer.readlines()
            rest = b"" if lines[-1].endswith(b"\n") else lines.pop()
            # A line's length counts its line end: one byte more than the text.
            if max(map(len, lines)) > self._line_limit + 1:
                raise self._too_long(self._newlines + next(i for i, line in enumerate(lines, 1)
                                                           if len(line) > self._line_limit + 1))
            self._newlines += len(lines)
            if len(rest) > self._line_limit:
                raise self._too_long(self._newlines + 1)
            pending, waiting = ([rest], len(rest)) if rest else ([], 0)
            yield lines
        if pending:
            yield [b"".join(pending)]

    def read(self, size: int = -1) -> bytes:
        """All the bytes, each line checked; ``size`` bytes at most (unchecked:
        the start of a file, for telling its format)."""
        if size >= 0:
            return self._chunk(size)
        return b"".join(self.chunks())

    def blocks(self):
        """The bytes in blocks of whole lines, each line checked as it comes:
        every block but the last ends with a line end."""
        pending: list[bytes] = []  # a line under way
        for data in self.chunks():
            end = data.rfind(b"\n") + 1
            if not end:
                pending.append(data)
                continue
            yield b"".join([*pending, data[:end]]) if pending else data[:end]
            pending = [data[end:]] if end < len(data) else []
        if pending:
            yield b"".join(pending)

    def chunks(self):
        """The bytes a chunk at a time, each line checked as it comes (what
        unpacking a zip writes)."""
        since = 0  # bytes since the last line end
        while True:
            data = self._chunk()
            if not data:
                return
            since = self._after_lines(data, since)
            self._newlines += data.count(b"\n")
            yield data

    def _after_lines(self, data: bytes, since: int) -> int:
        """The bytes of ``data`` after its last line end (``since`` more
        without one), once no line in it is over the limit. Jumps from line
        end to line end up to a limit apart, so that a chunk of short lines
        is checked in a few steps."""
        limit = self._line_limit
        first = data.find(b"\n")
        if first < 0:
            first = len(data)
        if since + first > limit:
            raise self._too_long(self._newlines + 1)
        start = first + 1
        while len(data) - start > limit:
            end = data.rfind(b"\n", start, start + limit + 1)
            if end < 0:
                raise self._too_long(self._newlines + data.count(b"\n", 0, start) + 1)
            start = end + 1
        return since + len(data) if first == len(data) else len(data) - data.rfind(b"\n") - 1

    def close(self) -> None:
        self._raw.close()

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


def open_bytes(path: str, kind: str) -> BoundedText:
    """The file opened for reading bytes (a gzip file's text), bounded;
    ``kind`` names the format in the error for a directory (``CoNLL-U``,
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
        return BoundedText(handle, path, False)  # a stream that cannot seek: read as it is
    try:
        compressed = _compression(start, path)
    except ScorerError:
        handle.close()
        raise
    if not compressed:
        return BoundedText(handle, path, False)
    handle.close()
    return BoundedText(gzip.open(path, "rb"), path, True)


def head(path: str, size: int = 8192) -> bytes:
    """The first ``size`` bytes of the text (a gzip file's decompressed),
    for telling formats apart; nothing when the file cannot be read (its
    reader says why)."""
    try:
        with open_bytes(path, "file") as handle:
            return handle.read(size)
    except (ScorerError, OSError):
        return b""


def text_batches(path: str, kind: str, problems=None) -> Iterator[tuple[int, list[str]]]:
    """The file's lines as text, a block of them at a time with the number
    of the first (from 1), without their line ends and byte-order mark: the
    lines its whole text split at each line break gives (a file ending with
    a line break ends with an empty line). A block is decoded at once; a
    line that is not UTF-8 is an ``encoding`` problem
    (:class:`~corefud_scorer.formats.problems.Problems`; raised without one),
    read with replacement characters when problems are collected."""
    handle = open_bytes(path, kind)
    lineno = 0  # lines given so far
    ended = True  # the last line read ends with a line break
    try:
        with handle:
            for block in handle.blocks():
                try:
                    text = block.decode("utf-8")
                except UnicodeDecodeError:
                    texts = _decoded(block, lineno, path, problems)
                else:
                    texts = text.split("\n")
                    if "\r" in text:
                        texts = [line.rstrip("\r") for line in texts]
                ended = block.endswith(b"\n")
                if ended:
                    texts.pop()  # what follows the last line break: the next block's
                if not lineno and texts[0].startswith("\ufeff"):
                    texts[0] = texts[0][1:]
                yield lineno + 1, texts
                lineno += len(texts)
            if ended or not lineno:
                yield lineno + 1, [""]
    except OSError as err:
        raise ScorerError(f"cannot read: {err.strerror or err}", (path, lineno or None)) from None


def _decoded(block: bytes, before: int, path: str, problems) -> list[str]:
    """A block's lines (split at each line break) decoded one by one, each
    that is not UTF-8 reported (with ``before`` lines before them)."""
    texts = []
    for lineno, data in enumerate(block.split(b"\n"), before + 1):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            error = ScorerError(f"not UTF-8 text ({err.reason})", (path, lineno))
            if problems is None:
                raise error from None
            problems.error("encoding", error)
            text = data.decode("utf-8", errors="replace")
        texts.append(text.rstrip("\r"))
    return texts


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
