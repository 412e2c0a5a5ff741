#!/usr/bin/env python3
"""Turn a real CorefUD key file into a plausible system response.

The key is loaded with Udapi, its coreference annotation is perturbed with a
seeded random generator, and the result is written back with Udapi (which
serialises coreference into MISC: Entity=, Bridge=, SplitAnte=).  Everything
else (word forms, lemmas, trees, sentence ids, newdoc / newpar lines, multiword
tokens, empty nodes) is left untouched; the script checks afterwards that the
output differs from the key in the MISC column only.

    python tools/perturb.py KEY OUT --seed 1 [--rate-scale 1.0] [--rate NAME=VALUE ...]

Perturbations (each an independent rate, all multiplied by --rate-scale):

  delete      share of key mentions removed
  add         spurious mentions, as a share of the key mentions: random spans within
              one sentence; a share `same_head` of them reuse the head of an existing
              mention with a different span (nested / same-head cases); each joins a new
              singleton entity or (half of the time) an entity of the same document
  shrink      share of multi-word mentions losing their first or last word
  extend      share of mentions gaining the preceding or following word
  head        when shrinking/extending, probability that the head also changes
              (if the old head is dropped it always changes)
  merge       share of entities merged into another entity of the same document
              (one of the 8 entities that start nearest to it)
  split       share of entities with >= 2 mentions split in two
  zero_move   share of mentions headed by an empty node moved to another empty node
              (same sentence if possible, otherwise the same document)
  zero_add    share of empty nodes that receive a spurious zero mention of an entity
              mentioned in the same or the previous sentence
  dup         share of mentions copied, same span and head, into another entity
              (implausible for most systems; 0 by default)
  gap         share of mentions of >= 3 words losing an inner non-head word, i.e.
              made discontinuous (GUM has no discontinuous mention; 0 by default)

`head` and `same_head` are probabilities and are not scaled.

Heads: Udapi takes the first word of a mention as its head when global.Entity has
no `head` field (as in UD GUM).  So that head changes survive, a `head` field is
added to global.Entity of the output (--head-field add, the default; `keep`
leaves the header alone and any head change is then lost on writing).  With
--syntactic-heads every mention's head is first set to its syntactically highest
word (the head field is then added): all rates 0 plus this option turn GUM into
a CorefUD-style key with real heads.  The random stream
depends only on --seed and the rates, so a given command always writes the same
file.  Bridge= / SplitAnte= links are kept consistent (links to deleted entities
and links that would point to their own entity after a merge are dropped).
"""

import argparse
import logging
import random
import sys

RATES = {
    "delete": 0.08,
    "add": 0.08,
    "shrink": 0.05,
    "extend": 0.05,
    "merge": 0.03,
    "split": 0.05,
    "zero_move": 0.5,
    "zero_add": 0.25,
    "dup": 0.0,
    "gap": 0.0,
}
PROBS = {
    "head": 0.3,
    "same_head": 0.5,
}


class Perturber:
    def __init__(self, doc, rng, rates, probs):
        self.doc = doc
        self.rng = rng
        self.rates = rates
        self.probs = probs
        self.counts = {k: 0 for k in ("deleted", "added", "added_same_head", "shrunk", "extended",
                                      "head_changed", "merged", "split", "zero_moved", "zero_added",
                                      "duplicated", "gapped", "skipped_conflict", "entities_removed",
                                      "syntactic_head")}
        doc.coref_entities  # Udapi loads coreference (and the tree -> docid map) lazily
        self.tree2docid = doc.meta.get("_tree2docid") or {}
        if not self.tree2docid:
            # no GRP: documents are told apart by newdoc only
            docid, n = None, 0
            for t in (t for b in doc.bundles for t in b.trees):
                if t.newdoc or docid is None:
                    n += 1
                    docid = "doc%d" % n
                self.tree2docid[t] = docid
            self.grp = False
        else:
            self.grp = True
        self.trees = [tree for bundle in doc.bundles for tree in bundle.trees]
        self.tree_index = {id(t): i for i, t in enumerate(self.trees)}
        self.new_eid_counter = 0

    # ------------------------------------------------------------------ helpers
    def docid(self, node):
        return self.tree2docid.get(node.root, "")

    def depth(self, node):
        d = 0
        while node.parent is not None and not node.parent.is_root():
            node = node.parent
            d += 1
            if d > 1000:
                break
        return d

    def syntactic_head(self, words):
        regular = [w for w in words if not w.is_empty()]
        cands = regular or list(words)
        return min(cands, key=lambda w: (self.depth(w) if not w.is_empty() else 10 ** 6, w.ord))

    @staticmethod
    def contiguous_words(root, first, last):
        """All nodes (regular and empty) of `root` from `first` to `last` inclusive."""
        out = []
        inside = False
        for n in root.descendants_and_empty:
            if n is first:
                inside = True
            if inside:
                out.append(n)
            if n is last:
                break
        return out

    @staticmethod
    def is_continuous(mention):
        return "," not in mention.span

    @staticmethod
    def is_zero(mention):
        return mention.head.is_empty()

    @staticmethod
    def crosses(a, b):
        """Two word lists (same sentence) overlap without one containing the other."""
        sa, sb = set(a), set(b)
        inter = sa & sb
        return bool(inter) and not (sa <= sb or sb <= sa)

    def conflicts(self, entity, words, ignore=None, span_unique=True):
        """Would a mention with these words clash with a mention of `entity`?
        Same span twice, or crossing spans, in one entity cannot be serialised
        unambiguously in the bracket notation.  With span_unique (all but the
        `dup` perturbation) the same span in any other entity is refused too."""
        if span_unique and self.span_taken(words, ignore):
            return True
        root = words[0].root
        wset = set(words)
        for m in entity.mentions:
            if m is ignore:
                continue
            if m.words[0].root is not root:
                continue
            if set(m.words) == wset or self.crosses(m.words, words):
                return True
        return False

    @staticmethod
    def span_taken(words, ignore=None):
        wset = set(words)
        return any(m is not ignore and set(m.words) == wset for m in words[0]._mentions)

    def new_entity(self, like_node, etype=None):
        docid = self.docid(like_node) if self.grp else ""
        while True:
            self.new_eid_counter += 1
            eid = "%sp%d" % (docid, self.new_eid_counter)
            if eid not in self.doc._eid_to_entity:
                break
        return self.doc.create_coref_entity(eid=eid, etype=etype)

    def entities_of_doc(self):
        by_doc = {}
        for e in self.doc.coref_entities:
            if e.mentions:
                by_doc.setdefault(self.docid(e.mentions[0].head), []).append(e)
        return by_doc

    def remove_entity(self, entity):
        self.doc._eid_to_entity.pop(entity.eid, None)
        self.counts["entities_removed"] += 1
        for e in self.doc.coref_entities:
            if entity in e.split_ante:
                e.split_ante = [x for x in e.split_ante if x is not entity]
        for m in self.doc.coref_mentions:
            if m._bridging:
                m._bridging._data = [l for l in m._bridging._data if l.target is not entity]

    def retarget_links(self, old, new):
        """After merging `old` into `new`: point links to `new`, drop self-links."""
        for e in self.doc.coref_entities:
            if e.split_ante:
                sa = []
                for x in e.split_ante:
                    x = new if x is old else x
                    if x is not e and x not in sa:
                        sa.append(x)
                e.split_ante = sa if len(sa) >= 2 else []
        for m in self.doc.coref_mentions:
            if m._bridging:
                data, seen = [], set()
                for l in m._bridging._data:
                    if l.target is old:
                        l.target = new
                    key = (id(l.target), l.relation)
                    if l.target is m.entity or key in seen:
                        continue
                    seen.add(key)
                    data.append(l)
                m._bridging._data = data

    def clean_links(self):
        """Final consistency pass over Bridge / SplitAnte links."""
        live = set(id(e) for e in self.doc.coref_entities if e.mentions)
        for e in self.doc.coref_entities:
            if e.split_ante:
                sa = [x for x in e.split_ante if id(x) in live and x is not e]
                e.split_ante = sa if len(sa) >= 2 else []
        for m in self.doc.coref_mentions:
            if m._bridging:
                m._bridging._data = [l for l in m._bridging._data
                                     if id(l.target) in live and l.target is not m.entity]

    def drop_mention(self, m):
        entity = m.entity
        m.remove()
        if not entity.mentions:
            self.remove_entity(entity)

    # ------------------------------------------------------------ perturbations
    def delete(self):
        rate = self.rates["delete"]
        for m in list(self.doc.coref_mentions):
            if self.rng.random() < rate:
                self.drop_mention(m)
                self.counts["deleted"] += 1

    def shrink_extend(self):
        for m in list(self.doc.coref_mentions):
            if self.is_zero(m) or not self.is_continuous(m):
                continue
            r = self.rng.random()
            if r < self.rates["shrink"]:
                self._shrink(m)
            elif r < self.rates["shrink"] + self.rates["extend"]:
                self._extend(m)

    def _shrink(self, m):
        regular = [w for w in m.words if not w.is_empty()]
        if len(regular) < 2:
            return
        drop_first = self.rng.random() < 0.5
        keep = regular[1:] if drop_first else regular[:-1]
        new_words = self.contiguous_words(keep[0].root, keep[0], keep[-1])
        if self.conflicts(m.entity, new_words, ignore=m):
            self.counts["skipped_conflict"] += 1
            return
        new_head = m.head
        if m.head not in new_words:
            new_head = self.syntactic_head(new_words)
        elif self.rng.random() < self.probs["head"]:
            new_head = self.rng.choice([w for w in new_words if not w.is_empty()])
        if new_head is not m.head:
            self.counts["head_changed"] += 1
        m.head = new_head          # new_head is inside the old words
        m.words = new_words
        self.counts["shrunk"] += 1

    def _extend(self, m):
        words = m.words
        root = words[0].root
        sent = root.descendants
        first = next(w for w in words if not w.is_empty())
        last = [w for w in words if not w.is_empty()][-1]
        i, j = sent.index(first), sent.index(last)
        options = []
        if i > 0:
            options.append(("left", sent[i - 1]))
        if j + 1 < len(sent):
            options.append(("right", sent[j + 1]))
        if not options:
            return
        side, extra = self.rng.choice(options)
        if side == "left":
            new_words = self.contiguous_words(root, extra, words[-1])
        else:
            new_words = self.contiguous_words(root, words[0], extra)
        if self.conflicts(m.entity, new_words, ignore=m):
            self.counts["skipped_conflict"] += 1
            return
        m.words = new_words
        if self.rng.random() < self.probs["head"]:
            new_head = extra if self.rng.random() < 0.5 else self.syntactic_head(new_words)
            if new_head is not m.head:
                m.head = new_head
                self.counts["head_changed"] += 1
        self.counts["extended"] += 1

    def merge(self):
        for doc_entities in self.entities_of_doc().values():
            if len(doc_entities) < 2:
                continue
            for e in list(doc_entities):
                if not e.mentions or self.rng.random() >= self.rates["merge"]:
                    continue
                live = [x for x in doc_entities if x is not e and x.mentions]
                if not live:
                    continue
                start = self._pos(e.mentions[0])
                live.sort(key=lambda x: abs(self._pos(x.mentions[0]) - start))
                target = self.rng.choice(live[:8])
                if any(self.conflicts(target, m.words, span_unique=False) for m in e.mentions):
                    self.counts["skipped_conflict"] += 1
                    continue
                for m in list(e.mentions):
                    e._mentions.remove(m)
                    m._entity = target
                    target._mentions.append(m)
                target._mentions.sort()
                self.doc._eid_to_entity.pop(e.eid, None)
                self.retarget_links(e, target)
                self.counts["merged"] += 1

    def _pos(self, m):
        w = m.words[0]
        return self.tree_index[id(w.root)] * 10000 + float(w.ord)

    def split(self):
        for e in list(self.doc.coref_entities):
            if len(e.mentions) < 2 or self.rng.random() >= self.rates["split"]:
                continue
            ms = list(e.mentions)
            if self.rng.random() < 0.5:
                cut = self.rng.randint(1, len(ms) - 1)
                moved = ms[cut:]
            else:
                moved = [m for m in ms if self.rng.random() < 0.5]
                if not moved or len(moved) == len(ms):
                    moved = [self.rng.choice(ms)]
            new = self.new_entity(moved[0].head, e.etype)
            for m in moved:
                e._mentions.remove(m)
                m._entity = new
                new._mentions.append(m)
                if m._bridging:
                    m._bridging._data = [l for l in m._bridging._data if l.target is not new]
            new._mentions.sort()
            self.counts["split"] += 1

    def add(self):
        doc_entities = self.entities_of_doc()
        mentions = [m for m in self.doc.coref_mentions if not self.is_zero(m)]
        n = int(round(self.rates["add"] * len(mentions)))
        # sentences weighted by length
        sents = [t for t in self.trees if t.descendants]
        for _ in range(n):
            if mentions and self.rng.random() < self.probs["same_head"]:
                self._add_same_head(self.rng.choice(mentions), doc_entities)
            else:
                self._add_random(self.rng.choice(sents), doc_entities)

    def _random_length(self):
        r = self.rng.random()
        if r < 0.4:
            return 1
        if r < 0.6:
            return 2
        if r < 0.75:
            return 3
        if r < 0.85:
            return 4
        return self.rng.randint(5, 10)

    def _attach(self, words, head, doc_entities, avoid=None, span_unique=True):
        """Attach a new mention to an entity of the same document or a new one.
        Returns None (and adds nothing) if the span is already a mention."""
        if span_unique and self.span_taken(words):
            self.counts["skipped_conflict"] += 1
            return None
        docid = self.docid(head)
        cands = [e for e in doc_entities.get(docid, []) if e.mentions and e is not avoid
                 and e.eid in self.doc._eid_to_entity]
        entity = None
        if cands and self.rng.random() < 0.5:
            # prefer entities mentioned nearby (within 3 sentences)
            ti = self.tree_index[id(head.root)]
            near = [e for e in cands
                    if any(abs(self.tree_index[id(m.words[0].root)] - ti) <= 3 for m in e.mentions)]
            entity = self.rng.choice(near or cands)
            if self.conflicts(entity, words, span_unique=span_unique):
                entity = None
        if entity is None:
            entity = self.new_entity(head)
            doc_entities.setdefault(docid, []).append(entity)
        entity.create_mention(head=head, words=words)
        return entity

    def _add_random(self, tree, doc_entities):
        sent = tree.descendants
        length = min(self._random_length(), len(sent))
        i = self.rng.randint(0, len(sent) - length)
        words = self.contiguous_words(tree, sent[i], sent[i + length - 1])
        head = self.syntactic_head(words) if self.rng.random() < 0.8 else self.rng.choice(sent[i:i + length])
        if self._attach(words, head, doc_entities):
            self.counts["added"] += 1

    def _add_same_head(self, m, doc_entities):
        if m.entity is None or not m.words:
            return
        root = m.head.root
        sent = root.descendants
        if m.head not in sent:
            return
        h = sent.index(m.head)
        regular = [w for w in m.words if not w.is_empty()]
        lo, hi = sent.index(regular[0]), sent.index(regular[-1])
        for _ in range(10):
            if self.rng.random() < 0.5 and hi > lo:
                # nested: a sub-span of the mention that still contains the head
                a = self.rng.randint(lo, h)
                b = self.rng.randint(h, hi)
            else:
                # extended: reach beyond the mention on one or both sides
                a = max(0, lo - self.rng.randint(0, 3))
                b = min(len(sent) - 1, hi + self.rng.randint(0, 3))
                if self.rng.random() < 0.3:
                    a = self.rng.randint(a, h)
            words = self.contiguous_words(root, sent[a], sent[b])
            if set(words) != set(m.words):
                break
        else:
            return
        if self._attach(words, m.head, doc_entities):
            self.counts["added"] += 1
            self.counts["added_same_head"] += 1

    def dup(self):
        doc_entities = self.entities_of_doc()
        for m in list(self.doc.coref_mentions):
            if self.rng.random() >= self.rates["dup"]:
                continue
            if self._attach(list(m.words), m.head, doc_entities, avoid=m.entity, span_unique=False):
                self.counts["duplicated"] += 1

    def gap(self):
        if not self.rates["gap"]:
            return  # (added last: at rate 0 it leaves the random stream of older outputs alone)
        for m in list(self.doc.coref_mentions):
            if self.is_zero(m) or not self.is_continuous(m) or self.rng.random() >= self.rates["gap"]:
                continue
            regular = [w for w in m.words if not w.is_empty()]
            inner = [w for w in regular[1:-1] if w is not m.head]
            if not inner:
                continue
            drop = self.rng.choice(inner)
            new_words = [w for w in m.words if w is not drop]
            if self.conflicts(m.entity, new_words, ignore=m):
                self.counts["skipped_conflict"] += 1
                continue
            m.words = new_words
            self.counts["gapped"] += 1

    def _empties_by_tree(self):
        return {id(t): list(t.empty_nodes) for t in self.trees}

    def zero_move(self):
        empties = self._empties_by_tree()
        for m in list(self.doc.coref_mentions):
            if not self.is_zero(m) or self.rng.random() >= self.rates["zero_move"]:
                continue
            root = m.head.root
            cands = [n for n in empties[id(root)] if n is not m.head]
            if not cands:
                docid = self.docid(m.head)
                cands = [n for t in self.trees if self.tree2docid.get(t, "") == docid
                         for n in empties[id(t)] if n is not m.head]
            self.rng.shuffle(cands)
            target = next((n for n in cands if not self.conflicts(m.entity, [n])), None)
            if target is None:
                continue
            entity = m.entity
            bridging = m._bridging
            m.remove()
            new = entity.create_mention(head=target, words=[target])
            if bridging:
                bridging.src_mention = new
                new._bridging = bridging
            self.counts["zero_moved"] += 1

    def zero_add(self):
        for t in self.trees:
            for node in t.empty_nodes:
                if self.rng.random() >= self.rates["zero_add"]:
                    continue
                ti = self.tree_index[id(t)]
                near = [m.entity for m in self.doc.coref_mentions
                        if 0 <= ti - self.tree_index[id(m.words[0].root)] <= 1
                        and self.docid(m.head) == self.docid(node)]
                near = [e for e in dict.fromkeys(near) if not self.conflicts(e, [node])]
                if not near:
                    continue
                self.rng.choice(near).create_mention(head=node, words=[node])
                self.counts["zero_added"] += 1

    def set_syntactic_heads(self):
        for m in self.doc.coref_mentions:
            if not self.is_continuous(m):
                continue
            h = self.syntactic_head(m.words)
            if h is not m.head:
                m.head = h
                self.counts["syntactic_head"] += 1

    def run(self, syntactic_heads=False):
        self.doc.coref_entities  # load
        if syntactic_heads:
            self.set_syntactic_heads()
        self.delete()
        self.shrink_extend()
        self.merge()
        self.split()
        self.add()
        self.dup()
        self.gap()
        self.zero_move()
        self.zero_add()
        self.clean_links()
        return self.counts


def add_head_field(doc):
    """Insert `head` into global.Entity (after GRP/eid and etype) if missing."""
    ge = doc.meta.get("global.Entity") or "eid-etype-head-other"
    fields = ge.split("-")
    if "head" in fields:
        return False
    pos = 0
    for i, f in enumerate(fields):
        if f in ("eid", "GRP", "etype", "entity"):
            pos = i + 1
    fields.insert(pos, "head")
    doc.meta["global.Entity"] = "-".join(fields)
    return True


def misc_free_lines(path):
    """Lines of a CoNLL-U file with the MISC column of node lines blanked
    (and the global.Entity header, which may gain a head field, dropped)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# global.Entity"):
                continue
            if line and not line.startswith("#"):
                cols = line.split("\t")
                if len(cols) == 10:
                    cols[9] = ""
                line = "\t".join(cols)
            out.append(line)
    while out and out[-1] == "":
        out.pop()
    return out


def check_same_text(key, out):
    """The output must differ from the key in the MISC column only."""
    a, b = misc_free_lines(key), misc_free_lines(out)
    if a == b:
        return None
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return "line %d differs outside MISC:\n  key: %s\n  out: %s" % (i + 1, x, y)
    return "different number of lines (%d vs %d)" % (len(a), len(b))


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("key")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rate-scale", type=float, default=1.0, help="multiplies every rate (default 1.0)")
    ap.add_argument("--rate", action="append", default=[], metavar="NAME=VALUE",
                    help="set one rate or probability (not scaled): %s" % ", ".join(list(RATES) + list(PROBS)))
    ap.add_argument("--head-field", choices=("add", "keep"), default="add",
                    help="add a head field to global.Entity if missing (default) or keep the header")
    ap.add_argument("--syntactic-heads", action="store_true",
                    help="first set every mention head to its syntactically highest word")
    ap.add_argument("-q", "--quiet", action="store_true")
    return ap.parse_args(argv)


def main(argv=None):
    a = parse_args(argv)
    rates = {k: min(1.0, v * a.rate_scale) for k, v in RATES.items()}
    probs = dict(PROBS)
    for item in a.rate:  # explicit values are not scaled
        name, _, value = item.partition("=")
        if name in rates:
            rates[name] = float(value)
        elif name in probs:
            probs[name] = float(value)
        else:
            print("unknown rate %r" % name, file=sys.stderr)
            return 2

    logging.basicConfig(level=logging.ERROR)
    from udapi.core.document import Document
    doc = Document(a.key)
    rng = random.Random("perturb:%d" % a.seed)
    counts = Perturber(doc, rng, rates, probs).run(syntactic_heads=a.syntactic_heads)
    if a.head_field == "add" or a.syntactic_heads:
        add_head_field(doc)
    doc.store_conllu(a.out)
    problem = check_same_text(a.key, a.out)
    if not a.quiet:
        print("%s: %s" % (a.out, ", ".join("%s %d" % kv for kv in counts.items() if kv[1])), file=sys.stderr)
    if problem:
        print("error: output differs from the key outside MISC: " + problem, file=sys.stderr)
        return 1
    # reload to be sure Udapi itself accepts what it wrote
    check = Document(a.out)
    n = sum(len(e.mentions) for e in check.coref_entities)
    if not a.quiet:
        print("%s: reloaded, %d entities, %d mentions" % (a.out, len(check.coref_entities), n),
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
