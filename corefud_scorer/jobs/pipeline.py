"""The pipeline every command shares: files and options in, worked
documents out.

Groups of files (a key and its responses; one group per dataset) are
opened (:func:`opened`: standard input spooled, the format found by the
readers' seam and the options given that format's defaults, once for all
commands), read document by document, each response document checked
against its key document (:func:`documents_against_key`), and each key
document with its responses goes to a worker under one or more settings
(:func:`work_keyed`). The work is scoring (:func:`score_against_key`: load
-> match -> partition -> metrics, added up by :func:`score_keyed`) or the
error analysis's (:mod:`~corefud_scorer.jobs.error_analysis`). A single pair of files is one
group of one response under one setting.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter, namedtuple
from collections.abc import Callable, Iterator
from itertools import zip_longest

from .. import memory
from ..alignment.contingency import Partition, partition, prepare
from ..alignment.match import align, identity_function
from ..errors import ScorerError
from ..formats import readers
from ..formats.inputs import local_files, named_in
from ..formats.readers import read_against_key, resolve_format
from ..formats.same_text import check_documents, missing_document
from ..measures.document import partition_result
from ..measures.totals import summarize, summarize_synchronised
from ..model import Document, SourceDocument, breakdown
from ..provenance import file_digest, option_settings
from ..results import DocumentResult, Options, Result
from .options import for_format
from .parallel import ordered_map


def align_documents(key_doc: Document, response_doc: Document, options: Options) -> Partition:
    """Prepare both sides (repeats and singletons), align their mentions and
    build the contingency: match -> partition (under ``options`` settled:
    :func:`~corefud_scorer.jobs.options.for_format`)."""
    options = for_format(options)
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

    def add(self, kind: str, example: str, count=1):
        """``count``: a number, or a Counter of what was counted by name
        (its line then gives each name's total)."""
        entry = self.kinds.setdefault(kind, [None, example])
        entry[0] = count if entry[0] is None else entry[0] + count

    def lines(self) -> list[str]:
        out = []
        for kind, (count, example) in self.kinds.items():
            total = breakdown(count) if isinstance(count, Counter) else count
            out.append(f"{kind}: {total} (first in {example})" if example.startswith("document")
                       else f"{kind}: {total} (first: {example})")
        return out


def document_notes(p: Partition, key_doc: Document, response_doc: Document) -> list[tuple]:
    """What to warn about one scored document: (side, kind, example, count)."""
    doc = f"document {p.doc_id!r}"
    notes = []
    for label, model_doc, side in (("key", key_doc, p.key), ("response", response_doc, p.response)):
        for kind, example, *count in model_doc.warnings:
            notes.append((label, kind, example, count[0] if count else 1))
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


class Outcome(namedtuple("Outcome", "result key_eids response_eids notes dropped")):
    """What scoring one document pair sends back (from a worker process
    too): the document's result, the entity ids that can recur in later
    documents on each side, the ``notes`` ((side, kind, first example,
    count) each) and what was ``dropped`` (counted kinds (COUNTED) ->
    number, both sides)."""

    __slots__ = ()


def _file_eids(source: SourceDocument, doc: Document) -> list[str]:
    return [e.eid for e in doc.entities] if source.entity_scope == "file" else []


def reads_as_v8(options: Options) -> bool:
    """Whether the files' format reads repeated spans as scorer.pl v8.01 does."""
    return options.format is not None and readers.profile(options.format).repeated_spans == "v8.01"


# --- the work on one key document and its responses ---

def score_against_key(key_source: SourceDocument, response_sources: list[SourceDocument],
                      settings: list[Options]) -> list[list[Outcome]]:
    """Load a key document and each response's document once and score them
    under each setting (matching, singletons): per setting, one outcome per
    response."""
    memory.between_documents()
    if any(reads_as_v8(options) for options in settings):
        # CoNLL-2012: the reference scorer v8.01's reading and metrics.
        from ..v801.scoring import score_chains

        return [[_with_check_notes(Outcome(*score_chains(key_source, response_source, options)), response_source)
                 for response_source in response_sources] for options in settings]
    key_doc = key_source.load()
    response_docs = [response_source.load() for response_source in response_sources]
    return [[_with_check_notes(_outcome_of(key_source, key_doc, response_source, response_doc, options),
                               response_source)
             for response_source, response_doc in zip(response_sources, response_docs)]
            for options in settings]


def _with_check_notes(outcome: Outcome, response_source: SourceDocument) -> Outcome:
    """The outcome with what the check noticed in the response (word forms
    that differ, where they are allowed to)."""
    outcome.notes.extend(("response", kind, example, count)
                         for kind, example, count in response_source.check_notes)
    return outcome


def _outcome_of(key_source: SourceDocument, key_doc: Document, response_source: SourceDocument,
                response_doc: Document, options: Options) -> Outcome:
    p = align_documents(key_doc, response_doc, options)
    result = partition_result(p, options, key_source.tokens)
    notes = document_notes(p, key_doc, response_doc)
    dropped = {"key_singletons_dropped": p.key.dropped.singletons,
               "response_singletons_dropped": p.response.dropped.singletons}
    return Outcome(result, _file_eids(key_source, key_doc), _file_eids(response_source, response_doc),
                   notes, dropped)


# --- from files to keyed streams of documents ---

class Group(namedtuple("Group", "key responses")):
    """One key file and its response files, each ``(name, local path)``."""

    __slots__ = ()


@contextlib.contextmanager
def opened(groups: list[tuple], settings: list[Options]):
    """The groups' files (``(key, [response, ...])``, each a path, ``"-"``
    or a file-like object) as local files, and the settings given the
    defaults of the format they are in: yields ``(groups, settings,
    files)`` (:class:`Group` each; ``files`` every ``(name, path)``).
    Errors raised inside name the files as the caller named them."""
    sources = [source for key, responses in groups for source in (key, *responses)]
    with local_files(*sources) as files:
        for _, path in files:
            if os.path.isdir(path):
                raise ScorerError("is a directory, not a file: 'corefud-scorer bench KEY_DIR SYS_DIR' scores "
                                  "the files of two folders, paired by name", (path, None))
        named, at = [], 0
        for _, responses in groups:
            named.append(Group(files[at], files[at + 1:at + 1 + len(responses)]))
            at += 1 + len(responses)
        fmt = files_format([(group.key[1], path) for group in named for _, path in group.responses], settings)
        # What the options mean (``all``, above all) depends on the format.
        settings = [for_format(options, fmt) for options in settings]
        yield named, settings, files


def files_format(pairs: list[tuple[str, str]], settings: list[Options]) -> str | None:
    """The one format the (key, response) paths are scored in (the one
    asked for, or the one the readers detect: :func:`~corefud_scorer.formats.readers.resolve_format`);
    None without a pair."""
    found = {resolve_format(options.format, key_path, response_path)
             for key_path, response_path in pairs for options in settings}
    if len(found) > 1:
        raise ScorerError(f"the files are in different formats ({', '.join(sorted(found))}); "
                          "score each format on its own")
    return found.pop() if found else None


class KeyedStream(namedtuple("KeyedStream", "key_name response_names documents")):
    """One key file and several response files as ``documents``: an
    iterator of each key document with the response files' documents, in
    file order."""

    __slots__ = ()


def keyed_streams(groups: list[Group], settings: list[Options], words: bool = False) -> list[KeyedStream]:
    """The groups' documents, read as the (first) setting's format reads
    them; ``words``: the key's documents carry their words (the error
    analysis's), the response's being checked the same."""
    first = settings[0]
    streams = []
    for group in groups:
        key_path, paths = group.key[1], [path for _, path in group.responses]
        keys, responses = read_against_key(key_path, paths, first.format, words=words, parses=first.np_only)
        documents = documents_against_key(keys, responses, key_path, paths, first.check_forms)
        streams.append(KeyedStream(group.key[0], [name for name, _ in group.responses], documents))
    return streams


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
        # Checked: the word forms are not needed again (nor sent to workers).
        key.drop_forms()
        for response in responses:
            response.drop_forms()
        yield key, responses


# --- the pool ---

# The work on one key document: (key, [responses], settings) -> per setting,
# per response, what the work gives.
Work = Callable[[SourceDocument, list, list], list]


def _task(task):
    work, index, key, responses, settings = task
    return index, work(key, responses, settings)


def work_keyed(streams: list[KeyedStream], settings: list[Options], work: Work,
               jobs: int = 1) -> Iterator[tuple[int, list[list]]]:
    """``(stream index, per setting, per response: what work gives)`` for
    each key document of each stream in order; the documents go through one
    pool of ``jobs`` processes (started only once a second document appears)
    and come back in order, so nothing depends on ``jobs``."""

    def tasks():
        for index, stream in enumerate(streams):
            for key, responses in stream.documents:
                yield work, index, key, responses, settings

    return ordered_map(_task, tasks(), jobs)


class Scored(namedtuple("Scored", "documents warnings counts")):
    """What scoring one key file and one response file gives: its documents'
    results, its warnings' lines and its counts by kind."""

    __slots__ = ()


def score_keyed(streams: list[KeyedStream], settings: list[Options], jobs: int = 1,
                progress=None) -> list[list[list[Scored]]]:
    """Score each stream's responses against its key under each setting,
    each document read and loaded once for all of them: per setting, per
    stream, one :class:`Scored` per response file. ``progress`` is called
    once per document pair, with the flat index of the (key, response) pair
    (streams in order, then responses in order) and the first setting's
    :class:`DocumentResult`."""
    offsets, names = [], []
    for stream in streams:
        offsets.append(len(names))
        names += [(stream.key_name, name) for name in stream.response_names]

    def outcomes():
        for index, per_setting in work_keyed(streams, settings, score_against_key, jobs):
            for s, results in enumerate(per_setting):
                for system, outcome in enumerate(results):
                    yield s * len(names) + offsets[index] + system, outcome

    def first_setting(index, result):
        if index < len(names):
            progress(index, result)

    scored = _collect(names * len(settings), outcomes(), first_setting if progress is not None else None)
    return [[scored[s * len(names) + offset:s * len(names) + offset + len(stream.response_names)]
             for offset, stream in zip(offsets, streams)] for s in range(len(settings))]


def _collect(names: list[tuple[str, str]], outcomes, progress) -> list[Scored]:
    """Add up ``(pair index, Outcome)`` pairs, in order, per (key name,
    response name) pair."""
    warnings = [Warnings() for _ in names]
    documents: list[list[DocumentResult]] = [[] for _ in names]
    counts = [dict.fromkeys(COUNTED, 0) for _ in names]
    seen_eids = [({}, {}) for _ in names]
    for index, outcome in outcomes:
        key_name, response_name = names[index]
        doc_id = outcome.result.doc_id
        for seen, eids, label in ((seen_eids[index][0], outcome.key_eids, f"key {key_name}"),
                                  (seen_eids[index][1], outcome.response_eids, f"response {response_name}")):
            for eid in eids:
                first = seen.setdefault(eid, doc_id)
                if first != doc_id:
                    warnings[index].add(f"{label}: entities spanning documents, split per document",
                                        f"{eid} in documents {first!r} and {doc_id!r}")
        sides = {"key": key_name, "response": response_name}
        for side, kind, example, count in outcome.notes:
            warnings[index].add(f"{side} {sides[side]}: {kind}", example, count)
        for kind, count in outcome.dropped.items():
            counts[index][kind] += count
        documents[index].append(outcome.result)
        if progress is not None:
            progress(index, outcome.result)
    return [Scored(d, w.lines(), c) for d, w, c in zip(documents, warnings, counts)]


# --- results of files ---

def result_of(scored: Scored, options: Options, settings: dict, files=()) -> Result:
    """A response's :class:`Result` from its scored documents; ``files``:
    the ``(name, path)`` of the sources, whose names the warnings use where
    they quote a place in a spooled or named file."""
    metrics, conll = summarize(scored.documents, options.metric_list)
    synchronisation, markables = summarize_synchronised(scored.documents, options)
    warnings = [named_in(line, files) for line in scored.warnings]
    return Result(metrics, conll, scored.documents, warnings, settings, scored.counts,
                  synchronisation, markables)


def score_files(groups: list[tuple], settings: list[Options], jobs: int = 1,
                progress=None) -> tuple[list[Options], list[list[list[Result]]]]:
    """Score each group's responses (``(key, [response, ...])``, paths,
    ``"-"`` or file-like objects) against its key under each setting: every
    document is read, checked and loaded once. The settings as scored (the
    files' format's defaults) and, per setting, per group, one
    :class:`Result` per response; the settings must share the format of
    the files."""
    with opened(groups, settings) as (named, settings, files):
        scored = score_keyed(keyed_streams(named, settings), settings, jobs, progress)
        # The key's digest once; the files' names and digests per response.
        file_names = []
        for group in named:
            key_sha256 = file_digest(group.key[1])
            file_names.append([{"key_file": group.key[0], "response_file": name, "key_sha256": key_sha256,
                                "response_sha256": file_digest(path)} for name, path in group.responses])
    return settings, [[[result_of(s, options, {**option_settings(options, options.format), **names}, files)
                        for s, names in zip(group, group_names)]
                       for group, group_names in zip(per_setting, file_names)]
                      for options, per_setting in zip(settings, scored)]
