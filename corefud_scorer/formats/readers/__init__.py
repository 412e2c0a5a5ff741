"""Readers: one module per file format, each behind the same seam.

A reader module has ``FORMAT`` (its name for ``--format``), ``PROFILE`` (what
the format means for scoring: :class:`~corefud_scorer.formats.profile.FormatProfile`),
``sniff(head)``
(does the start of a file look like this format?), ``DOCUMENT_START`` (the
bytes a line opening a document starts with), ``SUFFIXES`` (its file names) and
``read_documents(path, side)``, which validates the file with exact line
numbers and yields :class:`~corefud_scorer.model.SourceDocument` objects
one by one. A reader whose responses are read against their key (it takes
``key``) is handed the key's documents as the key's reader yields them
(:func:`read_against_key`). Everything after reading is shared by all
formats.
"""

from __future__ import annotations

import inspect
import os
import stat
from collections.abc import Iterator
from functools import lru_cache
from importlib import import_module
from itertools import tee
from types import ModuleType

from ...errors import ScorerError
from ...model import SourceDocument
from ..problems import STOP, Problems
from ..profile import FormatProfile
from .profiles import PROFILES
from .files import head, open_bytes

# Name -> module; the first format whose sniff() accepts a file is detected.
# The default format is listed last: it is what a file nobody claims is read as.
_MODULES = {"ua": "ua", "conll": "conll2012", "jsonlines": "jsonlines", "plaintext": "plaintext",
            "corefud": "corefud"}
DEFAULT_FORMAT = "corefud"


def formats() -> tuple[str, ...]:
    return tuple(_MODULES)


def _known(fmt: str) -> str:
    if fmt not in _MODULES:
        raise ValueError(f"unknown format {fmt!r} (known: {', '.join(_MODULES)})")
    return fmt


def reader(fmt: str) -> ModuleType:
    return import_module(f".{_MODULES[_known(fmt)]}", __name__)


def profile(fmt: str | None) -> FormatProfile:
    """The scoring profile of a format (the default format's for None),
    without importing its reader."""
    return PROFILES[_known(fmt or DEFAULT_FORMAT)]


def profiles() -> dict[str, FormatProfile]:
    return {fmt: profile(fmt) for fmt in _MODULES}


def _head(path: str, size: int = 8192) -> str:
    # Nothing for a file that cannot be read: its reader reports the problem.
    return head(path, size).decode("utf-8", errors="replace").lstrip("\ufeff")


def detect_format(path: str) -> str:
    """The format of a file from its first few KB; the default when unsure.
    A regular file is read once however often it is asked about (the
    command line's defaults, the pair's check, each reader), until it
    changes."""
    try:
        status = os.stat(path)
    except (OSError, TypeError, ValueError):
        return sniff_format(_head(path), path)
    if not stat.S_ISREG(status.st_mode):
        return sniff_format(_head(path), path)  # no file version to remember it by
    return _detected(os.path.abspath(path), status.st_dev, status.st_ino, status.st_mtime_ns, status.st_size)


@lru_cache(maxsize=64)
def _detected(path: str, *version) -> str:
    return sniff_format(_head(path), path)


def key_formats() -> tuple[str, ...]:
    """The formats a key can be in: every format but those whose files are
    read against their key (plaintext answers)."""
    return tuple(fmt for fmt in _MODULES if "key" not in inspect.signature(reader(fmt).read_documents).parameters)


@lru_cache(maxsize=2)
def file_suffixes(keys: bool = False) -> tuple[str, ...]:
    """Every format's file names, longest first (``.ua.conllu`` before
    ``.conllu``); with ``keys``, only those of the formats a key can be in."""
    return tuple(sorted({s for fmt in (key_formats() if keys else _MODULES) for s in reader(fmt).SUFFIXES},
                        key=len, reverse=True))


def stem(name: str, keys: bool = False) -> str | None:
    """A file name without its format's ending, in any case, with gzip's
    ``.gz`` after it or not (``AMI_dev.CONLLUA.gz`` -> ``AMI_dev``); None for
    a name that ends in no format the readers read (with ``keys``, in no
    format a key can be in)."""
    lower = name.lower()
    if lower.endswith(".gz"):
        lower, name = lower[:-len(".gz")], name[:-len(".gz")]
    suffix = next((s for s in file_suffixes(keys) if lower.endswith(s)), None)
    return name[:-len(suffix)] or None if suffix else None


def count_documents(path: str) -> int:
    """How many documents a file holds, by a quick scan for the lines its
    format opens a document with (for a progress bar only; at least 1)."""
    mark = reader(detect_format(path)).DOCUMENT_START
    count = 0
    try:
        with open_bytes(path, "file") as handle:
            for line in handle:
                if line.startswith(mark):
                    count += 1
    except (OSError, ScorerError):
        return 0
    return max(count, 1)


def sniff_format(head: str, path=None) -> str:
    """The format a file's first few KB of text say; for a file whose text
    says nothing (an empty one), the format its name's ending names; else
    the default."""
    for fmt, module in _MODULES.items():
        if fmt != DEFAULT_FORMAT and import_module(f".{module}", __name__).sniff(head):
            return fmt
    if not head.strip() and isinstance(path, str):
        lower = path.lower().removesuffix(".gz")
        for fmt in _MODULES:
            if lower.endswith(reader(fmt).SUFFIXES):
                return fmt
    return DEFAULT_FORMAT


def pairs(fmt: str, other: str) -> bool:
    """Whether files of the two formats are scored against each other
    (documents read alike, scored by the same rules): either names the
    other in its profile."""
    return other in profile(fmt).pairs_with or fmt in profile(other).pairs_with


def resolve_format(fmt: str | None, key_path: str, response_path: str) -> str:
    """The format the files are scored in: the one asked for, or the one
    detected, which must be the same for key and response or one the key's
    format pairs with (then the key's)."""
    if fmt:
        return fmt
    key_format, response_format = detect_format(key_path), detect_format(response_path)
    if key_format == response_format or pairs(key_format, response_format):
        return key_format
    # A file whose text names no format (missing, empty, not text) is read
    # in the other's, whose reader says what is wrong with it.
    if not _text_names(response_path, response_format):
        return key_format
    if not _text_names(key_path, key_format):
        return response_format
    raise ScorerError(f"the key is in the {key_format} format but the response in the "
                      f"{response_format} format", (key_path, None), (response_path, None))


def _text_names(path: str, detected: str) -> bool:
    """Whether a file's text names the format it was detected in (the
    default format is also what a file naming none is detected in)."""
    return detected != DEFAULT_FORMAT or reader(detected).sniff(_head(path))


def source_format(path: str, fmt: str | None) -> str:
    """The format a file is read in when ``fmt`` is asked for: its own where
    ``fmt`` pairs with it (where that is the default format only for want
    of another, only if its text says so), else ``fmt`` (the detected one
    for None)."""
    detected = detect_format(path)
    if fmt is None or detected == fmt:
        return detected
    if pairs(fmt, detected) and _text_names(path, detected):
        return detected
    return fmt


def read_documents(path: str, side: str, fmt: str, words: bool = False,
                   parses: bool = False, deps: bool = False, problems: Problems = STOP,
                   key=None) -> Iterator[SourceDocument]:
    """``words``: the loaded documents carry their words (``Document.text``),
    for error analysis; ``parses``: the CoNLL-2012 documents carry their
    parse bits, for NP-only; ``deps``: a UA zero keeps its DEPS, for
    conversion; ``key``: the key's documents a response is read against.
    Each is asked only of a reader that can give it (one that takes the
    argument), and only when wanted. A file detected in a format ``fmt``
    pairs with is read in its own format. ``problems`` receives what is
    wrong with the file (by default the first problem is raised; collected,
    the reader goes on; a reader that cannot go on raises its first). A key
    asked for in a format a key can be in is read in it, whatever its text
    looks like (a key is never a plaintext answer)."""
    read_as = source_format(path, fmt)
    if side == "key" and read_as != fmt and fmt in key_formats() and read_as not in key_formats():
        read_as = fmt
    module = reader(read_as)
    taken = inspect.signature(module.read_documents).parameters
    wanted: dict = {name: True for name, on in (("words", words), ("parses", parses), ("deps", deps))
                    if on and name in taken}
    if key is not None and "key" in taken:
        wanted["key"] = key
    if problems is not STOP and "problems" in taken:
        wanted["problems"] = problems
    return module.read_documents(path, side, **wanted)


def reads_against_key(path: str, fmt: str) -> bool:
    """Whether a response file is read against its key's documents."""
    return "key" in inspect.signature(reader(source_format(path, fmt)).read_documents).parameters


def read_against_key(key_path: str, response_paths: list[str], fmt: str, words: bool = False,
                     parses: bool = False, problems: Problems = STOP):
    """The key's documents and each response file's, read in one pass over
    the key: a response whose reader reads against the key (the plaintext
    format) is handed the key's documents as they are read. ``words`` and
    ``parses`` are asked of the key, ``problems`` receives the responses'."""
    keys = read_documents(key_path, "key", fmt, words=words, parses=parses)
    against = [path for path in response_paths if reads_against_key(path, fmt)]
    copies: dict = {}
    if against:
        keys, *branches = tee(keys, 1 + len(against))
        copies = dict(zip(against, branches))
    return keys, [read_documents(path, "response", fmt, problems=problems, key=copies.get(path))
                  for path in response_paths]
