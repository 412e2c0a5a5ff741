"""The library entry points: score files, streams, text or documents.

``score(key, response, Options(...))`` reads both files document by document
(read -> check -> match -> partition -> metrics, see :mod:`~corefud_scorer.jobs.pipeline`), adds
each document's sufficient statistics, and returns a typed :class:`Result`.
"""

from __future__ import annotations

import io

from .errors import ScorerError
from .formats.inputs import local_files, named_in
from .model import Document, LoadedDocument
from .formats.readers import read_documents, resolve_format
from .results import ALL_METRICS, CONLL_PARTS, METRIC_NAMES, DocumentResult, MetricScore, Options, Result
from .jobs.pipeline import KeyedStream, Scored, Stream, documents_against_key, paired_documents, score_keyed_streams_settings, score_streams
from .provenance import file_digest, file_settings, option_settings
from .measures.totals import summarize, summarize_synchronised

__all__ = ["ALL_METRICS", "CONLL_PARTS", "METRIC_NAMES", "DocumentResult", "MetricScore", "Options",
           "Result", "score", "score_many", "score_systems", "score_systems_settings", "score_text", "score_documents"]


def _result(scored: Scored, options: Options, settings: dict, files=()) -> Result:
    """``files``: the ``(name, path)`` of the sources, whose names the
    warnings use where they quote a place in a spooled or named file."""
    metrics, conll = summarize(scored.documents, options.metric_list)
    synchronisation, markables = summarize_synchronised(scored.documents, options)
    warnings = [named_in(line, files) for line in scored.warnings]
    return Result(metrics, conll, scored.documents, warnings, settings, scored.counts,
                  synchronisation, markables)


def score_many(pairs: list[tuple], options: Options | None = None, jobs: int = 1,
               progress=None) -> list[Result]:
    """Score several (key, response) pairs; one :class:`Result` each.

    A key or response is a path, ``"-"`` (standard input) or a file-like
    object. Documents of all pairs go through one pool of ``jobs`` processes
    (started only once a second document appears) and come back in order, so
    nothing depends on ``jobs``. ``progress``, if given, is called with each
    pair index and :class:`DocumentResult` as it is scored.
    """
    options = options or Options()
    with local_files(*(source for pair in pairs for source in pair)) as files:
        streams, settings = [], []
        file_pairs = list(zip(files[::2], files[1::2]))
        found = {resolve_format(options.format, key_path, response_path)
                 for (_, key_path), (_, response_path) in file_pairs}
        if len(found) > 1:
            raise ScorerError(f"the pairs are in different formats ({', '.join(sorted(found))}); "
                              "score each format on its own")
        if found:
            # What the options mean (``all``, above all) depends on the format.
            options = options.for_format(found.pop())
        for (key_name, key_path), (response_name, response_path) in file_pairs:
            fmt = options.format
            documents = paired_documents(read_documents(key_path, "key", fmt, parses=options.np_only),
                                         read_documents(response_path, "response", fmt),
                                         key_path, response_path, options.check_forms)
            streams.append(Stream(key_name, response_name, documents))
            settings.append({**option_settings(options, fmt),
                             **file_settings(key_name, key_path, response_name, response_path)})
        scored = score_streams(streams, options, jobs, progress)
    return [_result(s, options, settings_, files) for s, settings_ in zip(scored, settings)]


def score_systems(groups: list[tuple], options: Options | None = None, jobs: int = 1,
                  progress=None) -> list[list[Result]]:
    """Score several systems against the same key: ``groups`` are
    ``(key, [response, ...])`` tuples (one per dataset, or just one); each
    key document is read and loaded once and every response's document is
    checked against it and scored. One :class:`Result` per response, per
    group. ``progress`` is called with the flat index of a (key, response)
    pair and each :class:`DocumentResult`."""
    return score_systems_settings(groups, [options or Options()], jobs, progress)[0]


def score_systems_settings(groups: list[tuple], settings: list[Options], jobs: int = 1,
                           progress=None) -> list[list[list[Result]]]:
    """:func:`score_systems` under several settings (matching, singletons)
    at once: every document is read, checked and loaded once, and scored
    under each setting. Per setting, per group, one :class:`Result` per
    response; the settings must share the format of the files."""
    sources = [source for key, responses in groups for source in (key, *responses)]
    with local_files(*sources) as files:
        streams, file_names, found, at = [], [], set(), 0
        for key, responses in groups:
            key_path = files[at][1]
            for _, response_path in files[at + 1:at + 1 + len(responses)]:
                found.update(resolve_format(options.format, key_path, response_path) for options in settings)
            at += 1 + len(responses)
        if len(found) > 1:
            raise ScorerError(f"the files are in different formats ({', '.join(sorted(found))}); "
                              "score each format on its own")
        if found:
            fmt = found.pop()
            settings = [options.for_format(fmt) for options in settings]
        first = settings[0]
        at = 0
        for key, responses in groups:
            (key_name, key_path), named = files[at], files[at + 1:at + 1 + len(responses)]
            at += 1 + len(responses)
            fmt = first.format
            documents = documents_against_key(read_documents(key_path, "key", fmt, parses=first.np_only),
                                              [read_documents(path, "response", fmt) for _, path in named],
                                              key_path, [path for _, path in named], first.check_forms)
            streams.append(KeyedStream(key_name, [name for name, _ in named], documents))
            # The key's digest once; the files' names and digests per response.
            key_sha256 = file_digest(key_path)
            file_names.append([{"key_file": key_name, "response_file": name, "key_sha256": key_sha256,
                                "response_sha256": file_digest(path)} for name, path in named])
        scored = score_keyed_streams_settings(streams, settings, jobs, progress)
    return [[[_result(s, options, {**option_settings(options, options.format), **names}, files)
              for s, names in zip(group, group_names)]
             for group, group_names in zip(per_setting, file_names)]
            for options, per_setting in zip(settings, scored)]


def score(key, response, options: Options | None = None, jobs: int = 1) -> Result:
    """Score ``response`` against ``key`` (paths, ``"-"`` or file-like
    objects); raises :class:`ScorerError` for input that cannot be scored.
    ``jobs`` > 1 scores documents in that many processes; the result does not
    depend on it."""
    return score_many([(key, response)], options, jobs)[0]


def score_text(key: str, response: str, options: Options | None = None, jobs: int = 1) -> Result:
    """Score the text of a response file against the text of a key file."""
    key_stream, response_stream = io.BytesIO(key.encode("utf-8")), io.BytesIO(response.encode("utf-8"))
    key_stream.name, response_stream.name = "<key>", "<response>"
    return score(key_stream, response_stream, options, jobs)


def score_documents(key: list[Document], response: list[Document], options: Options | None = None,
                    jobs: int = 1) -> Result:
    """Score documents already in the model (built in memory, or read by a
    reader's ``load()``), paired by position; their ids must agree. They go
    through the same core as files: pool, warnings, sums."""
    options = options or Options()
    if len(key) != len(response):
        raise ScorerError(f"{len(key)} key documents but {len(response)} response documents")

    def pairs():
        for index, (key_doc, response_doc) in enumerate(zip(key, response)):
            if key_doc.doc_id != response_doc.doc_id:
                raise ScorerError(f"document ids differ: {key_doc.doc_id!r} vs {response_doc.doc_id!r}")
            yield LoadedDocument.of(key_doc, index), LoadedDocument.of(response_doc, index)

    (scored,) = score_streams([Stream("<memory>", "<memory>", pairs())], options, jobs)
    return _result(scored, options, option_settings(options, "model"))
