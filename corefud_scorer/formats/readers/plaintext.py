"""The plaintext format of the CRAC 2025 LLM track, read against its key.

One document a line, words separated by spaces, each ``word`` or
``word|tags`` (``[eN``, ``eN]``, ``[eN]``; see :mod:`.plaintext_tags`),
``##`` words for empty nodes: what a language model is given and answers
(``conllu2text`` writes it). A response holds no sentences, ids or trees,
so it is read against the CoNLL-U key it answers: document by document in
order, its words aligned with the key's and its mentions placed on the
key's words and empty nodes, as the track's ``clean`` and ``text2conllu``
do (:mod:`.plaintext_document`). The documents it yields are the key's
text with the response's mentions, scored as CorefUD documents are.

Blank lines after the key's last document are ignored. A response whose
document count differs from the key's, or that holds a tab (not this
format), is refused in one line.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...errors import ScorerError
from ..problems import STOP, Problems
from .profiles import PROFILES
from .files import open_bytes

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from .plaintext_document import PlaintextDocument

FORMAT = "plaintext"
# Every line is a document (counted for a progress bar).
DOCUMENT_START = b""
# The file names of the format (bench pairs folders of them, convert writes them).
SUFFIXES = (".txt",)
# Scored as the CorefUD documents it is read into: the same rules.
PROFILE = PROFILES[FORMAT]


def sniff(head: str) -> bool:
    """Plaintext: text (no control character but line ends, no byte that is
    not UTF-8 but where the head is cut) whose first line is not a comment
    (``#``) or a JSON object."""
    text = head.lstrip()
    if not text or text.startswith(("#", "{")) or "\ufffd" in head[:-3]:
        return False
    return not any(c < " " and c not in "\n\r" for c in head)


def _lines(path: str, problems: Problems) -> Iterator[tuple[int, str]]:
    """The file's lines, numbered, decoded; a tab refused."""
    with open_bytes(path, "plaintext") as handle:
        for lineno, data in enumerate(handle, 1):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as err:
                problems.error("encoding", ScorerError(f"not UTF-8 text ({err.reason})", (path, lineno)))
                text = data.decode("utf-8", errors="replace")
            if lineno == 1:
                text = text.lstrip("\ufeff")
            if "\t" in text:
                problems.error("file", ScorerError(
                    "a tab: not a plaintext file (one document a line, words separated by spaces)",
                    (path, lineno)))
            yield lineno, text.rstrip("\r\n")


class _FileEntities:
    """Where each entity id first stood in the file, for a key whose ids
    name one entity across the file: scorer 1.2, reading the converted
    response as one file, orders the entities of a document that way."""

    def __init__(self):
        self.first: dict[str, tuple] = {}

    def see(self, doc: "PlaintextDocument") -> None:
        keys: dict[str, tuple] = {}
        for entity, s, first, last in doc.mentions:
            key = (doc.index, s, first, -(last - first + 1), last, entity)
            if entity not in keys or key < keys[entity]:
                keys[entity] = key
        doc.earlier_entities = {eid: self.first[eid] for eid in keys if eid in self.first}
        for eid, key in keys.items():
            self.first.setdefault(eid, key)


def read_documents(path: str, side: str = "response", key=None,
                   problems: Problems = STOP) -> Iterator["PlaintextDocument"]:
    """Yield the documents of a plaintext response read against ``key``,
    the key's documents (CoNLL-U), one a line.

    Errors (``FILE:LINE: problem``): no key given or the file given as the
    key, a key that is not CoNLL-U, a tab, bytes that are not UTF-8, fewer
    or more documents than the key has. What reading repaired is each
    document's warning."""
    if side == "key" or key is None:
        raise ScorerError("a plaintext file is a response, read against its key: give the key "
                          "as a CoNLL-U file", (path, None))
    from .plaintext_document import read_against  # the alignment's library, only where it is used
    lines = _lines(path, problems)
    entities = _FileEntities()
    count = 0
    for key_doc in key:
        if not hasattr(key_doc, "lines"):
            raise ScorerError("a plaintext response is read against a CoNLL-U key", (key_doc.path, None))
        found = next(lines, None)
        if found is None:
            problems.error("document-missing", ScorerError(
                f"the response ends after {count} documents (lines), but the key goes on with "
                f"document {key_doc.doc_id!r}", (path, None), (key_doc.path, key_doc.first_line)))
            return
        lineno, text = found
        doc = read_against(key_doc, text.split(), path, lineno, key_doc.entity_header)
        if key_doc.entity_scope == "file":
            entities.see(doc)
        count += 1
        yield doc
    for lineno, text in lines:
        if text.strip():
            problems.error("document-extra", ScorerError(
                f"a document more than the key's {count} (line {lineno} is not blank)", (path, lineno)))
            return
