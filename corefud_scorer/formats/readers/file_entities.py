"""Entity ids that recur across the documents of one CorefUD file.

Scorer 1.2 hands the whole file to Udapi, which builds one entity per id for
the whole file and sorts the entities by their first mention in the file
(start word; at the same start word the longer mention first, then the
earlier last word, then the smaller id). It then splits each entity into
its documents, keeping that order, so inside a document an entity whose id
was already used in an earlier document comes before every entity that
starts in the document itself, and such entities keep their order of first
use in the file. The order of a document's entities matters where a span
stands in two of them: 1.2's mention-to-entity lookup keeps the last one.

We parse one document at a time, in which Udapi orders entities by their
first mention in the document. :class:`FileEntities` runs in the main
process over the documents in file order (a light pass over the ``Entity=``
values, the bracket matching Udapi does, without building anything) and
tells each document where its recurring ids first stood in the file
(``earlier_entities``); :func:`in_file_order` then reorders the parsed
entities in the worker. Nothing else depends on other documents, so the
worker pool still sees one self-contained document at a time.

The same pass handles ``SplitAnte=`` and ``Bridge=`` links to an entity
defined only in another document: Udapi refuses them when it parses one
document, while 1.2, parsing the whole file, accepts them. Identity scores
do not read these links, so such a link is left out of that document (with
a warning naming its line); a link to an entity defined nowhere in the file
stays an error, as in 1.2.
"""

from __future__ import annotations

import re

from ...errors import ScorerError
from ..problems import STOP, Problems
from ...model import ORD_SCALE, SENTENCE_STRIDE, Entity, position

# How Udapi splits an Entity= value into chunks, and reads a discontinuous id.
RE_CHUNK = re.compile(r"(\([^()]+\)?|[^()]+\))")
RE_DISCONTINUOUS = re.compile(r"^([^[]+)\[(\d+)/(\d+)\]")
LINK_ATTRIBUTES = ("SplitAnte=", "Split=", "Bridge=")

CROSS_DOCUMENT_LINK = ("SplitAnte/Bridge links to an entity of another document left out "
                       "(scorer 1.2 reads them across the file; identity scores do not use them)")
SHARED_WITH_EARLIER = ("spans in two entities, one of them named in an earlier document "
                       "(scored with the entity whose first mention in the file comes last, "
                       "as scorer 1.2 does)")


class _Mention:
    """A mention being matched: start position, node count, last node."""

    __slots__ = ("start", "count", "last_index", "end", "sentence")

    def __init__(self, pos: int, index: int, sentence: int):
        self.start, self.count, self.last_index, self.end, self.sentence = pos, 1, index, pos, sentence


class _Brackets:
    """One document's ``Entity=`` brackets matched as Udapi matches them:
    the ids it defines and the sort key of each id's first mention."""

    def __init__(self, eid_field: int):
        self.eid_field = eid_field
        self.keys: dict[str, tuple] = {}  # eid -> (start, -node count, end, eid) of its first mention
        self.defined: set[str] = set()
        self.open: dict[str, list] = {}
        self.discontinuous: dict[str, list] = {}

    def value(self, value: str, pos: int, index: int, sentence: int) -> None:
        """An ``Entity=`` value on the node at ``pos`` (the ``index``-th node of its sentence)."""
        open_, discontinuous, eid_field = self.open, self.discontinuous, self.eid_field
        for chunk in RE_CHUNK.split(value):
            if not chunk:
                continue
            opening, closing = chunk[0] == "(", chunk[-1] == ")"
            name = chunk.strip("()")
            if opening:
                values = name.split("-")
                if eid_field >= len(values):
                    continue  # Udapi reports it
                eid, sub, total = values[eid_field], None, None
                if eid.endswith("]"):
                    m = RE_DISCONTINUOUS.match(eid)
                    if m:
                        eid, sub, total = m.group(1, 2, 3)
                self.defined.add(eid)
                if sub is None or sub == "1":
                    mention = _Mention(pos, index, sentence)
                    if sub is not None:
                        discontinuous.setdefault(eid, []).append(mention)
                else:
                    opened = open_.setdefault(eid, [])
                    mention = next((x for x in discontinuous.get(eid, ()) if all(x is not y for y in opened)), None)
                    if mention is None:
                        continue  # Udapi reports it
                    mention.count += 1
                    mention.last_index, mention.end = index, pos
                if not closing:
                    open_.setdefault(eid, []).append(mention)
                elif sub is None or sub == total:
                    if sub is not None and sub != "1" and discontinuous.get(eid):
                        discontinuous[eid].pop()
                    self._done(eid, mention)
            elif closing:
                eid, sub, total = name, None, None
                if name not in open_:
                    m = RE_DISCONTINUOUS.match(name)
                    if not m:
                        continue  # Udapi reports it
                    eid, sub, total = m.group(1, 2, 3)
                stack = open_.get(eid)
                if not stack:
                    continue  # Udapi reports it
                mention = stack.pop()
                if mention.sentence != sentence:
                    continue  # Udapi reports it
                if index > mention.last_index:
                    mention.count += index - mention.last_index
                    mention.last_index = index
                mention.end = pos
                if sub is None or sub == total:
                    if sub is not None and discontinuous.get(eid):
                        discontinuous[eid].pop()
                    self._done(eid, mention)

    def _done(self, eid: str, m: _Mention) -> None:
        key = (m.start, -m.count, m.end, eid)
        if eid not in self.keys or key < self.keys[eid]:
            self.keys[eid] = key


class FileEntities:
    """Fed every document of one file in order; remembers where each entity
    id first stood in the file."""

    def __init__(self, path: str, entity_header: str | None):
        self.path = path
        fields = (entity_header or "").split("-")
        self.eid_field = fields.index("eid") if "eid" in fields else None
        # eid -> (document index, start, -node count, end, eid) of its first mention in the file
        self.first: dict[str, tuple] = {}
        # eid referenced by a link, defined in no document so far -> (line, attribute)
        self.pending: dict[str, tuple[int, str]] = {}

    def see(self, doc) -> None:
        """Scan one document (a ``CorefUDDocument``, before it is loaded): set
        its ``earlier_entities`` and leave out its cross-document links."""
        if self.eid_field is None:
            return
        brackets = _Brackets(self.eid_field)
        links: list[tuple[int, int, int]] = []  # (index in doc.lines, file line, MISC item index)
        sentence, offset, node = 0, 0, 0
        for k, line in enumerate(doc.lines):
            if not line:
                sentence, offset, node = sentence + 1, 0, 0
                continue
            offset += 1
            if line[0] == "#":
                continue
            tab = line.find("\t")
            token_id = line[:tab]
            if "-" in token_id:
                continue  # a multiword token's range line is no node
            node += 1
            misc = line[line.rfind("\t") + 1:]
            if misc == "_":
                continue
            for item_index, item in enumerate(misc.split("|")):
                if item.startswith(LINK_ATTRIBUTES):
                    links.append((k, doc.sentences[sentence].line + offset - 1, item_index))
                elif item.startswith("Entity="):
                    brackets.value(item[len("Entity="):], position(sentence, float(token_id)), node - 1, sentence)
        first, defined = self.first, brackets.defined
        doc.earlier_entities = {eid: first[eid] for eid in defined if eid in first}
        for eid, key in brackets.keys.items():
            if eid not in first:
                first[eid] = (doc.index,) + key
        for eid in defined:
            self.pending.pop(eid, None)
        if links:
            self._leave_out_links(doc, links, defined)

    def _leave_out_links(self, doc, links, defined: set[str]) -> None:
        """Drop the links naming an entity this document does not define."""
        for k, lineno, item_index in links:
            head, _, misc = doc.lines[k].rpartition("\t")
            items = misc.split("|")
            name, _, value = items[item_index].partition("=")
            kept = []
            for link in value.split(","):
                ids = _link_ids(name, link)
                if ids is None or all(eid in defined for eid in ids):
                    kept.append(link)  # well formed and local, or left for Udapi to report
                    continue
                doc.notes.append((CROSS_DOCUMENT_LINK, f"{name}={link} (line {lineno})"))
                for eid in ids:
                    if eid not in defined and eid not in self.first:
                        self.pending.setdefault(eid, (lineno, name))
            if kept:
                items[item_index] = f"{name}={','.join(kept)}"
            else:
                del items[item_index]
            doc.lines[k] = f"{head}\t{'|'.join(items) or '_'}"

    def finish(self, problems: Problems = STOP) -> None:
        """At the end of the file: a link to an entity defined nowhere is an error."""
        for eid, (lineno, name) in self.pending.items():
            problems.error("entity-id", ScorerError(
                f"{name} refers to entity {eid}, which no Entity= in the file defines", (self.path, lineno)))


def _link_ids(name: str, link: str) -> tuple[str, str] | None:
    """The two entity ids of one ``a<b`` link (a Bridge's relation removed),
    or None when it is malformed (Udapi reports it)."""
    parts = link.split("<")
    if len(parts) != 2:
        return None
    first, second = parts
    if name == "Bridge":
        second = second.split(":", 1)[0]
    return first, second


def in_file_order(entities: list[Entity], earlier: dict[str, tuple]) -> list[Entity]:
    """A document's entities (in Udapi's order for the document) in scorer
    1.2's order: those already named in an earlier document first, by their
    first mention in the file; the others after them, as they were."""
    if not earlier:
        return entities
    old = sorted((e for e in entities if e.eid in earlier), key=lambda e: earlier[e.eid])
    return old + [e for e in entities if e.eid not in earlier]


def shared_with_earlier(entities: list[Entity], earlier: dict[str, tuple]) -> list:
    """Spans (word tuples) standing in two or more of a document's entities,
    one of which was named in an earlier document, in document order, each
    with the ids of its entities."""
    if not earlier:
        return []
    holders: dict[tuple, list[str]] = {}
    for entity in entities:
        for words in dict.fromkeys(m.words for m in entity.mentions):
            holders.setdefault(words, []).append(entity.eid)
    return sorted((words, eids) for words, eids in holders.items()
                  if len(eids) > 1 and any(eid in earlier for eid in eids))


def line_of(doc, pos: int) -> int | None:
    """The file line of the word at a document position (its sentence's
    first line for an empty node)."""
    sentence = doc.sentences[pos // SENTENCE_STRIDE]
    ord_ = (pos % SENTENCE_STRIDE) / ORD_SCALE
    if ord_ == int(ord_) and 0 < ord_ <= len(sentence.word_lines):
        return sentence.word_lines[int(ord_) - 1]
    return sentence.line
