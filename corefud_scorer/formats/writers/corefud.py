"""Write CorefUD CoNLL-U files: the source's own lines (:mod:`.rows`) with
the coreference layer in MISC (``Entity=``, ``SplitAnte=``, ``Bridge=``),
which Udapi serialises from a skeleton of each document: its words and
empty nodes, and the model's entities, each mention's head given in
``Entity=``.

A mention read from a UA file holds its words only (UA's reading); a
CorefUD mention from its first to its last word holds the empty nodes
between them too, so such a mention is written over them, as its UA
brackets stand. Entities are named ``e`` and their number in the file,
padded within a document so that Udapi, which orders two mentions of one
span by their entity's name, keeps the model's order."""

from __future__ import annotations

from ...model import SENTENCE_STRIDE
from ..readers.source_text import generated_sent_id
from . import BRIDGING, DISCOURSE_DEIXIS, HEADS, NON_REFERRING, SPLIT_ANTECEDENTS, TextDocument, layers, rows
from ..readers.corefud import SUFFIXES  # noqa: F401  (the reader's)
from ..readers.corefud_document import bridging_antecedent
from ..readers.corefud_udapi import udapi_messages

FORMAT = "corefud"
HOLDS = layers.CONLLU
HEADER = "# global.Entity = eid-etype-head-other"
BRIDGING_ANCHORS = "bridging anchor mentions (CorefUD names the antecedent entity)"


def write(documents, handle, lost) -> None:
    first = 0
    for index, doc in enumerate(documents):
        first = _write_document(doc, index, first, handle, lost)


def _write_document(doc: TextDocument, index: int, first: int, handle, lost) -> int:
    """Write one document, its entities numbered from ``first`` + 1; the
    next document's first number."""
    from udapi.core.coref import store_coref_to_misc

    d = doc.document
    lost[NON_REFERRING] += len(d.non_referring)
    lost[DISCOURSE_DEIXIS] += len(d.discourse_deixis)
    sentences = rows.sentences(doc)
    udoc, nodes = _skeleton(sentences)
    made, by_eid = _entities(doc, udoc, nodes, first, lost)
    _links(d, made, by_eid, lost)
    # What Udapi logs is counted among what was left out, not printed (the
    # known cases are left out before it sees them).
    with udapi_messages() as messages:
        store_coref_to_misc(udoc)
    for message in messages:
        lost[f"annotations Udapi could not write ({message.split(':')[0]})"] += 1
    newdoc = doc.names_or_default(index).plain
    for s, sentence in enumerate(sentences):
        sent_id = doc.sentence_ids[s] if s < len(doc.sentence_ids) else None
        lines = rows.comments(sentence, sent_id or generated_sent_id(index, s), newdoc if s == 0 else None,
                              HEADER if s == 0 and index == 0 else None)
        for line in lines:
            handle.write(line + "\n")
        for row in sentence.rows:
            node = nodes.get(row.position)
            misc = [] if node is None else [f"{name}={node.misc[name]}" for name in ("Bridge", "Entity", "SplitAnte")
                                            if node.misc[name]]
            handle.write("\t".join(rows.with_misc(row.cells, misc)) + "\n")
        handle.write("\n")
    return first + len(d.entities)


def _skeleton(sentences):
    """A Udapi document of the words (a flat tree: Udapi reads no syntax
    here) and empty nodes, and each node by its position."""
    from udapi.core.document import Document as UdapiDocument

    udoc = UdapiDocument()
    nodes = {}
    for sentence in sentences:
        root = udoc.create_bundle().create_tree()
        head = None
        for row in sentence.rows:
            if row.is_word:
                if head is None:
                    head = nodes[row.position] = root.create_child(form=row.cells[1], deprel="root")
                else:
                    nodes[row.position] = head.create_child(form=row.cells[1], deprel="dep")
        for row in sentence.rows:
            if row.position is not None and not row.is_word:
                empty = root.create_empty_child(form=row.cells[1])
                empty.ord = float(row.cells[0])
                nodes[row.position] = empty
    return udoc, nodes


def _words(mention, doc: TextDocument, spread: dict[int, list[int]]) -> list[int]:
    """A mention's positions as CorefUD holds them: a UA mention's parts
    take in the empty nodes between their words."""
    if mention.is_zero or doc.text is None or not doc.text.words_only:
        return list(mention.words)
    out = []
    for first, last in mention.parts:
        out.extend(p for p in spread.get(first // SENTENCE_STRIDE, ()) if first <= p <= last)
    return out


def _entities(doc: TextDocument, udoc, nodes, first: int, lost) -> tuple[dict, dict]:
    """The model's entities as Udapi's: each model mention's Udapi mention
    by id, and each entity's Udapi entity by the model's id."""
    d = doc.document
    width = len(str(first + len(d.entities)))
    spread: dict[int, list[int]] = {}
    for p in sorted(nodes):
        spread.setdefault(p // SENTENCE_STRIDE, []).append(p)
    by_eid, made = {}, {}
    for number, entity in enumerate(d.entities, first + 1):
        udapi_entity = udoc.create_coref_entity(eid=f"e{number:0{width}d}")
        by_eid[entity.eid] = udapi_entity
        for mention in entity.mentions:
            words = [nodes[p] for p in _words(mention, doc, spread) if p in nodes]
            head = nodes.get(mention.head)
            if head not in words:
                head = words[0]
            if mention.min is not None and not mention.is_zero and (
                    len(mention.min) != 1 or nodes.get(mention.min[0]) is not head):
                lost[HEADS] += 1
            made[id(mention)] = udapi_entity.create_mention(head=head, words=words)
    for entity in d.entities:
        elements = [by_eid[e] for e in entity.split_antecedents if e in by_eid]
        if len(elements) >= 2:
            by_eid[entity.eid].split_ante = elements
        else:  # CorefUD's SplitAnte names two entities or more
            lost[SPLIT_ANTECEDENTS] += len(entity.split_antecedents)
    return made, by_eid


def _links(d, made: dict, by_eid: dict, lost) -> None:
    """Bridging: an anaphor's link to its antecedent entity, whose mention
    CorefUD's reader takes to be its last before the anaphor."""
    members = {e.eid: e.mentions for e in d.entities}
    for link in d.bridging:
        anaphor = made.get(id(link.anaphor))
        target = by_eid.get(link.antecedent_eid)
        if anaphor is None or target is None or target is anaphor.entity:
            lost[BRIDGING] += 1
            continue
        anaphor.bridging.append((target, link.relation or ""))
        if link.antecedent is not None and link.antecedent is not bridging_antecedent(
                link.anaphor, members[link.antecedent_eid]):
            lost[BRIDGING_ANCHORS] += 1
