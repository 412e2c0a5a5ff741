#!/usr/bin/env python3
"""Damage a plaintext response as a language model would, reproducibly
(``random.Random(seed)`` alone).

Kinds of damage, each a rate per token (or per tag):

* ``words``: a word dropped, misspelt (two letters swapped or one changed)
  or a word inserted after it (a copy of a neighbour, or a filler). Only
  words whose tags close no mention are dropped or misspelt, so that the
  brackets stay balanced: the response reads the same with any repair rule;
* ``brackets``: a closing tag dropped (its mention never closed) or an
  opening tag dropped (its closing tag unopened);
* ``zeros``: a ``##`` word dropped, or one inserted.

    python bench/plaintext_damage.py IN.txt OUT.txt --seed 1 --words 0.05 [--brackets 0.02] [--zeros 0.1]
"""

from __future__ import annotations

import argparse
import random
import re

FILLERS = ("the", "a", "of", ",", "and", "that", "is")
CLOSING = re.compile(r"(?<!\[)e[0-9]+\]")


def _misspelt(word: str, rng: random.Random) -> str:
    if len(word) > 1 and rng.random() < 0.5:
        k = rng.randrange(len(word) - 1)
        swapped = word[:k] + word[k + 1] + word[k] + word[k + 2:]
        if swapped != word:
            return swapped
    k = rng.randrange(len(word))
    return word[:k] + rng.choice("aeiouxz") + word[k + 1:]


def _split(token: str) -> tuple[str, str]:
    cut = token.find("|", 1)
    return (token, "") if cut < 0 else (token[:cut], token[cut:])


def damage_words(tokens: list[str], rate: float, rng: random.Random) -> list[str]:
    out = []
    for k, token in enumerate(tokens):
        word, tags = _split(token)
        if word.startswith("##") or rng.random() >= rate:
            out.append(token)
            continue
        op = rng.random()
        safe = not CLOSING.search(tags)
        if op < 0.3 and safe:
            continue
        if op < 0.6 and safe:
            out.append(_misspelt(word, rng) + tags)
            continue
        out.append(token)
        neighbour = _split(tokens[min(k + 1, len(tokens) - 1)])[0]
        out.append(neighbour if rng.random() < 0.5 and not neighbour.startswith("##") else rng.choice(FILLERS))
    return out


def damage_brackets(tokens: list[str], rate: float, rng: random.Random) -> list[str]:
    out = []
    for token in tokens:
        word, tags = _split(token)
        if not tags:
            out.append(token)
            continue
        kept = [tag for tag in tags[1:].split(",")
                if tag.startswith("[") == tag.endswith("]") or rng.random() >= rate]
        out.append(word + ("|" + ",".join(kept) if kept else ""))
    return out


def damage_zeros(tokens: list[str], rate: float, rng: random.Random) -> list[str]:
    out = []
    for token in tokens:
        if token.startswith("##") and rng.random() < rate:
            continue
        out.append(token)
        if rng.random() < rate / 20:
            out.append("##")
    return out


def damage(line: str, rng: random.Random, words=0.0, brackets=0.0, zeros=0.0) -> str:
    tokens = line.split()
    if words:
        tokens = damage_words(tokens, words, rng)
    if brackets:
        tokens = damage_brackets(tokens, brackets, rng)
    if zeros:
        tokens = damage_zeros(tokens, zeros, rng)
    return " ".join(tokens)


def damage_file(source: str, target: str, seed: int, **rates) -> None:
    rng = random.Random(seed)
    with open(source, encoding="utf-8") as lines, open(target, "w", encoding="utf-8") as out:
        for line in lines:
            out.write(damage(line.rstrip("\n"), rng, **rates) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("target")
    parser.add_argument("--seed", type=int, default=1)
    for kind in ("words", "brackets", "zeros"):
        parser.add_argument(f"--{kind}", type=float, default=0.0)
    args = parser.parse_args(argv)
    damage_file(args.source, args.target, args.seed, words=args.words, brackets=args.brackets, zeros=args.zeros)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
