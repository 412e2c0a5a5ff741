"""The UA scorer's two mention filters for CoNLL-2012 files, as its CoNLL
reader defines them (``--np-only``, ``--remove-nested-mentions``).

Both run on each side's entities after singletons are dropped, NP-only
first. An entity is a list of ``(first token, last token)`` spans, tokens
numbered across the document.

*NP-only* removes every mention whose span the key's parse labels ``VP``
(the response's mentions are labelled by the key's parse too). The label
of a span is not the smallest constituent covering it: it is the node the
UA reader builds from the parse bits of the span's tokens alone
(:func:`span_label`), so a verb phrase whose first token also opens a
larger constituent (``(S(VP*``) is labelled by that constituent and stays.
An entity that loses a mention keeps the rest when at least two are left,
and goes otherwise, whether singletons are kept or not.

*Remove-nested* removes, within each entity, every mention that lies inside
another mention of the same entity in the same sentence (a span repeated
exactly is not nested). An entity of several mentions that would be left
with exactly one goes when singletons are dropped, and is kept whole when
they are kept. The count compares the entity's size with the number of
(mention, container) pairs found, a mention inside two others counting
twice, as the UA reader counts them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import ScorerError

Span = tuple[int, int]


def span_label(tokens: Sequence[tuple[str, str]]) -> str | None:
    """The label of the tree the UA reader builds from a span's tokens,
    each ``(word, parse bit)``: the parse bits read left to right, nodes
    opened and closed on a stack, the tree returned being the last node
    taken off it; several top-level trees are joined under a new ``NP``.
    A phrase's label keeps only the letters of its tag (``NP-SBJ`` reads
    ``NPSBJ``); a run of words standing alone reads as the words, joined
    by spaces. None when no node is built."""
    stack: list[str] = []
    roots: list[str] = []
    words: list[str] = []
    tag: list[str] = []
    opening = False
    last: str | None = None

    def words_as_node(only_alphanumeric: bool) -> None:
        # A run of words is one terminal node: under the open phrase, or at
        # the bottom of the stack when none is open (where it can become the
        # tree). Before an opening bracket it counts only if one of its words
        # is all letters or all digits (punctuation is skipped).
        nonlocal words
        if words and not stack and (not only_alphanumeric
                                    or any(w.isalpha() or w.isdigit() for w in words)):
            stack.append(" ".join(words))
        words = []

    for index, (word, bits) in enumerate(tokens):
        final = index == len(tokens) - 1
        for position, char in enumerate(bits):
            if char == "(":
                if opening:
                    stack.append("".join(tag))
                    tag = []
                words_as_node(True)
                opening = True
            elif char == "*":
                words.append(word)
                if opening:
                    stack.append("".join(tag))
                    tag = []
                    opening = False
                elif tag:
                    roots.append("".join(tag))
            elif char == ")":
                words_as_node(False)
                if stack:
                    last = stack.pop()
                    if not stack:
                        roots.append(last)
                opening = False
            elif char.isalpha():
                tag.append(char)
            if final and position == len(bits) - 1:
                words_as_node(False)
    # Phrases the span leaves open are closed at its end.
    while stack:
        last = stack.pop()
        if not stack:
            roots.append(last)
    return "NP" if len(roots) > 1 else last


def np_only(entities: list[list[Span]], label: Callable[[Span], str | None]) -> list[list[Span]]:
    """The entities without the mentions labelled ``VP``."""
    out = []
    for spans in entities:
        kept = [span for span in spans if label(span) != "VP"]
        if len(kept) == len(spans) or len(kept) > 1:
            out.append(kept)
    return out


def remove_nested(entities: list[list[Span]], sentence_of: Callable[[int], int],
                  keep_singletons: bool) -> list[list[Span]]:
    """The entities without their nested mentions."""
    out = []
    for spans in entities:
        nested = []
        for i, first in enumerate(spans):
            for second in spans[i + 1:]:
                if first == second or sentence_of(first[0]) != sentence_of(second[0]):
                    continue
                if second[0] <= first[0] and first[1] <= second[1]:
                    nested.append(first)
                elif first[0] <= second[0] and second[1] <= first[1]:
                    nested.append(second)
        if len(spans) != 1 and len(spans) - len(nested) == 1:
            if keep_singletons:
                out.append(spans)
            continue
        out.append([span for span in spans if span not in nested])
    return out


PARSE_COLUMN = 5


def parse_bit(fields: list[str]) -> str | None:
    """A token line's parse bit (the sixth column, before the coreference
    one), or None when the line has none: too few columns, or a value that
    is not a parse bit (``-``, a word)."""
    if len(fields) < PARSE_COLUMN + 2:
        return None
    bits = fields[PARSE_COLUMN]
    if bits.count("*") != 1:
        return None
    before, after = bits.split("*")
    if after.strip(")") or (before and (not before.startswith("(") or "*" in before or ")" in before)):
        return None
    return bits


def missing_parse(path: str, line: int, fields: list[str]) -> ScorerError:
    found = f"{len(fields)} columns" if len(fields) < PARSE_COLUMN + 2 else f"{fields[PARSE_COLUMN]!r}"
    return ScorerError(f"--np-only reads the key's parse (the sixth of at least seven columns), and this "
                       f"token line has none ({found})", (path, line))
