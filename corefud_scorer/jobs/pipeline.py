"""The scoring core: documents from any reader, streamed through the
alignment check, matched, partitioned and measured, in a process pool, with
warnings counted by kind.

The steps of one document pair (:func:`score_document`), in the pipeline's
order: load (the reader's parse) -> match (:func:`align_documents`) ->
partition -> metrics.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import zip_longest
from typing import Iterator

from .. import memory
from ..formats import readers
from ..formats.same_text import check_documents, missing_document
from ..alignment.match import align, identity_function
from ..model import Document, SourceDocument
from .parallel import ordered_map
from ..alignment.contingency import Partition, partition, prepare
from ..measures.document import partition_result
from ..results import DocumentResult, Options


def align_documents(key_doc: Document, response_doc: Document, options: Options) -> Partition:
    """Prepare both sides (repeats and singletons), align their mentions and
    build the contingency: match -> partition."""
    identity = identity_function(options.match)
    key = prepare(key_doc, identity, options.keep_singletons, **options.preparation())
    response = prepare(response_doc, identity, options.keep_singletons, **options.preparation())
    alignment = align(key.distinct, response.distinct, options.match, options.zero_match)
    return partition(key_doc.doc_id, key, response, alignment, identity)


# --- warnings ---

# Kinds counted, not warned about: what the options asked for.
COUNTED = ("key_singletons_dropped", "response_singletons_dropped")


class Warnings:
    """Counts each kind of warning; reported once per kind, with the total
    and the first place it was seen."""

    def __init__(self):
        self.kinds: dict[str, list] = {}

    def add(self, kind: str, example: str, count: int = 1):
        entry = self.kinds.setdefault(kind, [0, example])
        entry[0] += count

    def lines(self) -> list[str]:
        return [f"{kind}: {count} (first in {example})" if example.startswith("document")
                else f"{kind}: {count} (first: {example})"
                for kind, (count, example) in self.kinds.items()]


def document_notes(p: Partition, key_doc: Document, response_doc: Document) -> list[tuple]:
    """What to warn about one scored document: (side, kind, example, count)."""
    doc = f"document {p.doc_id!r}"
    notes = []
    for label, model_doc, side in (("key", key_doc, p.key), ("response", response_doc, p.response)):
        for kind, example in model_doc.warnings:
            notes.append((label, kind, example, 1))
        dropped = side.dropped
        if dropped.repeated_mentions:
            notes.append((label, "mentions repeated within their entity, counted once",
                          doc, dropped.repeated_mentions))
        if dropped.merged_plurals:
            notes.append((label, "entities standing for the same split antecedent, merged",
                          doc, dropped.merged_plurals))
        if dropped.shared_spans:
            notes.append((label, "spans in more than one entity (scored as scorer 1.2 does)",
                          doc, dropped.shared_spans))
    return notes


@dataclass
class Outcome:
    """What scoring one document pair sends back (from a worker process too)."""

    result: DocumentResult
    key_eids: list[str]       # entity ids that can recur in later documents
    response_eids: list[str]
    notes: list[tuple]        # (side, kind, first example, count)
    dropped: dict[str, int]   # counted kinds (COUNTED) -> number, both sides


def _file_eids(source: SourceDocument, doc: Document) -> list[str]:
    return [e.eid for e in doc.entities] if source.entity_scope == "file" else []


def reads_as_v8(options: Options) -> bool:
    """Whether the files' format reads repeated spans as scorer.pl v8.01 does."""
    return options.format is not None and readers.profile(options.format).repeated_spans == "v8.01"


def score_document(key_source: SourceDocument, response_source: SourceDocument,
                   options: Options) -> Outcome:
    """Load, align and score one pair of checked documents."""
    memory.between_documents()
    if reads_as_v8(options):
        # CoNLL-2012: the reference scorer v8.01's reading and metrics.
        from ..v801.scoring import score_chains

        return _with_check_notes(Outcome(*score_chains(key_source, response_source, options)), response_source)
    key_doc = key_source.load()
    return _with_check_notes(_outcome(key_source, key_doc, response_source, options), response_source)


def score_settings_against_key(key_source: SourceDocument, response_sources: list[SourceDocument],
                               settings: list[Options]) -> list[list[Outcome]]:
    """Load a key document and each system's document once and score them
    under several settings (matching, singletons): per setting, one outcome
    per system."""
    memory.between_documents()
    if any(reads_as_v8(options) for options in settings):
        from ..v801.scoring import score_chains

        return [[_with_check_notes(Outcome(*score_chains(key_source, response_source, options)), response_source)
                 for response_source in response_sources] for options in settings]
    key_doc = key_source.load()
    response_docs = [response_source.load() for response_source in response_sources]
    return [[_with_check_notes(_outcome_of(key_source, key_doc, response_source, response_doc, options),
                               response_source)
             for response_source, response_doc in zip(response_sources, response_docs)]
            for options in settings]


def _with_check_notes(outcome: "Outcome", response_source: SourceDocument) -> "Outcome":
    """The outcome with what the check noticed in the response (word forms
    that differ, where they are allowed to)."""
    outcome.notes.extend(("response", kind, example, count)
                         for kind, example, count in response_source.check_notes)
    return outcome


def _outcome(key_source: SourceDocument, key_doc: Document, response_source: SourceDocument,
             options: Options) -> Outcome:
    return _outcome_of(key_source, key_doc, response_source, response_source.load(), options)


def _outcome_of(key_source: SourceDocument, key_doc: Document, response_source: SourceDocument,
                response_doc: Document, options: Options) -> Outcome:
    p = align_documents(key_doc, response_doc, options)
    result = partition_result(p, options, key_source.tokens)
    notes = document_notes(p, key_doc, response_doc)
    dropped = {"key_singletons_dropped": p.key.dropped.singletons,
               "response_singletons_dropped": p.response.dropped.singletons}
    return Outcome(result, _file_eids(key_source, key_doc), _file_eids(response_source, response_doc),
                   notes, dropped)


def paired_documents(key_docs: Iterator[SourceDocument], response_docs: Iterator[SourceDocument],
                     key_path: str, response_path: str, check_forms: bool | str = True):
    """Pair the documents of two files in order, checking each pair."""
    for key, response in zip_longest(key_docs, response_docs):
        if response is None:
            raise missing_document(key, response_path, present_is_key=True)
        if key is None:
            raise missing_document(response, key_path, present_is_key=False)
        response.check_notes = check_documents(key, response, check_forms)
        # Checked: the word forms are not needed again (nor sent to workers).
        key.drop_forms()
        response.drop_forms()
        yield key, response


def documents_against_key(key_docs: Iterator[SourceDocument], response_docs: list[Iterator[SourceDocument]],
                          key_path: str, response_paths: list[str], check_forms: bool | str = True):
    """Pair each key document with the documents of several response files
    in order, checking each against the key: ``(key, [responses])``."""
    for key, *responses in zip_longest(key_docs, *response_docs):
        if key is None:
            present = next(r for r in responses if r is not None)
            raise missing_document(present, key_path, present_is_key=False)
        for response, path in zip(responses, response_paths):
            if response is None:
                raise missing_document(key, path, present_is_key=True)
            response.check_notes = check_documents(key, response, check_forms)
        key.drop_forms()
        for response in responses:
            response.drop_forms()
        yield key, responses


@dataclass
class Stream:
    """One key/response pair of files as documents, with their names."""

    key_name: str
    response_name: str
    pairs: Iterator[tuple[SourceDocument, SourceDocument]]


@dataclass
class Scored:
    """What scoring one :class:`Stream` gives: documents, warnings, counts."""

    documents: list[DocumentResult]
    warnings: list[str]
    counts: dict[str, int]


def _task(task):
    index, key, response, options = task
    return index, score_document(key, response, options)


def _systems_task(task):
    index, key, responses, settings = task
    return index, score_settings_against_key(key, responses, settings)


@dataclass
class KeyedStream:
    """One key file and several response files as documents: each key
    document with the response files' documents, in file order."""

    key_name: str
    response_names: list[str]
    documents: Iterator[tuple[SourceDocument, list[SourceDocument]]]


def score_streams(streams: list[Stream], options: Options, jobs: int = 1, progress=None) -> list[Scored]:
    """Score several streams; documents of all of them go through one pool of
    ``jobs`` processes and come back in order, so nothing depends on
    ``jobs``. ``progress``, if given, is called with each stream index and
    :class:`DocumentResult` as it is scored."""

    def tasks():
        for index, stream in enumerate(streams):
            for key, response in stream.pairs:
                yield index, key, response, options

    return _collect(streams, ordered_map(_task, tasks(), jobs), progress)


def score_keyed_streams_settings(streams: list[KeyedStream], settings: list[Options], jobs: int = 1,
                                 progress=None) -> list[list[list[Scored]]]:
    """Score several systems against each key under several settings at once,
    each key and response document read and loaded once for all of them: per
    setting, per key stream, one :class:`Scored` per response file.
    ``progress`` is called once per document pair, with the flat index of
    the (key, response) pair (key streams in order, then responses in order)
    and the first setting's result."""
    offsets, flat = [], []
    for stream in streams:
        offsets.append(len(flat))
        flat += [Stream(stream.key_name, name, iter(())) for name in stream.response_names]

    def tasks():
        for index, stream in enumerate(streams):
            for key, responses in stream.documents:
                yield index, key, responses, settings

    def outcomes():
        for index, per_setting in ordered_map(_systems_task, tasks(), jobs):
            for s, results in enumerate(per_setting):
                for system, outcome in enumerate(results):
                    yield s * len(flat) + offsets[index] + system, outcome

    def first_setting(index, result):
        if index < len(flat):
            progress(index, result)

    scored = _collect(flat * len(settings), outcomes(), first_setting if progress is not None else None)
    return [[scored[s * len(flat) + offset:s * len(flat) + offset + len(stream.response_names)]
             for offset, stream in zip(offsets, streams)] for s in range(len(settings))]


def _collect(streams: list[Stream], outcomes, progress) -> list[Scored]:
    """Add up ``(stream index, Outcome)`` pairs, in order, per stream."""
    warnings = [Warnings() for _ in streams]
    documents: list[list[DocumentResult]] = [[] for _ in streams]
    counts = [dict.fromkeys(COUNTED, 0) for _ in streams]
    seen_eids = [({}, {}) for _ in streams]
    for index, outcome in outcomes:
        stream = streams[index]
        doc_id = outcome.result.doc_id
        for seen, eids, label in ((seen_eids[index][0], outcome.key_eids, f"key {stream.key_name}"),
                                  (seen_eids[index][1], outcome.response_eids,
                                   f"response {stream.response_name}")):
            for eid in eids:
                first = seen.setdefault(eid, doc_id)
                if first != doc_id:
                    warnings[index].add(f"{label}: entities spanning documents, split per document",
                                        f"{eid} in documents {first!r} and {doc_id!r}")
        names = {"key": stream.key_name, "response": stream.response_name}
        for side, kind, example, count in outcome.notes:
            warnings[index].add(f"{side} {names[side]}: {kind}", example, count)
        for kind, count in outcome.dropped.items():
            counts[index][kind] += count
        documents[index].append(outcome.result)
        if progress is not None:
            progress(index, outcome.result)
    return [Scored(d, w.lines(), c) for d, w, c in zip(documents, warnings, counts)]
