"""What a target format leaves out of the text layers of a source file
beside its annotation (:mod:`..readers.source_text`): each is named, with
its count, in the conversion's one warning."""

from __future__ import annotations

from collections import Counter

from ..readers.source_text import (COMMENTS, CONLL_COLUMNS, EMPTY_NODES, MULTIWORD, PARSES, POS_TAGS,
                                   SENTENCE_IDS, TREES, WORD_COLUMNS)

# The layers a CoNLL-U file (CorefUD or UA) holds.
CONLLU = frozenset({SENTENCE_IDS, EMPTY_NODES, MULTIWORD, COMMENTS, TREES, WORD_COLUMNS, POS_TAGS})
# The layers a CoNLL-2012 file holds.
CONLL = frozenset({POS_TAGS, PARSES, CONLL_COLUMNS})


def left_out(text, holds: frozenset) -> Counter:
    """What a target holding the layers ``holds`` leaves out of a
    document's :class:`~..readers.source_text.SourceText` (None: nothing
    to leave out), and what only a file of its own format holds."""
    if text is None:
        return Counter()
    lost = Counter({kind: n for kind, n in text.layers.items() if n and kind not in holds})
    lost.update(text.unkept)
    return lost

