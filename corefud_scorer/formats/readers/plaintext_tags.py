"""A plaintext token's word and entity tags, and the mentions a sentence's
tags make once its brackets are balanced.

A token is ``word`` or ``word|tags``; the tags are comma-separated ``[eN``
(opens a mention of entity ``eN``), ``eN]`` (closes the last one opened)
and ``[eN]`` (a one-word mention). The word is what precedes the first
``|`` that is not the token's first character, so the key's word ``|`` is
read as a word (``|`` or ``||[e1]``). Repairs, one rule each, counted:

- a tag that is not exactly one of the three forms is dropped (``malformed``);
- a token with a second ``|`` after its word keeps its word and drops its
  tags (``two bars``), as the track's ``clean`` does;
- per sentence, a closing tag with no mention of its entity open makes a
  one-word mention on its word (``unopened``), as ``clean`` does, and an
  opening tag still open at the end of the sentence makes a one-word
  mention on its word (``unclosed``), which is what ``clean`` means to do
  (its own repair fails and such a mention is lost).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

RE_TAG = re.compile(r"(\[?)(e[0-9]+)(\]?)")

# The repairs, in the order a warning lists them, with how it names them.
REPAIRS = {
    "inserted": "key words the response lacks inserted",
    "deleted": "response words not in the key deleted",
    "replaced": "response words replaced by the key's",
    "empty nodes missing": "empty nodes (##) the response lacks",
    "empty nodes extra": "## words with no empty node of the key deleted",
    "tags lost": "tags lost with deleted or replaced words",
    "malformed": "malformed tags dropped",
    "two bars": "words with a second | (tags dropped)",
    "unopened": "closing tags with nothing open made one-word mentions",
    "unclosed": "opening tags never closed made one-word mentions",
}


def split_token(token: str, counts: Counter) -> tuple[str, list[tuple[bool, str, bool]]]:
    """A token's word and its tags as ``(opens, entity, closes)``."""
    cut = token.find("|", 1)
    if cut < 0:
        return token, []
    word, rest = token[:cut], token[cut + 1:]
    if not rest:
        return word, []
    if "|" in rest:
        counts["two bars"] += 1
        return word, []
    tags = []
    for item in rest.split(","):
        found = RE_TAG.fullmatch(item)
        if found is None or not (found.group(1) or found.group(3)):
            counts["malformed"] += 1
            continue
        tags.append((bool(found.group(1)), found.group(2), bool(found.group(3))))
    return word, tags


def sentence_mentions(tags: list[tuple[int, list]], counts: Counter) -> list[tuple[str, int, int]]:
    """The mentions ``(entity, first, last)`` one sentence's tags make, from
    its tagged nodes ``(number in plaintext order, tags)`` in that order;
    unbalanced brackets repaired (see the module's docstring)."""
    open_: dict[str, list[int]] = defaultdict(list)
    mentions = []
    for k, node_tags in tags:
        for opens, entity, closes in node_tags:
            if opens and closes:
                mentions.append((entity, k, k))
            elif opens:
                open_[entity].append(k)
            elif open_[entity]:
                mentions.append((entity, open_[entity].pop(), k))
            else:
                counts["unopened"] += 1
                mentions.append((entity, k, k))
    for entity, starts in open_.items():
        for k in starts:
            counts["unclosed"] += 1
            mentions.append((entity, k, k))
    return mentions

