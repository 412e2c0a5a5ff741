"""Write jsonlines files in the word style (wl-coref's): one JSON object a
document, ``document_id``, ``cased_words``, ``sent_id`` (a sentence number
per word) and ``span_clusters`` (``[start, end)`` word offsets)."""

from __future__ import annotations

import json

from . import TextDocument, token_spans
from ..readers.jsonlines import SUFFIXES  # noqa: F401  (the writer is chosen by the reader's file names)

FORMAT = "jsonlines"
HOLDS = frozenset()


def write(documents, handle, lost) -> None:
    for index, doc in enumerate(documents):
        doc: TextDocument
        spans = token_spans(doc, lost)
        line = {"document_id": doc.names_or_default(index).key,
                "cased_words": [form for forms in doc.forms for form in forms],
                "sent_id": [s for s, forms in enumerate(doc.forms) for _ in forms],
                "span_clusters": [[[a, b + 1] for a, b in entity] for entity in spans]}
        handle.write(json.dumps(line, ensure_ascii=False) + "\n")
