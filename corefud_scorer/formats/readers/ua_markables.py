"""A UA document's markable cells turned into the model: the IDENTITY
markables' mentions and entities (plurals by ``ElementOf``, non-referring
markables by ``-Pseudo``), bridging links, the REFERENCE column's kinds and
the discourse-deixis entities (:mod:`.ua` reads the cells)."""

from __future__ import annotations

import re

from ...errors import ScorerError
from ..problems import STOP, Problems
from ...model import ORD_SCALE, SENTENCE_STRIDE, Bridging, Document, Entity, Mention, NonReferring
from .limits import limit, nesting_error

PSEUDO_SUFFIX = "-Pseudo"
# One bracket item of a markable cell: an opening "(attrs" possibly closed at
# once "(attrs)", or a closing "id)" / ")".
RE_ITEM = re.compile(r"\(([^()]*)(\))?|([^()]*)\)")
# The same items, as findall gives them: ("(", attrs, ")" or "", "") or ("", "", "", id).
RE_ITEMS = re.compile(r"(\()([^()]*)(\)?)|([^()]*)\)")
# A cell made of items only (each match of RE_ITEM starting where the last ended).
RE_CELL = re.compile(r"(?:\([^()]*\)?|[^()]*\))+")


def build(doc, problems: Problems = STOP) -> Document:
    """The document to score from a :class:`~.ua.UADocument`'s cells."""
    return _Builder(doc, problems).build()


def _parsed(text: str) -> dict | None:
    """A markable's attributes (``NAME=VALUE|...``) by name; None where an
    item is not NAME=VALUE."""
    attributes = {}
    for item in text.split("|"):
        name, equals, value = item.partition("=")
        if not equals:
            return None
        attributes[name] = value
    return attributes


def _attributes(text: str, path: str, line: int, problems: Problems = STOP) -> dict:
    """A markable's attributes by name, each item that is not NAME=VALUE
    reported (and, where problems are collected, left out)."""
    attributes = _parsed(text)
    if attributes is None:
        items = text.split("|")
        for item in items:
            if "=" not in item:
                problems.error("entity-id", ScorerError(f"markable attribute {item!r} is not NAME=VALUE",
                                                        (path, line)))
        attributes = dict(item.split("=", 1) for item in items if "=" in item)
    return attributes


class _Markable:
    __slots__ = ("entity", "line", "attributes", "is_zero", "spans")

    def __init__(self, entity: str, line: int, attributes: dict, is_zero: bool, span: list | None = None):
        self.entity, self.line, self.attributes, self.is_zero = entity, line, attributes, is_zero
        # Each part's [first word, last word or None]; a zero's: [position, position].
        self.spans: list = [span] if span is not None else []


class _Builder:
    """Turns one document's cells into the model."""

    def __init__(self, doc, problems: Problems = STOP):
        self.doc = doc
        self.path = doc.path
        self.problems = problems
        self.most = limit("mentions_per_word")  # on one word: closing by id scans the open ones
        # Positions of the document's words (not empty nodes), by their number in the document.
        self.word_positions = positions = []
        for s, sentence in enumerate(doc.sentences):
            first = s * SENTENCE_STRIDE + ORD_SCALE
            positions.extend(range(first, first + len(sentence.word_lines) * ORD_SCALE, ORD_SCALE))

    def report(self, kind: str, message: str, line: int) -> None:
        self.problems.error(kind, ScorerError(message, (self.path, line)))

    def _items(self, column: str, cell: str, line: int):
        """A cell's bracket items as RE_ITEMS finds them; where the cell is
        not all items, those before the fault, then the fault reported."""
        if RE_CELL.fullmatch(cell):
            return RE_ITEMS.findall(cell)
        return self._items_to_fault(column, cell, line)

    def _items_to_fault(self, column: str, cell: str, line: int):
        pos = 0
        while pos < len(cell):
            found = RE_ITEM.match(cell, pos)
            if not found or found.end() == pos:
                self.report("brackets", f"unbalanced brackets in {column} cell {cell!r}", line)
                return
            yield RE_ITEMS.match(cell, pos).groups("")
            pos = found.end()

    def markables(self, column: str) -> dict[str, _Markable]:
        """The markables of one column, by MarkableID, in order of opening."""
        markables: dict[str, _Markable] = {}
        stack: list[str] = []
        most = self.most
        unclosed = 0  # parts opened and not yet closed
        for cell, line, position, word in self.doc.cells.get(column, ()):
            if cell == ")" and stack and word is not None:
                # The commonest closing: the innermost open markable ends here.
                span = markables[stack.pop()].spans[-1]
                unclosed -= span[1] is None
                span[1] = word
                continue
            if cell[0] == "(" and cell.count("(") == 1 and len(stack) < most and word is not None:
                # The commonest opening: one new markable on a word, closed at once or not,
                # its attributes all NAME=VALUE with a MarkableID and an EntityID; anything
                # else is read item by item below, where _open reports what is wrong.
                closed = cell[-1] == ")"
                attributes = None
                if cell.count(")") == (1 if closed else 0):  # no closing but its own
                    attributes = _parsed(cell[1:-1] if closed else cell[1:])
                if attributes is not None:
                    markable_id = attributes.get("MarkableID")
                    entity = attributes.get("EntityID")
                    if markable_id is not None and entity is not None and markable_id not in markables:
                        markables[markable_id] = _Markable(entity, line, attributes, False,
                                                           [word, word if closed else None])
                        if not closed:
                            stack.append(markable_id)
                            unclosed += 1
                        continue
            covering = len(stack)
            for opening, text, closed_at_once, closing in self._items(column, cell, line):
                if opening:
                    covering += 1
                    if covering > most:
                        self.problems.error("limit", nesting_error(covering, (self.path, line)))
                        break
                    unclosed += self._open(markables, stack, column, text, closed_at_once, line, position, word)
                else:
                    unclosed -= self._close(markables, stack, column, closing, line, word)
        for markable_id in stack:
            self.report("brackets", f"{column} markable {markable_id!r} is opened but never closed",
                        markables[markable_id].line)
        if not unclosed:
            return markables
        # Collected: what is left open is left out.
        return {markable_id: markable for markable_id, markable in markables.items()
                if all(end is not None for _, end in markable.spans)}

    def _open(self, markables, stack, column, text, closed_at_once, line, position, word) -> int:
        """Open a markable's part; the parts left open by it (0 or 1)."""
        attributes = _attributes(text, self.path, line, self.problems)
        markable_id = attributes.get("MarkableID")
        entity = attributes.get("EntityID")
        if markable_id is None or entity is None:
            self.report("entity-id", f"{column} markable without "
                        f"{'MarkableID' if markable_id is None else 'EntityID'}", line)
            return 0
        is_empty = word is None
        if is_empty and not closed_at_once:
            self.report("empty-node", "a markable on an empty node must open and close there", line)
            closed_at_once = True
        markable = markables.get(markable_id)
        if markable is None:
            markable = markables[markable_id] = _Markable(entity, line, attributes, is_empty)
        elif markable.entity != entity:
            self.report("entity-id", f"markable {markable_id!r} continues with EntityID {entity!r}, "
                        f"opened with {markable.entity!r}", line)
        elif markable.is_zero or is_empty:
            self.report("empty-node", f"markable {markable_id!r} on an empty node cannot be discontinuous", line)
            return 0
        start = position if is_empty else word
        markable.spans.append([start, start if closed_at_once else None])
        if closed_at_once:
            return 0
        stack.append(markable_id)
        return 1

    def _close(self, markables, stack, column, markable_id, line, word) -> int:
        """Close a markable's part; the parts left open it closed (0 or 1)."""
        if word is None:
            self.report("empty-node", "a markable cannot end on an empty node", line)
            return 0
        if markable_id:
            if markable_id not in stack:
                self.report("brackets", f"{column} closes markable {markable_id!r}, which is not open", line)
                return 0
            # The most recently opened part of that markable closes.
            del stack[len(stack) - 1 - stack[::-1].index(markable_id)]
        else:
            if not stack:
                self.report("brackets", f"{column} closes a markable, but none is open", line)
                return 0
            markable_id = stack.pop()
        span = markables[markable_id].spans[-1]
        was_open = span[1] is None
        span[1] = word
        return was_open

    def mentions(self, markables: dict[str, _Markable]) -> dict[str, Mention]:
        """Each markable's mention, by MarkableID. The commonest, one part
        on words with a one-token Min, is made here as :meth:`mention` would
        make it; that makes the others."""
        positions = self.word_positions
        count = len(positions)
        out = {}
        for markable_id, markable in markables.items():
            spans = markable.spans
            if len(spans) == 1 and not markable.is_zero:
                text = markable.attributes.get("Min")
                if text is not None and text.isdecimal() and 1 <= int(text) <= count:
                    start, end = spans[0]
                    head = positions[int(text) - 1]
                    words = (positions[start],) if start == end else tuple(positions[start:end + 1])
                    out[markable_id] = Mention(words, head, False, (), markable.line, (head,), None)
                    continue
            out[markable_id] = self.mention(markable)
        return out

    def mention(self, markable: _Markable) -> Mention:
        if markable.is_zero:
            position = markable.spans[0][0]
            zero_deps = self.doc.zero_deps
            deps = _deps(zero_deps.get(markable.line, "_")) if zero_deps is not None else ()
            return Mention((position,), position, True, deps, markable.line, (), None)
        positions = self.word_positions
        if len(markable.spans) == 1:
            start, end = markable.spans[0]
            words = tuple(positions[start:end + 1])
            parts = None
        else:
            covered = set()
            for start, end in markable.spans:
                covered.update(positions[start:end + 1])
            words = tuple(sorted(covered))
            parts = tuple((positions[start], positions[end]) for start, end in markable.spans)
        minimum = self._minimum(markable)
        head = minimum[0] if minimum else words[0]
        return Mention(words, head, False, (), markable.line, minimum, parts)

    def _minimum(self, markable: _Markable) -> tuple[int, ...]:
        attributes = markable.attributes
        text = attributes.get("Min")
        if text is None:
            text = attributes.get("MIN")
            if text is None:
                return ()
        positions = self.word_positions
        first, comma, last = text.partition(",")
        try:
            start = int(first)
            end = int(last) if comma else start
        except ValueError:
            start = end = 0
        if not 1 <= start <= end <= len(positions) or "," in last:
            self.report("head", f"Min={text} is not one or two token numbers of the document "
                        f"(1..{len(positions)})", markable.line)
            return ()
        return tuple(positions[start - 1:end])

    def entities(self, markables: dict[str, _Markable], mentions: dict[str, Mention]) -> list[Entity]:
        by_entity: dict[str, list[Mention]] = {}
        non_referring: dict[str, list[Mention]] = {}
        members_of_plurals = []  # the markables with ElementOf, read once every entity is known
        for markable_id, markable in markables.items():
            group = non_referring if markable.entity.endswith(PSEUDO_SUFFIX) else by_entity
            entity_mentions = group.get(markable.entity)
            if entity_mentions is None:
                group[markable.entity] = [mentions[markable_id]]
            else:
                entity_mentions.append(mentions[markable_id])
            if "ElementOf" in markable.attributes:
                members_of_plurals.append(markable)
        elements: dict[str, list[str]] = {}
        for markable in members_of_plurals:
            for plural in filter(None, markable.attributes["ElementOf"].split(",")):
                if plural not in by_entity:
                    self.report("entity-id", f"ElementOf={plural} names no entity of the document", markable.line)
                    continue
                members = elements.setdefault(plural, [])
                if markable.entity not in members:
                    members.append(markable.entity)
        if not elements:
            return [Entity(eid, ms) for eid, ms in by_entity.items()]
        return [Entity(eid, ms, tuple(elements.get(eid, ())),
                       tuple(Entity(e, non_referring[e]) for e in elements.get(eid, ()) if e in non_referring))
                for eid, ms in by_entity.items()]

    def build(self) -> Document:
        doc = self.doc
        identity = self.markables("IDENTITY")
        mentions = self.mentions(identity)
        entities = self.entities(identity, mentions)
        references = self._reference_kinds()
        non_referring = [NonReferring(mentions[mid], references.get(mid, _kind(m.attributes)))
                         for mid, m in identity.items() if m.entity.endswith(PSEUDO_SUFFIX)]
        warnings: list[tuple[str, str]] = []
        bridging = self._bridging(identity, mentions, warnings)
        deixis = []
        if doc.cells.get("DISCOURSE_DEIXIS"):
            dd = self.markables("DISCOURSE_DEIXIS")
            deixis = self.entities(dd, self.mentions(dd))
        return Document(doc.doc_id, entities, len(doc.sentences), doc.tokens, doc.first_line,
                        warnings, bridging=bridging, non_referring=non_referring,
                        discourse_deixis=deixis, empty_nodes=doc.empty_nodes)

    def _openings(self, column: str):
        """The attributes of each markable a column opens, with its line."""
        for cell, line, _, _ in self.doc.cells.get(column, ()):
            for found in RE_ITEM.finditer(cell):
                if found.group(1):
                    yield _attributes(found.group(1), self.path, line, self.problems), line

    def _reference_kinds(self) -> dict[str, str]:
        kinds = {}
        for attributes, _ in self._openings("REFERENCE"):
            kind = _kind(attributes)
            if "MarkableID" in attributes and kind:
                kinds[attributes["MarkableID"]] = kind
        return kinds

    def _bridging(self, identity, mentions, warnings) -> list[Bridging]:
        links = []
        for attributes, line in self._openings("BRIDGING"):
            anaphor = attributes.get("MarkableID")
            anchor = attributes.get("MentionAnchor")
            if anaphor not in mentions or anchor not in mentions:
                warnings.append(("bridging links naming a markable missing from IDENTITY, skipped",
                                 f"({anaphor}, {anchor}) at {self.path}:{line}"))
                continue
            relation = attributes.get("Rel", attributes.get("Relation", attributes.get("Type")))
            links.append(Bridging(mentions[anaphor], identity[anchor].entity, mentions[anchor], relation))
        return links


def _deps(cell: str) -> tuple[tuple[int, str], ...]:
    """A DEPS cell as (parent position in the sentence, relation) pairs."""
    out = []
    for item in cell.split("|") if cell != "_" else ():
        parent, _, relation = item.partition(":")
        try:
            out.append((round(float(parent) * ORD_SCALE), relation))
        except ValueError:
            continue
    return tuple(out)


def _kind(attributes: dict) -> str | None:
    for name in ("NonReferringType", "Reference", "Type"):
        if name in attributes:
            return attributes[name]
    return None
