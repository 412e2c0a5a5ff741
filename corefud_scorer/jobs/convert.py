"""Convert a file from one format to another through the format-free
model: each document is read and validated by its reader, loaded into
:mod:`~corefud_scorer.model` and handed, with its sentences' ids and word
forms, its own text beside the annotation
(:mod:`~corefud_scorer.formats.readers.source_text`) and its names in each
format, to the target's writer (:mod:`~corefud_scorer.formats.writers`). What the target cannot
hold is counted by kind and returned, never dropped unsaid. A file
converted to its own format is checked the same way and written as it is
(decompressed, or compressed for a name ending in ``.gz``). The output
file appears only once it is whole."""

from __future__ import annotations

import contextlib
import gzip
import inspect
import io
import os
import tempfile
from collections import Counter

from ..errors import ScorerError
from ..formats.readers import read_documents, source_format
from ..formats.readers.files import open_bytes
from ..formats.readers.source_text import SourceReader
from ..formats.writers import TextDocument, format_of_name, writer
from ..formats.writers.layers import left_out
from ..formats.writers.names import document_name


def target_format(target: str, to: str | None) -> str:
    """The format asked for, or the one the output's name says."""
    fmt = to or format_of_name(target)
    if fmt is None:
        raise ScorerError("cannot tell the output format from its name: give --to", (target, None))
    writer(fmt)  # refuses a format nothing writes
    return fmt


def text_documents(source: str, fmt: str | None = None, lost: Counter | None = None,
                   holds: frozenset = frozenset()):
    """The documents of a file, each with its sentences, its annotation,
    its own text and its names; what of its text a target holding the
    layers ``holds`` leaves out is added to ``lost``."""
    read_as = source_format(source, fmt)
    text = SourceReader(source, read_as)
    try:
        for index, doc in enumerate(read_documents(source, "key", read_as, deps=True)):
            loaded = doc.load()
            own = text.text(doc)
            if lost is not None:
                lost.update(left_out(own, holds))
            yield TextDocument(doc.doc_id, [s.sent_id for s in doc.sentences],
                               [list(s.forms) for s in doc.sentences], loaded, own,
                               document_name(doc.doc_id, doc.identity(), index))
    finally:
        text.close()


def convert(source: str, target: str, to: str | None = None, fmt: str | None = None,
            blind: bool = False) -> Counter:
    """Write ``source`` (read in ``fmt``, else its detected format) to
    ``target`` in ``to`` (else the format its name says), without the
    annotation if ``blind`` (a writer that can leave it out); what the
    target could not hold, by kind."""
    to = target_format(target, to)
    module = writer(to)
    extra = {}
    if blind:
        if "blind" not in inspect.signature(module.write).parameters:
            raise ScorerError(f"--blind: the {to} format is written with its annotation; "
                              "blind texts are written in the plaintext format")
        extra["blind"] = True
    read_as = source_format(source, fmt)
    lost, text_lost = Counter(), Counter()
    with _output(target) as handle:
        if read_as == to:
            _copy(source, read_as, handle)
        else:
            module.write(text_documents(source, read_as, text_lost, getattr(module, "HOLDS", frozenset())),
                         handle, lost, **extra)
    lost.update(text_lost)
    return Counter({kind: n for kind, n in lost.items() if n})


def _copy(source: str, fmt: str, handle) -> None:
    """A file in the target's own format, checked as a conversion reads it,
    then written as it is."""
    for doc in read_documents(source, "key", fmt):
        doc.load()
    handle.flush()
    with open_bytes(source, "file") as data:
        for line in data:
            handle.buffer.write(line)


@contextlib.contextmanager
def _output(target: str):
    """A text handle on a temporary file beside ``target`` (gzip-compressed
    for a name ending in ``.gz``), which becomes ``target`` once written
    whole, with an ordinary file's mode; nothing is left otherwise."""
    directory = os.path.dirname(os.path.abspath(target))
    try:
        descriptor, name = tempfile.mkstemp(dir=directory, prefix=".convert-", suffix=".part")
    except OSError as err:
        raise ScorerError(f"cannot write: {err.strerror or err}", (target, None)) from None
    try:
        with open(descriptor, "wb") as raw:
            packed = gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) if target.lower().endswith(".gz") else None
            handle = io.TextIOWrapper(packed or raw, encoding="utf-8", newline="\n")
            try:
                yield handle
                handle.flush()
            finally:
                handle.detach()
            if packed is not None:
                packed.close()
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(name, 0o666 & ~mask)
        os.replace(name, target)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(name)
        if isinstance(err, OSError):
            raise ScorerError(f"cannot write: {err.strerror or err}", (target, None)) from None
        raise


def loss_warning(lost: Counter, fmt: str) -> str | None:
    """One line naming what the target left out, with the counts."""
    if not lost:
        return None
    return f"the {fmt} format cannot hold, left out: " + ", ".join(f"{n} {kind}" for kind, n in lost.items())
