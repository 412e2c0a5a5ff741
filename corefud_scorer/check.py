"""Check that key and response are the same text: documents, sentences, words.

Empty nodes are exempt: a response may add, drop or move them.
"""

from __future__ import annotations

from .errors import ScorerError
from .model import SourceDocument


def _describe(value) -> str:
    if value is True:
        return "'# newdoc' without id"
    if value is None:
        return "no '# newdoc'"
    return repr(value)


def check_documents(key: SourceDocument, response: SourceDocument, check_forms: bool = True) -> None:
    """Raise :class:`ScorerError` naming both places at the first difference.
    Without ``check_forms`` the words' number is compared, not their forms."""
    if key.newdoc != response.newdoc:
        raise ScorerError(
            f"document starts differ: {_describe(key.newdoc)} vs {_describe(response.newdoc)}",
            (key.path, key.first_line), (response.path, response.first_line))
    for k_sent, r_sent in zip(key.sentences, response.sentences):
        if k_sent.newdoc != r_sent.newdoc:
            raise ScorerError(
                f"document starts differ: {_describe(k_sent.newdoc)} vs {_describe(r_sent.newdoc)}",
                (key.path, k_sent.line), (response.path, r_sent.line))
        if k_sent.sent_id != r_sent.sent_id:
            raise ScorerError(
                f"sent_id differs: {k_sent.sent_id!r} vs {r_sent.sent_id!r}",
                (key.path, k_sent.line), (response.path, r_sent.line))
        if check_forms and k_sent.forms != r_sent.forms:
            for i, (k_form, r_form) in enumerate(zip(k_sent.forms, r_sent.forms)):
                if k_form != r_form:
                    raise ScorerError(
                        f"word {i + 1} of sentence {k_sent.sent_id!r} differs: {k_form!r} vs {r_form!r}",
                        (key.path, k_sent.word_lines[i]), (response.path, r_sent.word_lines[i]))
        if len(k_sent.word_lines) != len(r_sent.word_lines):
            raise ScorerError(
                f"sentence {k_sent.sent_id!r} has {len(k_sent.word_lines)} words in the key, "
                f"{len(r_sent.word_lines)} in the response",
                (key.path, k_sent.line), (response.path, r_sent.line))
    if len(key.sentences) != len(response.sentences):
        longer_is_key = len(key.sentences) > len(response.sentences)
        shorter, longer = (response, key) if longer_is_key else (key, response)
        extra = longer.sentences[len(shorter.sentences)]
        sides = ("response", "key") if longer_is_key else ("key", "response")
        message = (
            f"document {key.doc_id!r} ends after {_count(len(shorter.sentences), 'sentence')} in the "
            f"{sides[0]} but goes on with sentence {extra.sent_id!r} in the {sides[1]}")
        places = [(shorter.path, shorter.sentences[-1].line), (longer.path, extra.line)]
        if longer_is_key:
            places.reverse()
        raise ScorerError(message, *places)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def missing_document(present: SourceDocument, absent_path: str, present_is_key: bool) -> ScorerError:
    """The error for a document one file has and the other lacks."""
    side = "response" if present_is_key else "key"
    return ScorerError(
        f"document {present.doc_id!r} has no counterpart: the {side} file ends before it",
        (present.path, present.first_line), (absent_path, None))
