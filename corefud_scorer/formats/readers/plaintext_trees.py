"""The key's sentences as the plaintext format's tools see them: words,
empty nodes and their dependencies, where each empty node stands, and the
head of a mention.

The track's conversion (``conllu2text``) first keeps one enhanced parent
per empty node (Udapi's ``corefud.SingleParent``) and then moves each empty
node right after that parent, so the plaintext order of a sentence is not
the file's. Reading a response back (``text2conllu``) moves the key's empty
nodes again, in its own way (each one recreated after its parent, the old
one removed and the nodes after it renumbered), which decides the positions
and enhanced dependencies the scored response has, and gives each mention
the head Udapi's ``corefud.MoveHead`` finds on those trees. This module
replays those steps on light arrays, without Udapi, with the same float
arithmetic on word orders, so that the positions, dependencies and heads
are the ones the official pipeline writes.

A node is an integer: 0 the root, ``1..n`` the words, ``n+1...`` the empty
nodes in file order; nodes the replay creates get the next numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ROOT = 0
_SURE = -1  # a node surely in the treelet (the climbing's mark)


@dataclass
class Tree:
    """One key sentence: ``heads[w]`` the basic parent of word ``w`` (None
    where HEAD is ``_``), ``deps[v]`` each node's enhanced parents as
    ``(parent, relation)`` pairs, ``blank`` the nodes whose DEPS is ``_``
    as written (MoveHead reads a word's basic parent there), ``ords`` the
    nodes' word orders, ``empties`` the empty nodes in Udapi's list order,
    ``origin`` the key empty node a recreated node stands for."""

    words: int
    heads: list
    deps: dict = field(default_factory=dict)
    blank: set = field(default_factory=set)
    ords: dict = field(default_factory=dict)
    empties: list = field(default_factory=list)
    origin: dict = field(default_factory=dict)

    def is_empty(self, node: int) -> bool:
        return node > self.words

    def parent(self, node: int):
        """The basic parent (None for the root, an empty node, or HEAD ``_``)."""
        if node == ROOT or node > self.words:
            return None
        return self.heads[node]

    def copy(self) -> "Tree":
        return Tree(self.words, self.heads, {v: list(d) for v, d in self.deps.items()}, set(self.blank),
                    dict(self.ords), list(self.empties), dict(self.origin))


def _parent_of(head: str, words: int, empty_ids: dict):
    """A DEPS parent as a node: ``0``, a word number, or an empty node's id."""
    if "." in head:
        return empty_ids.get(head)
    if head.isdigit() and int(head) <= words:
        return int(head)
    return None


def sentence_tree(lines: list[str]) -> Tree:
    """The tree of one sentence from its CoNLL-U token lines (ID, FORM,
    ..., HEAD, DEPREL, DEPS, MISC); comments and multiword ranges skipped.
    A DEPS parent that names no node is left out."""
    words, heads, word_deps, empty = 0, [None], [], []
    for line in lines:
        if not line or line[0] == "#":
            continue
        columns = line.split("\t")
        token_id = columns[0]
        if "-" in token_id:
            continue
        if "." in token_id:
            empty.append((token_id, columns[8]))
            continue
        words += 1
        heads.append(int(columns[6]) if columns[6].isdigit() else None)
        word_deps.append(columns[8])
    tree = Tree(words, heads)
    empty_ids = {}
    for k, (token_id, _) in enumerate(empty):
        node = words + 1 + k
        empty_ids[token_id] = node
        tree.ords[node] = float(token_id)
        tree.empties.append(node)
        tree.origin[node] = node
    for w in range(1, words + 1):
        tree.ords[w] = w
    tree.ords[ROOT] = 0
    nodes = [(w, word_deps[w - 1]) for w in range(1, words + 1)] + [
        (words + 1 + k, raw) for k, (_, raw) in enumerate(empty)]
    for node, raw in nodes:
        tree.deps[node] = []
        if raw == "_":
            tree.blank.add(node)
            continue
        for item in raw.split("|"):
            head, _, relation = item.partition(":")
            parent = _parent_of(head, words, empty_ids)
            if parent is not None:
                tree.deps[node].append((parent, relation))
    return tree


def treelet_top(tree: Tree, nodes: list[int]):
    """The top of the smallest basic subtree holding ``nodes`` as Udapi's
    ``find_minimal_common_treelet`` climbs to it (a node given twice is
    climbed from twice, as there); None for no node."""
    if not nodes:
        return None
    nodes = list(nodes)
    mark = {node: _SURE for node in nodes}
    highest = None
    while len(nodes) > 1:
        node = nodes.pop(0)
        parent = tree.parent(node)
        if parent is None:
            highest = node
        elif parent in mark:
            mark[parent] = _SURE
        else:
            mark[parent] = node
            nodes.append(parent)
    if highest is None:
        highest = nodes[0]
    child = mark[highest]
    while child != _SURE:
        highest = child
        child = mark[highest]
    return highest


def depth(tree: Tree, node: int) -> int:
    value = 0
    while node is not None and node != ROOT:
        node = tree.parent(node)
        value += 1
    return value


def single_parent(tree: Tree) -> None:
    """Keep one enhanced parent per empty node that has several, as
    ``corefud.SingleParent`` does: the top of their treelet if it is one of
    them, else the shallowest; none if all are empty nodes."""
    for node in tree.empties:
        deps = tree.deps[node]
        if len(deps) < 2:
            continue
        plain = [parent for parent, _ in deps if not tree.is_empty(parent)]
        if not plain:
            tree.deps[node] = []
            continue
        top = treelet_top(tree, plain)
        if top not in plain:
            top = sorted(plain, key=lambda p: depth(tree, p))[0]
        tree.deps[node] = [d for d in deps if d[0] == top]


def _sorted_nodes(tree: Tree) -> list[int]:
    """Words then empty nodes, stably sorted by word order (Udapi's
    ``descendants_and_empty``)."""
    return sorted([*range(1, tree.words + 1), *tree.empties], key=tree.ords.__getitem__)


def _moving(tree: Tree):
    """The empty nodes the tools move, in the order they meet them, each
    with the enhanced parent (and relation) it goes after, as it stands
    when they reach it: none with no parent (there the official tools
    fail) or already after its parent."""
    for node in _sorted_nodes(tree):
        if node <= tree.words or not tree.deps[node]:
            continue
        parent, relation = tree.deps[node][0]
        if int(tree.ords[node]) != tree.ords[parent]:
            yield node, parent, relation


def text_order(tree: Tree) -> list[int]:
    """The nodes in the order ``conllu2text`` writes them: each empty node
    moved after its (single) enhanced parent, after the empty nodes already
    there. The tree's word orders are updated."""
    for node, parent, _ in _moving(tree):
        base = tree.ords[parent]
        new = base + 0.1
        for other in tree.empties:
            if int(tree.ords[other]) == base:
                new += 0.1
        tree.ords[node] = new
        tree.empties.sort(key=tree.ords.__getitem__)
    return _sorted_nodes(tree)


def _free_slot(tree: Tree, base) -> float:
    """The order Udapi gives an empty node created after a node of order
    ``base``: ``base + 0.1``, or the next tenth not taken."""
    new = base + 0.1
    for other in tree.empties:
        if tree.ords[other] > new:
            break
        if tree.ords[other] == new:
            new = round(new + 0.1, 1)
    return new


def _remove(tree: Tree, node: int) -> None:
    """Take an empty node out as ``text2conllu`` does: every link to it
    dropped, the empty nodes after it in its slot renumbered down a tenth."""
    for other in [*tree.empties, *range(1, tree.words + 1)]:
        if tree.deps[other]:
            tree.deps[other] = [d for d in tree.deps[other] if d[0] != node]
    at = tree.ords[node]
    for other in tree.empties:
        if at < tree.ords[other] < at + 1:
            tree.ords[other] = round(tree.ords[other] - 0.1, 1)
    tree.empties.remove(node)


def recreated(tree: Tree) -> Tree:
    """The tree ``text2conllu`` scores: each empty node that does not follow
    its enhanced parent recreated after it (its dependencies, form and
    lemma carried over, links from other empty nodes redirected to it) and
    the old one removed. An empty node whose parent is the root goes to the
    start of the sentence (there the official tool fails)."""
    tree = tree.copy()
    for node, parent, relation in _moving(tree):
        new = max(tree.deps) + 1
        if parent == ROOT:
            order = 0.1
            for other in tree.empties:
                if int(tree.ords[other]) == 0:
                    order += 0.1
        else:
            order = _free_slot(tree, tree.ords[parent])
        tree.ords[new] = order
        tree.deps[new] = [(parent, relation)]
        tree.origin[new] = tree.origin[node]
        if tree.empties and order <= tree.ords[tree.empties[-1]]:
            tree.empties.append(new)
            tree.empties.sort(key=tree.ords.__getitem__)
        else:
            tree.empties.append(new)
        for other in tree.empties:
            tree.deps[other] = [(new if p == node else p, r) for p, r in tree.deps[other]]
        tree.deps[new] = tree.deps[node]
        _remove(tree, node)
    return tree


def _enhanced_parents(tree: Tree, node: int) -> list:
    """MoveHead's parents of a node: its enhanced ones, or, where DEPS is
    ``_`` as written, its basic parent."""
    if node in tree.blank:
        parent = tree.parent(node)
        return [] if parent is None else [parent]
    return [p for p, _ in tree.deps[node]]


def find_head(tree: Tree, words: list[int], head: int) -> int:
    """The head ``corefud.MoveHead`` gives a mention of ``words`` (sorted by
    word order) whose head is ``head``: the one word whose parent is
    outside, else by enhanced dependencies, else the top of the treelet of
    the candidates (empty ones through their first non-empty parent), else
    the head it had if it is a candidate, else the first candidate."""
    if len(words) < 2:
        return head
    inside = set(words)
    basic = [w for w in words if tree.parent(w) is None or tree.parent(w) not in inside]
    if len(basic) == 1:
        return basic[0]
    enhanced = [w for w in basic if not any(p in inside for p in _enhanced_parents(tree, w))]
    if not enhanced:
        enhanced = [w for w in basic if not all(p in inside for p in _enhanced_parents(tree, w))]
        if not enhanced:
            return head
    if len(enhanced) == 1:
        return enhanced[0]
    empty = [w for w in enhanced if tree.is_empty(w)]
    plain = [w for w in enhanced if not tree.is_empty(w)]
    if empty:
        for node in empty:
            parents = [p for p, _ in tree.deps[node] if not tree.is_empty(p)]
            if parents and parents[0] not in plain:
                plain.append(parents[0])
        plain.sort(key=tree.ords.__getitem__)
    top = treelet_top(tree, plain)
    if top in enhanced:
        return top
    return head if head in enhanced else enhanced[0]
