"""The light pass over a CorefUD file: its bytes decoded line by line (an
encoding error names its line), each sentence validated by
:class:`~.corefud_sentence.SentenceBuilder`, and the sentences gathered into
raw documents, a new one at each ``# newdoc``, not yet parsed by Udapi.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...errors import ScorerError
from ..problems import STOP, Problems
from ...model import EmptyNode, Sentence
from .corefud_document import CorefUDDocument
from .corefud_sentence import SentenceBuilder
from .files import open_bytes
from .limits import limits


def iter_raw_documents(path: str, header: dict | None = None, words: bool = False,
                       problems: Problems = STOP) -> Iterator[CorefUDDocument]:
    """The documents of a file without the header attached; ``header`` (a
    dict) receives ``global.Entity`` as soon as it is seen."""
    if header is None:
        header = {}
    handle = open_bytes(path, "CoNLL-U")
    most_mentions = limits().mentions_per_word
    documents = _Documents(path, header, problems)
    sentence: SentenceBuilder | None = None
    lineno = 0
    try:
        with handle:
            # Bytes decoded line by line, so that an encoding error names its line.
            for lineno, data in enumerate(handle, 1):
                try:
                    text = data.decode("utf-8").rstrip("\r\n")
                except UnicodeDecodeError as err:
                    problems.error("encoding", ScorerError(f"not UTF-8 text ({err.reason})", (path, lineno)))
                    text = data.decode("utf-8", errors="replace").rstrip("\r\n")
                if lineno == 1 and text.startswith("\ufeff"):
                    text = text[1:]
                if not text.strip():
                    if sentence is not None:
                        done = documents.add(sentence)
                        sentence = None
                        if done is not None:
                            yield done
                    continue
                if sentence is None:
                    sentence = SentenceBuilder(path, lineno, header, words, problems, most_mentions)
                if text[0] == "#":
                    # A comment line (in the loop: a sentence has several).
                    if sentence.has_token:
                        problems.error("columns", ScorerError("comment line inside a sentence", (path, lineno)))
                        continue
                    value = sentence.comment(text, lineno)
                    if value is None or documents.takes_header(value, lineno):
                        sentence.lines.append(text)
                else:
                    sentence.token(text, lineno)
            if sentence is not None:
                done = documents.add(sentence)
                if done is not None:
                    yield done
    except OSError as err:
        raise ScorerError(f"cannot read: {err.strerror or err}", (path, lineno or None)) from None
    if documents.doc is None:
        raise ScorerError("holds no sentence: not a CoNLL-U file", (path, None))
    yield documents.doc


class _Documents:
    """The document being gathered, sentence by sentence, and the file's
    ``global.Entity`` header."""

    def __init__(self, path: str, header: dict, problems: Problems):
        self.path, self.header, self.problems = path, header, problems
        self.doc: CorefUDDocument | None = None
        self.count = 0

    def takes_header(self, value: str, lineno: int) -> bool:
        """Whether a ``global.Entity`` value is taken: the first, or the same
        again (a different one is a problem, and its line is left out)."""
        previous = self.header.get("global.Entity")
        if previous is not None and previous != value:
            self.problems.error("header", ScorerError(
                f"global.Entity {value!r} differs from {previous!r} declared before", (self.path, lineno)))
            return False
        self.header["global.Entity"] = value
        return True

    def add(self, sentence: SentenceBuilder) -> CorefUDDocument | None:
        """Add a sentence read to the document, or to a new one it begins:
        then the document it ends, which is complete."""
        built = sentence.finish()
        if built is None:  # collected: a sentence without words is left out
            return None
        ended = None
        if built.newdoc or self.doc is None:
            ended = self.doc
            self.doc = self._new(built)
        doc = self.doc
        if sentence.empty_nodes:
            index = len(doc.sentences)
            doc.empty_nodes.extend(EmptyNode(index, *node) for node in sentence.empty_nodes)
        doc.sentences.append(built)
        doc.notes.extend(sentence.notes)
        if doc.lines:
            doc.lines.append("")
        doc.lines.extend(sentence.lines)
        return ended

    def _new(self, first: Sentence) -> CorefUDDocument:
        """The document a sentence begins: named by its ``# newdoc id``,
        numbered after a bare ``# newdoc``, unnamed before any ``# newdoc``."""
        self.count += 1
        doc_id = first.newdoc if isinstance(first.newdoc, str) else (self.count if first.newdoc else None)
        return CorefUDDocument(self.path, self.count - 1, doc_id, first.newdoc)
