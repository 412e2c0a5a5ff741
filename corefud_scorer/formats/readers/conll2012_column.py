"""The coreference column of CoNLL-2012 token lines, read and written.

A token's brackets are read in the reference scorer's order: one-token
mentions, then openings, then closings, so the same file gives the same
mentions (and the same errors) as ``scorer.pl`` v8.01; entities are kept in
the order their ids first appear, mentions in the order they are completed.
Writing puts them in the order that reading gives back.
"""

from __future__ import annotations

import re

from ...errors import ScorerError
from ..problems import STOP, Problems
from .limits import limits, nesting_error

RE_DOUBLE_ANTECEDENT = re.compile(r"\((\d+\+\d)\)")
RE_SINGLE = re.compile(r"\((\d+)\)")
RE_OPEN = re.compile(r"\((\d+)")
RE_CLOSE = re.compile(r"(\d+)\)")
# The usual value: brackets joined by '|', read part by part.
RE_SIMPLE = re.compile(r"(?:\(\d+\)?|\d+\))(?:\|(?:\(\d+\)?|\d+\)))*")


def _column_orders(entities):
    """Each mention as ``(entity, mention)`` indices in its group of the
    coreference column at a token: one-token mentions, openings (the longer
    first, so that a mention of an entity inside another of the same
    entity closes first), closings (the later start first)."""
    singles, opens, closes = {}, {}, {}
    for e, spans in enumerate(entities):
        for m, (start, end) in enumerate(spans):
            if start == end:
                singles.setdefault(start, []).append(((e, m), (e, m)))
            else:
                opens.setdefault(start, []).append(((-end, e, m), (e, m)))
                closes.setdefault(end, []).append(((-start, e, m), (e, m)))
    return [{t: [em for _, em in sorted(group)] for t, group in table.items()}
            for table in (singles, opens, closes)]


def coreference_column(tokens: int, entities) -> list[str]:
    """The last column of a document's token lines for its entities, given
    as ``(id, [(first token, last token), ...])`` pairs."""
    singles, opens, closes = _column_orders([spans for _, spans in entities])
    column = []
    for t in range(tokens):
        parts = [f"({entities[e][0]})" for e, _ in singles.get(t, ())]
        parts += [f"({entities[e][0]}" for e, _ in opens.get(t, ())]
        parts += [f"{entities[e][0]})" for e, _ in closes.get(t, ())]
        column.append("|".join(parts) or "-")
    return column


def conll_order(entities) -> tuple[list[list[tuple[int, int]]], list[int]]:
    """The entities (lists of (first, last) token spans) in the order this
    reader gives the same mentions written as :func:`coreference_column`
    writes them (entities by their id's first bracket, mentions as they
    are completed), and the entities' indices in that order.

    The column's groups (:func:`_column_orders`) as sort keys: an entity's
    first bracket is its earliest start, a one-token mention before an
    opening there and the longer opening first, ties by entity; a
    mention is completed at its end, a one-token mention before a closing
    there and the later start first, ties in the given order (a stable
    sort). An empty entity has no bracket and is left out."""
    firsts = sorted((min((s, s != t, -t) for s, t in spans), e) for e, spans in enumerate(entities) if spans)
    order = [e for _, e in firsts]
    return [sorted(entities[e], key=_completed) for e in order], order


def _completed(span: tuple[int, int]) -> tuple[int, int]:
    return span[1], -span[0]



class ColumnMentions:
    """One document's entities and open mentions, bracket by bracket."""

    def __init__(self, path: str, problems: Problems = STOP):
        self.path = path
        self.problems = problems
        # id -> its mentions' (first token, last token) spans and their lines,
        # in the order the ids first appear (a dict keeps it).
        self.by_id: dict[str, tuple[list[tuple[int, int]], list[int]]] = {}
        self.open: dict[str, list[tuple[int, int]]] = {}  # id -> stack of (token, line)
        self.depth = 0  # mentions open (opened before the token being read, not yet closed)
        self.most = limits().mentions_per_word

    def add(self, eid: str, start: int, end: int, line: int) -> None:
        entity = self.by_id.get(eid)
        if entity is None:
            entity = self.by_id[eid] = ([], [])
        entity[0].append((start, end))
        entity[1].append(line)

    def open_mention(self, eid: str, token: int, lineno: int) -> None:
        if eid not in self.by_id:
            self.by_id[eid] = ([], [])
        stack = self.open.get(eid)
        if stack is None:
            stack = self.open[eid] = []
        stack.append((token, lineno))
        self.depth += 1

    def close_mention(self, eid: str, token: int, lineno: int) -> None:
        stack = self.open.get(eid)
        if not stack:
            self.problems.error("brackets", ScorerError(
                f"'{eid})' closes a mention of entity {eid}, but none is open", (self.path, lineno)))
            return
        start, start_line = stack.pop()
        self.depth -= 1
        self.add(eid, start, token, start_line)

    def brackets(self, value: str, token: int, lineno: int) -> None:
        """A token's coreference column: one-token mentions, then openings, then closings.
        More mentions on the token than the limit is refused before any is
        read (no valid value closes more than are open)."""
        covering = max(self.depth + value.count("("), value.count(")"))
        if covering > self.most:
            self.problems.error("limit", nesting_error(covering, (self.path, lineno)))
            return
        if "|" not in value:
            # One bracket, the usual value: read here without a pattern
            # (``isdecimal`` is what ``\d`` matches).
            if value[0] == "(":
                if value[-1] == ")":
                    eid = value[1:-1]
                    if eid.isdecimal():
                        self.add(eid, token, token, lineno)
                        return
                else:
                    eid = value[1:]
                    if eid.isdecimal():
                        self.open_mention(eid, token, lineno)
                        return
            elif value[-1] == ")":
                eid = value[:-1]
                if eid.isdecimal():
                    self.close_mention(eid, token, lineno)
                    return
            self._general(value, token, lineno)
        elif RE_SIMPLE.fullmatch(value):
            parts = value.split("|")
            for part in parts:
                if part[0] == "(" and part[-1] == ")":
                    self.add(part[1:-1], token, token, lineno)
            for part in parts:
                if part[0] == "(" and part[-1] != ")":
                    self.open_mention(part[1:], token, lineno)
            for part in parts:
                if part[0] != "(":
                    self.close_mention(part[:-1], token, lineno)
        else:
            self._general(value, token, lineno)

    def _general(self, value: str, token: int, lineno: int) -> None:
        rest = RE_DOUBLE_ANTECEDENT.sub("", value)
        # Each pattern is taken out of the value one match at a time, leftmost
        # first, as the reference scorer does (a removal can join what is left).
        for pattern, found in ((RE_SINGLE, lambda eid: self.add(eid, token, token, lineno)),
                               (RE_OPEN, lambda eid: self.open_mention(eid, token, lineno)),
                               (RE_CLOSE, lambda eid: self.close_mention(eid, token, lineno))):
            while (m := pattern.search(rest)) is not None:
                rest = rest[:m.start()] + rest[m.end():]
                found(m.group(1))
        if rest.strip("|"):
            self.problems.error("entity-id", ScorerError(
                f"malformed coreference value {value!r} (expected '-' or brackets "
                "such as '(12', '12)', '(12)' joined by '|')", (self.path, lineno)))

    def unclosed(self) -> list[tuple[int, str]]:
        """The mentions left open, in file order: (line, entity id)."""
        return sorted((line, eid) for eid, stack in self.open.items() for _, line in stack)

