"""Coreference metrics as small pure functions.

The entity-level metrics (MUC, B-cubed, CEAF-e, CEAF-m, LEA, BLANC) read one
document's :class:`~corefud_scorer.alignment.contingency.Contingency`; MOR, the zero
score and mention identification read the aligned mentions. Each returns
:class:`Counts`, the sufficient statistics that add across documents; scores
are computed once from the sums (:func:`ratio`, :func:`f1`), with scorer
1.2's rule that a ratio with a zero numerator is 0 (so 0/0 is 0).

Notation: ``n[i, j]`` the contingency cells, ``a`` key entity sizes, ``b``
response entity sizes, ``C(x) = x(x-1)/2``.
"""

from __future__ import annotations

from collections import defaultdict

from ..alignment import assignment
from .statistics import BlancCounts, BridgingCounts, Counts, f1, ratio  # noqa: F401  (re-exported)
from ..model import sentence_of
from ..alignment.contingency import Cells, Contingency, Partition
from ..lazy import lazy

np = lazy("numpy")


def ordered_sum(values) -> float:
    """Left-to-right float addition, as 1.2's accumulating loops add (numpy's
    pairwise summation and the compensated ``sum`` of Python 3.12+ can differ
    from it in the last bit, which can move a rounded percentage)."""
    array = np.asarray(values, dtype=np.float64)
    return float(np.cumsum(array)[-1]) if len(array) else 0.0


def _pairs(x):
    return x * (x - 1) / 2.0


def _cell_pairs(cells: Cells) -> np.ndarray:
    """Mention pairs within each cell; with weighted mentions, the sum over
    those pairs of the product of their weights, (n² - Σw²)/2."""
    n = cells.counts.astype(np.float64)
    if cells.squares is None:
        return _pairs(n)
    return (n * n - cells.squares) / 2.0


# --- entity-level metrics over the contingency ---

def _muc_side(groups, partners, counts, sizes, partner_sizes, singleton_links) -> tuple[float, float]:
    # Each entity of size s needs s-1 links; in each entity of the other
    # side its mentions fall into it keeps all of them but one (unaligned
    # mentions cost a link each). A cell holding only a split antecedent's
    # weight (below 1, :mod:`~corefud_scorer.measures.split_antecedents`) keeps nothing, as an unaligned one.
    kept = np.maximum(counts - 1, 0).sum()
    links = sizes.sum() - len(sizes)
    if singleton_links:
        # An entity of one mention is one link, kept when its mention's
        # partner entity is one mention too (as LEA reads singletons).
        kept += ((sizes[groups] == 1) & (counts == 1) & (partner_sizes[partners] == 1)).sum()
        links += (sizes == 1).sum()
    return float(kept), float(links)


def muc(c: Contingency, singleton_links: bool = False) -> Counts:
    """MUC; with ``singleton_links``, singletons count as one link each (how
    two split antecedents' sets of entities are compared)."""
    r, p = c.recall_cells, c.precision_cells
    rn, rd = _muc_side(r.rows, r.cols, r.counts, c.key_sizes, c.response_sizes, singleton_links)
    pn, pd = _muc_side(p.cols, p.rows, p.counts, c.response_sizes, c.key_sizes, singleton_links)
    return Counts(rn, rd, pn, pd)


def _b_cubed_side(groups: np.ndarray, counts: np.ndarray, sizes: np.ndarray) -> tuple[float, float]:
    squares = np.bincount(groups, weights=counts.astype(np.float64) ** 2, minlength=len(sizes))
    return ordered_sum(squares / np.maximum(sizes, 1)), float(sizes.sum())


def b_cubed(c: Contingency) -> Counts:
    rn, rd = _b_cubed_side(c.recall_cells.rows, c.recall_cells.counts, c.key_sizes)
    pn, pd = _b_cubed_side(c.precision_cells.cols, c.precision_cells.counts, c.response_sizes)
    return Counts(rn, rd, pn, pd)


def _lea_side(groups, partners, counts, links, sizes, partner_sizes) -> tuple[float, float]:
    links = np.bincount(groups, weights=links, minlength=len(sizes))
    # A singleton is one self-link, resolved when its mention's partner
    # entity is a singleton too.
    resolved_singleton = (sizes[groups] == 1) & (counts == 1) & (partner_sizes[partners] == 1)
    singleton_links = np.bincount(groups[resolved_singleton], minlength=len(sizes))
    all_links = np.where(sizes == 1, 1.0, _pairs(sizes.astype(np.float64)))
    common = np.where(sizes == 1, singleton_links, links)
    return ordered_sum(sizes * common / all_links), float(sizes.sum())


def lea(c: Contingency) -> Counts:
    r, p = c.recall_cells, c.precision_cells
    rn, rd = _lea_side(r.rows, r.cols, r.counts, _cell_pairs(r), c.key_sizes, c.response_sizes)
    pn, pd = _lea_side(p.cols, p.rows, p.counts, _cell_pairs(p), c.response_sizes, c.key_sizes)
    return Counts(rn, rd, pn, pd)


def _alignment_total(cells: Cells, weights: np.ndarray, shape: tuple[int, int]) -> float:
    """The maximum total weight of a one-to-one alignment of rows (key
    entities) and columns (response entities), added up as 1.2 adds it:
    numpy's sum over the cells of the assignment its solver returns, zero
    cells included, in the solver's order (rows in order; for a tall matrix,
    the assigned rows in order)."""
    if len(cells.counts) == 0:
        return 0.0
    weight_of = dict(zip(zip(cells.rows.tolist(), cells.cols.tolist()), weights.tolist()))
    pairs = assignment.solve(shape[0], shape[1], weight_of)
    return float(np.array([weight_of.get(pair, 0.0) for pair in pairs]).sum())


def ceafe(c: Contingency) -> Counts:
    cells = c.ceaf_cells
    phi4 = 2 * cells.counts / (c.key_sizes[cells.rows] + c.response_sizes[cells.cols]).astype(np.float64)
    similarity = _alignment_total(cells, phi4, (len(c.key_sizes), len(c.response_sizes)))
    return Counts(similarity, float(len(c.key_sizes)), similarity, float(len(c.response_sizes)))


def ceafm(c: Contingency) -> Counts:
    cells = c.ceaf_cells
    similarity = _alignment_total(cells, cells.counts.astype(np.float64),
                                    (len(c.key_sizes), len(c.response_sizes)))
    return Counts(similarity, float(c.key_sizes.sum()), similarity, float(c.response_sizes.sum()))


def blanc_coreference(c: Contingency) -> Counts:
    common = float(_cell_pairs(c.recall_cells).sum())
    return Counts(common, float(_pairs(c.key_sizes.astype(np.float64)).sum()),
                  common, float(_pairs(c.response_sizes.astype(np.float64)).sum()))


def blanc_non_coreference(c: Contingency) -> Counts:
    cells = c.recall_cells
    n = cells.counts.astype(np.float64)
    total = n.sum()
    row = np.bincount(cells.rows, weights=n)
    col = np.bincount(cells.cols, weights=n)
    # Aligned mention pairs in different key entities and different response entities.
    common = (total ** 2 - (row ** 2).sum() - (col ** 2).sum() + (n ** 2).sum()) / 2
    a, b = c.key_sizes.astype(np.float64), c.response_sizes.astype(np.float64)
    key_links = _pairs(a.sum()) - _pairs(a).sum()
    response_links = _pairs(b.sum()) - _pairs(b).sum()
    return Counts(float(common), float(key_links), float(common), float(response_links))


def blanc(c: Contingency) -> BlancCounts:
    return BlancCounts(blanc_coreference(c), blanc_non_coreference(c))


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
    pairs = np.array(list(overlap.keys()), dtype=np.int64)
    cells = Cells(pairs[:, 0], pairs[:, 1], np.fromiter(overlap.values(), dtype=np.int64))
    return _alignment_total(cells, cells.counts.astype(np.float64), (len(key), len(response)))


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
