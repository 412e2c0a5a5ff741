"""The measures read off one document's aligned mentions rather than its
contingency: MOR (words shared by the mentions), the zero score, mention
identification, and the UA layers beside the entities (non-referring
markables and bridging, as the UA scorer scores them).

Each returns statistics that add across documents, as the entity-level
metrics of :mod:`.metrics` do.
"""

from __future__ import annotations

from collections import defaultdict

from ..alignment.contingency import Cells, Partition
from ..model import sentence_of
from .metrics import alignment_total
from .statistics import BridgingCounts, Counts


# --- mention-level metrics over the aligned mentions ---

def _shared_words(key, response) -> float:
    """Words shared by a maximum-overlap one-to-one pairing of two lists of
    mentions."""
    by_word = defaultdict(list)
    for j, m in enumerate(response):
        for w in m.words:
            by_word[w].append(j)
    overlap: dict = defaultdict(int)
    for i, m in enumerate(key):
        for w in m.words:
            for j in by_word.get(w, ()):
                overlap[i, j] += 1
    if not overlap:
        return 0.0
    cells = Cells([i for i, _ in overlap], [j for _, j in overlap], list(overlap.values()))
    return alignment_total(cells, cells.count_list, (len(key), len(response)))


def _by_sentences(key, response) -> list[tuple[list, list]]:
    """The mentions of both sides grouped so that no two groups share a
    sentence: by sentence, sentences joined where a mention spans several."""
    mentions = [(side, m, sentence_of(m.words[0])) for side, ms in ((0, key), (1, response)) for m in ms]
    parent: dict = {}

    def find(s):
        while s in parent:
            s = parent[s]
        return s

    for _, m, first in mentions:
        if sentence_of(m.words[-1]) != first:
            for w in m.words[1:]:
                a, b = find(first), find(sentence_of(w))
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict = {}
    for side, m, first in mentions:
        groups.setdefault(find(first) if parent else first, ([], []))[side].append(m)
    return list(groups.values())


def mention_overlap(p: Partition, memo: dict | None = None) -> Counts:
    """MOR: words shared by a maximum-overlap one-to-one pairing of all key and
    response mentions, made independently of the matching mode. Mentions
    share words only within a sentence, so with a ``memo`` (the words of a
    sentence's key and response mentions -> words shared there), kept by a
    caller scoring many responses against one key, the pairing is made
    sentence by sentence and a sentence seen before is not paired again
    (whole numbers of words: the sums are exact)."""
    key = [m for entity in p.key.entities for m in entity if m.words]
    response = [m for entity in p.response.entities for m in entity if m.words]
    key_words = float(sum(len(m.words) for m in key))
    response_words = float(sum(len(m.words) for m in response))
    if memo is None:
        # One pairing of the whole document: the same total, in one solve.
        shared = _shared_words(key, response)
        return Counts(shared, key_words, shared, response_words)
    shared = 0.0
    for keys, responses in _by_sentences(key, response):
        if not keys or not responses:
            continue
        # Sorted, a response's sentence is found again whatever the order of
        # its entities; the key's comes in one order for one key.
        signature = (tuple(m.words for m in keys), tuple(sorted(m.words for m in responses)))
        value = memo.get(signature)
        if value is None:
            value = memo[signature] = _shared_words(keys, responses)
        shared += value
    return Counts(shared, key_words, shared, response_words)


def zero_anaphors(p: Partition) -> Counts:
    """The anaphor-decomposable score restricted to zeros.

    Every key zero that is not the first mention of its entity is an anaphor:
    correct when its response counterpart is linked to a response entity that
    holds the counterpart of an earlier mention of the key entity; a missing
    counterpart (or one that opens its response entity) is missed; otherwise
    a wrong link, counted in both denominators. Response zeros that open no
    entity and answer no key anaphor are false positives.
    """
    identity = p.identity
    response_entity_of = p.response.entity_of
    lookup = p.alignment.merged
    key_sorted = [sorted(entity, key=lambda m: m.sort_key()) for entity in p.key.entities]
    response_sorted = [sorted(entity, key=lambda m: m.sort_key()) for entity in p.response.entities]
    firsts = {identity(entity[0]) for entity in response_sorted}
    tp = fp = fn = wrong = 0
    covered = set()
    for entity in key_sorted:
        antecedent_entities = set()
        for position, mention in enumerate(entity):
            ident = identity(mention)
            if ident in response_entity_of:
                partner = ident
            else:
                partner = lookup.get(ident)
            partner_entity = response_entity_of.get(partner) if partner is not None else None
            if position and mention.is_zero:
                if partner is None or partner in firsts:
                    fn += 1
                elif partner_entity not in antecedent_entities:
                    wrong += 1
                else:
                    tp += 1
                if partner is not None:
                    covered.add(partner)
            if partner_entity is not None:
                antecedent_entities.add(partner_entity)
    for entity in response_sorted:
        for mention in entity:
            ident = identity(mention)
            if mention.is_zero and ident not in firsts and ident not in covered:
                fp += 1
    return Counts(float(tp), float(tp + fn + wrong), float(tp), float(tp + fp + wrong))


def mention_identification(p: Partition) -> Counts:
    """Mentions found: distinct key mentions whose counterpart is a response
    mention, and the reverse, under the chosen matching."""
    lookup = p.alignment.merged

    def side(entities, other_side):
        mapped = {lookup.get(p.identity(m), p.identity(m)) for entity in entities for m in entity}
        return float(sum(1 for ident in mapped if ident in other_side)), float(len(mapped))

    rn, rd = side(p.key.entities, p.response.entity_of)
    pn, pd = side(p.response.entities, p.key.entity_of)
    return Counts(rn, rd, pn, pd)


# --- non-referring markables and bridging, as the UA scorer scores them ---
# A markable is found when the other side has one with the same words.

def non_referring(p: Partition) -> Counts:
    """Non-referring markables identified: key ones the response has too,
    and response ones the key has."""
    key = [n.mention.words for n in p.key.document.non_referring]
    response = [n.mention.words for n in p.response.document.non_referring]
    response_set, key_set = set(response), set(key)
    found = sum(1 for words in key if words in response_set)
    invented = sum(1 for words in response if words not in key_set)
    return Counts(float(found), float(len(key)), float(found), float(found + invented))


def _bridging_links(doc) -> dict:
    # One link per anaphor; a later link of the same anaphor replaces it.
    return {link.anaphor.words: (link.antecedent.words if link.antecedent is not None else None)
            for link in doc.bridging}


def bridging(p: Partition) -> BridgingCounts:
    """Bridging anaphors recognised (same words as a key anaphor), and full
    bridging: the antecedent markable the key's too, or (entity level) a
    mention of the same key entity. A recognised anaphor with a wrong
    antecedent counts against recall and precision."""
    key, response = _bridging_links(p.key.document), _bridging_links(p.response.document)
    entity_of = {}
    for index, entity in enumerate(p.key.entities):
        for mention in entity:
            entity_of[mention.words] = index

    def same_entity(a, b):
        return a in entity_of and b in entity_of and entity_of[a] == entity_of[b]

    recognised = [anaphor for anaphor in key if anaphor in response]
    markable = sum(1 for a in recognised if key[a] == response[a])
    entity = sum(1 for a in recognised if key[a] == response[a] or same_entity(key[a], response[a]))
    invented = sum(1 for a in response if a not in key)

    def counts(tp):
        return Counts(float(tp), float(len(key)), float(tp), float(invented + len(recognised)))

    return BridgingCounts(counts(len(recognised)), counts(markable), counts(entity))
