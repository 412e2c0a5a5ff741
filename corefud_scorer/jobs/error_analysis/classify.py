"""The errors of one document: its mentions paired with the key's (step 1),
then each error charged to its category in the procedure's order, with
what applying its correction needs (:mod:`.corrections`)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ...model import DocumentText, Mention
from .describe import Describer
from .mentions import PRONOUN_LIKE, core_span, mention_kind

# The order in which corrections are applied (the procedure's).
CATEGORIES = ("span_error", "conflated_entities", "extra_mention", "extra_entity",
              "divided_entity", "missing_mention", "missing_entity")
# The order in which counts are reported.
REPORT_ORDER = ("span_error", "missing_mention", "extra_mention", "missing_entity",
                "extra_entity", "divided_entity", "conflated_entities")
LABELS = {
    "span_error": "Span Error",
    "missing_mention": "Missing Mention",
    "extra_mention": "Extra Mention",
    "missing_entity": "Missing Entity",
    "extra_entity": "Extra Entity",
    "divided_entity": "Divided Entity",
    "conflated_entities": "Conflated Entities",
}


@dataclass
class Part:
    """Mentions shared by response entity ``response`` and key entity ``key``:
    response mention indices, in position order."""

    response: int
    key: int
    mentions: list[int]


@dataclass
class DocumentErrors:
    """One document's errors, and what applying their corrections needs."""

    doc_id: object
    counts: dict[str, int]
    occurrences: list[dict]
    key_mentions: list[Mention]
    response_mentions: list[Mention]
    response_entities: list[list[int]]          # response mention indices
    key_of: list                                # response index -> key index or None
    found_of: list                              # key index -> response index or None
    span_errors: list[tuple[int, int]]          # (response index, key index)
    conflated: list[Part]
    extra_mentions: list[int]
    extra_entities: list[list[int]]
    divided: list[tuple[int, Part]]             # (response index of the key entity's anchor, part)
    missing_mentions: list[tuple[int, int | None]]  # (key index, response index of its anchor)
    missing_entities: list[tuple[list[int], list[int]]]  # (missing key indices, found response indices)


def _disjoint(entities, entity_of, identity):
    """Each mention once, in the entity the scorer's lookup gives it (the last)."""
    mentions, entity_index, members, seen = [], [], [], {}
    for index, entity in enumerate(entities):
        own = []
        for mention in entity:
            ident = identity(mention)
            if entity_of.get(ident) != index or ident in seen:
                continue
            seen[ident] = len(mentions)
            own.append(len(mentions))
            mentions.append(mention)
            entity_index.append(index)
        members.append(own)
    return mentions, entity_index, members, seen


def _pair_leftovers(key_mentions, response_mentions, key_of, found_of, text):
    """Step 1's own pairing of mentions the alignment left alone: equal core
    spans, then one key and one response mention alone with their head."""
    pairs = []
    free_key = [k for k in range(len(key_mentions)) if found_of[k] is None]
    free_response = [r for r in range(len(response_mentions)) if key_of[r] is None]
    if not free_key or not free_response:
        return pairs
    by_core = defaultdict(list)
    for k in sorted(free_key, key=lambda k: key_mentions[k].sort_key()):
        by_core[core_span(key_mentions[k], text)].append(k)
    for r in sorted(free_response, key=lambda r: response_mentions[r].sort_key()):
        candidates = by_core.get(core_span(response_mentions[r], text))
        while candidates and found_of[candidates[0]] is not None:
            candidates.pop(0)
        if candidates:
            k = candidates.pop(0)
            key_of[r], found_of[k] = k, r
            pairs.append((r, k))
    by_head = defaultdict(lambda: ([], []))
    for k in free_key:
        if found_of[k] is None:
            by_head[key_mentions[k].head][0].append(k)
    for r in free_response:
        if key_of[r] is None:
            by_head[response_mentions[r].head][1].append(r)
    for head in sorted(by_head):
        keys, responses = by_head[head]
        if len(keys) == 1 and len(responses) == 1:
            k, r = keys[0], responses[0]
            key_of[r], found_of[k] = k, r
            pairs.append((r, k))
    return pairs


def _pair(alignment, key_side, response_side, zero_method, text):
    """Step 1: response mentions paired with key mentions (the response
    index's key index, the key index's response index) and the pairs whose
    spans differ, (response index, key index)."""
    key_mentions, _, _, key_index = key_side
    response_mentions, _, _, response_index = response_side
    key_of: list = [None] * len(response_mentions)
    found_of: list = [None] * len(key_mentions)
    span_errors = []
    for key_ident, response_ident in alignment:
        k, r = key_index.get(key_ident), response_index.get(response_ident)
        if k is None or r is None or key_of[r] is not None or found_of[k] is not None:
            continue
        key_of[r], found_of[k] = k, r
        if key_ident != response_ident:
            km, rm = key_mentions[k], response_mentions[r]
            # Zeros paired by their dependencies are found, wherever the empty node stands.
            if not (zero_method == "dependent" and km.is_zero and rm.is_zero and km.head != rm.head):
                span_errors.append((r, k))
    for r, k in _pair_leftovers(key_mentions, response_mentions, key_of, found_of, text):
        span_errors.append((r, k))
    return key_of, found_of, span_errors


class _Charges:
    """One document's errors, charged category by category in the
    procedure's order to the mentions paired in step 1."""

    def __init__(self, key_side, response_side, pairing, text, doc_id, key_eids, response_eids):
        self.key_mentions, self.key_entity, self.key_members, _ = key_side
        self.response_mentions, self.response_entity, self.response_members, _ = response_side
        self.key_of, self.found_of, self.span_errors = pairing
        self.key_eids, self.response_eids = key_eids, response_eids
        self.kinds_key = [mention_kind(m, text) for m in self.key_mentions]
        self.order_key = [m.sort_key() for m in self.key_mentions]
        self.occurrences: list[dict] = []
        self.counts = dict.fromkeys(CATEGORIES, 0)
        self.describe = Describer(doc_id, text, self.key_mentions, self.response_mentions, self.kinds_key)
        self._parts()

    def _parts(self) -> None:
        """Parts: response entity x key entity; and each response entity's
        mentions in no key entity."""
        self.parts_of_response: list[list[Part]] = [[] for _ in self.response_members]
        self.extras_of_response: list[list[int]] = [[] for _ in self.response_members]
        self.parts_of_key: list[list[Part]] = [[] for _ in self.key_members]
        for j, members in enumerate(self.response_members):
            by_key: dict[int, Part] = {}
            for r in sorted(members, key=lambda r: self.response_mentions[r].sort_key()):
                k = self.key_of[r]
                if k is None:
                    self.extras_of_response[j].append(r)
                    continue
                g = self.key_entity[k]
                if g not in by_key:
                    by_key[g] = Part(j, g, [])
                    self.parts_of_response[j].append(by_key[g])
                    self.parts_of_key[g].append(by_key[g])
                by_key[g].mentions.append(r)

    def anchor(self, parts: list[Part]) -> Part:
        """The part holding the earliest non-pronoun key mention, else the earliest."""
        def rank(part):
            keys = [self.key_of[r] for r in part.mentions]
            lexical = [self.order_key[k] for k in keys if self.kinds_key[k] not in PRONOUN_LIKE]
            return (0, min(lexical)) if lexical else (1, min(self.order_key[k] for k in keys))
        return min(parts, key=rank)

    def record(self, category, mentions, key_entities, response_entities) -> None:
        self.counts[category] += 1
        self.occurrences.append(self.describe.occurrence(
            category, mentions, [self.key_eids[g] for g in key_entities],
            [self.response_eids[j] for j in response_entities]))

    def spans(self) -> None:
        for r, k in self.span_errors:
            self.record("span_error", [("response", r), ("key", k)], [self.key_entity[k]], [self.response_entity[r]])

    def conflated(self) -> list[Part]:
        conflated = []
        for j, parts in enumerate(self.parts_of_response):
            if len(parts) > 1:
                kept = self.anchor(parts)
                for part in parts:
                    if part is not kept:
                        conflated.append(part)
                        self.record("conflated_entities", [("response", r) for r in part.mentions],
                                    [kept.key, part.key], [j])
        return conflated

    def extras(self) -> tuple[list[tuple[int, int]], list[tuple[int, list[int]]]]:
        """Extra mentions (response entity, mention) and extra entities
        (response entity, its mentions in no key entity)."""
        extra_mentions, extra_entities = [], []
        for j, extras in enumerate(self.extras_of_response):
            lexical_key = any(self.kinds_key[self.key_of[r]] not in PRONOUN_LIKE
                              for part in self.parts_of_response[j] for r in part.mentions)
            if len(extras) > 1 and not lexical_key:
                extra_entities.append((j, extras))
            else:
                extra_mentions.extend((j, r) for r in extras)
        for j, r in extra_mentions:
            self.record("extra_mention", [("response", r)], [], [j])
        for j, extras in extra_entities:
            self.record("extra_entity", [("response", r) for r in extras], [], [j])
        return extra_mentions, extra_entities

    def divided(self) -> tuple[list[tuple[int, Part]], list]:
        """The divided parts, each with the first mention of its key
        entity's anchor, and each key entity's anchor part (or None)."""
        divided = []
        anchors_of_key: list = [None] * len(self.parts_of_key)
        for g, parts in enumerate(self.parts_of_key):
            if not parts:
                continue
            kept = self.anchor(parts)
            anchors_of_key[g] = kept
            for part in parts:
                if part is not kept:
                    divided.append((kept.mentions[0], part))
                    self.record("divided_entity", [("response", r) for r in part.mentions],
                                [g], [kept.response, part.response])
        return divided, anchors_of_key

    def missing(self, anchors_of_key) -> tuple[list, list]:
        """Missing mentions (key index, its anchor's first response mention
        or None) and missing entities (missing key indices, the response
        mentions found of them)."""
        missing_mentions, missing_entities = [], []
        entity_records = []
        for g, members in enumerate(self.key_members):
            missing = [k for k in sorted(members, key=lambda k: self.order_key[k]) if self.found_of[k] is None]
            if not missing:
                continue
            found = [self.found_of[k] for k in members if self.found_of[k] is not None]
            if len(missing) > 1 and all(self.kinds_key[self.key_of[r]] in PRONOUN_LIKE for r in found):
                missing_entities.append((missing, sorted(found, key=lambda r: self.response_mentions[r].sort_key())))
                entity_records.append((g, missing, found))
                continue
            kept = anchors_of_key[g]
            for k in missing:
                missing_mentions.append((k, kept.mentions[0] if kept else None))
                self.record("missing_mention", [("key", k)], [g], [kept.response] if kept else [])
        for g, missing, found in entity_records:
            self.record("missing_entity", [("key", k) for k in missing], [g],
                        sorted({self.response_entity[r] for r in found}))
        return missing_mentions, missing_entities


def analyse(key: list[list[Mention]], response: list[list[Mention]], key_entity_of: dict,
            response_entity_of: dict, alignment, identity, zero_method: str = "dependent",
            text: DocumentText | None = None, doc_id=None, key_eids=None,
            response_eids=None) -> DocumentErrors:
    """Classify the errors of one document.

    ``key`` and ``response`` are the entities as scored (singletons dropped
    unless kept), ``*_entity_of`` the scorer's identity -> entity lookups,
    ``alignment`` its (key identity, response identity) pairs, ``identity``
    its mention identity; ``text`` gives words and parts of speech.
    """
    key_side = _disjoint(key, key_entity_of, identity)
    response_side = _disjoint(response, response_entity_of, identity)
    key_eids = key_eids or [str(i) for i in range(len(key))]
    response_eids = response_eids or [str(j) for j in range(len(response))]
    charges = _Charges(key_side, response_side, _pair(alignment, key_side, response_side, zero_method, text),
                       text, doc_id, key_eids, response_eids)
    charges.spans()
    conflated = charges.conflated()
    extra_mentions, extra_entities = charges.extras()
    divided, anchors_of_key = charges.divided()
    missing_mentions, missing_entities = charges.missing(anchors_of_key)
    return DocumentErrors(doc_id, charges.counts, charges.occurrences, charges.key_mentions,
                          charges.response_mentions, charges.response_members, charges.key_of, charges.found_of,
                          charges.span_errors, conflated, [r for _, r in extra_mentions],
                          [extras for _, extras in extra_entities], divided, missing_mentions, missing_entities)
