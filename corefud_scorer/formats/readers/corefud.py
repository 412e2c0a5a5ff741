"""The CorefUD reader: CorefUD 1.x CoNLL-U files, one document at a time.

Two layers:

* a light pass over the text (:func:`read_documents`) that validates the
  CoNLL-U structure with exact line numbers and keeps, per sentence, what the
  alignment check needs (``sent_id``, ``# newdoc``, word forms):
  :mod:`.corefud_raw` reads the file into documents, :mod:`.corefud_sentence`
  validates each sentence, and :mod:`.file_entities` follows the entity ids
  that recur across documents;
* Udapi (:meth:`CorefUDDocument.load`, :mod:`.corefud_document` and
  :mod:`.corefud_udapi`), which parses each document and materialises its
  coreference layer (``Entity=`` in MISC), turned into the format-free
  :mod:`corefud_scorer.model`.

Documents are handed over one by one so that a whole corpus never has to be
held in memory.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..problems import STOP, Problems
from .profiles import PROFILES
from ...model import Document
from .corefud_document import CorefUDDocument
from .corefud_raw import iter_raw_documents
from .file_entities import FileEntities

FORMAT = "corefud"
# How a document starts (counted for a progress bar).
DOCUMENT_START = b"# newdoc"
# The file names of the format (bench pairs folders of them, convert writes them).
SUFFIXES = (".conllu",)
PROFILE = PROFILES[FORMAT]


def read_documents(path: str, side: str = "key", words: bool = False,
                   problems: Problems = STOP) -> Iterator[CorefUDDocument]:
    """Yield the documents of a CoNLL-U file, validated line by line.

    ``words`` gives Udapi the UPOS and FEATS columns too (blanked otherwise,
    for speed), and the loaded documents their words (``Document.text``),
    which error analysis reads. Problems go to ``problems`` (the first is
    raised, unless they are collected).
    A file without ``# newdoc`` is one document; sentences before the first
    ``# newdoc`` form a document of their own.
    """
    header: dict = {}
    file_entities = None
    for doc in iter_raw_documents(path, header, words, problems):
        doc.entity_header = header.get("global.Entity")
        doc.words = words
        doc.entity_scope = _entity_scope(doc.entity_header)
        if doc.entity_scope == "file":
            if file_entities is None:
                file_entities = FileEntities(path, doc.entity_header)
            file_entities.see(doc)
        yield doc
    if file_entities is not None:
        file_entities.finish(problems)


def _entity_scope(entity_header: str | None) -> str:
    """GRP ids (UD GUM's header) are numbered per document, so an entity
    cannot span documents; other ids name one entity in the whole file."""
    if entity_header and "GRP" in entity_header.split("-"):
        return "document"
    return "file"


def sniff(head: str) -> bool:
    """CoNLL-U: a comment or a token line of ten tab-separated columns."""
    for line in head.splitlines():
        if line.strip() and not line.startswith("#"):
            return line.count("\t") == 9
        if line.startswith(("# global.Entity", "# newdoc", "# sent_id")):
            return True
    return False


def read_file(path: str) -> list[Document]:
    """Read every document of a file (convenience for the API and tests)."""
    return [doc.load() for doc in read_documents(path)]
