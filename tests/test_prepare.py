"""Preparing a side (repeated spans, singletons, zeros) against its
definition, on generated entities with spans given twice, zeros, zero-only
and empty entities."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from corefud_scorer.alignment.contingency import prepare
from corefud_scorer.alignment.match import identity_function
from corefud_scorer.model import Document, Entity, Mention


def _document(rng: random.Random) -> Document:
    pool = [(k,) for k in range(1, rng.randint(2, 8))]  # few spans: many given twice
    entities = []
    for n in range(rng.randint(0, 6)):
        mentions = [Mention(words, words[0], is_zero=rng.random() < 0.3)
                    for words in rng.choices(pool, k=rng.randint(0, 4))]
        entities.append(Entity(f"e{n}", mentions))
    return Document("d", entities)


def _defined(doc: Document, keep_singletons: bool, keep_zeros: bool) -> tuple[list, dict]:
    """Each entity kept, as its first mention of each span in order, and the
    counts of what was left out, as the preparation is defined."""
    kept, counts = [], dict.fromkeys(("repeated_mentions", "singletons", "zeros", "emptied"), 0)
    for entity in doc.entities:
        first = {}
        for mention in entity.mentions:
            first.setdefault(mention.words, mention)
        counts["repeated_mentions"] += len(entity.mentions) - len(first)
        if not keep_singletons and len(first) < 2:
            counts["singletons"] += 1
            continue
        if not keep_zeros:
            others = [m for m in first.values() if not m.is_zero]
            counts["zeros"] += len(first) - len(others)
            if not others:
                counts["emptied"] += 1
                continue
            kept.append(others)
            continue
        kept.append(list(first.values()))
    return kept, counts


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9), keep_singletons=st.booleans(), keep_zeros=st.booleans())
def test_a_side_keeps_the_first_mention_of_each_span_and_counts_what_it_leaves(seed, keep_singletons, keep_zeros):
    doc = _document(random.Random(seed))
    side = prepare(doc, identity_function("exact"), keep_singletons, keep_zeros=keep_zeros)
    kept, counts = _defined(doc, keep_singletons, keep_zeros)
    assert [[id(m) for m in entity] for entity in side.entities] == [[id(m) for m in entity] for entity in kept]
    assert side.identities == [[m.words for m in entity] for entity in kept]
    assert {name: getattr(side.dropped, name) for name in counts} == counts
    assert not side.plurals
