"""Reading a multipart upload straight into a private temporary folder.

Files are written under names the server makes (``key``, ``response-1``...);
the client's file name is kept only as a label for messages. Past the size
limit nothing more is written: the rest of the body is read and dropped, so
that the client, still sending, gets to read the 413 that follows.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field

from python_multipart.multipart import MultipartParser, parse_options_header

FILE_FIELDS = ("key", "responses")
MAX_PARTS = 200
MAX_FIELD_BYTES = 64 * 1024


class UploadError(Exception):
    """A request the service refuses; ``status`` is its HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class Disconnected(Exception):
    """The client went away before its body was read."""


@dataclass
class Upload:
    """One uploaded file: where the server put it, the client's label for it."""
    field: str
    index: int
    path: str
    name: str


@dataclass
class Received:
    folder: str
    files: list[Upload] = field(default_factory=list)
    form: dict[str, list[str]] = field(default_factory=dict)

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def label(filename: str | None, default: str) -> str:
    """A client's file name as a label: its last path component, printable,
    at most 200 characters; never used as a path."""
    # Browsers send a double quote in a file name as %22 (HTML's form encoding).
    name = re.split(r"[\\/]", (filename or "").replace("%22", '"'))[-1]
    name = "".join(ch for ch in name if ch.isprintable()).strip()[:200]
    return name or default


class _Parts:
    """The callbacks of the multipart parser: each part to a file or a field."""

    def __init__(self, received: Received):
        self.received = received
        self.error: UploadError | None = None
        self.parts = 0
        self._header_field = b""
        self._header_value = b""
        self._headers: dict[bytes, bytes] = {}
        self._file = None
        self._name = ""
        self._buffer = bytearray()

    def callbacks(self) -> dict:
        return {"on_part_begin": self.part_begin, "on_part_data": self.part_data,
                "on_part_end": self.part_end, "on_header_field": self.header_field,
                "on_header_value": self.header_value, "on_header_end": self.header_end,
                "on_headers_finished": self.headers_finished}

    def part_begin(self):
        self._headers = {}
        self._file = None
        self._buffer = bytearray()
        self.parts += 1
        if self.parts > MAX_PARTS:
            raise UploadError(400, f"more than {MAX_PARTS} form fields")

    def header_field(self, data, start, end):
        self._header_field += data[start:end]

    def header_value(self, data, start, end):
        self._header_value += data[start:end]

    def header_end(self):
        self._headers[self._header_field.lower()] = self._header_value
        self._header_field = self._header_value = b""

    def headers_finished(self):
        _, params = parse_options_header(self._headers.get(b"content-disposition", b""))
        name = params.get(b"name", b"").decode("utf-8", "replace")
        if not name:
            raise UploadError(400, "a form part without a name")
        self._name = name
        if name in FILE_FIELDS:
            filename = params.get(b"filename")
            files = self.received.files
            index = sum(1 for f in files if f.field == name)
            if name == "key" and index:
                raise UploadError(400, "more than one key file")
            stored = "key" if name == "key" else f"response-{index + 1}"
            path = os.path.join(self.received.folder, stored)
            default = "key" if name == "key" else f"response-{index + 1}"
            decoded = filename.decode("utf-8", "replace") if filename is not None else None
            files.append(Upload(name, index, path, label(decoded, default)))
            self._file = open(path, "wb")

    def part_data(self, data, start, end):
        if self._file is not None:
            self._file.write(data[start:end])
        else:
            self._buffer += data[start:end]
            if len(self._buffer) > MAX_FIELD_BYTES:
                raise UploadError(400, f"field {self._name!r} is longer than {MAX_FIELD_BYTES} bytes")

    def part_end(self):
        if self._file is not None:
            self._file.close()
            self._file = None
        else:
            value = bytes(self._buffer).decode("utf-8", "replace")
            self.received.form.setdefault(self._name, []).append(value)

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None


async def receive_upload(scope_headers, receive, limit: int, tmp_dir: str | None) -> Received:
    """Read the body of a ``multipart/form-data`` request into a new folder.

    Raises :class:`UploadError` (the folder already removed) once the whole
    body has been read, or :class:`Disconnected`.
    """
    headers = {k.lower(): v for k, v in scope_headers}
    declared = headers.get(b"content-length")
    error = None
    if declared is not None and declared.isdigit() and int(declared) > limit:
        error = UploadError(413, _too_large(limit))
    kind, params = parse_options_header(headers.get(b"content-type", b""))
    if error is None and (kind != b"multipart/form-data" or not params.get(b"boundary")):
        error = UploadError(400, "send the files as multipart/form-data")
    received = Received(tempfile.mkdtemp(prefix="corefud-scorer-", dir=tmp_dir))
    parts = _Parts(received)
    parser = None if error else MultipartParser(params[b"boundary"], parts.callbacks())
    total = 0
    try:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise Disconnected()
            chunk = message.get("body", b"")
            total += len(chunk)
            if error is None and total > limit:
                error = UploadError(413, _too_large(limit))
            if error is None and chunk:
                try:
                    parser.write(chunk)
                except UploadError as err:
                    error = err
                except Exception as err:  # the parser's own complaints about the body
                    error = UploadError(400, f"malformed multipart body: {err}")
            if error is not None:
                # Stop storing at once; what is already written goes too.
                parts.close()
                received.remove()
            if not message.get("more_body", False):
                break
        if error is None:
            try:
                parser.finalize()
            except Exception as err:
                error = UploadError(400, f"malformed multipart body: {err}")
        parts.close()
        if error is not None:
            raise error
    except BaseException:
        parts.close()
        received.remove()
        raise
    return received


async def drain(receive) -> None:
    """Read the rest of a request's body and drop it, so that a client
    still sending gets to read the answer."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect" or not message.get("more_body", False):
            return


def _too_large(limit: int) -> str:
    return f"the upload is larger than the server's limit of {limit / 2 ** 20:g} MB (--max-upload-mb)"
