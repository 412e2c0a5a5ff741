"""From entities and a mention alignment to each document's contingency.

The key x response contingency counts, for key entity i and response entity
j, the mentions of i aligned to mentions of j. Scorer 1.2 reads it from two
sides (each key mention looks up its response entity for recall, each
response mention its key entity for precision) and CEAF counts membership in
entities. For well-formed input the three readings are one matrix; they
differ only where a span stands in two entities of one file, and computing
each as 1.2 reads it keeps its numbers in that case too.
"""

from __future__ import annotations

from dataclasses import dataclass
import numpy as np

from .model import Document, Mention
from .match import align, identity_function


@dataclass
class Cells:
    """Non-zero cells of a sparse contingency: row, column, count arrays."""

    rows: np.ndarray
    cols: np.ndarray
    counts: np.ndarray

    @classmethod
    def from_pairs(cls, rows: list[int], cols: list[int], n_cols: int) -> "Cells":
        if not rows:
            empty = np.zeros(0, dtype=np.int64)
            return cls(empty, empty, empty)
        codes = np.asarray(rows, dtype=np.int64) * max(n_cols, 1) + np.asarray(cols, dtype=np.int64)
        unique, counts = np.unique(codes, return_counts=True)
        return cls(unique // max(n_cols, 1), unique % max(n_cols, 1), counts.astype(np.int64))

    def same_as(self, other: "Cells") -> bool:
        return (np.array_equal(self.rows, other.rows) and np.array_equal(self.cols, other.cols)
                and np.array_equal(self.counts, other.counts))


@dataclass
class Contingency:
    """One document's contingency and entity sizes, read the three ways."""

    key_sizes: np.ndarray       # a_i
    response_sizes: np.ndarray  # b_j
    recall_cells: Cells         # from key mentions' side
    precision_cells: Cells      # from response mentions' side
    ceaf_cells: Cells           # entity membership


@dataclass
class Partition:
    """A document after singleton removal and alignment: what metrics read."""

    doc_id: object
    key: list[list[Mention]]
    response: list[list[Mention]]
    key_entity_of: dict          # identity -> key entity index (last one wins, as in 1.2)
    response_entity_of: dict
    aligned: dict                # identity -> partner identity, non-identical pairs only
    alignment: list              # (key identity, response identity) pairs
    identity: object             # Mention -> identity
    contingency: Contingency
    dropped: tuple = (None, None)  # (key, response) Dropped


@dataclass
class Dropped:
    """What preparing one side's entities left out or found doubtful."""

    repeated_mentions: int = 0   # the same span twice in one entity (kept once)
    singletons: int = 0          # entities of one mention (unless kept)
    shared_spans: int = 0        # spans standing in more than one entity (kept in each)


def prepare_entities(doc: Document, identity, keep_singletons: bool) -> tuple[list[list[Mention]], Dropped]:
    """Drop repeated spans within an entity, then (unless kept) singletons."""
    entities = []
    dropped = Dropped()
    for entity in doc.entities:
        seen = {}
        for mention in entity.mentions:
            seen.setdefault(identity(mention), mention)
        mentions = list(seen.values())
        dropped.repeated_mentions += len(entity.mentions) - len(mentions)
        if keep_singletons or len(mentions) > 1:
            entities.append(mentions)
        else:
            dropped.singletons += 1
    return entities, dropped


def _entity_index(entities, identity) -> tuple[dict, dict, list]:
    last = {}
    members: dict = {}
    distinct: dict = {}
    for index, entity in enumerate(entities):
        for mention in entity:
            ident = identity(mention)
            last[ident] = index
            members.setdefault(ident, []).append(index)
            distinct.setdefault(ident, mention)
    return last, members, distinct


def build_partition(key_doc: Document, response_doc: Document, match: str, zero_method: str,
                    keep_singletons: bool) -> Partition:
    identity = identity_function(match)
    key, key_dropped = prepare_entities(key_doc, identity, keep_singletons)
    response, response_dropped = prepare_entities(response_doc, identity, keep_singletons)
    key_entity_of, key_members, key_distinct = _entity_index(key, identity)
    response_entity_of, response_members, response_distinct = _entity_index(response, identity)
    key_dropped.shared_spans = sum(1 for m in key_members.values() if len(m) > 1)
    response_dropped.shared_spans = sum(1 for m in response_members.values() if len(m) > 1)

    alignment = align(key_distinct, response_distinct, match, zero_method)
    # 1.2's lookup: key->response entries first, then response->key entries,
    # which win where an identity is on both sides.
    aligned: dict = {k: r for k, r in alignment if k != r}
    aligned.update({r: k for k, r in alignment if k != r})

    def cells(entities, entity_of, n_cols, transpose):
        rows, cols = [], []
        for index, entity in enumerate(entities):
            for mention in entity:
                ident = identity(mention)
                partner = entity_of.get(aligned.get(ident, ident))
                if partner is not None:
                    rows.append(index)
                    cols.append(partner)
        if transpose:
            rows, cols = cols, rows
        return rows, cols

    n_key, n_response = len(key), len(response)
    recall_cells = Cells.from_pairs(*cells(key, response_entity_of, n_response, False), n_response)
    precision_cells = Cells.from_pairs(*cells(response, key_entity_of, n_key, True), n_response)
    rows, cols = [], []
    for index, entity in enumerate(key):
        for mention in entity:
            ident = identity(mention)
            for j in response_members.get(aligned.get(ident, ident), ()):
                rows.append(index)
                cols.append(j)
    ceaf_cells = Cells.from_pairs(rows, cols, n_response)
    if ceaf_cells.same_as(recall_cells):
        ceaf_cells = recall_cells
    if precision_cells.same_as(recall_cells):
        precision_cells = recall_cells

    contingency = Contingency(
        np.array([len(e) for e in key], dtype=np.int64),
        np.array([len(e) for e in response], dtype=np.int64),
        recall_cells, precision_cells, ceaf_cells)
    return Partition(key_doc.doc_id, key, response, key_entity_of, response_entity_of,
                     aligned, alignment, identity, contingency, (key_dropped, response_dropped))
