"""The response's words aligned with the key's, as the track's ``clean``
aligns them: a word-level edit distance, and among the alignments of least
cost the one its backtrace picks, from the end of the document: a match
where the two words are equal, else a replacement if one is optimal, else a
deletion (a response word dropped) if one is, else an insertion (a key word
the response lacks).

The distances come from rapidfuzz (C speed, bit-parallel); the backtrace
walks the document once and asks rapidfuzz, at each word that differs,
whether a replacement or a deletion keeps the cost optimal (the distance of
the two prefixes, with the remaining cost as cut-off). Words are coded as
one character each, so that prefixes are plain strings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

# Code points for word codes, the surrogates skipped.
_SURROGATES, _SURROGATE_COUNT, _LAST = 0xD800, 0x800, 0x10FFFF


@dataclass
class Alignment:
    """``matched[j]``: the response word equal to key word ``j`` and aligned
    with it, or None; ``counts``: ``inserted``, ``deleted`` and ``replaced``
    words."""

    matched: list
    counts: Counter


def _coded(response: list[str], key: list[str]):
    """Both word lists as strings of one character per distinct word (as
    lists of integers when a document has more distinct words than there
    are characters)."""
    codes: dict[str, int] = {}
    for word in key:
        codes.setdefault(word, len(codes))
    for word in response:
        codes.setdefault(word, len(codes))
    if len(codes) > _LAST - _SURROGATE_COUNT:
        return [codes[w] for w in response], [codes[w] for w in key]
    chars = {w: chr(c + _SURROGATE_COUNT if c >= _SURROGATES else c) for w, c in codes.items()}
    return "".join(chars[w] for w in response), "".join(chars[w] for w in key)


def _within(response, key, i: int, j: int, cost: int) -> bool:
    """Whether the first ``i`` response words turn into the first ``j`` key
    words at ``cost`` or less."""
    if cost < abs(i - j):
        return False
    return Levenshtein.distance(response[:i], key[:j], score_cutoff=cost) <= cost


def align(response: list[str], key: list[str]) -> Alignment:
    """Align two word lists as ``clean`` does (see the module's docstring)."""
    r, k = _coded(response, key)
    i, j = len(r), len(k)
    cost = Levenshtein.distance(r, k)
    matched: list = [None] * j
    counts: Counter = Counter()
    while i and j:
        if r[i - 1] == k[j - 1]:
            i, j = i - 1, j - 1
            matched[j] = i
            continue
        cost -= 1
        if _within(r, k, i - 1, j - 1, cost):
            i, j = i - 1, j - 1
            counts["replaced"] += 1
        elif _within(r, k, i - 1, j, cost):
            i -= 1
            counts["deleted"] += 1
        else:
            j -= 1
            counts["inserted"] += 1
    counts["inserted"] += j
    counts["deleted"] += i
    return Alignment(matched, counts)
