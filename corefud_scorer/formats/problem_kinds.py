"""The kinds of problem an input can have and what to do about each
(:data:`HINTS`), and one problem as a collecting reporter keeps it
(:class:`Problem`). Apart from the reporter (:mod:`.problems`): scoring
raises at the first error and keeps no record, so it does not import this
module."""

from __future__ import annotations

from dataclasses import dataclass

# Kind -> what to do about a problem of that kind.
HINTS = {
    "file": "give a readable file of the format the key is in",
    "encoding": "save the file as UTF-8",
    "header": "declare the header once, before the first sentence, as the key declares it",
    "columns": "give every token line the columns the format declares, separated by tabs",
    "token-id": "number the words of each sentence 1, 2, 3, ... as the key numbers them",
    "empty-node": "number the empty nodes after word N as N.1, N.2, ..., right after word N",
    "head": "give a head that stands inside the sentence (HEAD) or inside the mention (head index)",
    "brackets": "open each mention before closing it, and close it in the sentence it was opened in",
    "entity-id": "write the entity ids as the format's bracket syntax asks (the key shows it)",
    "annotation": "correct the coreference annotation as the message says",
    "document": "enclose each document between its start and end lines, once",
    "document-missing": "give every document of the key, in the key's order",
    "document-extra": "leave out documents the key does not have",
    "document-start": "start the documents where the key starts them, with the key's ids",
    "sentence-missing": "give every sentence of the key, in the key's order",
    "sentence-extra": "leave out sentences the key does not have",
    "sentence-id": "copy the key's sent_id comments unchanged",
    "word-count": "give each sentence the words of the key's sentence, no more and no fewer",
    "word-form": "copy the key's word forms unchanged",
    "pairing": "name each file as the key's file of that dataset is named",
    "limit": "keep within the limits --help states, or raise the limit by its environment variable",
    "warning": "nothing needs to change for scoring; check that it is what was meant",
}

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, at its first place (``path``, ``line``)."""

    kind: str
    message: str
    path: str | None
    line: int | None
    severity: str = ERROR
    where: tuple = ()  # every place the error names (a key/response pair names both)

    @property
    def hint(self) -> str:
        return HINTS.get(self.kind, HINTS["annotation"])
