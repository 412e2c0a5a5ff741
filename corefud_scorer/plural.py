"""Entity-level metrics for documents with split antecedents, as the UA
scorer defines them.

A plural entity carries one extra mention, its split antecedent (a
:class:`~corefud_scorer.model.PluralMention`: the set of entities the plural
is made of). A key split antecedent and a response one are aligned one to
one, per metric, by the metric's own F1 between their sets of entities (the
sets scored as two small partitions, singletons counted); an aligned split
antecedent then counts in the entity of its partner with that alignment's
recall (recall side), precision (precision side) or F1 (CEAF and BLANC)
instead of 1. Documents without split antecedents never come here: the
contingency of :mod:`.partition` gives the same numbers faster.

Each function returns :class:`~corefud_scorer.metrics.Counts` for one
document; mentions are handled as their identities.
"""

from __future__ import annotations

from collections import defaultdict

from . import assignment
from .metrics import BlancCounts, Counts, f1, ratio
from .partition import Partition


def _is_plural(ident) -> bool:
    return isinstance(ident, frozenset)


class _Side:
    """A set of entities (lists of identities) and where each mention is."""

    def __init__(self, entities):
        self.entities = entities
        self.entity_of = {}
        for index, entity in enumerate(entities):
            for ident in entity:
                self.entity_of[ident] = index


# --- the metrics on two sides; `mapped` takes a mention to its partner ---
# `split` maps a split antecedent to (its partner, weight).

def _muc_side(entities, other, entity_of, mapped, split, count_singletons):
    tp = p = 0.0
    for entity in entities:
        if len(entity) == 1 and count_singletons:
            p += 1
            m = mapped(entity[0])
            if m in entity_of and len(other[entity_of[m]]) == 1:
                tp += 1
            continue
        p += len(entity) - 1
        tp += len(entity)
        linked = set()
        plural = None
        for m in entity:
            m = mapped(m)
            if _is_plural(m):
                plural = m
            elif m in entity_of:
                linked.add(entity_of[m])
            else:
                tp -= 1
        if plural is not None:
            partner = split.get(plural)
            if partner is not None and entity_of.get(partner[0]) in linked:
                tp -= 1 - partner[1]
            else:
                tp -= 1
        tp -= len(linked)
    return tp, p


def _b_cubed_side(entities, entity_of, mapped, split):
    num = den = 0.0
    for entity in entities:
        weights = defaultdict(float)
        for m in entity:
            m = mapped(m)
            if _is_plural(m):
                if m in split:
                    partner, score = split[m]
                    if partner in entity_of:
                        weights[entity_of[partner]] += score
            elif m in entity_of:
                weights[entity_of[m]] += 1
        num += sum(w * w for w in weights.values()) / float(len(entity))
        den += len(entity)
    return num, den


def _resolved(entities, entity_of, mapped, split):
    """(entity index, partner's entity index, weight) for each mention of
    ``entities`` whose partner is in ``entity_of``. As in the UA library's
    BLANC (and LEA), a split antecedent left unaligned (its alignment F1
    was 0, or 0/0 when every element is a single mention) stands for
    itself: it counts, with weight 1, where the other side has the same
    set of entities."""
    out = []
    for index, m, weight in _partners(entities, mapped, split, unaligned_as_itself=True):
        j = entity_of.get(m)
        if j is not None:
            out.append((index, j, weight))
    return out


def _partners(entities, mapped, split, unaligned_as_itself=False):
    """(entity index, partner, weight) for each mention of ``entities``: a
    split antecedent stands for its aligned one, with that alignment's
    weight; one that is not aligned is left out (CEAF, as the UA library's)
    or stands for itself."""
    for index, entity in enumerate(entities):
        for m in entity:
            m = mapped(m)
            weight = 1.0
            if _is_plural(m):
                if m in split:
                    m, weight = split[m]
                elif not unaligned_as_itself:
                    continue
            yield index, m, weight


def _ceaf(key, response, mapped, split, entity_level):
    # A key mention counts in every response entity holding its partner.
    members = defaultdict(list)
    for j, entity in enumerate(response):
        for m in entity:
            members[m].append(j)
    overlap = defaultdict(float)
    for i, m, weight in _partners(key, mapped, split):
        for j in members.get(m, ()):
            overlap[i, j] += weight
    weights = {}
    for (i, j), value in overlap.items():
        if entity_level:
            value = 2 * value / float(len(key[i]) + len(response[j]))
        if value:
            weights[i, j] = value
    total = 0.0
    if weights:
        pairs = assignment.solve(len(key), len(response), weights)
        total = float(sum(weights.get(pair, 0.0) for pair in pairs))
    if entity_level:
        return Counts(total, float(len(key)), total, float(len(response)))
    return Counts(total, float(sum(map(len, key))), total, float(sum(map(len, response))))


def _lea_side(entities, other, entity_of, mapped, split):
    num = den = 0.0
    for entity in entities:
        if len(entity) == 1:
            all_links = 1
            m = mapped(entity[0])
            common = 1 if m in entity_of and len(other[entity_of[m]]) == 1 else 0
        else:
            common = 0.0
            all_links = len(entity) * (len(entity) - 1) / 2.0
            for i, m in enumerate(entity):
                m = mapped(m)
                score = 1
                if _is_plural(m) and m in split:
                    m, score = split[m]
                if m not in entity_of:
                    continue
                for m2 in entity[i + 1:]:
                    m2 = mapped(m2)
                    score2 = 1.0
                    if _is_plural(m2) and m2 in split:
                        m2, score2 = split[m2]
                    if m2 in entity_of and entity_of[m] == entity_of[m2]:
                        common += score * score2
        num += len(entity) * common / float(all_links)
        den += len(entity)
    return num, den


def _pairs(n):
    return n * (n - 1) / 2


def _squares(groups) -> float:
    return sum(w * w for w in groups.values())


def _blanc_coreference(key, response, entity_of, mapped, split):
    """Mention pairs of one key entity whose partners share a response
    entity, each weighted by the product of its split antecedents' F1."""
    total = defaultdict(float)
    squares = defaultdict(float)
    for i, j, w in _resolved(key, entity_of, mapped, split):
        total[i, j] += w
        squares[i, j] += w * w
    common = sum(t * t - squares[cell] for cell, t in total.items()) / 2
    return Counts(common, float(sum(_pairs(len(e)) for e in key)),
                  common, float(sum(_pairs(len(e)) for e in response)))


def _blanc_non_coreference(key, response, entity_of, mapped, split):
    """Mention pairs of two key entities whose partners are in two response
    entities, weighted as above: all pairs, less those sharing a key entity
    or a response entity, plus those sharing both (counted twice)."""
    rows, cols, cells = defaultdict(float), defaultdict(float), defaultdict(float)
    every = 0.0
    for i, j, w in _resolved(key, entity_of, mapped, split):
        rows[i] += w
        cols[j] += w
        cells[i, j] += w
        every += w
    common = (every * every - _squares(rows) - _squares(cols) + _squares(cells)) / 2
    k = sum(map(len, key))
    r = sum(map(len, response))
    return Counts(common, _pairs(k) - sum(_pairs(len(e)) for e in key),
                  common, _pairs(r) - sum(_pairs(len(e)) for e in response))


def _score(metric, key, response, mapped, key_split, response_split, singletons=False):
    """One metric on two sets of entities; the splits give (partner, weight)
    per split antecedent: recall-side, precision-side, F1 (CEAF, BLANC)."""
    key_side, response_side = _Side(key), _Side(response)
    if metric == "muc":
        rn, rd = _muc_side(key, response, response_side.entity_of, mapped, key_split[0], singletons)
        pn, pd = _muc_side(response, key, key_side.entity_of, mapped, response_split, singletons)
        return Counts(rn, rd, pn, pd)
    if metric == "bcub":
        rn, rd = _b_cubed_side(key, response_side.entity_of, mapped, key_split[0])
        pn, pd = _b_cubed_side(response, key_side.entity_of, mapped, response_split)
        return Counts(rn, rd, pn, pd)
    if metric in ("ceafe", "ceafm"):
        return _ceaf(key, response, mapped, key_split[1], metric == "ceafe")
    if metric == "lea":
        rn, rd = _lea_side(key, response, response_side.entity_of, mapped, key_split[0])
        pn, pd = _lea_side(response, key, key_side.entity_of, mapped, response_split)
        return Counts(rn, rd, pn, pd)
    if metric == "blanc-coreference":
        return _blanc_coreference(key, response, response_side.entity_of, mapped, key_split[1])
    if metric == "blanc-non-coreference":
        return _blanc_non_coreference(key, response, response_side.entity_of, mapped, key_split[1])
    raise ValueError(metric)


NO_SPLIT = ({}, {})
EMPTY_PLURAL = frozenset()


def align_split_antecedents(metric, key, response, mapped):
    """Pair key and response split antecedents by the metric's F1 between
    their sets of entities. Returns ({key: (response, recall)}, {key:
    (response, F1)}), {response: (key, precision)}, and the summed counts of
    the chosen pairs (the split-antecedent-only score)."""
    key_plurals = [m for entity in key for m in entity if _is_plural(m)]
    response_plurals = [m for entity in response for m in entity if _is_plural(m)]
    if not key_plurals and not response_plurals:
        return NO_SPLIT, {}, Counts()
    # A side without any is given one empty split antecedent to compare with.
    key_plurals = key_plurals or [EMPTY_PLURAL]
    response_plurals = response_plurals or [EMPTY_PLURAL]
    # Only split antecedents sharing a mention can score above zero; the
    # denominators depend on one side only (read off the first pair of each).
    holders = defaultdict(set)
    for j, r in enumerate(response_plurals):
        for entity in r:
            for m in entity:
                holders[m].add(j)
    candidates = {(i, j) for i, k in enumerate(key_plurals) for entity in k for m in entity
                  for j in holders.get(mapped(m), ())}
    needed = candidates | {(i, 0) for i in range(len(key_plurals))} | \
        {(0, j) for j in range(len(response_plurals))}
    counts, fs = {}, {}
    for i, j in needed:
        c = _score(metric, [list(e) for e in key_plurals[i]], [list(e) for e in response_plurals[j]],
                   mapped, NO_SPLIT, {}, singletons=True)
        counts[i, j] = c
        value = f1(ratio(c.precision_num, c.precision_den), ratio(c.recall_num, c.recall_den))
        if value and (i, j) in candidates:
            fs[i, j] = value
    n = min(len(key_plurals), len(response_plurals))
    pairs = assignment.solve(len(key_plurals), len(response_plurals), fs) if fs else \
        list(zip(range(n), range(n)))
    by_recall, by_f1, by_precision = {}, {}, {}
    chosen = Counts()
    for i, j in pairs:
        c = counts.get((i, j), Counts())
        recall = ratio(c.recall_num, c.recall_den)
        precision = ratio(c.precision_num, c.precision_den)
        chosen = chosen + Counts(c.recall_num, 0.0, c.precision_num, 0.0)
        if recall > 0:
            by_recall[key_plurals[i]] = (response_plurals[j], recall)
        if precision > 0:
            by_precision[response_plurals[j]] = (key_plurals[i], precision)
        if (i, j) in fs:
            by_f1[key_plurals[i]] = (response_plurals[j], fs[i, j])
    # The denominators: every key split antecedent's entities (against the
    # first response one), every response one's (against the first key one).
    chosen.recall_den = sum(counts[i, 0].recall_den for i in range(len(key_plurals)))
    chosen.precision_den = sum(counts[0, j].precision_den for j in range(len(response_plurals)))
    return (by_recall, by_f1), by_precision, chosen


def weighted_counts(p: Partition, metric: str, only_split_antecedent: bool = False):
    """One entity metric on a document with split antecedents (BLANC as
    :class:`~corefud_scorer.metrics.BlancCounts`)."""
    if metric == "blanc":
        return BlancCounts(weighted_counts(p, "blanc-coreference", only_split_antecedent),
                           weighted_counts(p, "blanc-non-coreference", only_split_antecedent))
    identity = p.identity
    key = [[identity(m) for m in entity] for entity in p.key.entities]
    response = [[identity(m) for m in entity] for entity in p.response.entities]
    aligned = p.alignment.merged

    def mapped(ident):
        return aligned.get(ident, ident)

    key_split, response_split, chosen = align_split_antecedents(metric, key, response, mapped)
    if only_split_antecedent:
        return chosen
    return _score(metric, key, response, mapped, key_split, response_split)
