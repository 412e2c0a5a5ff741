"""Empty-node evaluation, as the CRAC 2024-2026 shared tasks define it.

Systems predict the empty nodes that zeros stand on; the response's empty
nodes are compared with the key's sentence by sentence. An empty node is
found when the other side has one in the same sentence with the same first
DEPS head and, per part, the same:

- ``arc``: nothing more; ``dep``: relation; ``wo``: word order position
  (the word ``N`` of ``N.M``); ``dep_wo``: relation and position;
  ``form``, ``lemma``, ``upos``, ``xpos``, ``feats``: that column;
  ``all``: every one of them (CRAC 2026's parts);
- ``position``: the word order position alone, whatever the head (CRAC
  2024's WO).

Nodes are counted as multisets: two identical nodes on one side need two on
the other. A head that is itself an empty node (``5.1``) is compared as
written. Each part's statistics are true positives over key nodes (recall)
and over response nodes (precision); they add across documents, since a
node is only ever compared within its sentence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, fields

from .statistics import Counts

# The parts in the order they are reported; the measure's own figures are ALL's.
PARTS = ("arc", "dep", "wo", "dep_wo", "form", "lemma", "upos", "xpos", "feats", "all", "position")
ALL = "all"


@dataclass
class EmptyNodeCounts:
    """Each part's recall and precision statistics."""

    arc: Counts = field(default_factory=Counts)
    dep: Counts = field(default_factory=Counts)
    wo: Counts = field(default_factory=Counts)
    dep_wo: Counts = field(default_factory=Counts)
    form: Counts = field(default_factory=Counts)
    lemma: Counts = field(default_factory=Counts)
    upos: Counts = field(default_factory=Counts)
    xpos: Counts = field(default_factory=Counts)
    feats: Counts = field(default_factory=Counts)
    all: Counts = field(default_factory=Counts)
    position: Counts = field(default_factory=Counts)

    def __add__(self, other: "EmptyNodeCounts") -> "EmptyNodeCounts":
        return EmptyNodeCounts(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def parts(self) -> dict[str, Counts]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def empty(self) -> bool:
        """No empty node on either side."""
        return self.all.empty


def _head(deps: str) -> tuple:
    """The first DEPS item's head and relation; an integer head read as one
    (``05`` is ``5``, as the official scripts read it), any other as written."""
    head, _, relation = deps.split("|", 1)[0].partition(":")
    return (int(head) if head.isdigit() else head), relation


def _keys(node) -> dict[str, tuple]:
    head, rel = _head(node.deps)
    s, wo = node.sentence, node.word_order
    return {
        "arc": (s, head),
        "dep": (s, head, rel),
        "wo": (s, head, wo),
        "dep_wo": (s, head, rel, wo),
        "form": (s, head, node.form),
        "lemma": (s, head, node.lemma),
        "upos": (s, head, node.upos),
        "xpos": (s, head, node.xpos),
        "feats": (s, head, node.feats),
        "all": (s, head, rel, wo, node.form, node.lemma, node.upos, node.xpos, node.feats),
        "position": (s, wo),
    }


def compare(key: Iterable, response: Iterable) -> EmptyNodeCounts:
    """Each part's statistics for two lists of :class:`~corefud_scorer.model.EmptyNode`
    (one document's, or any list whose sentence numbers are comparable)."""
    key_counters = {part: Counter() for part in PARTS}
    response_counters = {part: Counter() for part in PARTS}
    for nodes, counters in ((key, key_counters), (response, response_counters)):
        for node in nodes:
            for part, value in _keys(node).items():
                counters[part][value] += 1
    out = {}
    for part in PARTS:
        k, r = key_counters[part], response_counters[part]
        found = float(sum((k & r).values()))
        out[part] = Counts(found, float(sum(k.values())), found, float(sum(r.values())))
    return EmptyNodeCounts(**out)


def empty_nodes(p) -> EmptyNodeCounts:
    """One document's statistics: the key's and the response's empty nodes
    (a :class:`~corefud_scorer.alignment.contingency.Partition`'s documents)."""
    key, response = p.key.document, p.response.document
    return compare(key.empty_nodes if key is not None else (),
                   response.empty_nodes if response is not None else ())
