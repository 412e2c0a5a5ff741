"""The corrections: a document's response entities after the corrections of
some categories are applied, in the procedure's order (spans last, as they
relabel mentions and move none)."""

from __future__ import annotations

from ...model import Mention

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from .classify import DocumentErrors


class Entities:
    """The response entities as corrected so far: each an ordered set of
    items, a response mention's index or ``("k", index)`` for a key mention
    the corrections added."""

    def __init__(self, response_entities: list[list[int]]):
        self.members: dict[int, dict] = {j: dict.fromkeys(items) for j, items in enumerate(response_entities)}
        self.where: dict = {}
        for j, items in self.members.items():
            for item in items:
                self.where[item] = j
        self.fresh = len(self.members)

    def new_entity(self) -> int:
        self.fresh += 1
        self.members[self.fresh] = {}
        return self.fresh

    def move(self, item, target: int) -> None:
        source = self.where.get(item)
        if source is not None:
            del self.members[source][item]
        self.members[target][item] = None
        self.where[item] = target

    def remove(self, item) -> None:
        del self.members[self.where.pop(item)][item]

    def union(self, first: int, second: int) -> None:
        if first != second:
            for item in list(self.members[second]):
                self.move(item, first)


def _split_conflated(errors: DocumentErrors, entities: Entities) -> None:
    for part in errors.conflated:
        target = entities.new_entity()
        for item in part.mentions:
            entities.move(item, target)


def _remove_extra_mentions(errors: DocumentErrors, entities: Entities) -> None:
    for item in errors.extra_mentions:
        entities.remove(item)


def _remove_extra_entities(errors: DocumentErrors, entities: Entities) -> None:
    for items in errors.extra_entities:
        for item in items:
            entities.remove(item)


def _merge_divided(errors: DocumentErrors, entities: Entities) -> None:
    for anchor, part in errors.divided:
        entities.union(entities.where[anchor], entities.where[part.mentions[0]])


def _add_missing_mentions(errors: DocumentErrors, entities: Entities) -> None:
    alone: dict = {}
    for key_index, anchor in errors.missing_mentions:
        if anchor is not None:
            target = entities.where[anchor]
        else:  # a key entity of one mention (singletons kept)
            target = alone.setdefault(key_index, entities.new_entity())
        entities.move(("k", key_index), target)


def _add_missing_entities(errors: DocumentErrors, entities: Entities) -> None:
    for missing, found in errors.missing_entities:
        target = entities.new_entity()
        for item in found:
            entities.move(item, target)
        for key_index in missing:
            entities.move(("k", key_index), target)


# The categories whose corrections move mentions, in the order they are applied.
STEPS = (("conflated_entities", _split_conflated), ("extra_mention", _remove_extra_mentions),
         ("extra_entity", _remove_extra_entities), ("divided_entity", _merge_divided),
         ("missing_mention", _add_missing_mentions), ("missing_entity", _add_missing_entities))


def corrected(errors: DocumentErrors, applied) -> list[list[Mention]]:
    """The response entities of ``errors`` after applying the corrections of
    the categories in ``applied``, in the procedure's order."""
    applied = set(applied)
    entities = Entities(errors.response_entities)
    for category, step in STEPS:
        if category in applied:
            step(errors, entities)
    # Corrected spans take the key mention's words and head, and the
    # dependencies of its zeros, so that the rescoring aligns them alike.
    relabel = ({r: k for r, k in enumerate(errors.key_of) if k is not None}
               if "span_error" in applied else {})
    out = []
    for items in entities.members.values():
        if not items:
            continue
        mentions = []
        for item in items:
            if isinstance(item, tuple):
                mentions.append(errors.key_mentions[item[1]])
            elif item in relabel:
                mentions.append(errors.key_mentions[relabel[item]])
            else:
                mentions.append(errors.response_mentions[item])
        out.append(mentions)
    return out
