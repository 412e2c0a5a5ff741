"""Write the plaintext format of the CRAC 2025 LLM track as ``conllu2text
-s -z`` writes it (``--blind``: ``conllu2text -b -z``, the words alone):
one document a line, the words of each sentence (a multiword token as its
syntactic words, a space in a form written ``_``) with the empty nodes
among them as ``##`` (``##form`` where the node has a form), each empty
node moved after its one enhanced parent as the track's tool moves it, and
the entities renumbered ``e1``, ``e2``... per document in the order they
first appear.

A mention is written as tags on its first and last word: ``[eN`` and
``eN]``, or ``[eN]`` on a one-word mention; a word's tags are sorted and
comma-separated. A mention that is not one run of nodes in that order (a
discontinuous one, or one an empty node moved out of) keeps the run that
holds its head (the head ``corefud.MoveHead`` finds), as the track's tool
keeps it; such mentions are counted as left out, and so are the positions
of the empty nodes moved. The trees and the empty nodes come from the
source's own text (:mod:`..readers.source_text`); a document without it
is written from its words and the empty nodes its annotation has.
"""

from __future__ import annotations

from collections import defaultdict

from . import BRIDGING, DISCONTINUOUS, DISCOURSE_DEIXIS, NON_REFERRING, SPLIT_ANTECEDENTS, TextDocument
from ...model import SENTENCE_STRIDE, position
from ..readers.plaintext import SUFFIXES  # noqa: F401  (the writer is chosen by the reader's file names)
from ..readers.plaintext_document import EMPTY_WORD
from ..readers.source_text import EMPTY_NODES
from ..readers.plaintext_trees import Tree, find_head, sentence_tree, single_parent, text_order

FORMAT = "plaintext"
# The source's text layers it keeps: the empty nodes (as ## words).
HOLDS = frozenset({EMPTY_NODES})
# Where an empty node stood, when the format moves it after its parent:
# zeros still match by their dependencies, but readings by position see it moved.
MOVED = "empty-node positions (moved after their enhanced parent)"


def _blocks(doc: TextDocument) -> list[list[str]]:
    """Each sentence's token lines: the source's own, else its words without
    heads and the empty nodes the document has."""
    if doc.text is not None:
        return [["\t".join(row.cells) for row in sentence.rows] for sentence in doc.text.sentences]
    empties = defaultdict(list)
    for node in doc.document.empty_nodes:
        empties[node.sentence].append(node)
    blocks = []
    for s, forms in enumerate(doc.forms):
        block, minor = [], defaultdict(int)
        for k, form in enumerate(forms, 1):
            block.append(f"{k}\t{form}\t_\t_\t_\t_\t_\t_\t_\t_")
            for node in (e for e in empties[s] if e.word_order == k):
                minor[k] += 1
                first = node.deps.split("|")[0]
                block.append(f"{k}.{minor[k]}\t{node.form}\t_\t_\t_\t_\t_\t_\t{first}\t_")
        blocks.append(block)
    return blocks


def _empty_forms(block: list[str]) -> list[str]:
    """The forms of a sentence's empty nodes, in file order."""
    return [line.split("\t")[1] for line in block if line[0] != "#" and "." in line.split("\t")[0]]


class _Sentence:
    """A sentence as written: its nodes in plaintext order and their words."""

    def __init__(self, index: int, tree: Tree, forms: list[str], empty_forms: list[str]):
        self.index, self.tree = index, tree
        self.node_at = {position(index, tree.ords[n]): n for n in tree.ords if n}
        self.forms = forms
        self.empty_forms = empty_forms
        single_parent(tree)
        before = {node: int(tree.ords[node]) for node in tree.empties}
        self.order = text_order(tree)
        self.rank = {node: k for k, node in enumerate(self.order)}
        self.moved = sum(int(tree.ords[node]) != at for node, at in before.items())

    def word(self, node: int) -> str:
        if node <= self.tree.words:
            return self.forms[node - 1].replace(" ", "_")
        form = self.empty_forms[node - self.tree.words - 1].replace(" ", "_")
        return EMPTY_WORD + (form if form != "_" else "")


def _runs(ranks: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for rank in sorted(ranks):
        if runs and rank == runs[-1][-1] + 1:
            runs[-1].append(rank)
        else:
            runs.append([rank])
    return runs


def _spans(doc: TextDocument, sentences: list[_Sentence], moved: dict, lost) -> list:
    """Each mention as ``(entity index, sentence, first rank, last rank,
    first rank of the mention before reduction)``."""
    spans = []
    for e, entity in enumerate(doc.document.entities):
        lost[SPLIT_ANTECEDENTS] += len(entity.split_antecedents)
        for mention in entity.mentions:
            if not mention.words:
                continue
            sentence = sentences[mention.words[0] // SENTENCE_STRIDE]
            nodes = [sentence.node_at[p] for p in mention.words if p in sentence.node_at]
            if not nodes:
                continue
            ranks = [sentence.rank[n] for n in nodes]
            runs = _runs(ranks)
            if len(runs) > 1:
                lost[DISCONTINUOUS] += 1
                head = moved.get(id(mention), nodes[0])
                runs = [run for run in runs if sentence.rank.get(head) in run] or runs[:1]
            spans.append((e, sentence.index, runs[0][0], runs[0][-1], min(ranks)))
    return spans


def _moved_heads(doc: TextDocument, trees: list[Tree]) -> dict:
    """MoveHead's head of each mention (by id) on the trees as read."""
    heads = {}
    for entity in doc.document.entities:
        for mention in entity.mentions:
            if len(mention.words) < 2:
                continue
            s = mention.words[0] // SENTENCE_STRIDE
            tree = trees[s]
            node_at = {position(s, tree.ords[n]): n for n in tree.ords if n}
            nodes = [node_at[p] for p in mention.words if p in node_at]
            if nodes:
                heads[id(mention)] = find_head(tree, nodes, node_at.get(mention.head, nodes[0]))
    return heads


def document_line(doc: TextDocument, lost, blind: bool = False) -> str:
    """One document as a plaintext line."""
    blocks = _blocks(doc)
    trees = [sentence_tree(block) for block in blocks]
    moved = {} if blind else _moved_heads(doc, trees)
    sentences = [_Sentence(s, tree, doc.forms[s], _empty_forms(block))
                 for s, (tree, block) in enumerate(zip(trees, blocks))]
    tags: dict = defaultdict(list)
    if not blind:
        lost[MOVED] += sum(sentence.moved for sentence in sentences)
        d = doc.document
        for kind, items in ((BRIDGING, d.bridging), (NON_REFERRING, d.non_referring),
                            (DISCOURSE_DEIXIS, d.discourse_deixis)):
            lost[kind] += len(items)
        spans = _spans(doc, sentences, moved, lost)
        number = {}
        for e, s, _, _, _ in sorted(spans, key=lambda span: (span[1], span[4], span[0])):
            number.setdefault(e, f"e{len(number) + 1}")
        for e, s, first, last, _ in spans:
            eid = number[e]
            if first == last:
                tags[s, first].append(f"[{eid}]")
            else:
                tags[s, first].append(f"[{eid}")
                tags[s, last].append(f"{eid}]")
    words = []
    for sentence in sentences:
        for rank, node in enumerate(sentence.order):
            word = sentence.word(node)
            found = tags.get((sentence.index, rank))
            words.append(f"{word}|{','.join(sorted(found))}" if found else word)
    return " ".join(words)


def write(documents, handle, lost, blind: bool = False) -> None:
    for doc in documents:
        handle.write(document_line(doc, lost, blind) + "\n")
