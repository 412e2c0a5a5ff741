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
contingency of :mod:`~corefud_scorer.alignment.contingency` gives the same numbers faster.

Mentions are handled as their identities.
"""

from __future__ import annotations

from collections import defaultdict

from . import metrics
from ..alignment import assignment
from ..alignment.contingency import Cells, Contingency, Partition
from .metrics import BlancCounts, Counts, f1, ratio
from .registry import MEASURES


def _is_plural(ident) -> bool:
    return isinstance(ident, frozenset)


def _entity_of(entities) -> dict:
    # A mention standing in two entities is looked up in the later one.
    return {ident: index for index, entity in enumerate(entities) for ident in entity}


def _read(m, split, unaligned_as_itself):
    """A mention's partner and weight (``m`` read through the alignment): a
    split antecedent stands for its aligned one with that alignment's
    weight; one left unaligned is left out (None) or stands for itself."""
    if _is_plural(m):
        if m in split:
            return split[m]
        if not unaligned_as_itself:
            return None, 0.0
    return m, 1.0


def _cells(totals: dict, squares: dict) -> Cells:
    order = sorted(totals)
    return Cells([i for i, _ in order], [j for _, j in order], [totals[cell] for cell in order],
                 [squares[cell] for cell in order])


def _resolved(entities, other, mapped) -> tuple[list, dict]:
    """One side's mentions read once for every metric: (entity index,
    identity after the alignment, whether its entity is one mention), and
    the other side's entity of each identity."""
    mentions = [(index, mapped(m), len(entity) == 1) for index, entity in enumerate(entities) for m in entity]
    return mentions, _entity_of(other)


def _side_cells(entities, other, mapped, split, unaligned_as_itself, singletons_as_themselves,
                transpose=False, resolved=None) -> Cells:
    """The weighted cells read from one side: each mention's weight in the
    cell of its entity and its partner's entity on the other side
    (``resolved``: :func:`_resolved` of the same side, if already read)."""
    mentions, entity_of = resolved or _resolved(entities, other, mapped)
    totals, squares = defaultdict(float), defaultdict(float)
    for index, m, single in mentions:
        weight = 1.0
        if _is_plural(m) and not (singletons_as_themselves and single):
            m, weight = _read(m, split, unaligned_as_itself)
        j = entity_of.get(m)
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
            partner, weight = _read(mapped(m), split, False)
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


def _contingency_kind(metric) -> tuple:
    """What a metric's weighted contingency depends on beside the weights:
    its cells (both sides, the key's alone for BLANC, membership for CEAF)
    and its reading of split antecedents."""
    if metric in ("ceafe", "ceafm"):
        return ("membership", False, False)
    cells = "key side" if metric.startswith("blanc") else "both sides"
    return (cells, metric in _AS_ITSELF, metric in _SINGLETONS_AS_THEMSELVES)


def weighted_contingency(metric, key, response, mapped, key_split, response_split,
                         resolved=None) -> Contingency:
    """The contingency of two sets of entities in which each split
    antecedent weighs its alignment's recall (cells read from the key),
    precision (from the response) or F1 (CEAF's and BLANC's cells);
    ``resolved``: both sides' :func:`_resolved`, if already read."""
    key_side, response_side = resolved or (None, None)
    key_sizes = [len(e) for e in key]
    response_sizes = [len(e) for e in response]
    cells_kind, as_itself, singletons = _contingency_kind(metric)
    if cells_kind == "membership":
        cells = _membership_cells(key, response, mapped, key_split[1])
        return Contingency(key_sizes, response_sizes, cells, cells, cells)
    if cells_kind == "key side":
        cells = _side_cells(key, response, mapped, key_split[1], as_itself, singletons, resolved=key_side)
        return Contingency(key_sizes, response_sizes, cells, cells, cells)
    recall = _side_cells(key, response, mapped, key_split[0], as_itself, singletons, resolved=key_side)
    precision = _side_cells(response, key, mapped, response_split, as_itself, singletons,
                            transpose=True, resolved=response_side)
    return Contingency(key_sizes, response_sizes, recall, precision, recall)


def _score(metric, c: Contingency, singletons=False):
    """One metric on a weighted contingency. With ``singletons`` (two split
    antecedents' sets of entities compared), MUC counts an entity of one
    mention as one link."""
    if metric == "muc":
        return metrics.muc(c, singleton_links=singletons)
    return _metric(metric)(c)


NO_SPLIT = ({}, {})
EMPTY_PLURAL = frozenset()


class _Document:
    """One document's entities as mention identities, read once for every
    metric: its split antecedents, and the contingencies of each key and
    response split antecedent's sets of entities (the same for the metrics
    that read the same cells)."""

    def __init__(self, p: Partition):
        identity = p.identity
        self.key = [[identity(m) for m in entity] for entity in p.key.entities]
        self.response = [[identity(m) for m in entity] for entity in p.response.entities]
        aligned = p.alignment.merged
        self.mapped = lambda ident: aligned.get(ident, ident)
        self.key_plurals = [m for entity in self.key for m in entity if _is_plural(m)]
        self.response_plurals = [m for entity in self.response for m in entity if _is_plural(m)]
        self._pairs: dict = {}
        self.resolved = (_resolved(self.key, self.response, self.mapped),
                         _resolved(self.response, self.key, self.mapped))

    def pair_contingency(self, metric, key_plural, response_plural) -> Contingency:
        cached = (_contingency_kind(metric), key_plural, response_plural)
        c = self._pairs.get(cached)
        if c is None:
            c = self._pairs[cached] = weighted_contingency(
                metric, [list(e) for e in key_plural], [list(e) for e in response_plural], self.mapped,
                NO_SPLIT, {})
        return c


def align_split_antecedents(metric, doc: _Document):
    """Pair key and response split antecedents by the metric's F1 between
    their sets of entities. Returns ({key: (response, recall)}, {key:
    (response, F1)}), {response: (key, precision)}, and the summed counts of
    the chosen pairs (the split-antecedent-only score)."""
    mapped = doc.mapped
    key_plurals, response_plurals = doc.key_plurals, doc.response_plurals
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
        c = _score(metric, doc.pair_contingency(metric, key_plurals[i], response_plurals[j]), singletons=True)
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


def _weighted(doc: _Document, metric: str, only_split_antecedent: bool):
    if metric == "blanc":
        return BlancCounts(_weighted(doc, "blanc-coreference", only_split_antecedent),
                           _weighted(doc, "blanc-non-coreference", only_split_antecedent))
    key_split, response_split, chosen = align_split_antecedents(metric, doc)
    if only_split_antecedent:
        return chosen
    return _score(metric, weighted_contingency(metric, doc.key, doc.response, doc.mapped, key_split,
                                               response_split, doc.resolved))


def weighted_counts(p: Partition, metrics_asked, only_split_antecedent: bool = False) -> dict:
    """The entity metrics asked for on a document with split antecedents
    (BLANC as :class:`~corefud_scorer.measures.metrics.BlancCounts`), name ->
    statistics; the document's entities are read once for all of them."""
    doc = _Document(p)
    return {metric: _weighted(doc, metric, only_split_antecedent) for metric in metrics_asked}
