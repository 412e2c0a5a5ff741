"""Write CoNLL-2012 files: a document between ``#begin document (NAME);
part PART`` and ``#end document``, a token a line (the name, the part, the
word's number, its form, the columns a CoNLL-2012 source has between the
form and the coreference, else its part-of-speech tag and ``-`` for the
parse and the rest; the last column the coreference brackets), a blank line
after each sentence. The brackets are the reader's
(:func:`..readers.conll2012.coreference_column`), so that a file read back
gives the same mentions in the same order."""

from __future__ import annotations

from ..readers.conll2012 import coreference_column
from . import TextDocument, layers, spaceless, token_spans
from ..readers.source_text import UPOS, XPOS
from ..readers.conll2012 import SUFFIXES  # noqa: F401  (the writer is chosen by the reader's file names)

FORMAT = "conll"
HOLDS = layers.CONLL


def _middle(row) -> list[str]:
    """The columns between the form and the coreference."""
    if row is not None and row.conll is not None:
        return row.conll
    tag = "-" if row is None else next((c for c in (row.cells[XPOS], row.cells[UPOS]) if c != "_"), "-")
    return [tag, "-", "-", "-", "-", "-", "*"]


def write(documents, handle, lost) -> None:
    for index, doc in enumerate(documents):
        doc: TextDocument
        name, part = doc.names_or_default(index).conll
        name = name.replace(" ", "_")
        spans = token_spans(doc, lost)
        column = coreference_column(sum(map(len, doc.forms)), [(str(e), s) for e, s in enumerate(spans)])
        words = ([[row for row in sentence.rows if row.is_word] for sentence in doc.text.sentences]
                 if doc.text is not None else [[None] * len(forms) for forms in doc.forms])
        handle.write(f"#begin document ({name}); part {part:03d}\n")
        at = 0
        for forms, rows in zip(doc.forms, words):
            for k, (form, row) in enumerate(zip(forms, rows)):
                cells = [name, str(part), str(k), spaceless(form, lost), *_middle(row), column[at]]
                handle.write("\t".join(cells) + "\n")
                at += 1
            handle.write("\n")
        handle.write("#end document\n")
