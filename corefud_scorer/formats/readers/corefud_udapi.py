"""Udapi's reading of one CorefUD document's lines, and what it says: what it
logs is captured whatever the host's logging setup, a message is traced to
the line of the node it names and to the file's own entity ids, and what
Udapi cannot read is taken out of the lines so that it reads on.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re

from ...errors import ScorerError
from ..problems import STOP, Problems
from ...model import SourceDocument
from .corefud_sentence import sentence_blocks


class _CaptureWarnings(logging.Handler):
    """Collects what Udapi logs while it parses one document."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


# Udapi warnings that mean the coreference annotation cannot be read as
# written; anything else it logs is informational.
_FATAL_UDAPI_WARNINGS = ("but not closed", "has no opening nor closing bracket")


def _udapi_document(lines: list[str], global_entity: str | None):
    from udapi.block.read.conllu import Conllu
    from udapi.core.document import Document as UdapiDocument

    udoc = UdapiDocument()
    reader = Conllu(filehandle=io.StringIO("\n".join(lines) + "\n\n"), empty_parent="ignore")
    reader.apply_on_document(udoc)
    udoc.meta["global.Entity"] = global_entity
    return udoc


RE_NODE = re.compile(r"<([^<>#]+)#([0-9]+(?:\.[0-9]+)?), ")


def _locate(raw: SourceDocument, message: str) -> int:
    """The line of the first node Udapi names in a message (``<sent_id#ord, form>``),
    or the document's first line."""
    m = RE_NODE.search(message)
    if m:
        sent_id, ord_ = m.group(1), m.group(2)
        for sentence in raw.sentences:
            if sentence.sent_id == sent_id:
                if "." not in ord_ and 0 < int(ord_) <= len(sentence.word_lines):
                    return sentence.word_lines[int(ord_) - 1]
                return sentence.line
    return raw.first_line


def _udapi_message(message: str) -> str:
    first = message.splitlines()[0] if message else ""
    return first.replace(" Deleting.", "").strip()


@contextlib.contextmanager
def udapi_messages():
    """Collect what Udapi logs (through the root logger) whatever the host's
    logging setup: its level, handlers and ``logging.disable`` would otherwise
    decide whether malformed input is refused."""
    capture = _CaptureWarnings()
    root = logging.getLogger()
    saved = root.level, root.handlers[:], logging.root.manager.disable
    root.handlers = [capture]
    root.setLevel(logging.WARNING)
    logging.disable(logging.NOTSET)
    try:
        yield capture.messages
    finally:
        root.setLevel(saved[0])
        root.handlers = saved[1]
        logging.disable(saved[2])


class Unreadable(Exception):
    """What Udapi could not read: the error for the user, its kind and Udapi's message."""

    def __init__(self, error: ScorerError, kind: str, message: str):
        super().__init__(error, kind, message)
        self.error, self.kind, self.message = error, kind, message


def parse(raw: SourceDocument, lines: list[str], global_entity: str | None):
    """Udapi's document of the lines, its sentences' indices, its entities
    and what it logged; :class:`Unreadable` when it cannot read them."""
    udoc = None
    with udapi_messages() as messages:
        try:
            udoc = _udapi_document(lines, global_entity)
            sentence_index = {}
            for i, tree in enumerate(udoc.trees):
                sentence_index[id(tree)] = i
            udapi_entities = udoc.coref_entities
        except Exception as err:  # Udapi signals malformed input with assorted exceptions
            message = file_ids(udoc).in_text(str(err))
            if global_entity is None and "global.Entity" in message:
                raise Unreadable(ScorerError(
                    "Entity= annotations but no '# global.Entity' header before them "
                    "(CorefUD 1.x declares it on the first sentence)", (raw.path, raw.first_line)),
                    "header", message) from None
            detail = _udapi_message(message) or type(err).__name__
            raise Unreadable(ScorerError(f"malformed annotation: {detail}", (raw.path, _locate(raw, message))),
                              _udapi_kind(message), message) from None
    return udoc, sentence_index, udapi_entities, list(messages)


def _udapi_kind(message: str) -> str:
    """The kind of problem (:mod:`..problems`) a message of Udapi's names."""
    if "HEAD" in message or "cycle" in message or "head_idx" in message or "head index" in message:
        return "head"
    if "closed" in message or "opened" in message or "bracket" in message or "Cross-sentence" in message:
        return "brackets"
    if "forbidden characters" in message or "No eid" in message or "eid=" in message:
        return "entity-id"
    return "annotation"


# Udapi's messages about a closing bracket it cannot match: the chunk it names.
RE_UNMATCHED_CLOSING = re.compile(r"(?:Mention (\S+) closed at <|Cross-sentence mentions not supported yet: (\S+) at <)")
RE_UDAPI_CHUNK = re.compile(r"(\([^()]+\)?|[^()]+\))")


def mended(raw: SourceDocument, lines: list[str], unreadable: Unreadable) -> list[str] | None:
    """The lines without what Udapi could not read, so that it reads on: a
    closing bracket it cannot match taken out, else the HEADs (for a HEAD
    out of range or a cycle) or the coreference attributes of the sentence
    it names blanked.
    None where it names no sentence (the rest of the document is not read)."""
    found = RE_NODE.search(unreadable.message)
    if not found:
        return None
    sent_id, ord_ = found.group(1), found.group(2)
    number = next((i for i, sentence in enumerate(raw.sentences) if sentence.sent_id == sent_id), None)
    if number is None:
        return None
    blocks = sentence_blocks(lines)
    block = blocks[number]
    closing = RE_UNMATCHED_CLOSING.search(unreadable.message)
    for k, line in enumerate(block):
        if line[0] == "#":
            continue
        columns = line.split("\t")
        if closing:
            if columns[0] != ord_:
                continue
            chunk = (closing.group(1) or closing.group(2)) + ")"
            items = columns[9].split("|")
            for i, item in enumerate(items):
                if item.startswith("Entity=") and chunk in RE_UDAPI_CHUNK.findall(item[len("Entity="):]):
                    parts = RE_UDAPI_CHUNK.findall(item[len("Entity="):])
                    parts.remove(chunk)
                    items[i] = "Entity=" + "".join(parts) if parts else ""
            columns[9] = "|".join(item for item in items if item) or "_"
        elif "HEAD" in unreadable.message or "cycle" in unreadable.message:
            columns[6] = "_"
        else:
            columns[9] = "_"
        block[k] = "\t".join(columns)
    kept = [line for i, block_ in enumerate(blocks) for line in ([""] if i else []) + block_]
    return kept if kept != lines else None


def _warning_kind(message: str) -> str:
    """A Udapi message without its particulars, to count alike messages together."""
    general = re.sub(r"<[^<>]*>", "<node>", message)
    return general.split(":")[0].strip()


def file_ids(udoc):
    """Entity id as Udapi gives it -> the id written in the file, and the
    same for the ids inside a message of Udapi's.

    With GRP ids (UD GUM's header) Udapi prefixes each id with a document
    number ``dN.`` drawn from a counter global to the process, so the same
    file would read differently from one call, worker or request to the
    next; ids are per document there (see :mod:`.corefud`), and the
    file's own id is what a report must name."""
    prefixes = set(((udoc.meta.get("_tree2docid") if udoc is not None else None) or {}).values())
    pattern = (re.compile("(?<![\\w.])(?:" + "|".join(map(re.escape, prefixes)) + ")")
               if prefixes else None)

    def file_id(eid) -> str:
        eid = str(eid)
        for prefix in prefixes:
            if eid.startswith(prefix):
                return eid[len(prefix):]
        return eid

    def in_text(message: str) -> str:
        return pattern.sub("", message) if pattern is not None else message

    file_id.in_text = in_text
    return file_id


def accepted_messages(raw: SourceDocument, messages: list[str], file_id, problems: Problems = STOP) -> list:
    """Udapi's messages as notes ``(kind, example)``, but those that mean the
    annotation cannot be read as written: each is a problem."""
    accepted = []
    for message in map(file_id.in_text, messages):
        if any(marker in message for marker in _FATAL_UDAPI_WARNINGS):
            problems.error("brackets", ScorerError(f"malformed Entity annotation: {_udapi_message(message)}",
                                                   (raw.path, _locate(raw, message))))
            continue
        accepted.append((f"Udapi: {_warning_kind(message)}",
                         f"{_udapi_message(message)} (line {_locate(raw, message)})"))
    return accepted
