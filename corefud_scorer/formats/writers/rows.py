"""The token lines the CoNLL-U writers (CorefUD, UA) write: the source's
own (:mod:`..readers.source_text`), or for a document given without them its words on a
flat tree and the empty nodes its annotation stands on, a zero's enhanced
dependencies as its DEPS."""

from __future__ import annotations

import re

from ...model import ORD_SCALE, SENTENCE_STRIDE, position
from ..readers.source_text import MISC, Row, SentenceText, word_row

RE_NEWDOC = re.compile(r"^#\s*newdoc\b")
RE_SENT_ID = re.compile(r"^#\s*sent_id\b")
RE_GLOBAL = re.compile(r"^#\s*global\.")


def sentences(doc) -> list[SentenceText]:
    """A :class:`~.TextDocument`'s sentences as rows and comments."""
    if doc.text is not None:
        return doc.text.sentences
    empties: dict[int, dict[int, str]] = {}
    words = {position(s, k) for s, forms in enumerate(doc.forms) for k in range(1, len(forms) + 1)}
    d = doc.document
    mentions = [m for e in [*d.entities, *d.discourse_deixis] for m in e.mentions]
    for mention in mentions + [item.mention for item in d.non_referring]:
        for p in mention.words:
            if p not in words:
                deps = empties.setdefault(p // SENTENCE_STRIDE, {}).setdefault(p, "_")
                if mention.is_zero and p == mention.head and deps == "_":
                    empties[p // SENTENCE_STRIDE][p] = _deps_text(mention)
    out = []
    for s, forms in enumerate(doc.forms):
        rows = []
        extra = sorted(empties.get(s, {}).items())
        for k in range(0, len(forms) + 1):
            if k:
                rows.append(word_row(k, forms[k - 1], at=s))
            after = [(p, deps) for p, deps in extra if position(s, k) < p < position(s, k + 1)]
            rows.extend(Row(p, [f"{k}.{i}", "_", "_", "_", "_", "_", "_", "_", deps, "_"])
                        for i, (p, deps) in enumerate(after, 1))
        out.append(SentenceText([], rows))
    return out


def _deps_text(mention) -> str:
    """A zero's enhanced dependencies (``parent:relation`` pairs) as DEPS."""
    pairs = []
    for parent, relation in mention.head_deps:
        k = parent / ORD_SCALE
        pairs.append(f"{int(k) if k == int(k) else k}:{relation}")
    return "|".join(pairs) or "_"


def comments(sentence: SentenceText, sent_id: str, newdoc: str | None, header: str | None = None) -> list[str]:
    """A sentence's comment lines: the source's, in their order, with the
    writer's document line (``newdoc``, then the file's ``header``) and
    sentence id in place of the source's, or first where it has none, and
    ``# text`` where it gives none (the words, spaced as MISC says)."""
    top = [f"# newdoc id = {newdoc}"] if newdoc is not None else []
    top += [header] if header else []
    out, placed = [], False
    for line in sentence.comments:
        if RE_NEWDOC.match(line):
            out += top
            top = []
        elif RE_SENT_ID.match(line):
            out.append(f"# sent_id = {sent_id}")
            placed = True
        elif not RE_GLOBAL.match(line):
            out.append(line)
    if not placed:
        out.insert(0, f"# sent_id = {sent_id}")
    if not any(line.startswith("# text") for line in out):
        words = [row for row in sentence.rows if row.is_word]
        text = "".join(row.cells[1] + ("" if "SpaceAfter=No" in row.cells[MISC] else " ") for row in words)
        out.insert(out.index(f"# sent_id = {sent_id}") + 1, f"# text = {text.rstrip()}")
    return top + out


def with_misc(cells: list[str], items: list[str]) -> list[str]:
    """The cells with ``items`` (``Name=value``) added to MISC, its
    attributes in Udapi's order (by name, case aside)."""
    if not items:
        return cells
    present = [] if cells[MISC] == "_" else cells[MISC].split("|")
    merged = sorted(present + items, key=lambda item: item.partition("=")[0].lower())
    return cells[:MISC] + ["|".join(merged)] + cells[MISC + 1:]


def word_numbers(rows_by_sentence: list[SentenceText]) -> dict[int, int]:
    """Each word's number in the document from 1, by position (UA's Min)."""
    numbers, n = {}, 0
    for sentence in rows_by_sentence:
        for row in sentence.rows:
            if row.is_word:
                n += 1
                numbers[row.position] = n
    return numbers

