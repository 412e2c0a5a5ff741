"""One sentence of a CorefUD CoNLL-U file, validated line by line with exact
line numbers (word IDs, empty nodes, multiword ranges, HEADs, the syntax of
``Entity=`` values and the mentions on a word) and reduced to what Udapi
reads of it: the columns the scores need, MISC's coreference attributes.
"""

from __future__ import annotations

import functools
import re

from ...errors import ScorerError
from ..problems import STOP, Problems
from ...model import Sentence
from .limits import nesting_error

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


def _entity_value(misc: str) -> str | None:
    """The first ``Entity=`` item's value in a MISC column (None without
    one): found, not split out, as this runs on every word with mentions."""
    if misc.startswith("Entity="):
        start = 7
    else:
        start = misc.find("|Entity=") + 8
        if start == 7:
            return None
    end = misc.find("|", start)
    return misc[start:] if end < 0 else misc[start:end]


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



class SentenceBuilder:
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
        value = _entity_value(misc)
        if value is None:
            return misc
        if self.past_limit:
            return _without_entity(misc)
        opened = self.open_mentions + value.count("(")
        if opened > self.most_mentions:
            self.problems.error("limit", nesting_error(opened, (self.path, lineno)))
            # Collected: the rest of the sentence's brackets go too (closing what was
            # never opened, each would be mended on its own).
            self.past_limit = True
            return _without_entity(misc)
        opened -= value.count(")")
        self.open_mentions = opened if opened > 0 else 0
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
