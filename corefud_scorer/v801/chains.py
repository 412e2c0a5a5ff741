"""The reference scorer v8.01's view of a document: entities as chains of
mention ids, and its metrics as pure functions of them.

``scorer.pl`` v8.01 (Pradhan et al. 2014) matches mentions exactly and gives
each distinct span an id. Where a span is repeated it does not refuse below
ten repeats, and its numbers are these:

* a key span given twice (in one entity or two) keeps one id, the same in
  every place it stands;
* a response span that is also a key span is kept where it first appears
  and removed from the later places (an entity left empty disappears);
* a response span not in the key keeps one id in every place it stands.

Its metrics (:mod:`.chain_metrics`) compute what v8.01 computes on such
chains, repeats included. Two callers read them: ``corefud-scorer`` for a
document where a span repeats (:mod:`.scoring`; every other document goes
through the contingency and :mod:`~corefud_scorer.measures.metrics`, which
give v8.01's numbers there), and the stand-in ``conll-scorer``
(:mod:`.dropin`), which prints v8.01's numerators to its 15 digits and
starts without numpy.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ..alignment import assignment


@dataclass
class Repeat:
    """One repeated span: where (entity index, span) and the ids v8.01 prints."""

    entity: int
    span: Hashable
    old_id: int
    new_id: int


@dataclass
class Chains:
    """One document after v8.01's mention identification."""

    key: list[list[int]]
    response: list[list[int]]
    key_spans: int            # distinct key spans
    response_spans: int       # distinct response spans, after removing repeats
    exact: int                # response spans that are key spans
    id_count: int             # ids given: key mentions (repeats too) + response-only spans
    key_repeats: list[Repeat] = field(default_factory=list)
    response_repeats: list[Repeat] = field(default_factory=list)
    ids: dict = field(default_factory=dict)   # span -> id, key spans and response-only ones

    @cached_property
    def spans(self) -> dict:
        """id -> span."""
        return {i: s for s, i in self.ids.items()}

    # Views of the chains that several metrics read, computed once.

    @cached_property
    def key_mentions(self) -> int:
        """Positions in the key chains (repeats too)."""
        return sum(map(len, self.key))

    @cached_property
    def response_mentions(self) -> int:
        return sum(map(len, self.response))

    @cached_property
    def repeated(self) -> bool:
        """Some id stands twice on one side (a key span given twice, or a
        response-only span kept in every place it stands)."""
        return self.key_mentions != self.key_spans or self.response_mentions != self.response_spans

    @cached_property
    def key_of(self) -> dict[int, int]:
        return _last_index(self.key)

    @cached_property
    def key_members(self) -> dict[int, list[int]]:
        return _members(self.key)

    @cached_property
    def response_members(self) -> dict[int, list[int]]:
        return _members(self.response)

    @cached_property
    def overlap(self) -> dict[tuple[int, int], int]:
        """(key chain, response chain) -> the key chain's positions whose id
        the response chain holds."""
        common: dict = defaultdict(int)
        if not self.repeated:
            # Each id in one chain a side: one look-up a response position.
            key_of = self.key_of
            for j, chain in enumerate(self.response):
                for m in chain:
                    i = key_of.get(m)
                    if i is not None:
                        common[i, j] += 1
            return common
        response_members = self.response_members
        for i, chain in enumerate(self.key):
            for m in chain:
                for j in response_members.get(m, ()):
                    common[i, j] += 1
        return common

    @cached_property
    def overlap_parts(self) -> list[tuple[list[int], list[int]]]:
        return assignment.parts(self.overlap)


def identify(key: Sequence[Sequence[Hashable]], response: Sequence[Sequence[Hashable]]) -> Chains:
    """Ids for the spans of key and response entities (lists of spans in
    order), repeated response spans removed, as v8.01's IdentifMentions."""
    key_spans = [span for entity in key for span in entity]
    response_spans = [span for entity in response for span in entity]
    if len(set(key_spans)) < len(key_spans) or len(set(response_spans)) < len(response_spans):
        return identify_one_by_one(key, response)
    # No span twice on either side (the usual document): the key's ids are
    # their places, every response entity is kept whole, and a response-only
    # span's id comes in the order the spans do, as one by one.
    ids = dict(zip(key_spans, range(len(key_spans))))
    key_chains, start = [], 0
    for entity in key:
        key_chains.append(list(range(start, start + len(entity))))
        start += len(entity)
    count = len(key_spans)
    mapped: dict = {}
    response_chains = []
    for entity in response:
        if not entity:
            continue
        chain = []
        for span in entity:
            i = ids.get(span)
            if i is None:
                i = count
                count += 1
            mapped[span] = i
            chain.append(i)
        response_chains.append(chain)
    exact = len(response_spans) - (count - len(key_spans))
    return Chains(key_chains, response_chains, len(ids), len(mapped), exact, count, [], [], {**ids, **mapped})


def identify_one_by_one(key: Sequence[Sequence[Hashable]], response: Sequence[Sequence[Hashable]]) -> Chains:
    """:func:`identify` span by span, as v8.01 gives ids: key spans numbered
    in order (a span given again takes the later number), a response span
    already seen in the response dropped, then the response-only spans
    numbered in the order they stand."""
    ids: dict = {}
    count = 0
    key_repeats = []
    for e, entity in enumerate(key):
        for span in entity:
            if span in ids:
                key_repeats.append(Repeat(e, span, ids[span], count))
            ids[span] = count
            count += 1
    mapped: dict = {}
    exact = 0
    response_repeats = []
    kept_entities = []
    for e, entity in enumerate(response):
        kept = []
        for span in entity:
            if span in mapped:
                response_repeats.append(Repeat(e, span, mapped[span], ids.get(span)))
                continue
            if span in ids:
                mapped[span] = ids[span]
                exact += 1
            kept.append(span)
        if kept:
            kept_entities.append(kept)
    for entity in kept_entities:
        for span in entity:
            if span not in mapped:
                mapped[span] = count
                count += 1
    return Chains([[ids[s] for s in entity] for entity in key],
                  [[mapped[s] for s in entity] for entity in kept_entities],
                  len(ids), len(mapped), exact, count, key_repeats, response_repeats, {**ids, **mapped})


def _last_index(chains: list[list[int]]) -> dict[int, int]:
    """id -> the last chain holding it (v8.01's ``Indexa``)."""
    return {m: i for i, chain in enumerate(chains) for m in chain}


def _members(chains: list[list[int]]) -> dict[int, list[int]]:
    """id -> every chain holding it, in order, once each."""
    out: dict[int, list[int]] = defaultdict(list)
    for i, chain in enumerate(chains):
        for m in chain:
            held = out[m]
            if not held or held[-1] != i:  # chains come in order
                held.append(i)
    return out
