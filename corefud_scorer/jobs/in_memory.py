"""Documents built in memory (:func:`~corefud_scorer.api.score_documents`,
the error analysis of documents), paired by position and read as the
pipeline reads a file's: each one a source document whose ``load()``
returns it. Kept apart from the pipeline: scoring files never makes
them."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ScorerError
from ..model import Document, SourceDocument
from .pipeline import KeyedStream


@dataclass
class LoadedDocument(SourceDocument):
    """A document built in memory: ``load()`` returns it as it is."""

    document: Document | None = None

    @classmethod
    def of(cls, document: Document, index: int, path: str = "<memory>") -> "LoadedDocument":
        return cls(path, index, document.doc_id, document.doc_id, [], "document", document)

    @property
    def tokens(self) -> int:
        return self.document.tokens if not self.sentences else super().tokens

    def load(self, problems=None) -> Document:
        return self.document


def in_memory(key: list[Document], response: list[Document]) -> KeyedStream:
    """Documents built in memory, paired by position; their number and ids
    must agree."""
    if len(key) != len(response):
        raise ScorerError(f"{len(key)} key documents but {len(response)} response documents")

    def pairs():
        for index, (key_doc, response_doc) in enumerate(zip(key, response)):
            if key_doc.doc_id != response_doc.doc_id:
                raise ScorerError(f"document ids differ: {key_doc.doc_id!r} vs {response_doc.doc_id!r}")
            yield LoadedDocument.of(key_doc, index), [LoadedDocument.of(response_doc, index)]

    return KeyedStream("<memory>", ["<memory>"], pairs())
