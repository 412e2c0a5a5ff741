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
function in :mod:`.metrics`, the same functions that score every other
document. Documents without split antecedents never come here: the
contingency of :mod:`.partition` gives the same numbers faster.

Mentions are handled as their identities.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from . import assignment, metrics
from .metrics import BlancCounts, Counts, f1, ratio
from .partition import Cells, Contingency, Partition
from .registry import MEASURES


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


# How each metric reads split antecedents, as the UA library does: whether
# one left unaligned stands for itself, and whether an entity of one
# mention is read as that mention itself (never through the alignment).
# BLANC's two parts are aligned and weighted each by its own F1.
_AS_ITSELF = {"lea", "blanc-coreference", "blanc-non-coreference"}
_SINGLETONS_AS_THEMSELVES = {"lea"}
_BLANC_PARTS = {"blanc-coreference": metrics.blanc_coreference,
                "blanc-non-coreference": metrics.blanc_non_coreference}


def _metric(name):
    """A metric's function: the registry's, or one of BLANC's parts."""
    return _BLANC_PARTS[name] if name in _BLANC_PARTS else MEASURES[name].compute


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
    per split antecedent: recall-side, precision-side, F1 (CEAF, BLANC).
    With ``singletons`` (two split antecedents' sets of entities compared),
    MUC counts an entity of one mention as one link."""
    c = weighted_contingency(metric, key, response, mapped, key_split, response_split)
    if metric == "muc":
        return metrics.muc(c, singleton_links=singletons)
    return _metric(metric)(c)


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
