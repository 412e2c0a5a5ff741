#!/usr/bin/env python3
"""Deterministic generator of aligned key/response CorefUD 1.x CoNLL-U file pairs.

The key is a random but well-formed CorefUD 1.x document collection (valid basic
trees, enhanced DEPS on every node, multiword tokens, empty nodes carrying zero
mentions, nested / discontinuous / zero-headed mentions, singletons, entities of
2-10 mentions, SplitAnte= and Bridge= links).  The response is derived from the
key by injecting controlled errors (boundary errors, missed and spurious
mentions, head changes, entity merges and splits, moved / renumbered / missing /
spurious zeros, altered DEPS of zeros) and by renaming all entity ids.  With
``reuse_ids`` / ``shared_spans`` / ``cross_links`` > 0, ids recur across the
documents of a file, spans stand in two entities (key and response) and
Bridge= / SplitAnte= links name entities of earlier documents.  With
``ties`` > 0 some constructions are added on purpose so that the tie-breaking of
the mention matchers is exercised (several mentions sharing a head with the
same overlap, several zeros of one sentence with identical DEPS, identical
spans in different entities).

Only ``random.Random`` from the standard library is used, so a given seed and
set of options always produces byte-identical files.

Library use::

    from generate import generate_pair, write_pair
    key, response = generate_pair(1, docs=3, tokens_per_doc=300)
    write_pair("K.conllu", "R.conllu", 1, docs=3, tokens_per_doc=300, ties=0.2)

Command line::

    python bench/generate.py --seed 1 --docs 3 --tokens 300 \
        --out-key K.conllu --out-response R.conllu [--density 0.25] [--zeros 0.03] ...
"""

import argparse
import contextlib
import gc
import random
import sys
import time

__all__ = ["generate_pair", "write_pair", "DEFAULTS", "main"]

# --------------------------------------------------------------------------
# parameters
# --------------------------------------------------------------------------

DEFAULTS = {
    # key structure
    "density": 0.25,          # non-zero mentions per token
    "zeros": 0.03,            # empty nodes per token
    "zero_mention": 0.80,     # share of empty nodes that are single-node zero mentions
    "zero_headed": 0.08,      # share of empty nodes heading a multi-node mention
    "discontinuous": 0.06,    # share of multi-word mentions made discontinuous
    "singletons": 0.45,       # share of newly opened entities that stay singletons
    "mwt": 0.02,              # multiword tokens per word
    "extra_deps": 0.05,       # words with an additional enhanced parent
    "bridge": 0.02,           # mentions carrying a Bridge= link
    "split_ante": 0.01,       # mentions carrying a SplitAnte= link
    "ties": 0.0,              # rate of deliberate ties (0 = none)
    "zeros_without_deps": 0.0,  # share of empty nodes with DEPS "_" (crashes the reference)
    # ids recurring across documents (as AnCora's NOCOREF:Gen); 0 = every id names one entity
    "reuse_ids": 0.0,         # share of a later document's new entities named with an earlier id
    "shared_spans": 0.0,      # share of mentions whose span is also put into another entity
    "cross_links": 0.0,       # share of Bridge=/SplitAnte= links naming an earlier document's id
    # response errors
    "missed": 0.08,           # key mention dropped
    "spurious": 0.08,         # extra response mentions (relative to the key mentions)
    "boundary": 0.10,         # span extended/shrunk by one word
    "head_change": 0.05,      # head moved to another word of the span
    "merge": 0.05,            # response entity merged with another one
    "split": 0.05,            # response entity split in two
    "zero_missed": 0.08,      # empty node dropped from the response
    "zero_spurious": 0.08,    # extra empty node (with a zero mention) per key empty node
    "zero_move": 0.10,        # empty node moved to a random position of its sentence
    "zero_shift": 0.10,       # empty node shifted by one word (5.1 -> 6.1 / 4.1)
    "zero_deps": 0.15,        # DEPS of an empty node altered
}

ERROR_KEYS = ("missed", "spurious", "boundary", "head_change", "merge", "split",
              "zero_missed", "zero_spurious", "zero_move", "zero_shift", "zero_deps")

MIN_SENT, MAX_SENT = 5, 40
MAX_EMPTIES_AFTER = 4

ETYPES = ("person", "object", "place", "event", "abstract", "organization",
          "time", "substance", "animal", "plan", "")
UPOS = ("NOUN", "VERB", "ADJ", "ADV", "PRON", "DET", "ADP", "PROPN", "NUM",
        "AUX", "CCONJ", "SCONJ", "PART")
FEATS = ("_", "_", "_", "Number=Sing", "Number=Plur", "Case=Nom|Number=Sing",
         "Gender=Fem|Number=Sing", "Mood=Ind|Tense=Past|VerbForm=Fin")
DEPRELS = ("nsubj", "obj", "obl", "amod", "det", "nmod", "advmod", "case", "conj",
           "cc", "mark", "aux", "compound", "acl", "advcl", "xcomp", "ccomp", "iobj",
           "nummod", "appos", "flat", "cop", "nsubj:pass", "obl:arg", "nmod:poss")
EXTRA_RELS = ("nsubj:xsubj", "conj", "ref", "nsubj", "obj", "obl")
ZERO_RELS = ("nsubj", "obj", "iobj", "obl", "nsubj:pass", "nmod", "obl:arg",
             "nsubj:xsubj", "advcl")
EMPTY_FORMS = ("#PersPron", "#Gen", "#Cor", "#QCor", "#Rcp", "#Oblfm", "pro",
               "∅", "Ø", "#Neg", "αυτός", "он")
OTHER_VALUES = ("infstat:new", "gstype:spec,infstat:giv", "identity:x", "minspan:1")
BRIDGE_RELS = ("", "", ":part", ":subset", ":funct", ":other")


def _build_vocabulary():
    """A fixed vocabulary (independent of the seed) of short words, some non-ASCII."""
    vr = random.Random(20240510)
    cons = "bcdfghjklmnprstvzčřšžďťň"
    vows = "aeiouyáéíóúůě"
    greek_c = "βγδζθκλμνξπρστφχψ"
    greek_v = "αεηιουωάέήίόύώ"
    words = []
    seen = set()
    while len(words) < 3000:
        r = vr.random()
        if r < 0.12:
            c, v = greek_c, greek_v
        else:
            c, v = cons, vows
        nsyl = 1 + int(vr.random() * 3)
        w = "".join(vr.choice(c) + vr.choice(v) for _ in range(nsyl))
        if vr.random() < 0.3:
            w += vr.choice(c)
        if vr.random() < 0.1:
            w = w[0].upper() + w[1:]
        if w not in seen:
            seen.add(w)
            words.append(w)
    return tuple(words)


VOCAB = _build_vocabulary()


# --------------------------------------------------------------------------
# data model
# --------------------------------------------------------------------------

class Empty:
    """An empty node.  ``after`` = index of the preceding word (0 = sentence start),
    ``sub`` = order key among the empty nodes sharing ``after``,
    ``deps`` = list of (parent word index, deprel) or None for DEPS ``_``."""
    __slots__ = ("after", "sub", "form", "deps")

    def __init__(self, after, sub, form, deps):
        self.after = after
        self.sub = sub
        self.form = form
        self.deps = deps

    def clone(self):
        return Empty(self.after, self.sub, self.form,
                     None if self.deps is None else list(self.deps))

    @property
    def pos(self):
        return self.after + 0.5


class Sentence:
    __slots__ = ("sid", "n", "static", "basic", "extra", "space_no", "mwt",
                 "mwt_inner", "text", "empties")


class Entity:
    __slots__ = ("etype", "mentions", "target", "last_s", "max_hi", "eid", "aidx")

    def __init__(self, etype, target=1):
        self.etype = etype
        self.mentions = []
        self.target = target
        self.last_s = -1
        self.max_hi = -1.0
        self.eid = None
        self.aidx = -1


class Mention:
    """W = sorted tuple of regular word indices (may be empty for a zero mention),
    head = int (regular word, member of W) or Empty.  Empty nodes lying inside a
    run of consecutive words of W belong to the mention implicitly."""
    __slots__ = ("s", "W", "head", "ent")

    def __init__(self, s, W, head, ent=None):
        self.s = s
        self.W = W
        self.head = head
        self.ent = ent

    @property
    def lo(self):
        if type(self.head) is Empty:
            p = self.head.after + 0.5
            return min(p, self.W[0]) if self.W else p
        return self.W[0]

    @property
    def hi(self):
        if type(self.head) is Empty:
            p = self.head.after + 0.5
            return max(p, self.W[-1]) if self.W else p
        return self.W[-1]

    def key(self):
        """Identifies the set of nodes (not the head): an empty head lying inside a
        run of W is covered by W anyway."""
        h = self.head
        if type(h) is Empty:
            W = self.W
            a = h.after
            if not (W and a in W and a + 1 in W):
                return (self.s, W, id(h))
        return (self.s, self.W, 0)

    def is_zero(self):
        return type(self.head) is Empty


# --------------------------------------------------------------------------
# key generation
# --------------------------------------------------------------------------

def _sentence_lengths(rng, total):
    lens = []
    left = total
    while left > 0:
        if left <= MAX_SENT:
            n = max(MIN_SENT, left)
        else:
            n = rng.randint(MIN_SENT, MAX_SENT)
            if left - n < MIN_SENT:
                n = left - MIN_SENT if left - MIN_SENT >= MIN_SENT else left
                n = min(n, MAX_SENT)
        lens.append(n)
        left -= n
    return lens


def _make_sentence(rng, sid, n, p):
    """Word level of a sentence: forms, basic tree, DEPS, MWTs, empty nodes."""
    vocab = VOCAB
    nv = len(vocab)
    rnd = rng.random
    s = Sentence()
    s.sid = sid
    s.n = n
    forms = [None] * (n + 1)
    for i in range(1, n):
        forms[i] = vocab[int(rnd() * nv)]
    forms[n] = "."
    # basic tree over words 1..n-1, final punctuation attached to the root
    order = list(range(1, n))
    rng.shuffle(order)
    heads = [0] * (n + 1)
    rels = [None] * (n + 1)
    root = order[0]
    rels[root] = "root"
    attached = [root]
    ndr = len(DEPRELS)
    for w in order[1:]:
        heads[w] = attached[int(rnd() * len(attached))]
        rels[w] = DEPRELS[int(rnd() * ndr)]
        attached.append(w)
    heads[n] = root
    rels[n] = "punct"
    static = [None] * (n + 1)
    basic = [None] * (n + 1)
    nu, nf = len(UPOS), len(FEATS)
    for i in range(1, n):
        f = forms[i]
        static[i] = "%s\t%s\t%s\t_\t%s\t%d\t%s" % (
            f, f.lower(), UPOS[int(rnd() * nu)], FEATS[int(rnd() * nf)], heads[i], rels[i])
        basic[i] = "%d:%s" % (heads[i], rels[i])
    static[n] = ".\t.\tPUNCT\t_\t_\t%d\tpunct" % root
    basic[n] = "%d:punct" % root
    s.static = static
    s.basic = basic
    # multiword tokens (never over the final punctuation)
    mwt = {}
    inner = set()
    if n >= 4 and p["mwt"] > 0:
        for a in range(1, n - 1):
            if rnd() < p["mwt"] and a not in inner and a - 1 not in mwt and a + 1 <= n - 1:
                mwt[a] = a + 1
                inner.add(a)
    s.mwt = mwt
    s.mwt_inner = inner            # positions a such that words a, a+1 form one token
    space_no = {n - 1}             # token before the final "." has SpaceAfter=No
    s.space_no = space_no
    # text
    toks = []
    i = 1
    while i <= n:
        if i in mwt:
            tok = forms[i] + forms[i + 1]
            last = i + 1
        else:
            tok = forms[i]
            last = i
        toks.append(tok)
        if last not in space_no and last != n:
            toks.append(" ")
        i = last + 1
    s.text = "".join(toks)
    s.extra = None
    # empty nodes
    empties = []
    k = 0
    zr = p["zeros"]
    for _ in range(n):
        if rnd() < zr:
            k += 1
    count_after = {}
    for _ in range(k):
        for _try in range(5):
            a = rng.randint(0, n - 1)
            if a in inner or count_after.get(a, 0) >= 3:
                continue
            break
        else:
            continue
        count_after[a] = count_after.get(a, 0) + 1
        empties.append(Empty(a, rnd(), EMPTY_FORMS[int(rnd() * len(EMPTY_FORMS))],
                             _random_zero_deps(rng, n)))
    if p["ties"] > 0 and empties and rnd() < p["ties"] * 2:
        # a second zero with identical DEPS, often right next to the first one
        z0 = empties[int(rnd() * len(empties))]
        a = z0.after if rnd() < 0.6 else rng.randint(0, n - 1)
        if a not in inner and count_after.get(a, 0) < 3:
            count_after[a] = count_after.get(a, 0) + 1
            empties.append(Empty(a, rnd(), z0.form, None if z0.deps is None else list(z0.deps)))
    zwd = p["zeros_without_deps"]
    if zwd > 0:
        for z in empties:
            if rnd() < zwd:
                z.deps = None
    s.empties = empties
    # extra enhanced parents of regular words (may point to an empty node)
    ed = p["extra_deps"]
    if ed > 0:
        extra = None
        for i in range(1, n):
            if rnd() < ed:
                if empties and rnd() < 0.3:
                    par = empties[int(rnd() * len(empties))]
                else:
                    par = rng.randint(1, n - 1)
                    if par == i or par == heads[i]:
                        continue
                if extra is None:
                    extra = {}
                extra[i] = (par, EXTRA_RELS[int(rnd() * len(EXTRA_RELS))])
        s.extra = extra
    return s


def _random_zero_deps(rng, n):
    k = 1 if rng.random() < 0.7 else 2
    pars = set()
    deps = []
    for _ in range(k):
        par = rng.randint(1, n - 1)
        if par in pars:
            continue
        pars.add(par)
        deps.append((par, ZERO_RELS[int(rng.random() * len(ZERO_RELS))]))
    return deps


def _random_span(rng, n, h, max_len=None):
    r = rng.random()
    if r < 0.45:
        L = 1
    elif r < 0.65:
        L = 2
    else:
        L = 3 + int(rng.expovariate(0.35))
    if max_len:
        L = min(L, max_len)
    L = min(L, n - 1)
    s = max(1, h - rng.randint(0, L - 1))
    e = min(n - 1, s + L - 1)
    s = max(1, e - L + 1)
    return s, e


def _make_gap(rng, W, h):
    """Remove an interior gap (not containing the head) from the contiguous tuple W."""
    s, e = W[0], W[-1]
    for _ in range(4):
        g = rng.randint(s + 1, e - 1)
        gl = 1 if rng.random() < 0.7 else 2
        ge = min(g + gl - 1, e - 1)
        if g <= h <= ge:
            continue
        return tuple(w for w in W if not (g <= w <= ge))
    return W


def _sentence_mentions(rng, si, sent, p):
    """Generate the key mentions (without entities) of one sentence."""
    n = sent.n
    rnd = rng.random
    out = []
    used = set()
    heads = set()
    spans = []
    dens = p["density"]
    target = 0
    for _ in range(n - 1):
        if rnd() < dens:
            target += 1
    attempts = 0
    while len(out) < target and attempts < 4 * target + 4:
        attempts += 1
        h = rng.randint(1, n - 1)
        if h in heads and rnd() < 0.85:
            continue
        s, e = _random_span(rng, n, h)
        crossing = False
        for lo, hi in spans:
            if (lo < s <= hi < e) or (s < lo <= e < hi):
                crossing = True
                break
        if crossing and rnd() < 0.9:
            continue
        W = tuple(range(s, e + 1))
        if len(W) >= 3 and rnd() < p["discontinuous"]:
            W = _make_gap(rng, W, h)
            if len(W) >= 5 and rnd() < 0.25:
                W = _make_gap(rng, W, h)
        if (W, 0) in used:
            continue
        used.add((W, 0))
        heads.add(h)
        spans.append((s, e))
        out.append(Mention(si, W, h))
    # ties: two key mentions sharing a head, [h-1, h] and [h, h+1]
    if p["ties"] > 0 and n >= 5 and rnd() < p["ties"]:
        h = rng.randint(2, n - 2)
        for W in ((h - 1, h), (h, h + 1)):
            if (W, 0) not in used:
                used.add((W, 0))
                out.append(Mention(si, W, h))
    # zero mentions
    zm, zh = p["zero_mention"], p["zero_headed"]
    for z in sent.empties:
        r = rnd()
        if r < zm:
            out.append(Mention(si, (), z))
        elif r < zm + zh:
            a = z.after
            cand = []
            if a >= 1:
                cand.append((a,))
            if a + 1 <= n - 1:
                cand.append((a + 1,))
            if a >= 1 and a + 1 <= n - 1:
                cand.append((a, a + 1))
            W = cand[int(rnd() * len(cand))]
            m = Mention(si, W, z)
            k = m.key()[1:]
            if k in used:
                continue
            used.add(k)
            out.append(m)
    return out


def _assign_entities(rng, mentions, p, entities):
    """Group mentions (sorted in document order) into entities."""
    rnd = rng.random
    active = []
    netypes = len(ETYPES)
    sing = p["singletons"]
    for m in mentions:
        join = None
        # join an existing entity; the probability grows with the number of open
        # entities so that their number stays bounded in long documents
        pj = 0.8 if m.is_zero() else 0.55 + min(0.4, len(active) / 60.0)
        if active and rnd() < pj:
            lo = m.lo
            for _ in range(3):
                idx = int(rnd() * len(active))
                e = active[idx]
                if e.last_s == m.s and lo <= e.max_hi:
                    continue
                join = e
                break
        if join is None:
            if rnd() < sing:
                target = 1
            else:
                target = min(10, 2 + int(rng.expovariate(0.45)))
            join = Entity(ETYPES[int(rnd() * netypes)], target)
            entities.append(join)
            if target > 1:
                join.aidx = len(active)
                active.append(join)
        join.mentions.append(m)
        m.ent = join
        hi = m.hi
        if join.last_s != m.s:
            join.last_s = m.s
            join.max_hi = hi
        elif hi > join.max_hi:
            join.max_hi = hi
        if len(join.mentions) >= join.target and join.target > 1:
            # swap-remove from the active list
            i = join.aidx
            last = active.pop()
            if last is not join:
                active[i] = last
                last.aidx = i
            join.aidx = -1


# --------------------------------------------------------------------------
# response derivation
# --------------------------------------------------------------------------

def _derive_response(rng, sents, key_mentions, p):
    """Return (response empties per sentence, response mentions, response entities)."""
    rnd = rng.random
    # --- empty nodes
    emap = {}
    resp_empties = []
    for si, sent in enumerate(sents):
        n = sent.n
        inner = sent.mwt_inner
        lst = []
        for z in sent.empties:
            if rnd() < p["zero_missed"]:
                emap[id(z)] = None
                continue
            c = z.clone()
            emap[id(z)] = c
            lst.append(c)
        # at most MAX_EMPTIES_AFTER empty nodes behind one word (udapi keeps their
        # ords as floats, so 5.10 would clash with 5.1)
        count = {}
        for c in lst:
            count[c.after] = count.get(c.after, 0) + 1
        for c in lst:
            r = rnd()
            a = None
            if r < p["zero_move"]:
                for _ in range(4):
                    x = rng.randint(0, n - 1)
                    if x != c.after and x not in inner and count.get(x, 0) < MAX_EMPTIES_AFTER:
                        a = x
                        c.sub = rnd()
                        break
            elif r < p["zero_move"] + p["zero_shift"]:
                x = c.after + (1 if rnd() < 0.6 else -1)
                if 0 <= x <= n - 1 and x not in inner and count.get(x, 0) < MAX_EMPTIES_AFTER:
                    a = x
            if a is not None:
                count[c.after] -= 1
                count[a] = count.get(a, 0) + 1
                c.after = a
            if rnd() < p["zero_deps"]:
                _alter_deps(rng, c, n)
        resp_empties.append(lst)

    # --- mentions copied with errors
    ent_map = {}
    resp_entities = []
    resp_mentions = []
    for m in key_mentions:
        ke = m.ent
        re_ = ent_map.get(id(ke))
        if re_ is None:
            re_ = Entity(ke.etype)
            ent_map[id(ke)] = re_
            resp_entities.append(re_)
        if rnd() < p["missed"]:
            continue
        W, head = m.W, m.head
        if type(head) is Empty:
            head = emap[id(head)]
            if head is None:
                continue
        else:
            n = sents[m.s].n
            if rnd() < p["boundary"]:
                W, head = _boundary_error(rng, W, head, n)
            if len(W) > 1 and rnd() < p["head_change"]:
                others = [w for w in W if w != head]
                head = others[int(rnd() * len(others))]
        rm = Mention(m.s, W, head, re_)
        re_.mentions.append(rm)
        resp_mentions.append(rm)

    netypes = len(ETYPES)
    # --- spurious regular mentions
    nspur = sum(1 for _ in key_mentions if rnd() < p["spurious"])
    for _ in range(nspur):
        si = int(rnd() * len(sents))
        n = sents[si].n
        h = rng.randint(1, n - 1)
        s, e = _random_span(rng, n, h)
        _attach_new_mention(rng, Mention(si, tuple(range(s, e + 1)), h),
                            resp_entities, resp_mentions)
    # --- spurious zeros (new empty nodes)
    nkz = sum(len(s.empties) for s in sents)
    nzs = sum(1 for _ in range(nkz) if rnd() < p["zero_spurious"])
    if p["resp_ties"] > 0:
        nzs += sum(1 for _ in range(nkz) if rnd() < p["resp_ties"])
    for _ in range(nzs):
        si = int(rnd() * len(sents))
        sent = sents[si]
        n = sent.n
        a = rng.randint(0, n - 1)
        if a in sent.mwt_inner or sum(1 for z in resp_empties[si] if z.after == a) >= 3:
            continue
        if p["resp_ties"] > 0 and resp_empties[si] and rnd() < 0.5:
            z0 = resp_empties[si][int(rnd() * len(resp_empties[si]))]
            deps = None if z0.deps is None else list(z0.deps)
        else:
            deps = _random_zero_deps(rng, n)
            if p["zeros_without_deps"] > 0 and rnd() < p["zeros_without_deps"]:
                deps = None
        z = Empty(a, rnd(), EMPTY_FORMS[int(rnd() * len(EMPTY_FORMS))], deps)
        resp_empties[si].append(z)
        if rnd() < 0.9:
            _attach_new_mention(rng, Mention(si, (), z), resp_entities, resp_mentions)

    # --- ties: several response mentions sharing a head with equal overlap
    if p["resp_ties"] > 0:
        for m in key_mentions:
            if type(m.head) is Empty or len(m.W) < 3 or rnd() >= p["resp_ties"]:
                continue
            h = m.head
            W = m.W
            n = sents[m.s].n
            if W[0] < h < W[-1]:
                cands = [(h - 1, h), (h, h + 1)]          # subsets, overlap 2/|K|
            elif h == W[0] and h > 1:
                cands = [(h - 1, h), (h, h + 1)]          # same overlap for head match
            elif h == W[-1] and h < n - 1:
                cands = [(h - 1, h), (h, h + 1)]
            else:
                continue
            for Wc in cands:
                if Wc[0] < 1 or Wc[-1] > n - 1:
                    continue
                _attach_new_mention(rng, Mention(m.s, Wc, h), resp_entities, resp_mentions)

    # --- splits
    for e in list(resp_entities):
        if len(e.mentions) >= 2 and rnd() < p["split"]:
            ms = e.mentions
            if rnd() < 0.5:
                cut = rng.randint(1, len(ms) - 1)
                keep, move = ms[:cut], ms[cut:]
            else:
                keep, move = [], []
                for m in ms:
                    (move if rnd() < 0.5 else keep).append(m)
                if not keep or not move:
                    continue
            e.mentions = keep
            ne = Entity(e.etype)
            ne.mentions = move
            for m in move:
                m.ent = ne
            resp_entities.append(ne)
    # --- merges
    live = [e for e in resp_entities if e.mentions]
    if len(live) >= 2:
        for e in live:
            if e.mentions and rnd() < p["merge"]:
                o = live[int(rnd() * len(live))]
                if o is e or not o.mentions:
                    continue
                for m in o.mentions:
                    m.ent = e
                e.mentions.extend(o.mentions)
                o.mentions = []

    # --- validation: unique spans, no overlapping mentions within an entity
    allow_dup = p["resp_ties"] > 0
    seen = {}
    final = []
    resp_mentions.sort(key=lambda m: (m.s, m.lo, -m.hi))
    for m in resp_mentions:
        k = m.key()
        prev = seen.get(k)
        if prev is not None:
            if prev.ent is m.ent or not allow_dup or rnd() < 0.5:
                continue
        if type(m.head) is not Empty and m.head not in m.W:
            continue
        seen[k] = m
        final.append(m)
    for e in resp_entities:
        e.mentions = []
    extra_entities = []
    for m in final:
        e = m.ent
        if e.last_s == m.s and m.lo <= e.max_hi:
            # overlaps another mention of its entity: make it a singleton of its own
            ne = Entity(e.etype)
            ne.last_s, ne.max_hi = m.s, m.hi
            ne.mentions.append(m)
            m.ent = ne
            extra_entities.append(ne)
            continue
        e.mentions.append(m)
        if e.last_s != m.s:
            e.last_s, e.max_hi = m.s, m.hi
        elif m.hi > e.max_hi:
            e.max_hi = m.hi
    resp_entities = [e for e in resp_entities + extra_entities if e.mentions]
    for e in resp_entities:
        e.etype = e.etype if e.etype is not None else ETYPES[int(rnd() * netypes)]
    return resp_empties, final, resp_entities, emap


def _attach_new_mention(rng, m, resp_entities, resp_mentions):
    if resp_entities and rng.random() < 0.5:
        e = resp_entities[int(rng.random() * len(resp_entities))]
    else:
        e = Entity(ETYPES[int(rng.random() * len(ETYPES))])
        resp_entities.append(e)
    m.ent = e
    e.mentions.append(m)
    resp_mentions.append(m)


def _alter_deps(rng, z, n):
    if z.deps is None:
        return
    deps = z.deps
    r = rng.random()
    if r < 0.4 or not deps:
        i = int(rng.random() * len(deps))
        par, rel = deps[i]
        deps[i] = (par, ZERO_RELS[int(rng.random() * len(ZERO_RELS))])
    elif r < 0.7:
        i = int(rng.random() * len(deps))
        par = rng.randint(1, n - 1)
        if all(par != q for q, _ in deps):
            deps[i] = (par, deps[i][1])
    elif r < 0.85 or len(deps) == 1:
        par = rng.randint(1, n - 1)
        if all(par != q for q, _ in deps):
            deps.append((par, ZERO_RELS[int(rng.random() * len(ZERO_RELS))]))
    else:
        del deps[int(rng.random() * len(deps))]


def _boundary_error(rng, W, head, n):
    ops = []
    if W[0] > 1:
        ops.append(0)
    if W[-1] < n - 1:
        ops.append(1)
    if len(W) >= 2:
        ops.append(2)
        ops.append(3)
    if not ops:
        return W, head
    op = ops[int(rng.random() * len(ops))]
    if op == 0:
        W = (W[0] - 1,) + W
    elif op == 1:
        W = W + (W[-1] + 1,)
    elif op == 2:
        W = W[1:]
    else:
        W = W[:-1]
    if head not in W:
        head = W[0] if op == 2 else W[-1]
    elif len(W) > 1 and rng.random() < 0.3:
        head = W[int(rng.random() * len(W))]
    return W, head


# --------------------------------------------------------------------------
# rendering
# --------------------------------------------------------------------------

def _render_doc(rng, doc_id, sents, empties_per_sent, mentions, p, out, first_in_file, emap=None,
                foreign=()):
    """Append the CoNLL-U lines of one document to ``out``; ``foreign``: ids of
    earlier documents that links may name (with ``cross_links``)."""
    rnd = rng.random
    # mentions per sentence in document order (needed for Bridge / SplitAnte)
    by_sent = [[] for _ in sents]
    for m in mentions:
        by_sent[m.s].append(m)
    seen_entities = []
    seen_ids = set()
    for si, sent in enumerate(sents):
        n = sent.n
        # slot order
        emps = sorted(empties_per_sent[si], key=lambda z: (z.after, z.sub))
        groups = {}
        for z in emps:
            groups.setdefault(z.after, []).append(z)
        eid_str = {}
        epos = {}
        for a, lst in groups.items():
            for r, z in enumerate(lst, 1):
                eid_str[id(z)] = "%d.%d" % (a, r)
                epos[id(z)] = a + r / 100.0
        # per-slot chunks, keyed by position (float: word i -> i, empty -> a + r/100)
        opens = {}
        closes = {}
        singles = {}
        bridge = {}
        split = {}
        sent_ms = by_sent[si]
        sent_ms.sort(key=lambda m: (m.lo, -m.hi))
        for m in sent_ms:
            W = m.W
            head = m.head
            nodes = []
            if W:
                prev = None
                for w in W:
                    if prev is not None and w == prev + 1 and prev in groups:
                        nodes.extend(epos[id(z)] for z in groups[prev])
                    nodes.append(w)
                    prev = w
            if type(head) is Empty:
                hp = epos[id(head)]
                if hp not in nodes:
                    nodes.append(hp)
                    nodes.sort()
            else:
                hp = head
            hidx = nodes.index(hp) + 1
            # split into subspans of adjacent slots
            runs = []
            start = nodes[0]
            prev = nodes[0]
            for x in nodes[1:]:
                if not _adjacent(prev, x, groups):
                    runs.append((start, prev))
                    start = x
                prev = x
            runs.append((start, prev))
            eid = m.ent.eid
            etype = m.ent.etype
            K = len(runs)
            for k, (a, b) in enumerate(runs, 1):
                label = eid if K == 1 else "%s[%d/%d]" % (eid, k, K)
                opening = "(%s-%s-%d" % (label, etype, hidx)
                r = rnd()
                if r < 0.01:
                    opening += "-" + OTHER_VALUES[int(rnd() * len(OTHER_VALUES))]
                elif r < 0.15:
                    opening += "-"                     # empty "other" field spelled out
                if a == b:
                    singles.setdefault(a, []).append(opening + ")")
                else:
                    opens.setdefault(a, []).append((b, opening))
                    closes.setdefault(b, []).append((a, label + ")"))
            # bridging / split antecedents on the first node of the mention
            ent = m.ent
            first = nodes[0]
            ns = len(seen_entities)
            if ns and rnd() < p["bridge"]:
                trg = seen_entities[int(rnd() * ns)]
                if trg is not ent:
                    rel = BRIDGE_RELS[int(rnd() * len(BRIDGE_RELS))]
                    trg_eid = _foreign(rng, p, foreign, ent.eid) or trg.eid
                    bridge.setdefault(first, []).append("%s<%s%s" % (trg_eid, ent.eid, rel))
            if ns >= 2 and rnd() < p["split_ante"]:
                a1 = seen_entities[int(rnd() * ns)]
                a2 = seen_entities[int(rnd() * ns)]
                if a1 is not a2 and a1 is not ent and a2 is not ent:
                    e1 = _foreign(rng, p, foreign, ent.eid) or a1.eid
                    e2 = a2.eid if e1 != a2.eid else a1.eid
                    split.setdefault(first, []).append("%s<%s,%s<%s" % (e1, ent.eid, e2, ent.eid))
            if id(ent) not in seen_ids:
                seen_ids.add(id(ent))
                seen_entities.append(ent)

        def misc_of(pos, space_after_no):
            parts = []
            if pos in bridge:
                parts.append("Bridge=" + ",".join(bridge[pos]))
            ent = None
            o = opens.get(pos)
            c = closes.get(pos)
            sg = singles.get(pos)
            if o or c or sg:
                chunks = []
                if c:
                    c.sort(key=lambda t: -t[0])        # inner mentions close first
                    cl = [t[1] for t in c]
                else:
                    cl = []
                if o:
                    o.sort(key=lambda t: -t[0])        # longer mentions open first
                    chunks = cl + [t[1] for t in o] + (sg or [])
                else:
                    chunks = (sg or []) + cl
                ent = "".join(chunks)
                parts.append("Entity=" + ent)
            if space_after_no:
                parts.append("SpaceAfter=No")
            if pos in split:
                parts.append("SplitAnte=" + ",".join(split[pos]))
            return "|".join(parts) if parts else "_"

        if si == 0:
            out.append("# newdoc id = %s" % doc_id)
            if first_in_file:
                out.append("# global.Entity = eid-etype-head-other")
        out.append("# sent_id = %s" % sent.sid)
        out.append("# text = %s" % sent.text)

        def empty_line(z):
            if z.deps is None:
                deps = "_"
            else:
                deps = "|".join("%d:%s" % d for d in sorted(z.deps))
            return "%s\t%s\t%s\tPRON\t_\t_\t_\t_\t%s\t%s" % (
                eid_str[id(z)], z.form, z.form, deps, misc_of(epos[id(z)], False))

        if 0 in groups:
            for z in groups[0]:
                out.append(empty_line(z))
        mwt = sent.mwt
        space_no = sent.space_no
        static = sent.static
        basic = sent.basic
        extra = sent.extra
        in_mwt = False
        for i in range(1, n + 1):
            if i in mwt:
                j = mwt[i]
                out.append("%d-%d\t%s\t_\t_\t_\t_\t_\t_\t_\t%s" % (
                    i, j, _mwt_form(sent, i), "SpaceAfter=No" if j in space_no else "_"))
                in_mwt = True
            if extra is not None and i in extra:
                par, rel = extra[i]
                if type(par) is Empty and emap is not None:
                    par = emap.get(id(par))
                if par is None:
                    ps = None
                elif type(par) is Empty:
                    ps = eid_str.get(id(par))
                    pnum = epos.get(id(par))
                else:
                    ps = str(par)
                    pnum = par
                hd = basic[i]
                if ps is None:
                    deps = hd
                else:
                    h = int(hd.split(":", 1)[0])
                    items = sorted([(h, hd), (pnum, "%s:%s" % (ps, rel))])
                    deps = "|".join(t[1] for t in items)
            else:
                deps = basic[i]
            sa = (i in space_no) and not in_mwt
            out.append("%d\t%s\t%s\t%s" % (i, static[i], deps, misc_of(i, sa)))
            if in_mwt and i not in mwt:
                in_mwt = False
            if i in groups:
                for z in groups[i]:
                    out.append(empty_line(z))
        out.append("")


def _foreign(rng, p, foreign, own):
    """An id of an earlier document for a link (with ``cross_links``), or None."""
    if p["cross_links"] > 0 and foreign and rng.random() < p["cross_links"]:
        eid = foreign[int(rng.random() * len(foreign))]
        return eid if eid != own else None
    return None


def _share_spans(rng, mentions, entities, rate):
    """Put the span of some mentions into a second entity too (as a response
    may, or an annotation with a span in two entities); never overlapping
    another mention of that entity."""
    live = [e for e in entities if e.mentions]
    if len(live) < 2:
        return
    added = []
    for m in mentions:
        if rng.random() >= rate:
            continue
        e = live[int(rng.random() * len(live))]
        if e is m.ent or any(x.s == m.s and x.lo <= m.hi and m.lo <= x.hi for x in e.mentions):
            continue
        copy = Mention(m.s, m.W, m.head, e)
        e.mentions.append(copy)
        added.append(copy)
    mentions.extend(added)


def _name(rng, p, d, pool, used, fresh):
    """An entity id: with ``reuse_ids``, in a later document, sometimes one of
    an earlier document's (``pool``) not yet used in this one; else ``fresh()``."""
    if p["reuse_ids"] > 0 and d > 1 and pool and rng.random() < p["reuse_ids"]:
        eid = pool[int(rng.random() * len(pool))]
        if eid not in used:
            used.add(eid)
            return eid
    eid = fresh()
    used.add(eid)
    return eid


def _mwt_form(sent, i):
    f1 = sent.static[i].split("\t", 1)[0]
    f2 = sent.static[i + 1].split("\t", 1)[0]
    return f1 + f2


def _adjacent(x, y, groups):
    """Are slot positions x < y adjacent in the sentence's linear order?"""
    xi = int(x)
    if x == xi:                       # x is a word
        g = groups.get(xi)
        if g:
            return y == xi + 1 / 100.0
        return y == xi + 1
    # x is an empty node a.r
    a = int(x)
    r = round((x - a) * 100)
    g = groups[a]
    if r < len(g):
        return abs(y - (a + (r + 1) / 100.0)) < 1e-9
    return y == a + 1


# --------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------

def _params(kwargs):
    p = dict(DEFAULTS)
    scale = kwargs.pop("error_scale", 1.0)
    perfect = kwargs.pop("perfect", False)
    for k, v in kwargs.items():
        if k not in p:
            raise TypeError("unknown generator option: %s" % k)
        p[k] = float(v)
    for k in ERROR_KEYS:
        p[k] = 0.0 if perfect else min(1.0, p[k] * scale)
    # ties created in the response (the key's ties are kept by --perfect)
    p["resp_ties"] = 0.0 if perfect else p["ties"]
    return p


def _iter_docs(rng_or_seed, docs, tokens_per_doc, options):
    """Yield (key text, response text) for each document in turn."""
    rng = rng_or_seed if isinstance(rng_or_seed, random.Random) else random.Random(rng_or_seed)
    p = _params(dict(options))
    key_counter = 0
    used_resp_ids = set()
    key_pool, resp_pool = [], []  # ids of earlier documents (with reuse_ids / cross_links)
    for d in range(1, docs + 1):
        doc_id = "doc%d" % d
        sents = []
        for j, n in enumerate(_sentence_lengths(rng, tokens_per_doc), 1):
            sents.append(_make_sentence(rng, "%s-s%d" % (doc_id, j), n, p))
        mentions = []
        for si, sent in enumerate(sents):
            mentions.extend(_sentence_mentions(rng, si, sent, p))
        mentions.sort(key=lambda m: (m.s, m.lo, -m.hi))
        entities = []
        _assign_entities(rng, mentions, p, entities)
        if p["shared_spans"] > 0:
            _share_spans(rng, mentions, entities, p["shared_spans"])
        # key ids in order of first mention, unique in the file (unless reused)
        key_used = set()

        def fresh_key():
            nonlocal key_counter
            key_counter += 1
            return "e%d" % key_counter

        for m in mentions:
            if m.ent.eid is None:
                m.ent.eid = _name(rng, p, d, key_pool, key_used, fresh_key)
        r_empties, r_mentions, r_entities, emap = _derive_response(rng, sents, mentions, p)
        if p["shared_spans"] > 0:
            _share_spans(rng, r_mentions, r_entities, p["shared_spans"])
        # response ids: random numbers, unique in the file (unless reused)
        r_mentions.sort(key=lambda m: (m.s, m.lo, -m.hi))
        span = max(1000, 20 * len(r_entities))
        resp_used = set()

        def fresh_response():
            while True:
                num = rng.randint(1, span + len(used_resp_ids) * 2)
                if num not in used_resp_ids:
                    break
            used_resp_ids.add(num)
            return "e%d" % num

        for m in r_mentions:
            e = m.ent
            if e.eid is None:
                e.eid = _name(rng, p, d, resp_pool, resp_used, fresh_response)
        key_out = []
        resp_out = []
        _render_doc(rng, doc_id, sents, [s.empties for s in sents], mentions, p,
                    key_out, d == 1, foreign=key_pool)
        _render_doc(rng, doc_id, sents, r_empties, r_mentions, p, resp_out, d == 1, emap,
                    foreign=resp_pool)
        if p["reuse_ids"] > 0 or p["cross_links"] > 0:
            key_pool.extend(sorted(key_used - set(key_pool)))
            resp_pool.extend(sorted(resp_used - set(resp_pool)))
        yield "\n".join(key_out) + "\n", "\n".join(resp_out) + "\n"


@contextlib.contextmanager
def _no_cyclic_gc():
    """The cyclic garbage collector only slows the generation down (mentions and
    entities refer to each other); collect once per call instead."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
            gc.collect()


def generate_pair(rng_or_seed, *, docs=3, tokens_per_doc=300, **options):
    """Generate an aligned (key, response) pair of CorefUD 1.x CoNLL-U strings.

    ``rng_or_seed`` is a ``random.Random`` instance or a seed.  Keyword options
    (see ``DEFAULTS``): density, zeros, ties, zeros_without_deps, discontinuous,
    singletons, mwt, extra_deps, bridge, split_ante, zero_mention, zero_headed,
    missed, spurious, boundary, head_change, merge, split, zero_missed,
    zero_spurious, zero_move, zero_shift, zero_deps, plus error_scale (multiplies
    every response error rate) and perfect (no response errors: the response only
    renames the entity ids; the key's own ties are kept).
    """
    keys, resps = [], []
    with _no_cyclic_gc():
        for k, r in _iter_docs(rng_or_seed, docs, tokens_per_doc, options):
            keys.append(k)
            resps.append(r)
    return "".join(keys), "".join(resps)


def write_pair(key_path, response_path, rng_or_seed, *, docs=3, tokens_per_doc=300, **options):
    """Generate a pair (see ``generate_pair``) and write it to the two paths (UTF-8),
    one document at a time.  Returns the number of words per file."""
    with open(key_path, "w", encoding="utf-8", newline="\n") as fk, \
            open(response_path, "w", encoding="utf-8", newline="\n") as fr:
        with _no_cyclic_gc():
            for k, r in _iter_docs(rng_or_seed, docs, tokens_per_doc, options):
                fk.write(k)
                fr.write(r)
                gc.collect()
    return docs * tokens_per_doc


# --------------------------------------------------------------------------
# command line
# --------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Generate an aligned key/response pair of CorefUD 1.x CoNLL-U files.")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--docs", type=int, default=3, help="number of documents (default 3)")
    ap.add_argument("--tokens", type=int, default=300, help="words per document (default 300)")
    ap.add_argument("--out-key", required=True, help="key file to write")
    ap.add_argument("--out-response", required=True, help="response file to write")
    ap.add_argument("--ties", type=float, nargs="?", const=0.15, default=0.0,
                    help="create deliberate matching ties (optional rate, default 0.15 when given)")
    ap.add_argument("--zeros-without-deps", type=float, nargs="?", const=0.3, default=0.0,
                    help="give some empty nodes DEPS '_' (optional share, default 0.3 when given); "
                         "the official scorer crashes on them with -z dependent")
    ap.add_argument("--error-scale", type=float, default=1.0,
                    help="multiply every response error rate (default 1.0)")
    ap.add_argument("--perfect", action="store_true",
                    help="response = key with renamed entity ids (no errors)")
    ap.add_argument("--quiet", action="store_true", help="no summary on stderr")
    for k, v in DEFAULTS.items():
        if k in ("ties", "zeros_without_deps"):
            continue
        ap.add_argument("--" + k.replace("_", "-"), type=float, default=v,
                        help="default %g" % v)
    a = ap.parse_args(argv)
    opts = {k: getattr(a, k) for k in DEFAULTS}
    t0 = time.time()
    write_pair(a.out_key, a.out_response, a.seed, docs=a.docs, tokens_per_doc=a.tokens,
               error_scale=a.error_scale, perfect=a.perfect, **opts)
    if not a.quiet:
        print("wrote %s and %s: %d docs x %d words in %.2fs" % (
            a.out_key, a.out_response, a.docs, a.tokens, time.time() - t0), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
