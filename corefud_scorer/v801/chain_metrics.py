"""The reference scorer v8.01's metrics as pure functions of its chains
(:class:`~corefud_scorer.v801.chains.Chains`).

Each computes what v8.01 computes on chains with repeats, with its
arithmetic (float sums in its order, ``1 - (1 - x)`` for CEAF), and returns
:class:`~corefud_scorer.measures.statistics.Counts` that add across
documents. BLANC's link sets are counted without listing every pair: pairs
of ids that stand once on each side are counted from the contingency; only
pairs involving a repeated id are looked at one by one.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from types import SimpleNamespace

from ..alignment import assignment
from ..measures.scores import MetricScore, from_counts
from ..measures.statistics import BlancCounts, Counts
from .chains import Chains, _last_index


def muc(c: Chains) -> Counts:
    """Correct links: in each response chain, mentions with a later mention of
    the same key chain (the last chain holding each id)."""
    # A chain of n positions needs n - 1 links.
    key_links = c.key_mentions - len(c.key) + c.key.count([])
    response_links = c.response_mentions - len(c.response) + c.response.count([])
    if not c.repeated:
        # The same count from the overlap: positions found, less the cells.
        correct = sum(c.overlap.values()) - len(c.overlap)
        return Counts(float(correct), float(key_links), float(correct), float(response_links))
    key_of = c.key_of
    correct = 0
    for chain in c.response:
        # Positions with a key chain, less the key chains they fall into.
        found = [key_of[m] for m in chain if m in key_of]
        correct += len(found) - len(set(found))
    return Counts(float(correct), float(key_links), float(correct), float(response_links))


def b_cubed(c: Chains) -> Counts:
    """Per response mention: the mentions of its chain found in the key chain
    of that mention, over the sizes of both chains, added in v8.01's order."""
    key_of = c.key_of
    acc_p = 0.0
    acc_r = 0.0
    key_total, response_total = float(c.key_mentions), float(c.response_mentions)
    if not c.repeated:
        # A mention's key chain holds the overlap's cell of mentions of its chain.
        overlap, key = c.overlap, c.key
        for j, chain in enumerate(c.response):
            size = len(chain)
            for m in chain:
                k = key_of.get(m)
                if k is not None:
                    ci = overlap[k, j]
                    acc_p += ci / size
                    acc_r += ci / len(key[k])
        return Counts(acc_r, key_total, acc_p, response_total)
    key_members = c.key_members
    for chain in c.response:
        size = len(chain)
        common: dict[int, int] = {}
        for m in chain:
            for k in key_members.get(m, ()):
                common[k] = common.get(k, 0) + 1
        for m in chain:
            k = key_of.get(m)
            if k is not None:
                ci = common[k]
                acc_p += ci / size
                acc_r += ci / len(c.key[k])
    return Counts(acc_r, key_total, acc_p, response_total)


def _ceaf(c: Chains, entity_based: bool) -> Counts:
    common = c.overlap
    if entity_based:
        weights = {(i, j): 2 * n / (len(c.key[i]) + len(c.response[j])) for (i, j), n in common.items()}
    else:
        weights = {pair: float(n) for pair, n in common.items()}
    total = 0.0
    if weights:
        # v8.01's CEAF prints the optimal total only, so any optimal pairs do.
        chosen = assignment.solve_by_parts(weights, c.overlap_parts)
        # v8.01 minimises 1 - similarity and adds 1 - cost per key chain, in order.
        for i in range(len(c.key)):
            total += 1 - (1 - weights[i, chosen[i]]) if i in chosen else 0.0
    if entity_based:
        return Counts(total, float(len(c.key)), total, float(len(c.response)))
    return Counts(total, float(c.key_mentions), total, float(c.response_mentions))


def ceafe(c: Chains) -> Counts:
    return _ceaf(c, True)


def ceafm(c: Chains) -> Counts:
    return _ceaf(c, False)


def _pairs2(x: int) -> int:
    return x * (x - 1) // 2


def _side(chains):
    members: dict = defaultdict(set)
    occurrences: Counter = Counter()
    twice_in_one: set = set()
    for i, chain in enumerate(chains):
        seen = set()
        for m in chain:
            if m in seen:
                twice_in_one.add(m)
            seen.add(m)
            members[m].add(i)
            occurrences[m] += 1
    return members, occurrences, twice_in_one


def _links(members, twice, a, b) -> tuple[bool, bool]:
    """(coreference link, non-coreference link) between ids a and b on one side."""
    if a == b:
        return a in twice, len(members.get(a, ())) >= 2
    sa, sb = members.get(a), members.get(b)
    if not sa or not sb:
        return False, False
    return bool(sa & sb), not (len(sa) == 1 and sa == sb)


def blanc(c: Chains) -> BlancCounts:
    """v8.01's link sets: coreference links are the pairs of positions within a
    chain, non-coreference links the pairs across two chains, both as sets of
    id pairs."""
    if c.repeated:
        k_members, k_occ, k_twice = _side(c.key)
        r_members, r_occ, r_twice = _side(c.response)
        special = {m for m, n in k_occ.items() if n > 1} | {m for m, n in r_occ.items() if n > 1}
    else:
        special = set()

    # Pairs of ids standing once on each side (or absent from one side).
    if special:
        k_sizes = [sum(1 for m in chain if m not in special) for chain in c.key]
        r_sizes = [sum(1 for m in chain if m not in special) for chain in c.response]
        cells: Counter = Counter()
        r_of = {m: j for j, chain in enumerate(c.response) for m in chain if m not in special}
        for i, chain in enumerate(c.key):
            for m in chain:
                if m not in special and m in r_of:
                    cells[i, r_of[m]] += 1
    else:
        # No id twice: the cells are the chains' overlap.
        k_sizes, r_sizes, cells = list(map(len, c.key)), list(map(len, c.response)), c.overlap
    key_c = sum(map(_pairs2, k_sizes))
    key_n = _pairs2(sum(k_sizes)) - key_c
    resp_c = sum(map(_pairs2, r_sizes))
    resp_n = _pairs2(sum(r_sizes)) - resp_c
    isect_c = sum(map(_pairs2, cells.values()))
    rows: dict = defaultdict(int)
    cols: dict = defaultdict(int)
    for (i, j), n in cells.items():
        rows[i] += n
        cols[j] += n
    total = sum(cells.values())
    isect_n = (total * total - sum(v * v for v in rows.values()) - sum(v * v for v in cols.values())
               + sum(v * v for v in cells.values())) // 2

    # Pairs involving a repeated id, one by one.
    if special:
        everyone = set(k_occ) | set(r_occ)
        for a in sorted(special):
            for b in everyone:
                if b in special and b < a:
                    continue
                kc, kn = _links(k_members, k_twice, a, b)
                rc, rn = _links(r_members, r_twice, a, b)
                key_c += kc
                key_n += kn
                resp_c += rc
                resp_n += rn
                isect_c += kc and rc
                isect_n += kn and rn
    return BlancCounts(Counts(float(isect_c), float(key_c), float(isect_c), float(resp_c)),
                       Counts(float(isect_n), float(key_n), float(isect_n), float(resp_n)))


def blanc_figures(coref: Counts, noncoref: Counts) -> tuple[float, float, float]:
    """v8.01's BLANC recall, precision and F1 from summed links: a part is
    left out when the key has no link of its kind (its rule; the scores of
    ``corefud-scorer`` use 1.2's, :func:`~corefud_scorer.measures.figures.blanc`)."""
    ra = coref.recall_num / coref.recall_den if coref.recall_den else -1
    rr = noncoref.recall_num / noncoref.recall_den if noncoref.recall_den else -1
    pa = coref.precision_num / coref.precision_den if coref.precision_den else 0
    pr = noncoref.precision_num / noncoref.precision_den if noncoref.precision_den else 0
    recall = (ra + rr) / 2
    precision = (pa + pr) / 2
    fa = 2 * pa * ra / (pa + ra) if pa + ra else 0
    fr = 2 * pr * rr / (pr + rr) if pr + rr else 0
    f1 = (fa + fr) / 2
    if ra == -1 and rr == -1:
        recall = precision = f1 = 0
    elif ra == -1:
        recall, precision, f1 = rr, pr, fr
    elif rr == -1:
        recall, precision, f1 = ra, pa, fa
    return recall, precision, f1


def score(name: str, total) -> MetricScore:
    """v8.01's recall, precision and F1 of one of its figures (:data:`PRINTED`)
    summed over documents; BLANC's by its rule of the parts."""
    if name != "blanc":
        return from_counts(name, total)
    parts = {label: from_counts(label, counts) for label, counts in total.parts.items()}
    return MetricScore(name, *blanc_figures(total.coreference, total.non_coreference), total, parts)


def mention_identification(c: Chains) -> Counts:
    """Identification of mentions: response spans equal to a key span."""
    return Counts(float(c.exact), float(c.key_spans), float(c.exact), float(c.response_spans))


def contingency(c: Chains):
    """The chains as a contingency (each key mention's last response chain, and
    each response mention's last key chain), for the measures v8.01 lacks."""
    from ..alignment.contingency import Cells, Contingency

    response_of = _last_index(c.response)
    key_of = _last_index(c.key)
    n_r = len(c.response)
    rows, cols = [], []
    for i, chain in enumerate(c.key):
        for m in chain:
            if m in response_of:
                rows.append(i)
                cols.append(response_of[m])
    recall = Cells.from_pairs(rows, cols, n_r)
    rows, cols = [], []
    for j, chain in enumerate(c.response):
        for m in chain:
            if m in key_of:
                rows.append(key_of[m])
                cols.append(j)
    precision = Cells.from_pairs(rows, cols, n_r)
    return Contingency([len(k) for k in c.key], [len(r) for r in c.response], recall, precision, recall)


def occurrence_contingency(c: Chains):
    """The chains as two partitions of mentions, for the measures v8.01 does
    not have and for synchronisation: a mention is an id's occurrence on its
    side (an id standing in two chains is two mentions there, the first
    occurrence on one side being the first on the other), so each side is a
    partition and every figure stays within its bounds where spans repeat."""
    from ..measures.further import contingency_of

    def occurrences(chains):
        seen: dict = {}
        out = []
        for chain in chains:
            entity = []
            for m in chain:
                entity.append((m, seen.get(m, 0)))
                seen[m] = seen.get(m, 0) + 1
            out.append(entity)
        return out

    return contingency_of(occurrences(c.key), occurrences(c.response))


def lea(c: Chains) -> Counts:
    from ..measures.metrics import lea as contingency_lea
    return contingency_lea(contingency(c))


def mention_overlap(c: Chains, mention_of: dict) -> Counts:
    """MOR over the chains' mentions (``mention_of``: span -> model mention)."""
    from ..measures.mentions import mention_overlap as _mention_overlap
    def side(chains):
        return SimpleNamespace(entities=[[mention_of[c.spans[m]] for m in chain] for chain in chains])
    return _mention_overlap(SimpleNamespace(key=side(c.key), response=side(c.response)))


# scorer.pl v8.01's metrics, in the order its ``all`` prints them.
METRICS = {"muc": muc, "bcub": b_cubed, "ceafm": ceafm, "ceafe": ceafe, "blanc": blanc}
# Every figure scorer.pl v8.01 prints: its metrics and its identification of mentions.
PRINTED = {**METRICS, "mention": mention_identification}
# What a document where a span repeats is scored with on its chains: v8.01's
# metrics, and LEA on the same reading (each id's last chain).
REPEATED_SPAN_METRICS = {**METRICS, "lea": lea}
