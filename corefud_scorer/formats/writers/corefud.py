"""Write CorefUD CoNLL-U files with Udapi: words, the empty nodes the
annotation stands on (with a zero's enhanced dependencies), and the
coreference layer (``Entity=``, ``SplitAnte=``, ``Bridge=`` in MISC, each
mention's head given in ``Entity=``). The model holds no syntax: each
sentence is written as a flat tree (its first word the root), so that
scores, which read mentions, heads and a zero's dependencies, are kept."""

from __future__ import annotations

from . import BRIDGING, DISCOURSE_DEIXIS, NON_REFERRING, TextDocument, deps_text, plain_name, slots
from ..readers.corefud import SUFFIXES  # noqa: F401  (the writer is chosen by the reader's file names)

FORMAT = "corefud"


def _udapi_document(docs, lost):
    from udapi.core.coref import store_coref_to_misc
    from udapi.core.document import Document as UdapiDocument

    udoc = UdapiDocument()
    eids = 0
    for index, doc in enumerate(docs):
        doc: TextDocument
        d = doc.document
        lost[NON_REFERRING] += len(d.non_referring)
        lost[DISCOURSE_DEIXIS] += len(d.discourse_deixis)
        nodes = {}
        for s, (sentence, forms) in enumerate(zip(slots(doc), doc.forms)):
            bundle = udoc.create_bundle()
            root = bundle.create_tree()
            sent_id = doc.sentence_ids[s] if s < len(doc.sentence_ids) else None
            bundle.bundle_id = str(sent_id) if sent_id is not None else f"{index + 1}-{s + 1}"
            if s == 0:
                root.newdoc = plain_name(doc.name, index)
            first = None
            for slot in sentence:
                if slot.word is None:
                    continue
                form = forms[int(slot.ord) - 1]
                if first is None:
                    first = nodes[slot.position] = root.create_child(form=form, deprel="root")
                else:
                    nodes[slot.position] = first.create_child(form=form, deprel="dep")
            for slot in sentence:
                if slot.word is None:
                    empty = root.create_empty_child(form="_")
                    empty.ord = float(slot.ord)
                    nodes[slot.position] = empty
        by_eid, mention_of = {}, {}
        for entity in d.entities:
            eids += 1
            udapi_entity = udoc.create_coref_entity(eid=f"e{eids}")
            by_eid[entity.eid] = udapi_entity
            for mention in entity.mentions:
                words = [nodes[p] for p in mention.words]
                head = nodes.get(mention.head, words[0])
                if mention.is_zero:
                    head.raw_deps = deps_text(mention)
                mention_of[id(mention)] = udapi_entity.create_mention(
                    head=head if head in words else words[0], words=words)
        for entity in d.entities:
            plural = by_eid[entity.eid]
            plural.split_ante = [by_eid[e] for e in entity.split_antecedents if e in by_eid]
        for link in d.bridging:
            anaphor = mention_of.get(id(link.anaphor))
            target = by_eid.get(link.antecedent_eid)
            if anaphor is None or target is None or target is anaphor.entity:
                lost[BRIDGING] += 1
                continue
            anaphor.bridging.append((target, link.relation or ""))
    store_coref_to_misc(udoc)
    return udoc


def write(documents, handle, lost) -> None:
    from udapi.block.write.conllu import Conllu

    udoc = _udapi_document(list(documents), lost)
    writer = Conllu(filehandle=handle)
    writer.before_process_document(udoc)
    writer.process_document(udoc)
    writer.after_process_document(udoc)
