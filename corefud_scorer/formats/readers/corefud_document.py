"""One document of a CorefUD file as the light pass keeps it
(:class:`CorefUDDocument`: its CoNLL-U lines, reduced to what Udapi reads),
and its loading: Udapi parses it, and its coreference layer becomes the
format-free model's entities (with their ``SplitAnte`` antecedents), bridging
links and zero mentions (empty nodes, with their enhanced dependencies).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..problems import STOP, Problems
from ...model import (ORD_SCALE, SENTENCE_STRIDE, Bridging, Document, DocumentText, EmptyNode, Entity,
                     Mention, SourceDocument, Word)
from .corefud_udapi import Unreadable, accepted_messages, file_ids, mended, parse
from .file_entities import SHARED_WITH_EARLIER, in_file_order, line_of, shared_with_earlier


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
            udoc, sentence_index, udapi_entities, messages = parse(raw, lines, global_entity)
            break
        except Unreadable as unreadable:
            problems.error(unreadable.kind, unreadable.error)
            lines = mended(raw, lines, unreadable)
            if lines is None:
                return Document(raw.doc_id, [], len(raw.sentences), raw.tokens, raw.first_line, list(raw.notes))
    file_id = file_ids(udoc)
    accepted = accepted_messages(raw, messages, file_id, problems)
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

