"""The one path from a scored document pair and the options to each
measure's statistics, whatever the format: the measures of a contingency
through :func:`contingency_counts` (under ``--sync`` too), the others from
the partition, and :func:`document_result`, which every format's scoring
calls with its statistics function (the partition's here, v8.01's chains'
in :mod:`~corefud_scorer.v801.scoring`).

What each measure reads and what split antecedents do to it is the
registry's (:mod:`.registry`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .synchronisation import SYNC_OPTIONS, markable_identification, synchronise
from ..alignment.contingency import Partition
from .registry import AS_IS, MEASURES, ONE_MENTION_SET, WEIGHTED
from ..results import DocumentResult, Options


def contingency_counts(contingency, metrics: Iterable[str], sync: str | None = None) -> dict:
    """The statistics of the measures that read a contingency, every
    format's one path. With ``sync`` they read it rebuilt over that
    synchronisation's mention set (:func:`.synchronisation.synchronise`); without,
    the measures that need one mention set read the union of key and
    response mentions."""
    if sync is not None:
        contingency = synchronise(contingency, sync)
    one_set = None
    out = {}
    for name in metrics:
        entry = MEASURES[name]
        if entry.reads == ONE_MENTION_SET:
            if one_set is None:
                one_set = contingency if sync is not None else synchronise(contingency, "union")
            out[name] = entry.compute(one_set)
        else:
            out[name] = entry.compute(contingency)
    return out


def of_contingency(name: str) -> bool:
    """Whether a metric reads the contingency (and so follows ``sync``)."""
    return MEASURES[name].of_contingency


def document_counts(p: Partition, metrics: Iterable[str], sync: str | None = None,
                    only_split_antecedent: bool = False) -> dict:
    """Each metric's statistics for one aligned document: the metrics of the
    contingency through :func:`contingency_counts`, the others from the
    partition. Where split antecedents are scored, a metric they weight is
    :mod:`~corefud_scorer.measures.split_antecedents`'s (one implementation per metric, weighted by their
    alignment), and one they make not applicable has None."""
    plurals = only_split_antecedent or p.has_plurals
    names = list(dict.fromkeys(metrics))
    if plurals:
        special = {n for n in names if MEASURES[n].split_antecedents != AS_IS}
    else:
        special = set()
    out = contingency_counts(p.contingency, [n for n in names if n not in special and of_contingency(n)], sync)
    weighted = [n for n in names if n in special and MEASURES[n].split_antecedents == WEIGHTED]
    if weighted:
        from . import split_antecedents  # only where a document has them

        out.update(split_antecedents.weighted_counts(p, weighted, only_split_antecedent))
    for name in names:
        if name in out:
            continue
        out[name] = None if name in special else MEASURES[name].compute(p)
    return {name: out[name] for name in names}


def document_result(doc_id, counts, contingency: Callable[[], object], options: Options, sizes: tuple,
                    tokens: int) -> DocumentResult:
    """One document's result from ``counts(metrics, sync)``, its statistics
    function, whatever the format's reading: the options' synchronisation,
    or with ``sync="all"`` the unsynchronised statistics and each
    synchronisation's beside them, with mention identification read off
    ``contingency()`` (asked for only then)."""
    sync = options.sync
    result = DocumentResult(doc_id, counts(options.metric_list, None if sync == "all" else sync),
                            *sizes, tokens)
    if sync == "all":
        # Mention-level metrics read the aligned mentions: the same under every option.
        synchronised = [n for n in options.metric_list if of_contingency(n)]
        unchanged = {n: v for n, v in result.counts.items() if not of_contingency(n)}
        result.synchronised = {option: {**counts(synchronised, option), **unchanged}
                               for option in SYNC_OPTIONS}
        result.markables = markable_identification(contingency())
    return result


def partition_result(p: Partition, options: Options, tokens: int) -> DocumentResult:
    def counts(metrics, sync):
        return document_counts(p, metrics, sync, options.only_split_antecedent)

    sizes = (p.key.mentions, p.response.mentions, len(p.key.entities), len(p.response.entities))
    return document_result(p.doc_id, counts, lambda: p.contingency, options, sizes, tokens)
