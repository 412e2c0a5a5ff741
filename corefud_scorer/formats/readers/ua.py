"""The Universal Anaphora (UA) format: CoNLL-U Plus with anaphora columns.

A file declares its columns in ``# global.columns``; the ones read here are
IDENTITY (coreference markables), BRIDGING, DISCOURSE_DEIXIS and REFERENCE.
A markable is opened by ``(EntityID=..|MarkableID=..|...`` and closed by
``)`` (the innermost open markable) or ``MarkableID)`` (that markable, which
may cross the boundaries of others); one opened and closed on the same line
is written ``(...)``. A MarkableID opened again continues a discontinuous
markable. ``Min=a[,b]`` gives the minimum span as 1-based token numbers of
the document, ``ElementOf=E1,E2`` makes the markable's entity an element of
the plural entities E1, E2, and an EntityID ending in ``-Pseudo`` marks a
non-referring markable. Lines whose ID has a dot are empty nodes: one-line
markables there are zeros.

Words are numbered as :mod:`~corefud_scorer.model` numbers them: the k-th token of the
i-th sentence is ``position(i, k)``, the empty nodes after it
``position(i, k) + 1, + 2, ...``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from ...errors import ScorerError
from ..problems import STOP, Problems
from ..profile import UA_SCORER_TEXT, FormatProfile
from ...model import (ORD_SCALE, SENTENCE_STRIDE, Bridging, Document, EmptyNode, Entity, Mention,
                     NonReferring, Sentence, SourceDocument)
from .files import read_text

FORMAT = "ua"
# How a document starts (counted for a progress bar).
DOCUMENT_START = b"# newdoc"
# The file names of the format (bench pairs folders of them, convert writes them).
SUFFIXES = (".conllua", ".ua.conllu", ".ua")
PROFILE = FormatProfile(
    name=FORMAT, title="Universal Anaphora",
    # The UA scorer's defaults: exact matching, zeros left out, the CoNLL metrics.
    defaults={"metrics": ("muc", "bcub", "ceafe"), "match": "exact", "zero_match": "linear",
              "keep_zeros": False, "check_forms": True},
    all_metrics=("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mention", "mor",
                 "non-referring", "bridging"),
    matching_modes=("exact", "partial", "head", "partial-craft"),
    features=frozenset({"keep_zeros", "keep_split_antecedents", "discourse_deixis", "only_split_antecedent",
                        "shared_task"}),
    text=UA_SCORER_TEXT,
    why_not={"np_only": "needs the parse column of CoNLL-2012 files",
             "remove_nested": "is defined for CoNLL-2012 files"},
)
RE_COLUMNS = re.compile(r"^#\s*global\.columns\s*=\s*(.+)$")
RE_NEWDOC = re.compile(r"^#\s*newdoc(?:\s+id\s*=\s*(.+))?$")
RE_SENT_ID = re.compile(r"^#\s*sent_id\s*=?\s*(\S+)")
# CoNLL-U's ten columns and the UA ones; other names must be namespaced (NS:NAME).
KNOWN_COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
                 "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS", "REFERENCE", "NOM_SEM")
ANAPHORA_COLUMNS = ("IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS", "REFERENCE")
PSEUDO_SUFFIX = "-Pseudo"
# One bracket item of a markable cell: an opening "(attrs" possibly closed at
# once "(attrs)", or a closing "id)" / ")".
RE_ITEM = re.compile(r"\(([^()]*)(\))?|([^()]*)\)")


def sniff(head: str) -> bool:
    """A UA file declares an IDENTITY column in ``# global.columns``."""
    for line in head.splitlines():
        found = RE_COLUMNS.match(line.strip())
        if found:
            return "IDENTITY" in found.group(1).split()
        if line and not line.startswith("#"):
            return False
    return False


@dataclass
class Token:
    """One token line's cells that scoring reads."""

    line: int
    is_empty: bool
    deps: str
    cells: dict  # column name -> cell, for the anaphora columns present


@dataclass
class UADocument(SourceDocument):
    """One document of a UA file, read and checked line by line but not yet
    turned into entities (that is :meth:`load`, run in a worker). Entity
    ids are the document's own."""

    token_sentences: list[list[Token]] = field(default_factory=list)
    empty_nodes: list[EmptyNode] = field(default_factory=list)
    # With deps asked for (conversion): a zero carries its DEPS as CorefUD's do.
    deps: bool = False

    def load(self, problems: Problems = STOP) -> Document:
        return _Builder(self, problems).build()


def read_documents(path: str, side: str = "key", deps: bool = False,
                   problems: Problems = STOP) -> Iterator[UADocument]:
    """Yield the documents of a UA file; malformed lines are ``FILE:LINE``
    errors, reported to ``problems`` (the first raised, unless they are
    collected: the line at fault is then mended or left out). With ``deps``,
    a zero mention keeps its empty node's enhanced dependencies (what
    converting to CorefUD writes; scoring reads none)."""
    content = read_text(path, "UA")
    columns: list[str] | None = None
    places: _Places | None = None
    doc: UADocument | None = None
    count = 0
    comments: list[tuple[int, str]] = []
    sentence_tokens: list[Token] = []
    forms: list[str] = []
    word_lines: list[int] = []
    sentence_empty: list[tuple] = []  # the empty nodes' (word order, FORM, LEMMA, UPOS, XPOS, FEATS, DEPS)
    lineno = 0

    def close_sentence():
        nonlocal doc, count, comments, sentence_tokens, forms, word_lines, sentence_empty
        newdoc = None
        sent_id = None
        for _, text in comments:
            found = RE_NEWDOC.match(text)
            if found:
                newdoc = found.group(1).strip() if found.group(1) else True
            found = RE_SENT_ID.match(text)
            if found:
                sent_id = found.group(1)
        first = comments[0][0] if comments else sentence_tokens[0].line
        finished = None
        if newdoc or doc is None:
            finished = doc
            count += 1
            doc_id = newdoc if isinstance(newdoc, str) else (count if newdoc else None)
            doc = UADocument(path, count - 1, doc_id, newdoc, entity_scope="document", deps=deps)
        if sentence_empty:
            index = len(doc.sentences)
            doc.empty_nodes.extend(EmptyNode(index, *node) for node in sentence_empty)
            sentence_empty = []
        doc.sentences.append(Sentence(first, sent_id, newdoc, forms, word_lines))
        doc.token_sentences.append(sentence_tokens)
        comments, sentence_tokens, forms, word_lines = [], [], [], []
        return finished

    empty: dict = {}
    for lineno, text in enumerate(content.split("\n"), 1):
        text = text.rstrip("\r")
        if not text.strip():
            if sentence_tokens:
                finished = close_sentence()
                if finished is not None:
                    yield finished
            elif comments:
                problems.error("token-id", ScorerError("sentence without tokens", (path, lineno)))
                comments = []
            continue
        if text.startswith("#"):
            if sentence_tokens:
                problems.error("columns", ScorerError("comment line inside a sentence", (path, lineno)))
                continue
            found = RE_COLUMNS.match(text.strip())
            if found:
                columns = _columns(found.group(1).split(), path, lineno, columns, problems)
                places = _Places(columns)
                continue
            comments.append((lineno, text.strip()))
            continue
        if columns is None:
            raise ScorerError("token line before '# global.columns' "
                              "(a UA file declares its columns first)", (path, lineno))
        cells = text.split()
        # Trailing empty columns are often left out; more cells than
        # columns is an error.
        if len(cells) > len(columns) or len(cells) <= min(1, len(columns) - 1):
            problems.error("columns", ScorerError(f"{len(cells)} columns, but '# global.columns' declares "
                                                  f"{len(columns)}", (path, lineno)))
            cells = cells[:len(columns)]
        cells += ["_"] * (len(columns) - len(cells))
        token_id = cells[0]
        if "-" in token_id:  # a multiword token's range line: no markables
            continue
        is_empty = "." in token_id
        marked = empty
        for name, i in places.anaphora:
            if cells[i] != "_":
                if marked is empty:
                    marked = {}
                marked[name] = cells[i]
        sentence_tokens.append(Token(
            lineno, is_empty, cells[places.deps] if places.deps is not None else "_", marked))
        if not is_empty:
            forms.append(cells[places.form] if places.form is not None else "_")
            word_lines.append(lineno)
        else:
            sentence_empty.append(places.empty_node(cells, token_id))
    if sentence_tokens:
        finished = close_sentence()
        if finished is not None:
            yield finished
    if doc is None:
        raise ScorerError("holds no sentence: not a UA file", (path, None))
    yield doc


class _Places:
    """Where the columns read are, in a file's declared order."""

    def __init__(self, columns: list[str]):
        self.form = columns.index("FORM") if "FORM" in columns else None
        self.deps = columns.index("DEPS") if "DEPS" in columns else None
        self.anaphora = [(name, columns.index(name)) for name in ANAPHORA_COLUMNS if name in columns]
        self.names = {name for name, _ in self.anaphora}
        # The columns the empty-node evaluation compares, "_" where the file has none.
        self.node_columns = [columns.index(name) if name in columns else None
                             for name in ("FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "DEPS")]

    def empty_node(self, cells: list[str], token_id: str) -> tuple:
        word = token_id.partition(".")[0]
        return (int(word) if word.isdigit() else word,
                *(cells[i] if i is not None else "_" for i in self.node_columns))


def _columns(names: list[str], path: str, lineno: int, previous, problems: Problems = STOP) -> list[str]:
    for name in names:
        if name not in KNOWN_COLUMNS and ":" not in name:
            problems.error("header", ScorerError(
                f"unknown column {name!r} in '# global.columns' (known: "
                f"{' '.join(KNOWN_COLUMNS)}, or a namespaced NS:NAME)", (path, lineno)))
    if "IDENTITY" not in names:
        # Nothing can be read without it.
        raise ScorerError("'# global.columns' has no IDENTITY column: not a UA file", (path, lineno))
    if previous is not None and previous != names:
        problems.error("header", ScorerError("'# global.columns' differs from the one declared before",
                                             (path, lineno)))
        return previous
    return names


def _attributes(text: str, path: str, line: int, problems: Problems = STOP) -> dict:
    attributes = {}
    for item in text.split("|"):
        name, equals, value = item.partition("=")
        if not equals:
            problems.error("entity-id", ScorerError(f"markable attribute {item!r} is not NAME=VALUE", (path, line)))
            continue
        attributes[name] = value
    return attributes


@dataclass
class _Markable:
    entity: str
    line: int
    attributes: dict
    is_zero: bool
    spans: list = field(default_factory=list)  # [first token index, last token index or None]


class _Builder:
    """Turns one document's cells into the model."""

    def __init__(self, doc: UADocument, problems: Problems = STOP):
        self.doc = doc
        self.path = doc.path
        self.problems = problems
        # Positions of the document's words (not empty nodes), by token number.
        self.word_positions: list[int] = []
        self.places: list[tuple[Token, int, int | None]] = []  # token, position, word index
        self.deps_at = {t.line: t.deps for tokens in doc.token_sentences for t in tokens if t.is_empty}
        for s, tokens in enumerate(doc.token_sentences):
            k = 0
            z = 0
            for token in tokens:
                if token.is_empty:
                    z += 1
                    position = s * SENTENCE_STRIDE + k * ORD_SCALE + z
                    self.places.append((token, position, None))
                else:
                    k += 1
                    z = 0
                    position = s * SENTENCE_STRIDE + k * ORD_SCALE
                    self.places.append((token, position, len(self.word_positions)))
                    self.word_positions.append(position)

    def markables(self, column: str) -> dict[str, _Markable]:
        """The markables of one column, by MarkableID, in order of opening."""
        markables: dict[str, _Markable] = {}
        stack: list[str] = []
        for token, position, word in self.places:
            cell = token.cells.get(column, "_")
            if cell == "_":
                continue
            pos = 0
            while pos < len(cell):
                found = RE_ITEM.match(cell, pos)
                if not found or found.end() == pos:
                    self.report("brackets", f"unbalanced brackets in {column} cell {cell!r}", token.line)
                    break
                pos = found.end()
                attributes_text, closed_at_once, closing = found.groups()
                if attributes_text is not None:
                    self._open(markables, stack, column, attributes_text, closed_at_once,
                               token, position, word)
                else:
                    self._close(markables, stack, column, closing, token, word)
        for markable_id in stack:
            self.report("brackets", f"{column} markable {markable_id!r} is opened but never closed",
                        markables[markable_id].line)
        # Collected: what is left open is left out.
        return {markable_id: markable for markable_id, markable in markables.items()
                if all(end is not None for _, end in markable.spans)}

    def report(self, kind: str, message: str, line: int) -> None:
        self.problems.error(kind, ScorerError(message, (self.path, line)))

    def _open(self, markables, stack, column, text, closed_at_once, token, position, word):
        attributes = _attributes(text, self.path, token.line, self.problems)
        markable_id = attributes.get("MarkableID")
        entity = attributes.get("EntityID")
        if markable_id is None or entity is None:
            self.report("entity-id", f"{column} markable without "
                        f"{'MarkableID' if markable_id is None else 'EntityID'}", token.line)
            return
        if token.is_empty and not closed_at_once:
            self.report("empty-node", "a markable on an empty node must open and close there", token.line)
            closed_at_once = True
        markable = markables.get(markable_id)
        if markable is None:
            markable = markables[markable_id] = _Markable(entity, token.line, attributes, token.is_empty)
        elif markable.entity != entity:
            self.report("entity-id", f"markable {markable_id!r} continues with EntityID {entity!r}, "
                        f"opened with {markable.entity!r}", token.line)
        elif markable.is_zero or token.is_empty:
            self.report("empty-node", f"markable {markable_id!r} on an empty node cannot be discontinuous",
                        token.line)
            return
        start = position if token.is_empty else word
        markable.spans.append([start, start if closed_at_once else None])
        if not closed_at_once:
            stack.append(markable_id)

    def _close(self, markables, stack, column, markable_id, token, word):
        if token.is_empty:
            self.report("empty-node", "a markable cannot end on an empty node", token.line)
            return
        if markable_id:
            if markable_id not in stack:
                self.report("brackets", f"{column} closes markable {markable_id!r}, which is not open", token.line)
                return
            # The most recently opened part of that markable closes.
            del stack[len(stack) - 1 - stack[::-1].index(markable_id)]
        else:
            if not stack:
                self.report("brackets", f"{column} closes a markable, but none is open", token.line)
                return
            markable_id = stack.pop()
        markables[markable_id].spans[-1][1] = word

    def mention(self, markable: _Markable) -> Mention:
        if markable.is_zero:
            position = markable.spans[0][0]
            deps = _deps(self.deps_at.get(markable.line, "_")) if self.doc.deps else ()
            return Mention((position,), position, True, deps, markable.line, (), None)
        words = set()
        parts = []
        for start, end in markable.spans:
            words.update(self.word_positions[start:end + 1])
            parts.append((self.word_positions[start], self.word_positions[end]))
        words = tuple(sorted(words))
        minimum = self._minimum(markable)
        head = minimum[0] if minimum else words[0]
        return Mention(words, head, False, (), markable.line, minimum,
                       tuple(parts) if len(parts) > 1 else None)

    def _minimum(self, markable: _Markable) -> tuple[int, ...]:
        text = markable.attributes.get("Min", markable.attributes.get("MIN"))
        if text is None:
            return ()
        try:
            bounds = [int(x) for x in text.split(",")]
        except ValueError:
            bounds = []
        if len(bounds) not in (1, 2) or not 1 <= bounds[0] <= bounds[-1] <= len(self.word_positions):
            self.report("head", f"Min={text} is not one or two token numbers of the document "
                        f"(1..{len(self.word_positions)})", markable.line)
            return ()
        return tuple(self.word_positions[bounds[0] - 1:bounds[-1]])

    def entities(self, markables: dict[str, _Markable], mentions: dict[str, Mention],
                 with_elements: bool) -> list[Entity]:
        by_entity: dict[str, list[Mention]] = {}
        non_referring: dict[str, list[Mention]] = {}
        for markable_id, markable in markables.items():
            group = non_referring if markable.entity.endswith(PSEUDO_SUFFIX) else by_entity
            group.setdefault(markable.entity, []).append(mentions[markable_id])
        elements: dict[str, list[str]] = {}
        if with_elements:
            for markable in markables.values():
                for plural in filter(None, markable.attributes.get("ElementOf", "").split(",")):
                    if plural not in by_entity:
                        self.report("entity-id", f"ElementOf={plural} names no entity of the document",
                                    markable.line)
                        continue
                    members = elements.setdefault(plural, [])
                    if markable.entity not in members:
                        members.append(markable.entity)
        return [Entity(eid, ms, tuple(elements.get(eid, ())),
                       tuple(Entity(e, non_referring[e]) for e in elements.get(eid, ()) if e in non_referring))
                for eid, ms in by_entity.items()]

    def build(self) -> Document:
        doc = self.doc
        identity = self.markables("IDENTITY")
        mentions = {mid: self.mention(m) for mid, m in identity.items()}
        entities = self.entities(identity, mentions, True)
        references = self._reference_kinds()
        non_referring = [NonReferring(mentions[mid], references.get(mid, _kind(m.attributes)))
                         for mid, m in identity.items() if m.entity.endswith(PSEUDO_SUFFIX)]
        warnings: list[tuple[str, str]] = []
        bridging = self._bridging(identity, mentions, warnings)
        deixis = []
        if any("DISCOURSE_DEIXIS" in t.cells for t, _, _ in self.places):
            dd = self.markables("DISCOURSE_DEIXIS")
            deixis = self.entities(dd, {mid: self.mention(m) for mid, m in dd.items()}, True)
        return Document(doc.doc_id, entities, len(doc.sentences), doc.tokens, doc.first_line,
                        warnings, bridging=bridging, non_referring=non_referring,
                        discourse_deixis=deixis, empty_nodes=doc.empty_nodes)

    def _reference_kinds(self) -> dict[str, str]:
        kinds = {}
        for token, _, _ in self.places:
            cell = token.cells.get("REFERENCE", "_")
            if cell == "_":
                continue
            for found in RE_ITEM.finditer(cell):
                if found.group(1):
                    attributes = _attributes(found.group(1), self.path, token.line, self.problems)
                    kind = _kind(attributes)
                    if "MarkableID" in attributes and kind:
                        kinds[attributes["MarkableID"]] = kind
        return kinds

    def _bridging(self, identity, mentions, warnings) -> list[Bridging]:
        links = []
        for token, _, _ in self.places:
            cell = token.cells.get("BRIDGING", "_")
            if cell == "_":
                continue
            for found in RE_ITEM.finditer(cell):
                if not found.group(1):
                    continue
                attributes = _attributes(found.group(1), self.path, token.line, self.problems)
                anaphor = attributes.get("MarkableID")
                anchor = attributes.get("MentionAnchor")
                if anaphor not in mentions or anchor not in mentions:
                    warnings.append(("bridging links naming a markable missing from IDENTITY, skipped",
                                     f"({anaphor}, {anchor}) at {self.path}:{token.line}"))
                    continue
                relation = attributes.get("Rel", attributes.get("Relation", attributes.get("Type")))
                links.append(Bridging(mentions[anaphor], identity[anchor].entity, mentions[anchor],
                                      relation))
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
