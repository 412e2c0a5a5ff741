"""Slow, literal implementations of the metrics from their definitions
(Pradhan et al. 2014, Bagga & Baldwin 1998, Luo 2005, Recasens & Hovy 2011,
Moosavi & Strube 2016), over entities given as sets of mentions, with exact
matching: a mention is the same mention on both sides. Used only to test the
contingency formulas against."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from scipy.optimize import linear_sum_assignment


def _ratio(num, den):
    return 0.0 if num == 0 else num / den


def muc(key, response):
    def side(gold, other):
        num = den = 0
        for entity in gold:
            parts = set()
            unaligned = 0
            for m in entity:
                owner = [i for i, e in enumerate(other) if m in e]
                if owner:
                    parts.add(owner[0])
                else:
                    unaligned += 1
            num += len(entity) - (len(parts) + unaligned)
            den += len(entity) - 1
        return num, den
    return side(key, response), side(response, key)


def b_cubed(key, response):
    def side(gold, other):
        num = 0.0
        for entity in gold:
            for m in entity:
                containing = [e for e in other if m in e]
                if containing:
                    num += len(entity & containing[0]) / len(entity)
        return num, sum(len(e) for e in gold)
    return side(key, response), side(response, key)


def _ceaf(key, response, phi):
    matrix = np.array([[phi(k, r) for r in response] for k in key]).reshape(len(key), len(response))
    if matrix.size == 0:
        return 0.0
    rows, cols = linear_sum_assignment(matrix, maximize=True)
    return float(matrix[rows, cols].sum())


def ceafm(key, response):
    best = _ceaf(key, response, lambda k, r: len(k & r))
    return (best, sum(map(len, key))), (best, sum(map(len, response)))


def ceafe(key, response):
    best = _ceaf(key, response, lambda k, r: 2 * len(k & r) / (len(k) + len(r)))
    return (best, len(key)), (best, len(response))


def _links(entities):
    return {frozenset(p) for e in entities for p in combinations(e, 2)}


def _non_links(entities):
    mentions = [m for e in entities for m in e]
    owner = {m: i for i, e in enumerate(entities) for m in e}
    return {frozenset((a, b)) for a, b in combinations(mentions, 2) if owner[a] != owner[b]}


def blanc(key, response):
    """(coreference part, non-coreference part), each ((rn, rd), (pn, pd)).
    The common non-coreference links are pairs of mentions present on both
    sides that neither side links."""
    kc, rc = _links(key), _links(response)
    kn, rn = _non_links(key), _non_links(response)
    return (((len(kc & rc), len(kc)), (len(kc & rc), len(rc))),
            ((len(kn & rn), len(kn)), (len(kn & rn), len(rn))))


def lea(key, response):
    def side(gold, other):
        num = den = 0.0
        for entity in gold:
            if len(entity) == 1:
                (m,) = entity
                resolved = 1 if any(e == entity for e in other) else 0
                importance_links = 1
            else:
                links = {frozenset(p) for p in combinations(entity, 2)}
                resolved = len(links & _links(other))
                importance_links = len(links)
            num += len(entity) * resolved / importance_links
            den += len(entity)
        return num, den
    return side(key, response), side(response, key)


def f1(p, r):
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def prf(counts):
    (rn, rd), (pn, pd) = counts
    r, p = _ratio(rn, rd), _ratio(pn, pd)
    return r, p, f1(p, r)
