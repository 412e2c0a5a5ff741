"""The CorefUD reader: CorefUD 1.x CoNLL-U files, one document at a time.

Two layers:

* a light pass over the text (:func:`read_documents`) that validates the
  CoNLL-U structure with exact line numbers and keeps, per sentence, what the
  alignment check needs (``sent_id``, ``# newdoc``, word forms);
* Udapi (:meth:`CorefUDDocument.load`), which parses each document and materialises
  its coreference layer (``Entity=`` in MISC), turned into the format-free
  :mod:`corefud_scorer.model`.

Documents are handed over one by one so that a whole corpus never has to be
held in memory.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import re
from dataclasses import dataclass, field
from typing import Iterator

from ...errors import ScorerError
from ..problems import STOP, Problems
from ..profile import FormatProfile
from ...model import (ORD_SCALE, SENTENCE_STRIDE, Bridging, Document, DocumentText, EmptyNode, Entity,
                     Mention, Sentence, SourceDocument, Word)
from .file_entities import SHARED_WITH_EARLIER, FileEntities, in_file_order, line_of, shared_with_earlier
from .files import open_bytes
from .limits import limits, nesting_error

FORMAT = "corefud"
# How a document starts (counted for a progress bar).
DOCUMENT_START = b"# newdoc"
# The file names of the format (bench pairs folders of them, convert writes them).
SUFFIXES = (".conllu",)
PROFILE = FormatProfile(
    name=FORMAT, title="CorefUD",
    # Scorer 1.2's defaults.
    defaults={"metrics": ("all",), "match": "head", "zero_match": "dependent", "keep_zeros": True,
              "check_forms": True},
    all_metrics=("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"),
    matching_modes=("exact", "partial", "head", "partial-craft"),
    features=frozenset({"keep_zeros", "keep_split_antecedents", "only_split_antecedent", "shared_task"}),
    why_not={"discourse_deixis": "CorefUD files have no discourse-deixis layer (a UA file's DISCOURSE_DEIXIS column)",
             "non-referring": "CorefUD files have no non-referring markables (a UA file's markables of no entity)",
             "np_only": "needs the parse column of CoNLL-2012 files",
             "remove_nested": "is defined for CoNLL-2012 files"},
)

# The same patterns Udapi's CoNLL-U reader applies to comments, so that the
# alignment check sees the values Udapi sees.
RE_SENT_ID = re.compile(r"^# sent_id\s*=?\s*(\S+)")
RE_NEWDOC = re.compile(r"^# newdoc(?:\s+id\s*=\s*(.+))?$")
RE_GLOBAL_ENTITY = re.compile(r"^# global.Entity\s*=\s*(\S+)")
RE_WORD_ID = re.compile(r"^[1-9][0-9]*$")
RE_RANGE_ID = re.compile(r"^([1-9][0-9]*)-([1-9][0-9]*)$")
RE_EMPTY_ID = re.compile(r"^([0-9]+)\.([1-9][0-9]*)$")
# An Entity= value: opening chunks "(eid-...", possibly closed at once, and
# closing chunks "eid)", as Udapi splits them.
RE_ENTITY_VALUE = re.compile(r"(?:\([^()\-][^()]*\)?|[^()]+\))+")


# What Udapi's coreference layer reads from MISC; the rest is not given to it.
COREFERENCE_MISC = ("Entity=", "Bridge=", "SplitAnte=", "Split=")


def _coreference_misc(misc: str) -> str:
    if "Entity=" not in misc and "Bridge=" not in misc and "Split" not in misc:
        return "_"
    return "|".join(item for item in misc.split("|") if item.startswith(COREFERENCE_MISC)) or "_"


def _without_entity(misc: str) -> str:
    return "|".join(item for item in misc.split("|") if not item.startswith("Entity=")) or "_"


RE_ONE_WORD_MENTION = re.compile(r"\(([^()]*)\)")
RE_OPENING = re.compile(r"\(([^()]*)")


def _check_entity(misc: str, places: tuple[int | None, int | None]) -> tuple[str, str] | None:
    """What is wrong with the Entity= value in a MISC column, if anything,
    as (kind, message): its syntax, or the head index of a mention opened
    and closed on this word (longer mentions' heads are checked when Udapi
    closes them), or an entity id Udapi would refuse. ``places``: where the
    id and the head index stand in a chunk (:func:`_fields`)."""
    eid_field, head_field = places
    for item in misc.split("|"):
        if item.startswith("Entity="):
            value = item[len("Entity="):]
            if not RE_ENTITY_VALUE.fullmatch(value):
                return "entity-id", f"malformed Entity value {value!r}"
            if eid_field is not None and "=" in value:
                for chunk in RE_OPENING.findall(value):
                    parts = chunk.split("-")
                    # '=' is the one character Udapi forbids in an id that the brackets let through.
                    if len(parts) > eid_field and "=" in parts[eid_field]:
                        return "entity-id", f"entity id {parts[eid_field]!r} holds '=', which ids cannot hold"
            if head_field is None:
                continue
            for chunk in RE_ONE_WORD_MENTION.findall(value):
                fields = chunk.split("-")
                if "[" in fields[0] or len(fields) <= head_field:
                    continue  # a part of a discontinuous mention, or no head given
                head = fields[head_field]
                if head.isdigit() and int(head) != 1:
                    return "head", f"head index {head} of mention {fields[0]} outside its one word"
    return None


@functools.lru_cache(maxsize=8)
def _fields(entity_header: str | None) -> tuple[int | None, int | None]:
    """Where the entity id and the head index stand in an Entity= chunk, per global.Entity."""
    fields = (entity_header or "").split("-")
    return (fields.index("eid") if "eid" in fields else None,
            fields.index("head") if "head" in fields else None)


@dataclass
class CorefUDDocument(SourceDocument):
    """One document's CoNLL-U text (reduced to what Udapi reads), not yet
    parsed, with the file's ``global.Entity`` header."""

    lines: list[str] = field(default_factory=list)
    entity_header: str | None = None
    notes: list[tuple[str, str]] = field(default_factory=list)  # (kind, example) seen in the text
    words: bool = False  # read with UPOS and FEATS; load() fills Document.text
    # Ids this document shares with earlier ones -> their first mention in the file (file_entities.py).
    earlier_entities: dict[str, tuple] = field(default_factory=dict)
    # Read in the light pass: Udapi is not given the columns the empty-node evaluation compares.
    empty_nodes: list[EmptyNode] = field(default_factory=list)

    def load(self, problems: Problems = STOP) -> Document:
        return load_document(self, self.entity_header, self.words, problems)


class _SentenceBuilder:
    """Validates the lines of one sentence as they come, reporting each
    problem to ``problems``; when they are collected, a line is mended
    (renumbered, its bad value blanked) so that the rest still reads."""

    def __init__(self, path: str, line: int, header: dict, words: bool = False,
                 problems: Problems = STOP, most_mentions: int = 0):
        self.path = path
        self.most_mentions = most_mentions  # on one word (limits.py)
        self.open_mentions = 0  # opened and not yet closed, before the word being read
        self.past_limit = False  # a word was in too many: the sentence's brackets are read no further
        self.words = words
        self.header = header
        self.problems = problems
        self.notes: list[tuple[str, str]] = []
        self.line = line
        self.sent_id: str | None = None
        self.newdoc: str | bool | None = None
        self.forms: list[str] = []
        self.word_lines: list[int] = []
        self.heads: list[str] = []
        self.last_empty = (-1, 0)
        self.last_id = 0  # the last word ID as written (the number of words, unless one was misnumbered)
        self.misnumbered = False  # a word's ID was not its place (collected): HEADs name other words
        self.has_token = False
        self.empty_nodes: list[tuple] = []  # (word order, FORM, LEMMA, UPOS, XPOS, FEATS, DEPS)
        self.lines: list[str] = []  # what Udapi is given of the sentence
        self.word_index: list[int] = []  # each word's index in ``lines``

    def error(self, lineno: int, message: str) -> ScorerError:
        return ScorerError(message, (self.path, lineno))

    def report(self, kind: str, lineno: int, message: str) -> None:
        self.problems.error(kind, self.error(lineno, message))

    def comment(self, text: str, lineno: int) -> str | None:
        m = RE_SENT_ID.match(text)
        if m:
            self.sent_id = m.group(1)
            return None
        m = RE_NEWDOC.match(text)
        if m:
            self.newdoc = True if m.group(1) is None else m.group(1)
            return None
        m = RE_GLOBAL_ENTITY.match(text)
        if m:
            return m.group(1)
        return None

    def token(self, text: str, lineno: int) -> None:
        """Validate one token line; what Udapi is given of it goes to ``lines``."""
        fields = text.split("\t")
        if len(fields) != 10:
            self.report("columns", lineno, f"expected 10 tab-separated columns, found {len(fields)}")
            fields = (fields + ["_"] * 10)[:10]
        token_id = fields[0]
        self.has_token = True
        misc = fields[9]
        if "Entity=" in misc:
            problem = _check_entity(misc, _fields(self.header.get("global.Entity")))
            if problem:
                self.report(problem[0], lineno, problem[1])
                if problem[0] != "head":  # Udapi reads no head index on a one-word mention
                    misc = _without_entity(misc)
            misc = self._counted(misc, lineno)
        expected = self.last_id + 1
        if token_id == str(expected):  # the common case first
            self.last_id = expected
            self.forms.append(fields[1])
            self.word_lines.append(lineno)
            self.heads.append(fields[6])
            self.word_index.append(len(self.lines))
            self.lines.append(self._reduced(fields, token_id, misc))
            return
        if RE_WORD_ID.match(token_id):
            self.report("token-id", lineno, f"word ID {token_id} out of sequence (expected {expected})")
            self.misnumbered = True
            self._word(fields, token_id, misc, lineno)
            return
        m = RE_EMPTY_ID.match(token_id)
        if m:
            major, minor = int(m.group(1)), int(m.group(2))
            # Empty node N.M follows word N, numbered 1, 2, ... after each word.
            expected = self.last_empty[1] + 1 if self.last_empty[0] == self.last_id else 1
            if major != self.last_id:
                self.report("empty-node", lineno, f"empty node {token_id} does not follow word {major}")
            elif minor != expected:
                self.report("empty-node", lineno,
                            f"empty node {token_id} out of sequence (expected {major}.{expected})")
            else:
                self._empty(fields, token_id, misc, lineno, minor)
                return
            self._empty(fields, f"{len(self.forms)}.{expected}", misc, lineno, expected)
            return
        m = RE_RANGE_ID.match(token_id)
        if m:
            start, end = int(m.group(1)), int(m.group(2))
            if start != self.last_id + 1 or end <= start:
                self.report("token-id", lineno, f"bad multiword token range {token_id}")
                return
            self.lines.append(self._reduced(fields, token_id, misc))
            return
        if "." in token_id:
            self.report("empty-node", lineno, f"bad token ID {token_id!r}")
            expected = self.last_empty[1] + 1 if self.last_empty[0] == self.last_id else 1
            self._empty(fields, f"{len(self.forms)}.{expected}", misc, lineno, expected)
            return
        self.report("token-id", lineno, f"bad token ID {token_id!r}")
        self.misnumbered = True
        self._word(fields, str(self.last_id + 1), misc, lineno)

    def _counted(self, misc: str, lineno: int) -> str:
        """``misc``, once the mentions on its word (open before it, or opened
        on it) are known to be within the limit; Udapi's reading takes time
        growing with their square. Beyond it, the problem, and without its
        Entity= value (nor the rest of the sentence's) when problems are
        collected."""
        value = next((item for item in misc.split("|") if item.startswith("Entity=")), None)
        if value is None:
            return misc
        if self.past_limit:
            return _without_entity(misc)
        opening = value.count("(")
        if self.open_mentions + opening > self.most_mentions:
            self.problems.error("limit", nesting_error(self.open_mentions + opening, (self.path, lineno)))
            # Collected: the rest of the sentence's brackets go too (closing what was
            # never opened, each would be mended on its own).
            self.past_limit = True
            return _without_entity(misc)
        self.open_mentions = max(0, self.open_mentions + opening - value.count(")"))
        return misc

    def _word(self, fields: list[str], token_id: str, misc: str, lineno: int) -> None:
        self.last_id = int(token_id)
        self.forms.append(fields[1])
        self.word_lines.append(lineno)
        self.heads.append(fields[6])
        self.word_index.append(len(self.lines))
        # Udapi is given the word's place in the sentence, whatever its written ID.
        self.lines.append(self._reduced(fields, str(len(self.forms)), misc))

    def _empty(self, fields: list[str], token_id: str, misc: str, lineno: int, minor: int) -> None:
        self.last_empty = (self.last_id, minor)
        self.empty_nodes.append((int(token_id.split(".")[0]), *fields[1:6], fields[8]))
        if minor % 10 == 0:
            # Word order is a decimal number, as in Udapi: N.10 is N.1.
            self.notes.append(("empty nodes numbered N.10, N.20, ... share the position of N.1, "
                               "N.2, ... (scored as scorer 1.2 scores them: as one node)",
                               f"{token_id} (line {lineno})"))
        self.lines.append(self._reduced(fields, token_id, misc))

    def _reduced(self, fields: list[str], token_id: str, misc: str) -> str:
        """What Udapi is given of a token line (a bad HEAD is blanked by :meth:`finish`)."""
        if self.words:  # error analysis reads UPOS and FEATS
            return (f"{token_id}\t{fields[1]}\t_\t{fields[3]}\t_\t{fields[5]}\t{fields[6]}\t_\t"
                    f"{fields[8]}\t{_coreference_misc(misc)}")
        return f"{token_id}\t{fields[1]}\t_\t_\t_\t_\t{fields[6]}\t_\t{fields[8]}\t{_coreference_misc(misc)}"

    def finish(self) -> Sentence | None:
        """The sentence; None for one without words whose problem was collected."""
        if not self.forms:
            self.report("token-id", self.line, "sentence without words")
            return None
        n = len(self.forms)
        for lineno, head, index in zip(self.word_lines, self.heads, self.word_index):
            if self.misnumbered:
                # Collected: the HEADs follow the numbering as written, which is
                # reported already; Udapi reads the words without them.
                columns = self.lines[index].split("\t")
                columns[6] = "_"
                self.lines[index] = "\t".join(columns)
                continue
            if head == "_":
                continue
            if not head.isdigit() or int(head) > n:
                self.report("head", lineno, f"bad HEAD {head!r} (the sentence has {n} words)")
                columns = self.lines[index].split("\t")
                columns[6] = "_"
                self.lines[index] = "\t".join(columns)
        return Sentence(self.line, self.sent_id, self.newdoc, self.forms, self.word_lines)


def read_documents(path: str, side: str = "key", words: bool = False,
                   problems: Problems = STOP) -> Iterator[CorefUDDocument]:
    """Yield the documents of a CoNLL-U file, validated line by line.

    ``words`` gives Udapi the UPOS and FEATS columns too (blanked otherwise,
    for speed), and the loaded documents their words (``Document.text``),
    which error analysis reads. Problems go to ``problems`` (the first is
    raised, unless they are collected).
    A file without ``# newdoc`` is one document; sentences before the first
    ``# newdoc`` form a document of their own.
    """
    header: dict = {}
    file_entities = None
    for doc in iter_raw_documents(path, header, words, problems):
        doc.entity_header = header.get("global.Entity")
        doc.words = words
        doc.entity_scope = _entity_scope(doc.entity_header)
        if doc.entity_scope == "file":
            if file_entities is None:
                file_entities = FileEntities(path, doc.entity_header)
            file_entities.see(doc)
        yield doc
    if file_entities is not None:
        file_entities.finish(problems)


def _entity_scope(entity_header: str | None) -> str:
    """GRP ids (UD GUM's header) are numbered per document, so an entity
    cannot span documents; other ids name one entity in the whole file."""
    if entity_header and "GRP" in entity_header.split("-"):
        return "document"
    return "file"


def sniff(head: str) -> bool:
    """CoNLL-U: a comment or a token line of ten tab-separated columns."""
    for line in head.splitlines():
        if line.strip() and not line.startswith("#"):
            return line.count("\t") == 9
        if line.startswith(("# global.Entity", "# newdoc", "# sent_id")):
            return True
    return False


def iter_raw_documents(path: str, header: dict | None = None, words: bool = False,
                       problems: Problems = STOP) -> Iterator[CorefUDDocument]:
    """The documents of a file without the header attached; ``header`` (a
    dict) receives ``global.Entity`` as soon as it is seen."""
    if header is None:
        header = {}
    handle = open_bytes(path, "CoNLL-U")
    most_mentions = limits().mentions_per_word
    doc: CorefUDDocument | None = None
    doc_count = 0
    sentence: _SentenceBuilder | None = None
    lineno = 0

    def close_sentence():
        nonlocal doc, doc_count, sentence
        built = sentence.finish()
        if built is None:  # collected: a sentence without words is left out
            sentence = None
            return None
        if built.newdoc or doc is None:
            if doc is not None:
                yield_doc = doc
            else:
                yield_doc = None
            doc_count += 1
            doc_id = built.newdoc if isinstance(built.newdoc, str) else (
                doc_count if built.newdoc else None)
            doc = CorefUDDocument(path, doc_count - 1, doc_id, built.newdoc)
        else:
            yield_doc = None
        if sentence.empty_nodes:
            index = len(doc.sentences)
            doc.empty_nodes.extend(EmptyNode(index, *node) for node in sentence.empty_nodes)
        doc.sentences.append(built)
        doc.notes.extend(sentence.notes)
        if doc.lines:
            doc.lines.append("")
        doc.lines.extend(sentence.lines)
        sentence = None
        return yield_doc

    try:
        with handle:
            # Bytes decoded line by line, so that an encoding error names its line.
            for lineno, data in enumerate(handle, 1):
                try:
                    text = data.decode("utf-8").rstrip("\r\n")
                except UnicodeDecodeError as err:
                    problems.error("encoding", ScorerError(f"not UTF-8 text ({err.reason})", (path, lineno)))
                    text = data.decode("utf-8", errors="replace").rstrip("\r\n")
                if lineno == 1 and text.startswith("\ufeff"):
                    text = text[1:]
                if not text.strip():
                    if sentence is not None:
                        done = close_sentence()
                        if done is not None:
                            yield done
                    continue
                if sentence is None:
                    sentence = _SentenceBuilder(path, lineno, header, words, problems, most_mentions)
                if text[0] == "#":
                    if sentence.has_token:
                        problems.error("columns", ScorerError("comment line inside a sentence", (path, lineno)))
                        continue
                    value = sentence.comment(text, lineno)
                    if value is not None:
                        previous = header.get("global.Entity")
                        if previous is not None and previous != value:
                            problems.error("header", ScorerError(
                                f"global.Entity {value!r} differs from {previous!r} declared before",
                                (path, lineno)))
                            continue
                        header["global.Entity"] = value
                    sentence.lines.append(text)
                else:
                    sentence.token(text, lineno)
            if sentence is not None:
                done = close_sentence()
                if done is not None:
                    yield done
    except OSError as err:
        raise ScorerError(f"cannot read: {err.strerror or err}", (path, lineno or None)) from None
    if doc is None:
        raise ScorerError("holds no sentence: not a CoNLL-U file", (path, None))
    yield doc


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


def _deps_of(node) -> tuple[tuple[int, str], ...]:
    """Enhanced dependencies of a node as (parent position in sentence, relation)."""
    raw = node.raw_deps
    if not raw or raw == "_":
        return ()
    deps = []
    for item in raw.split("|"):
        parent, _, relation = item.partition(":")
        try:
            parent_pos = round(float(parent) * ORD_SCALE)
        except ValueError:
            continue
        deps.append((parent_pos, relation))
    return tuple(deps)


RE_NODE = re.compile(r"<([^<>#]+)#([0-9]+(?:\.[0-9]+)?), ")


def _locate(raw: CorefUDDocument, message: str) -> int:
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


class _Unreadable(Exception):
    """What Udapi could not read: the error for the user, its kind and Udapi's message."""

    def __init__(self, error: ScorerError, kind: str, message: str):
        super().__init__(error, kind, message)
        self.error, self.kind, self.message = error, kind, message


def _parse(raw: CorefUDDocument, lines: list[str], global_entity: str | None):
    """Udapi's document of the lines, its sentences' indices, its entities
    and what it logged; :class:`_Unreadable` when it cannot read them."""
    udoc = None
    with udapi_messages() as messages:
        try:
            udoc = _udapi_document(lines, global_entity)
            sentence_index = {}
            for i, tree in enumerate(udoc.trees):
                sentence_index[id(tree)] = i
            udapi_entities = udoc.coref_entities
        except Exception as err:  # Udapi signals malformed input with assorted exceptions
            message = _file_ids(udoc).in_text(str(err))
            if global_entity is None and "global.Entity" in message:
                raise _Unreadable(ScorerError(
                    "Entity= annotations but no '# global.Entity' header before them "
                    "(CorefUD 1.x declares it on the first sentence)", (raw.path, raw.first_line)),
                    "header", message) from None
            detail = _udapi_message(message) or type(err).__name__
            raise _Unreadable(ScorerError(f"malformed annotation: {detail}", (raw.path, _locate(raw, message))),
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


def sentence_blocks(lines: list[str]) -> list[list[str]]:
    """A document's lines (as :class:`CorefUDDocument` keeps them) split
    into its sentences' lines."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line:
            blocks[-1].append(line)
        else:
            blocks.append([])
    return blocks


def _mended(raw: CorefUDDocument, lines: list[str], unreadable: _Unreadable) -> list[str] | None:
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
    mended = [line for i, block_ in enumerate(blocks) for line in ([""] if i else []) + block_]
    return mended if mended != lines else None


def load_document(raw: CorefUDDocument, global_entity: str | None, text: bool = False,
                  problems: Problems = STOP) -> Document:
    """Parse one raw document with Udapi and return its entities and mentions;
    with ``text``, also its words (read with ``words``) and sentence ids.
    When ``problems`` are collected, what Udapi cannot read is reported and
    taken out, and the document read again, until it reads (or a problem
    names no sentence: the rest of the document is then left unread)."""
    lines = raw.lines
    while True:
        try:
            udoc, sentence_index, udapi_entities, messages = _parse(raw, lines, global_entity)
            break
        except _Unreadable as unreadable:
            problems.error(unreadable.kind, unreadable.error)
            lines = _mended(raw, lines, unreadable)
            if lines is None:
                return Document(raw.doc_id, [], len(raw.sentences), raw.tokens, raw.first_line, list(raw.notes))
    file_id = _file_ids(udoc)
    accepted = []
    for message in map(file_id.in_text, messages):
        if any(marker in message for marker in _FATAL_UDAPI_WARNINGS):
            problems.error("brackets", ScorerError(f"malformed Entity annotation: {_udapi_message(message)}",
                                                   (raw.path, _locate(raw, message))))
            continue
        accepted.append((f"Udapi: {_warning_kind(message)}",
                         f"{_udapi_message(message)} (line {_locate(raw, message)})"))
    built: dict = {}
    entities = in_file_order(_entities(udapi_entities, sentence_index, built, file_id), raw.earlier_entities)
    for span, eids in shared_with_earlier(entities, raw.earlier_entities):
        accepted.append((SHARED_WITH_EARLIER, f"line {line_of(raw, span[0])}, in {' and '.join(eids)}"))
    return Document(raw.doc_id, entities, len(raw.sentences), raw.tokens, raw.first_line,
                    raw.notes + accepted, _document_text(udoc, raw) if text else None,
                    bridging=_bridging(udapi_entities, built, file_id), empty_nodes=raw.empty_nodes)


def _document_text(udoc, raw: CorefUDDocument) -> DocumentText:
    """Every word and empty node by position, with its form, UPOS and FEATS."""
    words = {}
    for i, tree in enumerate(udoc.trees):
        base = i * SENTENCE_STRIDE
        for node in tree.descendants:
            words[base + node.ord * ORD_SCALE] = Word(node.form, node.upos, str(node.feats))
        for node in tree.empty_nodes:
            words[base + round(node.ord * ORD_SCALE)] = Word(node.form, node.upos, str(node.feats))
    return DocumentText([s.sent_id for s in raw.sentences], words, trees=True)


def _warning_kind(message: str) -> str:
    """A Udapi message without its particulars, to count alike messages together."""
    general = re.sub(r"<[^<>]*>", "<node>", message)
    return general.split(":")[0].strip()


def _file_ids(udoc):
    """Entity id as Udapi gives it -> the id written in the file, and the
    same for the ids inside a message of Udapi's.

    With GRP ids (UD GUM's header) Udapi prefixes each id with a document
    number ``dN.`` drawn from a counter global to the process, so the same
    file would read differently from one call, worker or request to the
    next; ids are per document there (see :func:`_entity_scope`), and the
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


def _entities(udapi_entities, sentence_index, built: dict | None = None, file_id=str) -> list[Entity]:
    """The model's entities; ``built`` receives each Udapi mention's Mention.
    A plural entity lists its ``SplitAnte`` antecedents."""
    entities = []
    for uentity in udapi_entities:
        mentions = []
        for umention in uentity.mentions:
            words = []
            for node in umention.words:
                words.append(sentence_index[id(node.root)] * SENTENCE_STRIDE + round(node.ord * ORD_SCALE))
            words.sort()
            head_node = umention.head if umention.head is not None else umention.words[0]
            head = sentence_index[id(head_node.root)] * SENTENCE_STRIDE + round(head_node.ord * ORD_SCALE)
            is_zero = head_node.is_empty()
            mentions.append(Mention(tuple(words), head, is_zero, _deps_of(head_node) if is_zero else ()))
            if built is not None:
                built[id(umention)] = mentions[-1]
        if mentions:
            entities.append(Entity(file_id(uentity.eid), mentions,
                                   tuple(file_id(e.eid) for e in getattr(uentity, "split_ante", ()))))
    return entities


def _bridging(udapi_entities, built: dict, file_id=str) -> list[Bridging]:
    """``Bridge`` links: each anaphor mention's antecedent entity and relation;
    the antecedent mention is that entity's last one starting before the
    anaphor (its first one if none does)."""
    links = []
    for uentity in udapi_entities:
        for umention in uentity.mentions:
            if not umention._bridging:  # read without building an empty list
                continue
            anaphor = built.get(id(umention))
            for link in umention.bridging:
                antecedent = bridging_antecedent(anaphor, [built[id(m)] for m in link.target.mentions
                                                           if id(m) in built])
                links.append(Bridging(anaphor, file_id(link.target.eid), antecedent, link.relation or None))
    return links


def bridging_antecedent(anaphor: Mention, candidates: list[Mention]) -> Mention | None:
    """The mention a ``Bridge`` link's antecedent entity stands for: its
    last mention starting before the anaphor, else its first."""
    before = [m for m in candidates if m.sort_key() < anaphor.sort_key()]
    if before:
        return max(before, key=Mention.sort_key)
    return min(candidates, key=Mention.sort_key) if candidates else None


def read_file(path: str) -> list[Document]:
    """Read every document of a file (convenience for the API and tests)."""
    return [doc.load() for doc in read_documents(path)]
