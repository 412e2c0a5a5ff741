"""Every measure by its ``-m`` name, with the facts the rest of the scorer
reads about it: what it reads, how its statistics start and add across
documents, how a sum becomes its score, whether documents can be resampled
for it, and what it does with split antecedents.

A new measure is one pure function (in :mod:`.metrics` or :mod:`~corefud_scorer.measures.further`)
and one entry here; scoring, summing, resampling, the option checks and the
report read this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from . import empty_nodes, further, metrics, arrays
from .statistics import BlancCounts, BridgingCounts, Counts, f1, ratio
from .scores import MetricScore

# The CoNLL score: the mean F1 of these three, under this name in JSON and
# tables (and the -m group that asks for them).
CONLL_PARTS = ("muc", "bcub", "ceafe")
CONLL_SCORE = "conll"

# What a measure reads, per document.
CONTINGENCY = "contingency"          # the key x response contingency (follows --sync)
ONE_MENTION_SET = "one mention set"  # the contingency over one mention set: the union unless --sync
MENTIONS = "aligned mentions"        # the partition's aligned mentions (never synchronised)
LAYERS = "layers"                    # what a document has beside its entities (bridging, non-referring, empty nodes)

# What a measure does where split antecedents are scored.
AS_IS = "as is"
WEIGHTED = "weighted"                # the split antecedents' alignment weights it (:mod:`~corefud_scorer.measures.split_antecedents`)
NOT_APPLICABLE = "not applicable"    # no statistics (None), no total


# --- from summed statistics to a score ---

def from_counts(name: str, counts: Counts) -> MetricScore:
    recall = ratio(counts.recall_num, counts.recall_den)
    precision = ratio(counts.precision_num, counts.precision_den)
    return MetricScore(name, recall, precision, f1(precision, recall), counts)


def blanc_score(name: str, counts: BlancCounts) -> MetricScore:
    # 1.2 averages recall, precision and F1 over the parts that have links
    # on either side; with none, BLANC is 0.
    parts = {label: from_counts(label, c) for label, c in counts.parts.items()}
    used = [parts[label] for label, c in counts.parts.items() if not c.empty]
    if not used:
        return MetricScore(name, 0.0, 0.0, 0.0, counts, parts)
    return MetricScore(name,
                       metrics.ordered_sum([s.recall for s in used]) / len(used),
                       metrics.ordered_sum([s.precision for s in used]) / len(used),
                       metrics.ordered_sum([s.f1 for s in used]) / len(used), counts, parts)


def zero_score(name: str, counts: Counts) -> MetricScore:
    # No zero anaphor on either side: the score is undefined, not 0.
    if counts.empty:
        return MetricScore(name, None, None, None, counts)
    return from_counts(name, counts)


def bridging_score(name: str, counts: BridgingCounts) -> MetricScore:
    parts = {label: from_counts(label, c) for label, c in counts.parts.items()}
    markable = parts["markable"]
    return MetricScore(name, markable.recall, markable.precision, markable.f1, counts, parts)


def empty_nodes_score(name: str, counts: empty_nodes.EmptyNodeCounts) -> MetricScore:
    # No empty node on either side: undefined, as the zero score (the
    # official scripts print 0 there).
    if counts.empty:
        parts = {label: MetricScore(label, None, None, None, c) for label, c in counts.parts.items()}
        return MetricScore(name, None, None, None, counts, parts)
    parts = empty_nodes.score_parts(counts, from_counts)
    own = parts[empty_nodes.ALL]
    return MetricScore(name, own.recall, own.precision, own.f1, counts, parts)


def coefficient_score(name: str, statistics) -> MetricScore:
    # An agreement coefficient is one value, without recall or precision.
    return MetricScore(name, None, None, None, statistics, value=MEASURES[name].value(statistics))


def entropy_score(name: str, statistics) -> MetricScore:
    s = further.entropy_score(statistics)
    return MetricScore(name, s.recall, s.precision, s.f1, statistics,
                       extra={"variation_of_information": s.variation_of_information})


@dataclass(frozen=True)
class Measure:
    """One measure: ``compute`` gives one document's statistics from what it
    reads (a contingency, or the partition), ``empty`` the statistics of no
    document, ``score`` the score of a sum. ``resampled``: its statistics
    are recall and precision fractions (or parts of them) that intervals and
    tests can resample, ``resampled_score`` the score of resampled sums
    (:mod:`~corefud_scorer.measures.arrays`; recall and precision of one Counts unless said).
    ``value``: an agreement coefficient's one value from its sum (its score
    is that value alone). ``no_value``: why its score can have no value (the
    text's words)."""

    name: str
    reads: str
    compute: Callable
    empty: Callable[[], Any] = Counts
    score: Callable[[str, Any], MetricScore] = from_counts
    resampled: bool = True
    resampled_score: Callable = arrays.prf
    split_antecedents: str = AS_IS
    further: bool = False  # one of the further measures (-m every adds them; printed after 1.2's)
    value: Callable | None = None
    no_value: str = "no value"

    @property
    def of_contingency(self) -> bool:
        """Read off a contingency, so rebuilt by ``--sync``."""
        return self.reads in (CONTINGENCY, ONE_MENTION_SET)

    @property
    def one_number(self) -> bool:
        return self.value is not None


def _entries(*entries: Measure) -> dict[str, Measure]:
    return {m.name: m for m in entries}


MEASURES = _entries(
    Measure("muc", CONTINGENCY, metrics.muc, split_antecedents=WEIGHTED),
    Measure("bcub", CONTINGENCY, metrics.b_cubed, split_antecedents=WEIGHTED),
    Measure("ceafe", CONTINGENCY, metrics.ceafe, split_antecedents=WEIGHTED),
    Measure("ceafm", CONTINGENCY, metrics.ceafm, split_antecedents=WEIGHTED),
    Measure("blanc", CONTINGENCY, metrics.blanc, BlancCounts, blanc_score, resampled_score=arrays.blanc,
            split_antecedents=WEIGHTED),
    Measure("lea", CONTINGENCY, metrics.lea, split_antecedents=WEIGHTED),
    # MOR overlaps words, and a split antecedent has none.
    Measure("mor", MENTIONS, metrics.mention_overlap, split_antecedents=NOT_APPLICABLE,
            no_value="split antecedents have no words to overlap"),
    Measure("zero", MENTIONS, metrics.zero_anaphors, score=zero_score, resampled_score=arrays.zero,
            no_value="no zero anaphor in the key or the response"),
    Measure("mention", MENTIONS, metrics.mention_identification),
    Measure("bcub-entity", CONTINGENCY, further.b_cubed_entity, further=True),
    Measure("pairwise", CONTINGENCY, further.pairwise, further=True),
    Measure("bcub-sys", CONTINGENCY, further.b_cubed_sys, further=True),
    Measure("ceaf-sys", CONTINGENCY, further.ceaf_sys, further=True),
    Measure("bcub-all", CONTINGENCY, further.b_cubed_all, further=True),
    Measure("alpha", ONE_MENTION_SET, further.alpha, further.AlphaCounts, coefficient_score, resampled=False,
            further=True, value=further.alpha_value),
    Measure("kappa", ONE_MENTION_SET, further.kappa, further.KappaCounts, coefficient_score, resampled=False,
            further=True, value=further.kappa_value),
    Measure("entropy", ONE_MENTION_SET, further.entropy, further.EntropyCounts, entropy_score,
            resampled_score=arrays.entropy, further=True),
    Measure("core-de", ONE_MENTION_SET, further.core_de, further=True),
    Measure("non-referring", LAYERS, metrics.non_referring),
    Measure("bridging", LAYERS, metrics.bridging, BridgingCounts, bridging_score,
            resampled_score=arrays.bridging),
    Measure("empty-nodes", LAYERS, empty_nodes.empty_nodes, empty_nodes.EmptyNodeCounts, empty_nodes_score,
            resampled_score=arrays.empty_nodes, no_value="no empty node in the key or the response"),
)


# The further measures, in the order -m every lists them, and the measures of
# the layers beside the entities.
FURTHER = tuple(name for name, entry in MEASURES.items() if entry.further)
OF_LAYERS = tuple(name for name, entry in MEASURES.items() if entry.reads == LAYERS)

