#!/usr/bin/env python3
"""``conll-scorer`` against ``perl scorer.pl`` on real annotation: CorefUD
files (e.g. UD_English-GUM) written as CoNLL-2012 keys, with perturbed
responses, scored by both for every metric.

    python tools/conll_real.py --reference ../reference-coreference-scorers \\
        FILE.conllu [FILE.conllu ...] [--seed 1] [--keep DIR]

Each CorefUD file gives a key (every mention from its first to its last
word; zero mentions and mentions across documents left out) and a response
with mentions missed, stretched, spurious, entities split and merged (as
``bench/conll.py`` perturbs its generated files), and in three documents a
span repeated in a second entity (scorer.pl refuses more
than ten repeats a file). Both scorers run each metric on every document
(no ``none``): the per-document sections are compared by document name
(scorer.pl lists them in its hash order) and the totals, every number to
1e-9 relative (the sums over documents are added in different orders).
Exit status 0 when every number agrees.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

import udapi

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bench"))
from conll import cleaned, perturbed, same_numbers  # noqa: E402

METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")


def documents(path: str) -> list[dict]:
    """Each document's name, sentences (word forms) and entities as (first,
    last) token spans, tokens numbered from 0 across the document."""
    corpus = udapi.Document()
    corpus.load_conllu(path)
    docs, where = [], {}
    for bundle in corpus.bundles:
        tree = bundle.get_tree()
        if tree.newdoc or not docs:
            name = tree.newdoc if isinstance(tree.newdoc, str) else f"doc{len(docs)}"
            docs.append({"name": name, "sentences": [], "entities": {}})
            offset = 0
        words = list(tree.descendants)
        docs[-1]["sentences"].append([w.form for w in words])
        for w in words:
            where[id(w)] = (len(docs) - 1, offset)
            offset += 1
    for entity in corpus.coref_entities:
        for mention in entity.mentions:
            words = [w for w in mention.words if not w.is_empty()]
            if not words:
                continue
            (d, first), (d_last, last) = where[id(words[0])], where[id(words[-1])]
            if d == d_last:
                docs[d]["entities"].setdefault(entity.eid, []).append((first, last))
    for doc in docs:
        doc["entities"] = list(doc["entities"].values())
    return docs


def write(handle, doc: dict, entities: list) -> None:
    tokens = sum(map(len, doc["sentences"]))
    opening, single, closing = ([[] for _ in range(tokens)] for _ in range(3))
    for e, spans in enumerate(entities):
        for first, last in spans:
            if first == last:
                single[first].append(f"({e})")
            else:
                opening[first].append((last, f"({e}"))
                closing[last].append((first, f"{e})"))
    name = doc["name"]
    handle.write(f"#begin document ({name}); part 000\n")
    token = 0
    for sentence in doc["sentences"]:
        for number, form in enumerate(sentence):
            # Longer mentions open first and close last.
            brackets = ([b for _, b in sorted(opening[token], reverse=True)] + single[token]
                        + [b for _, b in sorted(closing[token], reverse=True)])
            handle.write(f"{name}\t0\t{number}\t{form.replace(' ', '_')}\tX\t*\t{'|'.join(brackets) or '-'}\n")
            token += 1
        handle.write("\n")
    handle.write("#end document\n")


def perturb(rng: random.Random, entities: list, tokens: int) -> list:
    """The generated benchmark's perturbation, with a few spurious mentions
    and no span twice."""
    out = perturbed(rng, entities)
    for _ in range(rng.randint(0, 5)):
        first = rng.randrange(tokens)
        out.append([(first, min(tokens - 1, first + rng.randint(0, 2)))])
    return cleaned(out, tokens)


def sections(text: str) -> tuple[dict, str]:
    """Per-document sections by their header, and the totals."""
    head, _, totals = text.partition("\n====== TOTALS =======\n")
    parts = re.split(r"(?m)^(?=====> )", head)
    return {part.split("\n", 1)[0]: part for part in parts[1:]}, totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="CorefUD .conllu files")
    parser.add_argument("--reference", required=True, help="work tree of conll/reference-coreference-scorers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", help="keep the CoNLL-2012 files and both outputs in this folder")
    args = parser.parse_args()
    folder = args.keep or tempfile.mkdtemp(prefix="conll-real-")
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(args.seed)
    failures = 0
    for path in args.files:
        docs = documents(path)
        stem = os.path.join(folder, os.path.basename(path).rsplit(".", 1)[0])
        key, response = stem + ".key.conll", stem + ".response.conll"
        with open(key, "w", encoding="utf-8") as k, open(response, "w", encoding="utf-8") as r:
            for i, doc in enumerate(docs):
                write(k, doc, doc["entities"])
                entities = perturb(rng, doc["entities"], sum(map(len, doc["sentences"])))
                if i < 3 and entities:
                    entities.append([entities[0][0]])
                write(r, doc, entities)
        tokens = sum(sum(map(len, d["sentences"])) for d in docs)
        for metric in METRICS:
            perl = subprocess.run(["perl", os.path.join(args.reference, "scorer.pl"), metric, key, response],
                                  capture_output=True, text=True)
            ours = subprocess.run([sys.executable, "-m", "corefud_scorer.v801.dropin", metric, key, response],
                                  capture_output=True, text=True)
            if perl.returncode or ours.returncode:
                print(f"{path} {metric}: failed (perl {perl.returncode}, ours {ours.returncode})")
                failures += 1
                continue
            for name, text in (("perl", perl.stdout), ("ours", ours.stdout)):
                with open(f"{stem}.{metric}.{name}.txt", "w", encoding="utf-8") as handle:
                    handle.write(text)
            (p_docs, p_totals), (o_docs, o_totals) = sections(perl.stdout), sections(ours.stdout)
            agree = set(p_docs) == set(o_docs) and all(
                same_numbers("v\n" + p_docs[k], "v\n" + o_docs[k]) for k in p_docs)
            agree = agree and same_numbers("v\n" + p_totals, "v\n" + o_totals)
            identical = sum(p_docs[k] == o_docs.get(k) for k in p_docs)
            print(f"{os.path.basename(path)} ({len(docs)} documents, {tokens} tokens) {metric}: "
                  f"{'same numbers' if agree else 'DIFFERENT'}; {identical}/{len(p_docs)} document "
                  f"sections and {'the' if p_totals == o_totals else 'not the'} totals byte for byte")
            failures += not agree
    print(f"files in {folder}" if args.keep else "", end="")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
