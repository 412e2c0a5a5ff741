"""Convert a file from one format to another through the format-free
model: each document is read and validated by its reader, loaded into
:mod:`~corefud_scorer.model` and handed, with its sentences' ids and word forms, to the
target's writer (:mod:`~corefud_scorer.formats.writers`). What the target cannot hold is counted
by kind and returned, never dropped unsaid; the output file appears only
once it is whole."""

from __future__ import annotations

import os
import tempfile
from collections import Counter

from ..errors import ScorerError
from ..formats.readers import detect_format, read_documents
from ..formats.writers import TextDocument, format_of_name, writer


def target_format(target: str, to: str | None) -> str:
    """The format asked for, or the one the output's name says."""
    fmt = to or format_of_name(target)
    if fmt is None:
        raise ScorerError("cannot tell the output format from its name: give --to", (target, None))
    writer(fmt)  # refuses a format nothing writes
    return fmt


def text_documents(source: str, fmt: str | None = None):
    """The documents of a file, each with its sentences and its annotation."""
    for doc in read_documents(source, "key", fmt or detect_format(source), deps=True):
        yield TextDocument(doc.doc_id, [s.sent_id for s in doc.sentences],
                           [list(s.forms) for s in doc.sentences], doc.load())


def convert(source: str, target: str, to: str | None = None, fmt: str | None = None) -> Counter:
    """Write ``source`` (read in ``fmt``, else its detected format) to
    ``target`` in ``to`` (else the format its name says); what the target
    could not hold, by kind."""
    module = writer(target_format(target, to))
    lost: Counter = Counter()
    directory = os.path.dirname(os.path.abspath(target))
    try:
        handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=directory, delete=False,
                                             prefix=".convert-", suffix=".part")
    except OSError as err:
        raise ScorerError(f"cannot write: {err.strerror or err}", (target, None)) from None
    try:
        with handle:
            module.write(text_documents(source, fmt), handle, lost)
        # A temporary file is private: the output gets an ordinary file's mode.
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(handle.name, 0o666 & ~mask)
        os.replace(handle.name, target)
    except BaseException as err:
        try:
            os.unlink(handle.name)
        except OSError:
            pass
        if isinstance(err, OSError):
            raise ScorerError(f"cannot write: {err.strerror or err}", (target, None)) from None
        raise
    return Counter({kind: n for kind, n in lost.items() if n})


def loss_warning(lost: Counter, fmt: str) -> str | None:
    """One line naming what the target left out, with the counts."""
    if not lost:
        return None
    return f"the {fmt} format cannot hold, left out: " + ", ".join(f"{n} {kind}" for kind, n in lost.items())
