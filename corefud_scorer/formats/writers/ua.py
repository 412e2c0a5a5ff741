"""Write Universal Anaphora files (CoNLL-U Plus with an IDENTITY and a
BRIDGING column): a markable a mention, opened with its ``EntityID``,
``MarkableID`` and ``Min`` (its minimum span, or its head as one word) and
closed by its MarkableID; a discontinuous mention is one markable opened
again for each part; a zero is a markable on its empty node; ``ElementOf``
names the plural entities a markable's entity is an element of; non-referring
markables are ``-Pseudo`` entities. The model holds no syntax: each
sentence is written as a flat tree (its first word the root)."""

from __future__ import annotations

from . import DISCOURSE_DEIXIS, TextDocument, deps_text, plain_name, slots
from ..readers.ua import SUFFIXES  # noqa: F401  (the writer is chosen by the reader's file names)

FORMAT = "ua"
COLUMNS = "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING"


def _parts(mention, order: dict[int, int]) -> list[tuple[int, int]]:
    """The mention's continuous runs of slots, as (first, last) slot indices."""
    indices = sorted(order[p] for p in mention.words)
    runs = []
    for i in indices:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return [tuple(r) for r in runs]


def write(documents, handle, lost) -> None:
    handle.write(f"# global.columns = {COLUMNS}\n")
    markable = 0
    for index, doc in enumerate(documents):
        doc: TextDocument
        d = doc.document
        lost[DISCOURSE_DEIXIS] += len(d.discourse_deixis)
        sentences = slots(doc)
        flat = [slot for sentence in sentences for slot in sentence]
        order = {slot.position: i for i, slot in enumerate(flat)}
        word_number = {slot.position: slot.word for slot in flat if slot.word is not None}
        opens = [[] for _ in flat]
        closes = [[] for _ in flat]
        bridging = [[] for _ in flat]
        deps = {}
        element_of: dict[str, list[str]] = {}
        for entity in d.entities:
            for element in entity.split_antecedents:
                element_of.setdefault(element, []).append(entity.eid)
        ids = {}
        groups = [(e.eid, m, None) for e in d.entities for m in e.mentions]
        groups += [(f"nr{n}-Pseudo", item.mention, item.kind) for n, item in enumerate(d.non_referring, 1)]
        for eid, mention, kind in groups:
            markable += 1
            mid = ids[id(mention)] = f"markable_{markable}"
            attributes = [f"EntityID={eid}", f"MarkableID={mid}"]
            minimum = mention.min if mention.min else (mention.head,)
            numbers = [word_number[p] for p in minimum if p in word_number]
            if numbers and not mention.is_zero:
                attributes.append(f"Min={numbers[0]}" if len(numbers) == 1 else f"Min={numbers[0]},{numbers[-1]}")
            if element_of.get(eid):
                attributes.append(f"ElementOf={','.join(element_of[eid])}")
            if kind:
                attributes.append(f"NonReferringType={kind}")
            text = "|".join(attributes)
            if mention.is_zero:
                slot = order[mention.words[0]]
                opens[slot].append((0, f"({text})"))
                deps[slot] = deps_text(mention)
                continue
            for first, last in _parts(mention, order):
                if first == last:
                    opens[first].append((0, f"({text})"))
                else:
                    opens[first].append((-last, f"({text}"))
                    closes[last].append((-first, f"{mid})"))
        for link in d.bridging:
            anchor = link.antecedent
            if anchor is None:
                anchor = next(e.mentions[0] for e in d.entities if e.eid == link.antecedent_eid)
            if id(link.anaphor) in ids and id(anchor) in ids:
                relation = f"|Rel={link.relation}" if link.relation else ""
                bridging[order[link.anaphor.words[0]]].append(
                    f"(MarkableID={ids[id(link.anaphor)]}|MentionAnchor={ids[id(anchor)]}{relation})")
        at = 0
        for s, sentence in enumerate(sentences):
            if s == 0:
                handle.write(f"# newdoc id = {plain_name(doc.name, index)}\n")
            sent_id = doc.sentence_ids[s] if s < len(doc.sentence_ids) else None
            handle.write(f"# sent_id = {sent_id if sent_id is not None else f'{index + 1}-{s + 1}'}\n")
            for slot in sentence:
                identity = "".join(c for _, c in sorted(closes[at])) + "".join(c for _, c in sorted(opens[at]))
                if slot.word is None:
                    cells = [slot.ord, "_", "_", "_", "_", "_", "_", "_", deps.get(at, "_"), "_"]
                else:
                    form = "_".join(doc.forms[s][int(slot.ord) - 1].split()) or "_"
                    head, relation = ("0", "root") if slot.ord == "1" else ("1", "dep")
                    cells = [slot.ord, form, "_", "_", "_", "_", head, relation, "_", "_"]
                cells += [identity or "_", "".join(bridging[at]) or "_"]
                handle.write("\t".join(cells) + "\n")
                at += 1
            handle.write("\n")
