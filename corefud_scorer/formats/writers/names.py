"""A document's name in each format, so that a round trip gives it back.

CoNLL-2012 names a document ``(NAME); part PART``, jsonlines ``NAME_PART``
(the systems' ``doc_key``), CorefUD and UA by a plain ``# newdoc id``. A
CoNLL-2012 document of part 0 is ``NAME`` in CorefUD and UA, one of another
part ``(NAME); part PART`` (read back as that part: a plain name ending in
``_000`` could not be told from one that has a part); a plain name is part 0
in CoNLL-2012 and itself in jsonlines; a jsonlines key is itself in CorefUD
and UA and its ``NAME_PART`` in CoNLL-2012.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..readers.conll2012_document import RE_NAME_PART, conll_identity


@dataclass(frozen=True)
class DocumentName:
    """One document's name as CorefUD and UA (``plain``), CoNLL-2012
    (``conll``: name and part) and jsonlines (``key``) write it."""

    plain: str
    conll: tuple[str, int]
    key: str


def document_name(doc_id, identity, index: int) -> DocumentName:
    """The names of the ``index``-th document (from 0) of a file, named
    ``doc_id``; ``identity`` is what its reader pairs it by (a CoNLL-2012
    or jsonlines document's name and part; None for a name alone)."""
    if not isinstance(doc_id, str):
        plain = f"document_{index + 1}"
        return DocumentName(plain, (plain, 0), plain)
    conll_named = RE_NAME_PART.match(doc_id) is not None
    if isinstance(identity, tuple) and conll_named:  # a CoNLL-2012 document
        name, part = identity
        return DocumentName(name if part == 0 else f"({name}); part {part:03d}", (name, part), f"{name}_{part}")
    if isinstance(identity, tuple):  # a jsonlines key
        return DocumentName(doc_id, tuple(identity), doc_id)
    if conll_named:  # a plain name given to a CoNLL-2012 document of another part
        name, part = conll_identity(doc_id)
        return DocumentName(doc_id, (name, part), f"{name}_{part}")
    return DocumentName(doc_id, (doc_id, 0), doc_id)
