"""Write CoNLL-2012 files: a document between ``#begin document (NAME);
part PART`` and ``#end document``, a token a line (twelve columns, the
last the coreference brackets), a blank line after each sentence. The
brackets are the reader's (:func:`readers.conll2012.coreference_column`),
so that a file read back gives the same mentions in the same order."""

from __future__ import annotations

from ..readers.conll2012 import conll_identity, coreference_column
from ..readers.jsonlines import jsonlines_identity
from . import TextDocument, token_spans
from ..readers.conll2012 import SUFFIXES  # noqa: F401  (the writer is chosen by the reader's file names)

FORMAT = "conll"


def name_and_part(name: str | None, index: int) -> tuple[str, int]:
    """A CoNLL-2012 document name and part: the name's own where it has
    them (``(NAME); part PART``, or a jsonlines ``NAME_PART``), else part 0."""
    if name is None:
        return f"document_{index + 1}", 0
    if name.startswith("("):
        found, part = conll_identity(name)
    else:
        found, part = jsonlines_identity(name)
    return found.replace(" ", "_"), part


def _form(form: str) -> str:
    return "_".join(form.split()) or "_"


def write(documents, handle, lost) -> None:
    for index, doc in enumerate(documents):
        doc: TextDocument
        name, part = name_and_part(doc.name if isinstance(doc.name, str) else None, index)
        spans = token_spans(doc, lost)
        column = coreference_column(sum(map(len, doc.forms)), [(str(e), s) for e, s in enumerate(spans)])
        handle.write(f"#begin document ({name}); part {part:03d}\n")
        at = 0
        for forms in doc.forms:
            for k, form in enumerate(forms):
                handle.write(f"{name}\t{part}\t{k}\t{_form(form)}\t-\t-\t-\t-\t-\t-\t*\t{column[at]}\n")
                at += 1
            handle.write("\n")
        handle.write("#end document\n")
