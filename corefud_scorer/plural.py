"""Split antecedents, as the UA scorer scores them: their alignment and the
weighted contingency through which :mod:`.metrics` scores them.

A plural entity carries one extra mention, its split antecedent (a
:class:`~corefud_scorer.model.PluralMention`: the set of entities the plural
is made of). A key split antecedent and a response one are aligned one to
one, per metric, by the metric's own F1 between their sets of entities (the
sets scored as two small partitions, singletons counted); an aligned split
antecedent then counts in the entity of its partner with that alignment's
recall (recall side), precision (precision side) or F1 (CEAF and BLANC)
instead of 1. That weight is the mention's in a contingency of the two sets
of entities (a cell adds its mentions' weights), read by the metric's own
function in :mod:`.metrics`; only MUC and BLANC's non-coreference part are
computed here, mention by mention (see :func:`_muc_side` and
:func:`_blanc_non_coreference`). Documents
without split antecedents never come here: the contingency of
:mod:`.partition` gives the same numbers faster.

Mentions are handled as their identities.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from . import assignment, metrics
from .metrics import BlancCounts, Counts, f1, ratio
from .partition import Cells, Contingency, Partition


def _is_plural(ident) -> bool:
    return isinstance(ident, frozenset)


def _entity_of(entities) -> dict:
    # A mention standing in two entities is looked up in the later one.
    return {ident: index for index, entity in enumerate(entities) for ident in entity}


def _read(m, mapped, split, unaligned_as_itself):
    """A mention's partner and weight: a split antecedent stands for its
    aligned one with that alignment's weight; one left unaligned is left
    out (None) or stands for itself."""
    m = mapped(m)
    if _is_plural(m):
        if m in split:
            return split[m]
        if not unaligned_as_itself:
            return None, 0.0
    return m, 1.0


def _cells(totals: dict, squares: dict) -> Cells:
    if not totals:
        empty = np.zeros(0, dtype=np.int64)
        return Cells(empty, empty, np.zeros(0), np.zeros(0))
    order = sorted(totals)
    rows = np.array([i for i, _ in order], dtype=np.int64)
    cols = np.array([j for _, j in order], dtype=np.int64)
    return Cells(rows, cols, np.array([totals[cell] for cell in order]),
                 np.array([squares[cell] for cell in order]))


def _side_cells(entities, other, mapped, split, unaligned_as_itself, singletons_as_themselves,
                transpose=False) -> Cells:
    """The weighted cells read from one side: each mention's weight in the
    cell of its entity and its partner's entity on the other side."""
    entity_of = _entity_of(other)
    totals, squares = defaultdict(float), defaultdict(float)
    for index, entity in enumerate(entities):
        for m in entity:
            if singletons_as_themselves and len(entity) == 1:
                partner, weight = mapped(m), 1.0
            else:
                partner, weight = _read(m, mapped, split, unaligned_as_itself)
            j = entity_of.get(partner) if partner is not None else None
            if j is not None:
                cell = (j, index) if transpose else (index, j)
                totals[cell] += weight
                squares[cell] += weight * weight
    return _cells(totals, squares)


def _membership_cells(key, response, mapped, split) -> Cells:
    """CEAF's cells: a key mention counts in every response entity holding
    its partner; an unaligned split antecedent is left out (as in the UA
    library)."""
    members = defaultdict(list)
    for j, entity in enumerate(response):
        for m in entity:
            members[m].append(j)
    totals, squares = defaultdict(float), defaultdict(float)
    for i, entity in enumerate(key):
        for m in entity:
            partner, weight = _read(m, mapped, split, False)
            for j in members.get(partner, ()) if partner is not None else ():
                totals[i, j] += weight
                squares[i, j] += weight * weight
    return _cells(totals, squares)


def _muc_side(entities, other, mapped, split, count_singletons):
    """MUC from one side, kept here rather than read off the weighted
    contingency: an aligned split antecedent costs 1 - w only where its
    partner's entity also holds the partner of another mention (1
    otherwise), and the UA scorer's numbers follow the order in which it
    charges those costs to the last bit. With ``count_singletons`` (two
    split antecedents' entities compared), an entity of one mention is one
    link, kept when its partner's entity is one mention too."""
    entity_of = _entity_of(other)
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


def _blanc_non_coreference(key, response, mapped, split) -> Counts:
    """BLANC's non-coreference part, kept here rather than read off the
    weighted contingency: its numerator is a difference of squared sums of
    the order of the number of mention pairs, whose last bits depend on the
    order in which mentions are added, and this keeps the UA scorer's
    (mention by mention) order. Mention pairs of two key entities whose
    partners are in two response entities, each weighted by the product of
    its split antecedents' F1: all pairs, less those sharing a key entity or
    a response entity, plus those sharing both (counted twice)."""
    entity_of = _entity_of(response)
    rows, cols, cells = defaultdict(float), defaultdict(float), defaultdict(float)
    every = 0.0
    for i, entity in enumerate(key):
        for m in entity:
            partner, w = _read(m, mapped, split, True)
            j = entity_of.get(partner)
            if j is None:
                continue
            rows[i] += w
            cols[j] += w
            cells[i, j] += w
            every += w
    common = (every * every - _squares(rows) - _squares(cols) + _squares(cells)) / 2
    k = sum(map(len, key))
    r = sum(map(len, response))
    return Counts(common, _pairs(k) - sum(_pairs(len(e)) for e in key),
                  common, _pairs(r) - sum(_pairs(len(e)) for e in response))


def _pairs(n):
    return n * (n - 1) / 2


def _squares(groups) -> float:
    return sum(w * w for w in groups.values())


# How each metric reads split antecedents, as the UA library does: whether
# one left unaligned stands for itself, and whether an entity of one
# mention is read as that mention itself (never through the alignment).
_AS_ITSELF = {"lea", "blanc-coreference"}
_SINGLETONS_AS_THEMSELVES = {"lea"}
_METRICS = {
    "bcub": metrics.b_cubed,
    "ceafe": metrics.ceafe,
    "ceafm": metrics.ceafm,
    "lea": metrics.lea,
    "blanc-coreference": metrics.blanc_coreference,
}


def weighted_contingency(metric, key, response, mapped, key_split, response_split) -> Contingency:
    """The contingency of two sets of entities in which each split
    antecedent weighs its alignment's recall (cells read from the key),
    precision (from the response) or F1 (CEAF's and BLANC's cells)."""
    key_sizes = np.array([len(e) for e in key], dtype=np.int64)
    response_sizes = np.array([len(e) for e in response], dtype=np.int64)
    if metric in ("ceafe", "ceafm"):
        cells = _membership_cells(key, response, mapped, key_split[1])
        return Contingency(key_sizes, response_sizes, cells, cells, cells)
    as_itself = metric in _AS_ITSELF
    singletons = metric in _SINGLETONS_AS_THEMSELVES
    if metric.startswith("blanc"):
        cells = _side_cells(key, response, mapped, key_split[1], as_itself, singletons)
        return Contingency(key_sizes, response_sizes, cells, cells, cells)
    recall = _side_cells(key, response, mapped, key_split[0], as_itself, singletons)
    precision = _side_cells(response, key, mapped, response_split, as_itself, singletons,
                            transpose=True)
    return Contingency(key_sizes, response_sizes, recall, precision, recall)


def _score(metric, key, response, mapped, key_split, response_split, singletons=False):
    """One metric on two sets of entities; the splits give (partner, weight)
    per split antecedent: recall-side, precision-side, F1 (CEAF, BLANC)."""
    if metric == "muc":
        rn, rd = _muc_side(key, response, mapped, key_split[0], singletons)
        pn, pd = _muc_side(response, key, mapped, response_split, singletons)
        return Counts(rn, rd, pn, pd)
    if metric == "blanc-non-coreference":
        return _blanc_non_coreference(key, response, mapped, key_split[1])
    if metric not in _METRICS:
        raise ValueError(metric)
    c = weighted_contingency(metric, key, response, mapped, key_split, response_split)
    return _METRICS[metric](c)


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
