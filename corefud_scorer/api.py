"""The library entry points: score files, streams, text or documents.

``score(key, response, Options(...))`` reads both files document by document
(read -> check -> match -> partition -> metrics, see :mod:`~corefud_scorer.jobs.pipeline`), adds
each document's sufficient statistics, and returns a typed :class:`Result`.
"""

from __future__ import annotations

import io

from .model import Document
from .results import ALL_METRICS, CONLL_PARTS, METRIC_NAMES, DocumentResult, MetricScore, Options, Result
from .jobs.options import for_format
from .jobs.in_memory import in_memory
from .jobs.pipeline import result_of, score_files, score_keyed
from .provenance import option_settings

__all__ = ["ALL_METRICS", "CONLL_PARTS", "METRIC_NAMES", "DocumentResult", "MetricScore", "Options",
           "Result", "score", "score_many", "score_systems", "score_systems_settings", "score_text", "score_documents"]


def score_many(pairs: list[tuple], options: Options | None = None, jobs: int = 1,
               progress=None) -> list[Result]:
    """Score several (key, response) pairs; one :class:`Result` each.

    A key or response is a path, ``"-"`` (standard input) or a file-like
    object. Documents of all pairs go through one pool of ``jobs`` processes
    (started only once a second document appears) and come back in order, so
    nothing depends on ``jobs``. ``progress``, if given, is called with each
    pair index and :class:`DocumentResult` as it is scored.
    """
    (per_group,) = score_systems_settings([(key, [response]) for key, response in pairs],
                                          [options or Options()], jobs, progress)
    return [result for (result,) in per_group]


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
    return score_files(groups, settings, jobs, progress)[1]


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
    options = for_format(options or Options())
    (((scored,),),) = score_keyed([in_memory(key, response)], [options], jobs)
    return result_of(scored, options, option_settings(options, "model"))
