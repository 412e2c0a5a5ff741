"""Read OntoNotes-style jsonlines files, one JSON object (a document) a line.

Three shapes are read, as the neural coreference systems write them:

* tokens (e2e-coref, coref-hoi): ``doc_key``, ``sentences`` (lists of
  tokens) and ``clusters``, lists of ``[start, end]`` token offsets over
  the whole document, both inclusive;
* word pieces (the same with ``subtoken_map`` and ``sentence_map``):
  ``sentences`` hold pieces and the offsets count pieces; a mention runs
  from its first piece's word to its last piece's word, a word's form is
  its pieces joined (``##`` taken off, ``[CLS]``-like pieces left out);
* words (wl-coref): ``document_id``, ``cased_words``, ``sent_id`` (a
  sentence number per word) and ``span_clusters``, ``[start, end)`` word
  offsets, the end exclusive.

Other fields (``speakers``, ``constituents``, ``ner``, ``head_clusters``…)
are ignored. A document is its line; ``doc_key`` ``NAME_PART`` is the
CoNLL-2012 document ``#begin document (NAME); part PART``, so that a
jsonlines response pairs with a CoNLL-2012 key. Mentions are matched
exactly and read in the order the same clusters have in their CoNLL-2012
form (:func:`conll2012.coreference_column`), so that both forms get
``scorer.pl`` v8.01's numbers, repeated spans included.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import accumulate
from dataclasses import dataclass

from ...errors import ScorerError
from ...model import Sentence
from .profiles import PROFILES
from .conll2012 import ConllDocument, conll_order
from .files import read_text
from .limits import limits, nesting_error

FORMAT = "jsonlines"
# How a document starts (counted for a progress bar): one object a line.
DOCUMENT_START = b"{"
# The file names of the format (bench pairs folders of them, convert writes them).
SUFFIXES = (".jsonl", ".jsonlines")
PROFILE = PROFILES[FORMAT]

# Pieces a word-piece model adds around sentences, which are no word's text.
SPECIAL_PIECES = frozenset({"[CLS]", "[SEP]", "<s>", "</s>", "[PAD]"})
STYLES = {
    "tokens": ("doc_key", "sentences", "clusters"),
    "pieces": ("doc_key", "sentences", "clusters", "subtoken_map", "sentence_map"),
    "words": ("document_id", "cased_words", "span_clusters"),
}


def sniff(head: str) -> bool:
    """A jsonlines file's first line is a JSON object."""
    return head.lstrip().startswith("{")


def jsonlines_identity(doc_key: str):
    """``NAME_PART`` as ``(NAME, PART)``, the part an integer, as the
    CoNLL-2012 document ``(NAME); part PART`` is identified (a key without
    a part is part 0)."""
    name, _, part = doc_key.rpartition("_")
    return (name, int(part)) if name and part.isdecimal() else (doc_key, 0)


@dataclass
class JsonlinesDocument(ConllDocument):
    """One line of a jsonlines file, read as a CoNLL-2012 document is:
    the same token spans, in the same order. ``sentence_free`` when the
    line gives no sentence boundaries (one sentence): it then takes the
    sentences of the document it is checked against."""

    sentence_free: bool = False

    def identity(self):
        return jsonlines_identity(self.newdoc)

    def regroup(self, lengths: list[int]) -> bool:
        if not self.sentence_free or sum(lengths) != self.tokens:
            return False
        (only,) = self.sentences
        sentences, at = [], 0
        for length in lengths:
            sentences.append(Sentence(only.line, None, None, only.forms[at:at + length],
                                      only.word_lines[at:at + length]))
            at += length
        self.sentences = sentences
        return True


def _style(obj: dict, path: str, lineno: int) -> str:
    if all(name in obj for name in STYLES["pieces"]):
        return "pieces"
    for style in ("tokens", "words"):
        if all(name in obj for name in STYLES[style]):
            return style
    found = ", ".join(sorted(obj)) or "none"
    shapes = "; ".join(f"{style}: {', '.join(names)}" for style, names in STYLES.items())
    raise ScorerError(f"not a jsonlines document of a known shape (fields found: {found}; "
                      f"expected {shapes})", (path, lineno))


def _list_of(value, what: str, path: str, lineno: int, kind=None) -> list:
    # JSON gives exact types: an integer is of type int, never bool.
    if type(value) is not list or (kind is not None and not set(map(type, value)) <= {kind}):
        expected = "a list" if kind is None else f"a list of {'integers' if kind is int else 'strings'}"
        raise ScorerError(f"{what} is not {expected}", (path, lineno))
    return value


def _clusters(value, field: str, size: int, exclusive: bool, path: str, lineno: int,
              unit: str = "tokens") -> list[list[tuple[int, int]]]:
    """The clusters as inclusive (first, last) offsets, each checked."""
    out = []
    for c, cluster in enumerate(_list_of(value, f"'{field}'", path, lineno), 1):
        spans = []
        for m, span in enumerate(_list_of(cluster, f"'{field}' cluster {c}", path, lineno), 1):
            where = f"'{field}' cluster {c}, mention {m}"
            if type(span) is not list or len(span) != 2 or type(span[0]) is not int or type(span[1]) is not int:
                raise ScorerError(f"{where}: {json.dumps(span)} is not a pair of integer offsets",
                                  (path, lineno))
            start, end = span
            last = end - 1 if exclusive else end
            if last < start:
                raise ScorerError(f"{where}: {json.dumps(span)} ends before it starts", (path, lineno))
            if start < 0 or last >= size:
                raise ScorerError(f"{where}: {json.dumps(span)} is past the document "
                                  f"({size} {unit})", (path, lineno))
            spans.append((start, last))
        out.append(spans)
    return out


def _within_nesting(clusters: list[list[tuple[int, int]]], size: int, path: str, lineno: int) -> None:
    """Refuses a document with a word in more mentions than the limit
    (:mod:`.limits`): the mentions over each word counted in one pass."""
    change = [0] * (size + 1)
    for spans in clusters:
        for start, last in spans:
            change[start] += 1
            change[last + 1] -= 1
    covering = max(accumulate(change), default=0)
    if covering > limits().mentions_per_word:
        raise nesting_error(covering, (path, lineno))


def _words_of_pieces(obj: dict, path: str, lineno: int):
    """Words (forms), their sentence numbers and each piece's word."""
    pieces = [p for sentence in _list_of(obj["sentences"], "'sentences'", path, lineno)
              for p in _list_of(sentence, "a sentence of 'sentences'", path, lineno, str)]
    word_of = _list_of(obj["subtoken_map"], "'subtoken_map'", path, lineno, int)
    sentence_of = _list_of(obj["sentence_map"], "'sentence_map'", path, lineno, int)
    for name, values in (("subtoken_map", word_of), ("sentence_map", sentence_of)):
        if len(values) != len(pieces):
            raise ScorerError(f"'{name}' has {len(values)} entries for {len(pieces)} pieces",
                              (path, lineno))
    count = max(word_of) + 1 if word_of else 0
    forms: list[list[str]] = [[] for _ in range(count)]
    sentence = [None] * count
    for piece, word, s in zip(pieces, word_of, sentence_of):
        if word < 0:
            raise ScorerError(f"'subtoken_map' maps a piece to word {word}", (path, lineno))
        if sentence[word] is None:
            sentence[word] = s
        if piece not in SPECIAL_PIECES:
            forms[word].append(piece[2:] if piece.startswith("##") and forms[word] else piece)
    missing = next((w for w, s in enumerate(sentence) if s is None), None)
    if missing is not None:
        raise ScorerError(f"'subtoken_map' gives no piece to word {missing}", (path, lineno))
    return ["".join(f) or "_" for f in forms], sentence, word_of


def _document(obj: dict, path: str, index: int, lineno: int, words: bool) -> JsonlinesDocument:
    style = _style(obj, path, lineno)
    name_field = "document_id" if style == "words" else "doc_key"
    name = obj[name_field]
    if not isinstance(name, str):
        raise ScorerError(f"'{name_field}' is not a string", (path, lineno))
    if style == "words":
        forms = _list_of(obj["cased_words"], "'cased_words'", path, lineno, str)
        sent_ids = obj.get("sent_id")
        if sent_ids is None:
            sentence_of = [0] * len(forms)
        else:
            sentence_of = _list_of(sent_ids, "'sent_id'", path, lineno, int)
            if len(sentence_of) != len(forms):
                raise ScorerError(f"'sent_id' has {len(sentence_of)} entries for {len(forms)} words",
                                  (path, lineno))
        clusters = _clusters(obj["span_clusters"], "span_clusters", len(forms), True, path, lineno, "words")
    elif style == "pieces":
        forms, sentence_of, word_of = _words_of_pieces(obj, path, lineno)
        clusters = [[(word_of[a], word_of[b]) for a, b in spans]
                    for spans in _clusters(obj["clusters"], "clusters", len(word_of), False, path, lineno,
                                           "pieces")]
    else:
        sentences = _list_of(obj["sentences"], "'sentences'", path, lineno)
        forms, sentence_of = [], []
        for s, sentence in enumerate(sentences):
            tokens = _list_of(sentence, f"sentence {s + 1} of 'sentences'", path, lineno, str)
            forms.extend(tokens)
            sentence_of.extend([s] * len(tokens))
        clusters = _clusters(obj["clusters"], "clusters", len(forms), False, path, lineno)
    if not forms:
        raise ScorerError(f"document {name!r} has no token", (path, lineno))
    _within_nesting(clusters, len(forms), path, lineno)
    lengths: list[int] = []
    for previous, s in zip([None, *sentence_of], sentence_of):
        if s != previous:
            lengths.append(0)
        lengths[-1] += 1
    doc = JsonlinesDocument(path, index, name, name, [], "document", lineno, sentence_free=len(lengths) == 1)
    at = 0
    for length in lengths:
        doc.sentences.append(Sentence(lineno, None, None, forms[at:at + length], [lineno] * length))
        at += length
    # The mentions in the order the CoNLL-2012 form of these clusters gives them.
    doc.entities, order = conll_order(clusters)
    doc.entity_ids = [str(c) for c in order]
    doc.mention_lines = [[lineno] * len(spans) for spans in doc.entities]
    if words:
        doc.words = [(form, None) for form in forms]
    return doc


def read_documents(path: str, side: str = "key", words: bool = False) -> Iterator[JsonlinesDocument]:
    """Yield the documents of a jsonlines file, one a non-blank line.

    Errors (``FILE:LINE: problem``): a line that is not a JSON object, a
    document of no known shape (its fields named), a field of the wrong
    type, offsets past the document or ending before they start, a
    document name used twice, a file without documents."""
    text = read_text(path, "jsonlines")
    seen: dict[str, int] = {}
    index = 0
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as err:
            raise ScorerError(f"not a JSON object ({getattr(err, 'msg', err)}, column "
                              f"{getattr(err, 'colno', '?')})", (path, lineno)) from None
        if not isinstance(obj, dict):
            raise ScorerError(f"a JSON {type(obj).__name__}, not an object (a document)", (path, lineno))
        doc = _document(obj, path, index, lineno, words)
        if doc.doc_id in seen:
            raise ScorerError(f"document {doc.doc_id!r} given a second time (first at line "
                              f"{seen[doc.doc_id]})", (path, lineno))
        seen[doc.doc_id] = lineno
        index += 1
        yield doc
    if index == 0:
        raise ScorerError("holds no document (no JSON object line): not a jsonlines file", (path, None))
