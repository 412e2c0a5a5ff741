"""Render scores as the reference scorer ``scorer.pl`` v8.01 prints them.

The layout, line for line: per metric an optional ``METRIC name:`` header;
per document (when asked) the entities of both files, the mention counts
and the metric's line; then the totals (``Identification of Mentions:`` and
``Coreference:``, or BLANC's three lines). Numbers are printed as Perl
prints them (15 significant digits) and percentages truncated, not rounded,
to two decimals, as v8.01 does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import chain_metrics, chains as v8
from ..measures.statistics import BlancCounts, Counts

RULE = "-" * 74 + "\n"


def perl_number(x) -> str:
    """A number as Perl stringifies it."""
    if isinstance(x, int):
        return str(x)
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return "%.15g" % x


def _percent(x: float) -> str:
    return perl_number(math.trunc(x * 10000) / 100)


def rpf(rn, rd, pn, pd, f1=None) -> str:
    """v8.01's recall / precision / F1 line and the rule under it."""
    precision = pn / pd if pd else 0
    recall = rn / rd if rd else 0
    if f1 is None:
        f1 = 2 * precision * recall / (precision + recall) if recall + precision else 0
    return (f"Recall: ({perl_number(rn)} / {perl_number(rd)}) {_percent(recall)}%"
            f"\tPrecision: ({perl_number(pn)} / {perl_number(pd)}) {_percent(precision)}%"
            f"\tF1: {_percent(f1)}%\n" + RULE)


def rpf_counts(c: Counts) -> str:
    return rpf(c.recall_num, c.recall_den, c.precision_num, c.precision_den)


@dataclass
class PairScore:
    """One document pair, read and scored: what the text needs."""

    name: str
    key_entities: list[list[tuple[int, int]]]
    response_entities: list[list[tuple[int, int]]]
    chains: v8.Chains
    counts: dict  # metric -> Counts (BlancCounts for BLANC)
    mentions: Counts


def entity_dump(name: str, entities) -> str:
    lines = [f"====> {name}:\n", f"File {name}:\n"]
    for e, spans in enumerate(entities):
        lines.append(f"Entity {e}:" + "".join(f" ({s},{t})" for s, t in spans) + "\n")
    return "".join(lines)


def identification(pair: PairScore, verbose: bool) -> str:
    """What v8.01 prints while it gives mentions their ids."""
    c = pair.chains
    lines = []
    for r in c.key_repeats:
        s, t = r.span
        lines.append(f"Repeated mention in the key: {s}, {t} {r.old_id}{r.new_id}\n")
    for r in c.response_repeats:
        s, t = r.span
        lines.append(f"Repeated mention in the response: {s}, {t} {r.old_id}"
                     f"{'' if r.new_id is None else r.new_id}\n")
    if verbose:
        lines.append(f"Total key mentions: {c.key_spans}\n"
                     f"Total response mentions: {c.response_spans}\n"
                     f"Strictly correct identified mentions: {c.exact}\n"
                     "Partially correct identified mentions: 0\n"
                     f"No identified: {c.key_spans - c.exact}\n"
                     f"Invented: {c.id_count - c.key_spans}\n")
    return "".join(lines)


def metric_section(metric: str, pairs: list[PairScore], name: str | None) -> str:
    """One metric's output: v8.01's ``Score`` (or ``ScoreBLANC``)."""
    out = []
    by_name = name is not None and name != "none"
    verbose = name != "none"
    mentions = Counts()
    total = BlancCounts() if metric == "blanc" else Counts()
    for pair in pairs:
        if by_name:
            out.append(f"{name}:\n")
        if verbose:
            out.append(entity_dump(pair.name, pair.key_entities))
            out.append(entity_dump(pair.name, pair.response_entities))
            if not by_name:
                # v8.01 prints the document's name here, and an empty one for BLANC.
                out.append(":\n" if metric == "blanc" else f"{pair.name}:\n")
        out.append(identification(pair, verbose))
        mentions = mentions + pair.mentions
        counts = pair.counts[metric]
        if verbose and metric != "blanc":
            out.append(rpf_counts(counts))
        total = total + counts
    out.append("\n====== TOTALS =======\n")
    out.append("Identification of Mentions: " + rpf_counts(mentions))
    if metric != "blanc":
        out.append("Coreference: " + rpf_counts(total))
        return "".join(out)
    coref, noncoref = total.coreference, total.non_coreference
    out.append("\nCoreference:\n")
    out.append("Coreference links: " + rpf_counts(coref))
    out.append("Non-coreference links: " + rpf_counts(noncoref))
    out.append("BLANC: " + rpf(*blanc_v8(coref, noncoref)))
    return "".join(out)


def blanc_v8(coref: Counts, noncoref: Counts) -> tuple:
    """v8.01's BLANC line from summed links (:func:`chain_metrics.blanc_figures`),
    as (R, 1, P, 1, F1) for :func:`rpf`."""
    recall, precision, f1 = chain_metrics.blanc_figures(coref, noncoref)
    return recall, 1, precision, 1, f1


def render(metric: str, pairs: list[PairScore], name: str | None, version_line: str) -> str:
    """The whole output of ``scorer.pl METRIC KEY RESPONSE [NAME]``."""
    out = [version_line]
    if metric == "all":
        for m in chain_metrics.METRICS:
            out.append(f"\nMETRIC {m}:\n")
            out.append(metric_section(m, pairs, name))
    else:
        out.append(metric_section(metric, pairs, name))
    return "".join(out)
