"""One plaintext document read against its key document: its words aligned
with the key's (:mod:`.plaintext_align`), its tags turned into mentions
(:mod:`.plaintext_tags`), and the document to score built on the key's
trees as the track's ``text2conllu`` builds it (:mod:`.plaintext_trees`):
the key's words and empty nodes at the positions it gives them, each
mention's head as ``corefud.MoveHead`` finds it.

The key's words are compared as ``conllu2text`` writes them (a space in a
form written ``_``). ``##`` words are set aside, as ``clean`` sets them
aside, and paired in order with the key's empty nodes that stand between
the same two matched words.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ...model import Document, EmptyNode, Entity, Mention, Sentence, SourceDocument, position
from .corefud_sentence import sentence_blocks
from .file_entities import SHARED_WITH_EARLIER, in_file_order, shared_with_earlier
from .plaintext_align import align
from .plaintext_tags import REPAIRS, sentence_mentions, split_token
from .plaintext_trees import find_head, recreated, sentence_tree, single_parent, text_order

EMPTY_WORD = "##"
# The kind of the warning that lists what reading a response repaired.
REPAIRED = "plaintext read as the track's clean reads it, repaired"


def plaintext_order(block: list[str]):
    """A sentence's tree (enhanced parents reduced to one) and its nodes in
    plaintext order (for a sentence with empty nodes: without, its words
    keep their order)."""
    tree = sentence_tree(block)
    single_parent(tree)
    return tree, text_order(tree.copy())


@dataclass
class PlaintextDocument(SourceDocument):
    """A response document: the key document's sentences and trees, and the
    response's mentions as ``(entity, sentence, first, last)`` over each
    sentence's nodes in plaintext order."""

    lines: list = field(default_factory=list)  # the key document's (CoNLL-U)
    with_empty_nodes: frozenset = frozenset()  # the sentences that have some
    mentions: list = field(default_factory=list)
    repairs: Counter = field(default_factory=Counter)
    key_empty_nodes: list = field(default_factory=list)
    earlier_entities: dict = field(default_factory=dict)
    # Whether the written response gives heads (the key's global.Entity has
    # a head field): MoveHead's; else Udapi takes each mention's first word.
    heads: bool = True

    def load(self, problems=None) -> Document:
        by_sentence = defaultdict(list)
        for mention in self.mentions:
            by_sentence[mention[1]].append(mention)
        empty_nodes, mentions = [], defaultdict(list)
        blocks = sentence_blocks(self.lines) if self.lines else [[] for _ in self.sentences]
        for s, block in enumerate(blocks):
            if s not in self.with_empty_nodes:
                for entity, _, first, last in by_sentence[s]:
                    mentions[entity].append(self._word_mention(s, first, last, block))
                continue
            sentence = _ScoredSentence(s, block, self.key_empty_nodes, self.heads)
            empty_nodes += sentence.empty_nodes()
            for entity, _, first, last in by_sentence[s]:
                mentions[entity].append(sentence.mention(first, last, self.first_line))
        entities = [Entity(eid, sorted(found, key=_mention_key)) for eid, found in mentions.items()]
        entities.sort(key=lambda e: (_mention_key(e.mentions[0]), e.eid))
        entities = in_file_order(entities, self.earlier_entities)
        warnings: list = []
        if self.repairs:
            warnings.append((REPAIRED, f"document {self.doc_id!r} (line {self.first_line})", self.repairs))
        for span, eids in shared_with_earlier(entities, self.earlier_entities):
            warnings.append((SHARED_WITH_EARLIER, f"line {self.first_line}, in {' and '.join(eids)}"))
        return Document(self.doc_id, entities, len(self.sentences), self.tokens, self.first_line, warnings,
                        empty_nodes=empty_nodes)


    def _word_mention(self, s: int, first: int, last: int, block: list[str]) -> Mention:
        """A mention of a sentence without empty nodes, whose words keep
        their places: only its head needs the tree."""
        words = list(range(first + 1, last + 2))
        head = words[0]
        if self.heads and len(words) > 1:
            head = find_head(sentence_tree(block), words, head)
        return Mention(tuple(position(s, w) for w in words), position(s, head), False, (), self.first_line)


def _mention_key(mention: Mention) -> tuple:
    """Udapi's order of mentions: first word, the longer first, last word."""
    return (mention.words[0], -len(mention.words), mention.words[-1])


class _ScoredSentence:
    """A key sentence as ``text2conllu`` leaves it: its empty nodes moved
    after their parents (:func:`recreated`), where each plaintext node now
    stands, and the mentions over it."""

    def __init__(self, index: int, block: list[str], key_empty_nodes: list[EmptyNode], heads: bool):
        self.index, self.heads = index, heads
        key_tree, self.order = plaintext_order(block)
        self.tree = recreated(key_tree)
        self.node_of = {w: w for w in range(1, self.tree.words + 1)}
        self.node_of.update({self.tree.origin[e]: e for e in self.tree.empties})
        self.key_empty = [node for node in key_empty_nodes if node.sentence == index]

    def position(self, node: int) -> int:
        return position(self.index, self.tree.ords[node])

    def mention(self, first: int, last: int, line: int | None) -> Mention:
        nodes = sorted((self.node_of[n] for n in self.order[first:last + 1] if n in self.node_of),
                       key=self.tree.ords.__getitem__)
        head = find_head(self.tree, nodes, self.node_of[self.order[first]]) if self.heads else nodes[0]
        zero = self.tree.is_empty(head)
        deps = _written_deps(self.tree, head) if zero else ()
        return Mention(tuple(self.position(n) for n in nodes), self.position(head), zero,
                       tuple((round(ord_ * 1000), relation) for ord_, relation in deps), line)

    def empty_nodes(self) -> list[EmptyNode]:
        """The empty nodes as the written response has them: those left in
        place as the key has them, those moved with the key's form and
        lemma only; the dependencies left to each."""
        out = []
        for node in self.tree.empties:
            key = self.key_empty[self.tree.origin[node] - self.tree.words - 1]
            deps = "|".join(f"{ord_}:{relation}" for ord_, relation in _written_deps(self.tree, node)) or "_"
            kept = (key.upos, key.xpos, key.feats) if self.tree.origin[node] == node else ("_", "_", "_")
            out.append(EmptyNode(self.index, int(self.tree.ords[node]), key.form, key.lemma, *kept, deps))
        return out


def _written_deps(tree, node: int) -> list:
    """A node's enhanced dependencies as Udapi writes them: (parent's word
    order, relation), sorted, each once."""
    return sorted({(tree.ords[parent], relation) for parent, relation in tree.deps[node]})


def read_against(key_doc, tokens: list[str], path: str, lineno: int, header: str | None) -> PlaintextDocument:
    """The response document of one plaintext line against its key document
    (a :class:`~.corefud.CorefUDDocument`) in a file whose ``global.Entity``
    is ``header``."""
    counts: Counter = Counter()
    with_empty_nodes = frozenset(node.sentence for node in key_doc.empty_nodes)
    blocks = sentence_blocks(key_doc.lines) if with_empty_nodes else []
    key_words, word_at, empties_at = [], [], defaultdict(list)
    for s, sentence in enumerate(key_doc.sentences):
        forms = sentence.forms
        if s not in with_empty_nodes:
            key_words += [form.replace(" ", "_") for form in forms]
            word_at += [(s, k) for k in range(len(forms))]
            continue
        for k, node in enumerate(plaintext_order(blocks[s])[1]):
            if node <= len(forms):
                key_words.append(forms[node - 1].replace(" ", "_"))
                word_at.append((s, k))
            else:
                empties_at[len(key_words)].append((s, k))
    words, tags, hashes = [], [], []
    for token in tokens:
        word, token_tags = split_token(token, counts) if "|" in token else (token, ())
        if word.startswith(EMPTY_WORD):
            hashes.append((len(words), token_tags))
        else:
            words.append(word)
            tags.append(token_tags)
    alignment = align(words, key_words)
    counts.update(alignment.counts)
    node_tags: dict = defaultdict(dict)  # sentence -> {node in plaintext order: its tags}
    used = set()
    for j, i in enumerate(alignment.matched):
        if i is not None and tags[i]:
            s, k = word_at[j]
            node_tags[s][k] = tags[i]
            used.add(i)
    counts["tags lost"] += sum(len(t) for i, t in enumerate(tags) if t and i not in used)
    _pair_empty_nodes(hashes, alignment.matched, len(words), empties_at, node_tags, counts)
    mentions = [(entity, s, first, last) for s in sorted(node_tags)
                for entity, first, last in sentence_mentions(sorted(node_tags[s].items()), counts)]
    sentences = [Sentence(lineno, s.sent_id, s.newdoc, s.forms, [lineno] * len(s.forms))
                 for s in key_doc.sentences]
    heads = header is None or "head" in header.split("-")
    # The key's trees go with the document where its loading reads them.
    trees = with_empty_nodes or (heads and any(first != last for _, _, first, last in mentions))
    return PlaintextDocument(path, key_doc.index, key_doc.doc_id, key_doc.newdoc, sentences, "document",
                             lines=key_doc.lines if trees else [], with_empty_nodes=with_empty_nodes,
                             mentions=mentions,
                             repairs=Counter({name: counts[kind] for kind, name in REPAIRS.items() if counts[kind]}),
                             key_empty_nodes=key_doc.empty_nodes,
                             heads=heads)


def _pair_empty_nodes(hashes, matched: list, words: int, empties_at, node_tags, counts: Counter) -> None:
    """Give the key's empty nodes the tags of the response's ``##`` words
    that stand between the same two matched words, in order; the rest
    counted. ``hashes``: each ``##`` word's tags with the number of
    response words before it; ``empties_at``: the key's empty nodes by the
    number of key words before them."""
    anchors = [(-1, -1)] + [(i, j) for j, i in enumerate(matched) if i is not None] + [(words, len(matched))]
    bounds = [i for i, _ in anchors]
    given: dict[int, list] = defaultdict(list)
    for before, token_tags in hashes:
        given[bisect_left(bounds, before)].append(token_tags)
    nodes: dict[int, list] = defaultdict(list)
    key_bounds = [j for _, j in anchors]
    for gap in sorted(empties_at):
        nodes[bisect_left(key_bounds, gap)].extend(empties_at[gap])
    for segment in set(given) | set(nodes):
        tags, places = given.get(segment, []), nodes.get(segment, [])
        for token_tags, (s, k) in zip(tags, places):
            if token_tags:
                node_tags[s][k] = token_tags
        for token_tags in tags[len(places):]:
            counts["empty nodes extra"] += 1
            counts["tags lost"] += len(token_tags)
        counts["empty nodes missing"] += max(0, len(places) - len(tags))
