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


FORMS_DIFFER = ("words whose form differs from the key's, scored by position as scorer.pl "
                "scores them (--form-check refuses such files)")


def check_documents(key: SourceDocument, response: SourceDocument,
                    check_forms: bool | str = True) -> list[tuple[str, str, int]]:
    """Raise :class:`ScorerError` naming both places at the first difference.
    Without ``check_forms`` the words' number is compared, not their forms;
    with ``"warn"`` differing forms are not an error: they are returned as a
    note (kind, first place, count) for the response's warnings."""
    differing, first = 0, None
    if key.identity() != response.identity():
        raise ScorerError(
            f"document starts differ: {_describe(key.newdoc)} vs {_describe(response.newdoc)}",
            (key.path, key.first_line), (response.path, response.first_line))
    if len(key.sentences) != len(response.sentences):
        # A file that keeps no sentences (one per document) is compared per document.
        response.regroup([len(s.word_lines) for s in key.sentences]) or \
            key.regroup([len(s.word_lines) for s in response.sentences])
    for number, (k_sent, r_sent) in enumerate(zip(key.sentences, response.sentences), 1):
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
                if k_form == r_form:
                    continue
                if check_forms != "warn":
                    raise ScorerError(
                        f"word {i + 1} of sentence {_name(k_sent, number)} differs: {k_form!r} vs {r_form!r}",
                        (key.path, k_sent.word_lines[i]), (response.path, r_sent.word_lines[i]))
                differing += 1
                if first is None:
                    first = (f"{response.path}:{r_sent.word_lines[i]} {r_form!r} where the key has "
                             f"{k_form!r}")
        if len(k_sent.word_lines) != len(r_sent.word_lines):
            raise ScorerError(
                f"sentence {_name(k_sent, number)} has {len(k_sent.word_lines)} words in the key, "
                f"{len(r_sent.word_lines)} in the response",
                (key.path, k_sent.line), (response.path, r_sent.line))
    if len(key.sentences) != len(response.sentences):
        longer_is_key = len(key.sentences) > len(response.sentences)
        shorter, longer = (response, key) if longer_is_key else (key, response)
        extra = longer.sentences[len(shorter.sentences)]
        sides = ("response", "key") if longer_is_key else ("key", "response")
        message = (
            f"document {key.doc_id!r} ends after {_count(len(shorter.sentences), 'sentence')} in the "
            f"{sides[0]} but goes on with sentence {_name(extra, len(shorter.sentences) + 1)} in the {sides[1]}")
        places = [(shorter.path, shorter.sentences[-1].line), (longer.path, extra.line)]
        if longer_is_key:
            places.reverse()
        raise ScorerError(message, *places)
    return [(FORMS_DIFFER, first, differing)] if differing else []


def _name(sentence, number: int) -> str:
    """A sentence by its id, or by its number where the format has no ids."""
    return repr(sentence.sent_id) if sentence.sent_id is not None else str(number)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def missing_document(present: SourceDocument, absent_path: str, present_is_key: bool) -> ScorerError:
    """The error for a document one file has and the other lacks."""
    side = "response" if present_is_key else "key"
    return ScorerError(
        f"document {present.doc_id!r} has no counterpart: the {side} file ends before it",
        (present.path, present.first_line), (absent_path, None))
