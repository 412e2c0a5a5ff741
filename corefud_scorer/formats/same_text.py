"""Check that key and response are the same text: documents, sentences, words.

Empty nodes are exempt: a response may add, drop or move them.
"""

from __future__ import annotations

from ..errors import ScorerError
from ..model import SourceDocument
from .problems import STOP, Problems


def _describe(value) -> str:
    if value is True:
        return "'# newdoc' without id"
    if value is None:
        return "no '# newdoc'"
    return repr(value)


FORMS_DIFFER = ("words whose form differs from the key's, scored by position as scorer.pl "
                "scores them (--form-check refuses such files)")


def check_documents(key: SourceDocument, response: SourceDocument,
                    check_forms: bool | str = True, problems: Problems = STOP) -> list[tuple[str, str, int]]:
    """Raise :class:`ScorerError` naming both places at the first difference.
    Without ``check_forms`` the words' number is compared, not their forms;
    with ``"warn"`` differing forms are not an error: they are returned as a
    note (kind, first place, count) for the response's warnings.

    When ``problems`` are collected, the sentences are aligned by their ids
    (by their words where they have none) and every difference is reported:
    sentences missing or added, and in each pair the first differing word."""
    differing, first = 0, None
    if key.identity() != response.identity():
        problems.error("document-start", ScorerError(
            f"document starts differ: {_describe(key.newdoc)} vs {_describe(response.newdoc)}",
            (key.path, key.first_line), (response.path, response.first_line)))
    if len(key.sentences) != len(response.sentences):
        # A file that keeps no sentences (one per document) is compared per document.
        response.regroup([len(s.word_lines) for s in key.sentences]) or \
            key.regroup([len(s.word_lines) for s in response.sentences])
    pairs = (_aligned_sentences(key, response, problems) if problems.collecting
             else enumerate(zip(key.sentences, response.sentences), 1))
    for number, (k_sent, r_sent) in pairs:
        if k_sent.newdoc != r_sent.newdoc:
            problems.error("document-start", ScorerError(
                f"document starts differ: {_describe(k_sent.newdoc)} vs {_describe(r_sent.newdoc)}",
                (key.path, k_sent.line), (response.path, r_sent.line)))
        if k_sent.sent_id != r_sent.sent_id:
            problems.error("sentence-id", ScorerError(
                f"sent_id differs: {k_sent.sent_id!r} vs {r_sent.sent_id!r}",
                (key.path, k_sent.line), (response.path, r_sent.line)))
        if check_forms and k_sent.forms != r_sent.forms:
            found = [(i, k_form, r_form) for i, (k_form, r_form) in enumerate(zip(k_sent.forms, r_sent.forms))
                     if k_form != r_form]
            if found:
                i, k_form, r_form = found[0]
                more = f" (and {_count(len(found) - 1, 'more word')} of the sentence)" if len(found) > 1 else ""
                error = ScorerError(
                    f"word {i + 1} of sentence {_name(k_sent, number)} differs: {k_form!r} vs {r_form!r}"
                    + (more if problems.collecting else ""),
                    (key.path, k_sent.word_lines[i]), (response.path, r_sent.word_lines[i]))
                if check_forms != "warn":
                    problems.error("word-form", error)
                else:
                    problems.warning("word-form", error)
                    differing += len(found)
                    if first is None:
                        first = (f"{response.path}:{r_sent.word_lines[i]} {r_form!r} where the key has "
                                 f"{k_form!r}")
        if len(k_sent.word_lines) != len(r_sent.word_lines):
            problems.error("word-count", ScorerError(
                f"sentence {_name(k_sent, number)} has {len(k_sent.word_lines)} words in the key, "
                f"{len(r_sent.word_lines)} in the response",
                (key.path, k_sent.line), (response.path, r_sent.line)))
    if len(key.sentences) != len(response.sentences) and not problems.collecting:
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


def aligned(key_labels: list, response_labels: list) -> list[tuple[int | None, int | None]]:
    """Pair two sequences by their labels, in order: ``(key index, response
    index)``, None on the side that lacks an item. Items whose labels differ
    between two pairs that agree are paired by position, as far as both
    sides have them."""
    from difflib import SequenceMatcher

    pairs: list[tuple[int | None, int | None]] = []
    matcher = SequenceMatcher(None, key_labels, response_labels, autojunk=False)
    for _, k_start, k_end, r_start, r_end in matcher.get_opcodes():
        common = min(k_end - k_start, r_end - r_start)
        pairs += [(k_start + i, r_start + i) for i in range(common)]
        pairs += [(k, None) for k in range(k_start + common, k_end)]
        pairs += [(None, r) for r in range(r_start + common, r_end)]
    return pairs


def _label(sentence) -> tuple:
    return (sentence.sent_id,) if sentence.sent_id is not None else tuple(sentence.forms)


def following(pairs: list[tuple[int | None, int | None]], lines: list[int | None]) -> list[int | None]:
    """For each pair of :func:`aligned`, the line of the next response item
    from it on (where an item the response lacks belongs), else the last one's."""
    out: list[int | None] = []
    upcoming = lines[-1] if lines else None
    for _, r in reversed(pairs):
        if r is not None:
            upcoming = lines[r]
        out.append(upcoming)
    return out[::-1]


def _aligned_sentences(key: SourceDocument, response: SourceDocument, problems: Problems):
    """The numbered sentence pairs of two documents aligned by :func:`aligned`;
    a sentence on one side only is reported, one the response lacks at the
    response's sentence it belongs before."""
    name = f"document {key.doc_id!r}" if key.doc_id is not None else "the document"
    pairs = aligned([_label(s) for s in key.sentences], [_label(s) for s in response.sentences])
    for (k, r), at in zip(pairs, following(pairs, [s.line for s in response.sentences])):
        if r is None:
            sentence = key.sentences[k]
            problems.error("sentence-missing", ScorerError(
                f"sentence {_name(sentence, k + 1)} of {name} is missing from the response",
                (key.path, sentence.line), (response.path, at)))
        elif k is None:
            sentence = response.sentences[r]
            problems.error("sentence-extra", ScorerError(
                f"sentence {_name(sentence, r + 1)} is not in the key's {name}",
                (response.path, sentence.line)))
        else:
            yield k + 1, (key.sentences[k], response.sentences[r])


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
