"""Generated CorefUD files for the empty-node evaluation: a key with empty
nodes, and responses with the errors a predictor of empty nodes makes.

Each response changes about half of the key's empty nodes in one way
(``KINDS``), or in a mix of them (``mixed``): missing, spurious, moved to
another word order position, another head, relation, FORM, LEMMA, UPOS,
XPOS or FEATS, a duplicate, or only the second DEPS item changed (which
no part reads). Words, sentences and entities are the key's, so the files
pass the alignment check. Everything comes from ``random.Random(seed)``.
"""

from __future__ import annotations

import random

RELATIONS = ("nsubj", "obj", "iobj", "nsubj:pass", "obl:arg")
FORMS = ("_", "#PersPron", "#Gen", "#Cor")
LEMMAS = ("_", "#PersPron", "on", "#Gen")
UPOS = ("PRON", "NOUN", "_", "X")
XPOS = ("_", "PRP", "PRON-3", "NN")
FEATS = ("_", "Case=Nom", "Case=Acc|Number=Sing", "Person=3")
WORDS = ("house", "river", "city", "report", "year", "people", "door", "idea")
KINDS = ("missing", "spurious", "moved", "head", "relation", "form", "lemma", "upos", "xpos", "feats",
         "duplicate", "second-deps", "mixed")
COLUMN = {"form": (1, FORMS), "lemma": (2, LEMMAS), "upos": (3, UPOS), "xpos": (4, XPOS), "feats": (5, FEATS)}


def _node(rng, n):
    """(word order, FORM, LEMMA, UPOS, XPOS, FEATS, DEPS) of a new empty node."""
    deps = f"{rng.randint(1, n)}:{rng.choice(RELATIONS)}"
    if rng.random() < 0.3:
        deps += f"|{rng.randint(1, n)}:{rng.choice(RELATIONS)}"
    return [rng.randint(0, n), rng.choice(FORMS), rng.choice(LEMMAS), rng.choice(UPOS), rng.choice(XPOS),
            rng.choice(FEATS), deps]


def key(seed: int = 1, documents: int = 3) -> list:
    """Documents of sentences, each ``(words, empty nodes)``."""
    rng = random.Random(seed)
    docs = []
    for _ in range(documents):
        sentences = []
        for _ in range(rng.randint(3, 6)):
            n = rng.randint(4, 9)
            words = [rng.choice(WORDS) for _ in range(n)]
            sentences.append((words, [_node(rng, n) for _ in range(rng.choice((0, 1, 2, 2, 3, 4)))]))
        docs.append(sentences)
    return docs


def _other(rng, values, current):
    return rng.choice([v for v in values if v != current])


def _deps_items(deps: str) -> list[list[str]]:
    return [item.split(":", 1) for item in deps.split("|")]


def _join(items) -> str:
    return "|".join(f"{h}:{r}" for h, r in items)


def _changed(rng, node, kind, n):
    """The node with one error of ``kind``: a list of nodes (none when missing)."""
    node = list(node)
    items = _deps_items(node[6])
    if kind == "missing":
        return []
    if kind == "spurious":
        return [node, _node(rng, n)]
    if kind == "duplicate":
        return [node, list(node)]
    if kind == "moved":
        node[0] = _other(rng, range(n + 1), node[0])
    elif kind == "head":
        items[0][0] = str(_other(rng, range(1, n + 1), int(items[0][0])))
    elif kind == "relation":
        items[0][1] = _other(rng, RELATIONS, items[0][1])
    elif kind == "second-deps":
        items = items[:1] + [[str(rng.randint(1, n)), rng.choice(RELATIONS)]]
    else:
        column, values = COLUMN[kind]
        node[column] = _other(rng, values, node[column])
    node[6] = _join(items)
    return [node]


def response(docs: list, kind: str, seed: int = 2) -> list:
    rng = random.Random(seed)
    out = []
    for sentences in docs:
        changed = []
        for words, nodes in sentences:
            new = []
            for node in nodes:
                if rng.random() < 0.5:
                    new.append(list(node))
                    continue
                this = rng.choice(KINDS[:-1]) if kind == "mixed" else kind
                new.extend(_changed(rng, node, this, len(words)))
            if kind in ("spurious", "mixed") and rng.random() < 0.3:
                new.append(_node(rng, len(words)))
            changed.append((words, new))
        out.append(changed)
    return out


def conllu(docs: list) -> str:
    """The CoNLL-U text: each document a ``# newdoc``, the first word of each
    sentence a singleton mention; the empty nodes after the word they follow,
    in the order given, numbered ``N.1``, ``N.2``, ..."""
    lines = ["# global.Entity = eid-etype-head-other"]
    for d, sentences in enumerate(docs):
        for s, (words, nodes) in enumerate(sentences):
            if s == 0:
                lines.append(f"# newdoc id = doc{d}")
            lines.append(f"# sent_id = doc{d}-s{s}")
            lines.append(f"# text = {' '.join(words)}")
            by_word = {}
            for node in nodes:
                by_word.setdefault(node[0], []).append(node)
            for k in range(len(words) + 1):
                if k:
                    head, deprel = (0, "root") if k == 1 else (1, "dep")
                    misc = f"Entity=(e{d}x{s}-thing-1)" if k == 1 else "_"
                    lines.append(f"{k}\t{words[k - 1]}\t{words[k - 1]}\tNOUN\t_\t_\t{head}\t{deprel}\t"
                                 f"{head}:{deprel}\t{misc}")
                for m, node in enumerate(by_word.get(k, ()), 1):
                    lines.append(f"{k}.{m}\t" + "\t".join(node[1:6]) + f"\t_\t_\t{node[6]}\t_")
            lines.append("")
    return "\n".join(lines) + "\n"


def pair(directory, kind: str, seed: int = 1) -> tuple[str, str]:
    """Write key and response files; their paths."""
    docs = key(seed)
    key_path, response_path = directory / f"key-{kind}-{seed}.conllu", directory / f"sys-{kind}-{seed}.conllu"
    key_path.write_text(conllu(docs), encoding="utf-8")
    response_path.write_text(conllu(response(docs, kind, seed + 100)), encoding="utf-8")
    return str(key_path), str(response_path)
