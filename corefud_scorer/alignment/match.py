"""Align key and response mentions one to one.

The stages follow scorer 1.2:

1. with ``-z dependent``, zeros (mentions headed by an empty node) are paired
   by the enhanced dependencies of their heads;
2. mentions with the same words are paired (with ``-a head`` the head must be
   the same too);
3. with ``-a partial`` or ``-a head``, what is left is paired by the chosen
   similarity.

Stages 1 and 3 are maximum-weight bipartite matchings over the mentions in
1.2's order (start, end, length). Only pairs that can score above zero
(shared head, shared sentence, nested words) are ever compared, and the
sparse solver of :mod:`.assignment` returns what
:func:`scipy.optimize.linear_sum_assignment` returns on 1.2's dense matrix,
ties included, in time that grows with the pairs rather than the matrix.

A mention's *identity* is what makes two mentions the same: its words, and
with ``-a head`` also its head. The result is an :class:`Alignment` of key
and response identities.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from . import assignment
from ..model import Mention, PluralMention, sentence_of

MATCHING_MODES = ("exact", "partial", "head", "partial-craft")
# Other names of the same modes (the UA scorer's).
MATCHING_SYNONYMS = {"partial-corefud": "partial"}
ZERO_METHODS = ("linear", "dependent")


def identity_function(match: str) -> Callable[[Mention], Hashable]:
    """What makes two mentions equal under a matching mode. A split
    antecedent is the set of entities it stands for, whatever the mode."""
    if match == "head":
        def identity(m):
            return m.antecedents if type(m) is PluralMention else (m.words, m.head)
    else:
        def identity(m):
            return m.antecedents if type(m) is PluralMention else m.words
    return identity


# --- similarities, each with 1.2's arithmetic so that ties compare equal ---

def partial_score(key: Mention, response: Mention) -> float:
    """Response inside the key and covering its head (or all of its minimum
    span, where the format gives one): shared share of the key."""
    key_words = set(key.words)
    response_words = set(response.words)
    required = (key.head,) if key.min is None else key.min
    if required and response_words.issuperset(required) and response_words <= key_words:
        return len(key_words & response_words) * 1.0 / len(key_words)
    return 0.0


def craft_score(key: Mention, response: Mention) -> float:
    """CRAFT 2019's partial match: some part of the response lies within the
    key's first part; shared share of the key. Zeros never match this way."""
    if key.is_zero or response.is_zero:
        return 0.0
    first, last = key.parts[0]
    for start, end in response.parts:
        if start >= first and end <= last:
            return len(set(key.words) & set(response.words)) * 1.0 / len(key.words)
    return 0.0


def head_score(key: Mention, response: Mention) -> float:
    """Same head: the shared share of the key's words."""
    if key.words == response.words and key.head == response.head:
        return 1.0
    if key.head == response.head:
        key_words = set(key.words)
        return len(key_words & set(response.words)) * 1.0 / len(key_words)
    return 0.0


def _f_score(first: set, second: set) -> float:
    # An empty side has no F-score; 1.2 divides by zero there, we score 0.
    if not first or not second:
        return 0.0
    common = first & second
    p = len(common) / len(first)
    r = len(common) / len(second)
    if p > 0 and r > 0:
        return 2 * p * r / (p + r)
    return 0


def zero_dependency_score(key: Mention, response: Mention) -> float:
    """Zeros of one sentence: F-score of (parent, relation) pairs weighted 10,
    plus the F-score of parents alone."""
    if sentence_of(key.head) != sentence_of(response.head):
        return 0.0
    score = 0.0
    score += 10 * _f_score(set(key.head_deps), set(response.head_deps))
    score += _f_score({p for p, _ in key.head_deps}, {p for p, _ in response.head_deps})
    return score


# --- candidate pairs: only mentions that can score above zero ---

def _head_candidates(keys, responses):
    by_head = defaultdict(list)
    for j, r in enumerate(responses):
        by_head[r.head].append(j)
    for i, k in enumerate(keys):
        for j in by_head.get(k.head, ()):
            yield i, j


def _partial_candidates(keys, responses):
    # A candidate response contains the key's head word (or the first word
    # of its minimum span).
    by_word = defaultdict(list)
    for j, r in enumerate(responses):
        for w in r.words:
            by_word[w].append(j)
    for i, k in enumerate(keys):
        required = (k.head,) if k.min is None else k.min
        for j in by_word.get(required[0], ()) if required else ():
            yield i, j


def _sentence_candidates(keys, responses):
    by_sentence = defaultdict(list)
    for j, r in enumerate(responses):
        by_sentence[sentence_of(r.head)].append(j)
    for i, k in enumerate(keys):
        for j in by_sentence.get(sentence_of(k.head), ()):
            yield i, j


SIMILARITIES = {
    "partial": (partial_score, _partial_candidates),
    "head": (head_score, _head_candidates),
    "zero-dependent": (zero_dependency_score, _sentence_candidates),
}


def _sorted(mentions: Sequence[Mention]) -> list[Mention]:
    return sorted(mentions, key=Mention.sort_key)


def similarity_weights(keys: Sequence[Mention], responses: Sequence[Mention],
                       similarity: str) -> dict[tuple[int, int], float]:
    """{(key index, response index): similarity} for the pairs scoring above zero."""
    score, candidates = SIMILARITIES[similarity]
    weights = {}
    for i, j in candidates(keys, responses):
        value = score(keys[i], responses[j])
        if value > 0:
            weights[i, j] = value
    return weights


def assign(keys: Sequence[Mention], responses: Sequence[Mention],
           similarity: str) -> list[tuple[Mention, Mention]]:
    """Maximum-similarity one-to-one pairs of ``keys`` and ``responses``.

    The answer is the one 1.2's dense solve gives, ties included: the
    solver of :mod:`.assignment` follows scipy's choices over the implicit
    zero cells without building the matrix.
    """
    if not keys or not responses:
        return []
    keys = _sorted(keys)
    responses = _sorted(responses)
    weights = similarity_weights(keys, responses, similarity)
    if not weights:
        return []
    pairs = [pair for pair in assignment.solve(len(keys), len(responses), weights) if pair in weights]
    return [(keys[i], responses[j]) for i, j in pairs]


@dataclass
class Alignment:
    """One document's one-to-one alignment of key and response mentions, as
    (key identity, response identity) pairs in the order 1.2 builds its
    lookup: identical pairs, then partial/head pairs, then zero pairs."""

    pairs: list[tuple[Hashable, Hashable]] = field(default_factory=list)

    @cached_property
    def merged(self) -> dict:
        """Scorer 1.2's single lookup from an identity to its partner: the
        key-to-response entries of non-identical pairs, then the
        response-to-key ones, which win where an identity is on both sides.
        Only what reproduces 1.2's readings uses it."""
        lookup = {k: r for k, r in self.pairs if k != r}
        lookup.update({r: k for k, r in self.pairs if k != r})
        return lookup

    def __iter__(self):
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)


def assign_craft(keys: Sequence[Mention], responses: Sequence[Mention]) -> list[tuple[Mention, Mention]]:
    """CRAFT's greedy pairing: each response in order takes the first key (in
    order) it matches, unless an earlier response took that key."""
    keys = _sorted(keys)
    responses = _sorted(responses)
    by_word = defaultdict(list)  # a word of a key's first part -> keys
    for i, k in enumerate(keys):
        if not k.is_zero:
            first, last = k.parts[0]
            for w in k.words:
                if first <= w <= last:
                    by_word[w].append(i)
    used = set()
    pairs = []
    for r in responses:
        candidates = sorted({i for start, _ in r.parts for i in by_word.get(start, ())})
        for i in candidates:
            if craft_score(keys[i], r) > 0:
                if i not in used:
                    used.add(i)
                    pairs.append((keys[i], r))
                break
    return pairs


def align(key_mentions: dict, response_mentions: dict, match: str,
          zero_method: str) -> Alignment:
    """Align the distinct mentions of a document (dicts identity -> mention).

    Stage 1 (zeros by dependencies) runs first, but its pairs come last in
    the :class:`Alignment`, where 1.2 puts them.
    """
    key_left = dict(key_mentions)
    response_left = dict(response_mentions)
    identity = identity_function(match)

    zero_pairs = []
    if zero_method == "dependent":
        key_zeros = [m for m in key_left.values() if m.is_zero]
        response_zeros = [m for m in response_left.values() if m.is_zero]
        for k, r in assign(key_zeros, response_zeros, "zero-dependent"):
            k_id, r_id = identity(k), identity(r)
            zero_pairs.append((k_id, r_id))
            del key_left[k_id]
            del response_left[r_id]

    exact_pairs = [(ident, ident) for ident in key_left if ident in response_left]
    for ident, _ in exact_pairs:
        del key_left[ident]
        del response_left[ident]

    other_pairs = []
    if match != "exact":
        # Split antecedents left over are matched exactly or not at all.
        keys = [m for m in key_left.values() if type(m) is not PluralMention]
        responses = [m for m in response_left.values() if type(m) is not PluralMention]
        if match == "partial-craft":
            found = assign_craft(keys, responses)
        else:
            found = assign(keys, responses, match)
        for k, r in found:
            other_pairs.append((identity(k), identity(r)))
    return Alignment(exact_pairs + other_pairs + zero_pairs)
