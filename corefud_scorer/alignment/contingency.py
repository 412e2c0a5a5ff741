"""From entities and a mention alignment to each document's contingency.

The key x response contingency counts, for key entity i and response entity
j, the mentions of i aligned to mentions of j. Scorer 1.2 reads it from two
sides (each key mention looks up its response entity for recall, each
response mention its key entity for precision) and CEAF counts membership in
entities. For well-formed input the three readings are one matrix; they
differ only where a span stands in two entities of one file, and computing
each as 1.2 reads it keeps its numbers in that case too. There the lookup
keeps the entity that comes last in the document's list, so that list must
be in 1.2's order: by first mention in the whole file, which the reader
gives (an id already used in an earlier document sorts first, see
``formats/readers/file_entities.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable

from .match import Alignment
from ..lazy import lazy
from ..model import Document, Mention, PluralMention

np = lazy("numpy")


def _listed(arrays: dict, name: str, values) -> list:
    """``values`` as a list; an array given is kept as the array read."""
    if isinstance(values, list):
        return values
    arrays[name] = values
    return values.tolist()


class _AsArray:
    """An attribute that is the array of a list attribute (None for None),
    made at its first use (whole numbers as int64) unless given."""

    def __init__(self, source: str, integers: bool):
        self.source, self.integers = source, integers

    def __set_name__(self, owner, name: str):
        self.name = name

    def __get__(self, instance, kind=None):
        if instance is None:
            return self
        values = getattr(instance, self.source)
        array = instance._arrays.get(self.name)
        if array is None and values is not None:
            whole = self.integers or all(type(v) is int for v in values)
            array = instance._arrays[self.name] = np.array(values, dtype=np.int64 if whole else np.float64)
        return array


class Cells:
    """Non-zero cells of a sparse contingency, in (row, column) order: each
    cell's row, column and count, as lists (``row_list``, ``col_list``,
    ``count_list``: what :mod:`~corefud_scorer.measures.metrics` reads,
    without numpy) and as arrays made at their first use (``rows``,
    ``cols``, ``counts``: what the measures computing with arrays read).
    Where mentions are weighted (split antecedents,
    :mod:`~corefud_scorer.measures.split_antecedents`), a count is the
    cell's total weight and ``square_list`` (``squares``) the sum of its
    mentions' squared weights; None where every mention weighs 1. Made of
    lists or arrays."""

    __slots__ = ("row_list", "col_list", "count_list", "square_list", "_arrays")

    def __init__(self, rows, cols, counts, squares=None):
        self._arrays: dict = {}
        self.row_list = _listed(self._arrays, "rows", rows)
        self.col_list = _listed(self._arrays, "cols", cols)
        self.count_list = _listed(self._arrays, "counts", counts)
        self.square_list = None if squares is None else _listed(self._arrays, "squares", squares)

    rows = _AsArray("row_list", True)
    cols = _AsArray("col_list", True)
    counts = _AsArray("count_list", False)
    squares = _AsArray("square_list", False)

    def __repr__(self) -> str:
        return f"Cells({self.row_list}, {self.col_list}, {self.count_list}, {self.square_list})"

    @classmethod
    def from_pairs(cls, rows: list[int], cols: list[int], n_cols: int) -> "Cells":
        """The cells counting the (row, column) pairs given."""
        width = max(n_cols, 1)
        counted = sorted(Counter([i * width + j for i, j in zip(rows, cols)]).items())
        return cls([code // width for code, _ in counted], [code % width for code, _ in counted],
                   [count for _, count in counted])

    def same_as(self, other: "Cells") -> bool:
        return (self.row_list == other.row_list and self.col_list == other.col_list
                and self.count_list == other.count_list)


class Contingency:
    """One document's contingency and entity sizes: ``key_size_list`` (a_i)
    and ``response_size_list`` (b_j), as arrays ``key_sizes`` and
    ``response_sizes`` at their first use. ``cells`` is the matrix;
    ``precision_cells`` and ``ceaf_cells`` are the same object unless a span
    stands in two entities, where 1.2's other readings differ."""

    __slots__ = ("key_size_list", "response_size_list", "cells", "precision_cells", "ceaf_cells", "_arrays")

    def __init__(self, key_sizes, response_sizes, cells: Cells, precision_cells: Cells, ceaf_cells: Cells):
        self._arrays: dict = {}
        self.key_size_list = _listed(self._arrays, "key_sizes", key_sizes)
        self.response_size_list = _listed(self._arrays, "response_sizes", response_sizes)
        self.cells = cells                      # read from key mentions' side (recall)
        self.precision_cells = precision_cells  # read from response mentions' side
        self.ceaf_cells = ceaf_cells            # entity membership

    key_sizes = _AsArray("key_size_list", True)
    response_sizes = _AsArray("response_size_list", True)

    @property
    def recall_cells(self) -> Cells:
        return self.cells


class Dropped:
    """What preparing one side's entities left out or found doubtful, counted
    as it goes."""

    __slots__ = ("repeated_mentions", "singletons", "shared_spans", "zeros", "merged_plurals", "emptied")

    def __init__(self):
        self.repeated_mentions = 0   # the same span twice in one entity (kept once)
        self.singletons = 0          # entities of one mention (unless kept)
        self.shared_spans = 0        # spans standing in more than one entity (kept in each)
        self.zeros = 0               # zero mentions left out (unless kept)
        self.merged_plurals = 0      # entities merged for standing for the same split antecedent
        self.emptied = 0             # entities left without mentions once zeros were left out


class Side:
    """One side's entities, ready to be aligned: each a list of distinct
    mentions (and of their identities), and indexes from a mention identity
    to its entities (:func:`prepare` makes it)."""

    __slots__ = ("entities", "identities", "entity_of", "shared", "distinct", "dropped", "document", "plurals")

    def __init__(self, entities: list[list[Mention]], identities: list[list], entity_of: dict, shared: dict,
                 distinct: dict, dropped: Dropped, document: Document | None, plurals: bool):
        self.entities = entities
        self.identities = identities  # each entity's mentions' identities
        self.entity_of = entity_of    # identity -> entity index (the last one, as in 1.2)
        self.shared = shared          # identity in more than one entity -> every entity index holding it
        self.distinct = distinct      # identity -> its first mention
        self.dropped = dropped
        self.document = document      # what the side was prepared from
        self.plurals = plurals        # split antecedents among the mentions

    @property
    def mentions(self) -> int:
        return sum(map(len, self.entities))


def plural_mention(entity, by_id: dict, identity) -> PluralMention:
    """The split antecedent of a plural entity: the entities it is made of
    (a plural among them replaced by its own, a non-referring element kept
    as the UA library keeps it), each as the tuple of its mentions'
    identities."""
    members = set()
    queue = list(entity.split_antecedents)
    outside = {e.eid: e for e in entity.non_referring_elements}
    seen = set()
    while queue:
        eid = queue.pop(0)
        part = by_id.get(eid, outside.get(eid))
        if eid in seen or part is None:
            continue
        seen.add(eid)
        if part.split_antecedents:
            queue.extend(part.split_antecedents)
            outside.update((e.eid, e) for e in part.non_referring_elements)
        else:
            members.add(tuple(identity(m) for m in part.mentions))
    return PluralMention(frozenset(members))


def prepare(doc: Document, identity: Callable[[Mention], Hashable], keep_singletons: bool,
            keep_zeros: bool = True, keep_split_antecedents: bool = False,
            discourse_deixis: bool = False) -> Side:
    """Drop repeated spans within an entity, then (unless kept) singletons,
    and index what is left. As the UA scorer does: with split antecedents
    kept, each plural entity gains its split antecedent before singletons
    go, and entities standing for the same one are merged; zeros not kept
    leave after singletons (an entity may be left with fewer mentions)."""
    kept: list[dict] = []  # each entity's mentions by identity, in order
    dropped = Dropped()
    source = doc.discourse_deixis if discourse_deixis else doc.entities
    by_id = {entity.eid: entity for entity in source} if keep_split_antecedents else {}
    # Zeros to leave out, if the document has any (one without is spared
    # a look at each entity's mentions).
    drop_zeros = not keep_zeros and any(m.is_zero for entity in source for m in entity.mentions)
    for entity in source:
        given = entity.mentions
        seen = dict(zip(map(identity, given), given))
        if len(seen) < len(given):
            # A span given twice: its first mention is the one kept.
            seen = {}
            for mention in given:
                seen.setdefault(identity(mention), mention)
            dropped.repeated_mentions += len(given) - len(seen)
        if keep_split_antecedents and entity.split_antecedents:
            plural = plural_mention(entity, by_id, identity)
            seen[identity(plural)] = plural
        if not (keep_singletons or len(seen) > 1):
            dropped.singletons += 1
            continue
        if not keep_zeros:
            if drop_zeros:
                others = {ident: m for ident, m in seen.items() if not m.is_zero}
                dropped.zeros += len(seen) - len(others)
                seen = others
            # An entity made only of zeros is gone, not an empty entity every
            # metric would count (MUC's s-1 links of an entity of size 0).
            if not seen:
                dropped.emptied += 1
                continue
        kept.append(seen)
    if keep_split_antecedents:
        kept = _merge_same_plurals(kept, dropped)
    entities = [list(mentions.values()) for mentions in kept]
    identities = [list(mentions) for mentions in kept]
    last, shared, distinct = {}, {}, {}
    for index, mentions in enumerate(kept):
        for ident, mention in mentions.items():
            if ident in last:
                shared.setdefault(ident, [last[ident]]).append(index)
            else:
                distinct[ident] = mention
            last[ident] = index
    dropped.shared_spans = len(shared)
    # Only a kept split antecedent makes a plural mention.
    plurals = keep_split_antecedents and any(type(m) is PluralMention for m in distinct.values())
    return Side(entities, identities, last, shared, distinct, dropped, doc, plurals)


def _merge_same_plurals(entities: list[dict], dropped) -> list[dict]:
    """Entities (each its mentions by identity) standing for the same split
    antecedent, merged into the first of them."""
    merged: list[dict] = []
    home: dict = {}  # split antecedent identity -> index in merged
    for entity in entities:
        target = None
        for ident, mention in entity.items():
            if type(mention) is PluralMention and ident in home:
                target = home[ident]
                break
        if target is None:
            target = len(merged)
            merged.append({})
        else:
            dropped.merged_plurals += 1
        for ident, mention in entity.items():
            merged[target].setdefault(ident, mention)
            if type(mention) is PluralMention:
                home.setdefault(ident, target)
    return merged


class Partition:
    """A document after singleton removal and alignment: what metrics read
    (:func:`partition` makes it)."""

    __slots__ = ("doc_id", "key", "response", "alignment", "identity", "contingency")

    def __init__(self, doc_id, key: Side, response: Side, alignment: Alignment,
                 identity: Callable[[Mention], Hashable], contingency: Contingency):
        self.doc_id = doc_id
        self.key = key
        self.response = response
        self.alignment = alignment
        self.identity = identity
        self.contingency = contingency

    @property
    def has_plurals(self) -> bool:
        """Split antecedents among the mentions (scored by :mod:`~corefud_scorer.measures.split_antecedents`)."""
        return self.key.plurals or self.response.plurals


def partition(doc_id, key: Side, response: Side, alignment: Alignment,
              identity: Callable[[Mention], Hashable]) -> Partition:
    """The contingency of two prepared sides under an alignment."""
    lookup = alignment.merged

    def cells(identities, entity_of, transpose):
        rows, cols = [], []
        for index, idents in enumerate(identities):
            for ident in idents:
                partner = entity_of.get(lookup.get(ident, ident))
                if partner is not None:
                    rows.append(index)
                    cols.append(partner)
        if transpose:
            rows, cols = cols, rows
        return rows, cols

    n_response = len(response.entities)
    recall_cells = Cells.from_pairs(*cells(key.identities, response.entity_of, False), n_response)
    precision_cells = Cells.from_pairs(*cells(response.identities, key.entity_of, True), n_response)
    ceaf_cells = recall_cells
    if response.shared:
        # Membership differs from the recall reading only where a response
        # span stands in more than one entity.
        rows, cols = [], []
        for index, idents in enumerate(key.identities):
            for ident in idents:
                partner = lookup.get(ident, ident)
                holding = response.shared.get(partner)
                if holding is None:
                    j = response.entity_of.get(partner)
                    holding = () if j is None else (j,)
                for j in holding:
                    rows.append(index)
                    cols.append(j)
        ceaf_cells = Cells.from_pairs(rows, cols, n_response)
        if ceaf_cells.same_as(recall_cells):
            ceaf_cells = recall_cells
    if precision_cells.same_as(recall_cells):
        precision_cells = recall_cells

    contingency = Contingency([len(e) for e in key.entities], [len(e) for e in response.entities],
                              recall_cells, precision_cells, ceaf_cells)
    return Partition(doc_id, key, response, alignment, identity, contingency)
