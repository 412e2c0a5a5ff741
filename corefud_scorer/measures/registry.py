"""Every measure by its ``-m`` name, with the facts the rest of the scorer
reads about it: what it reads, how its statistics start and add across
documents, how a sum becomes its score, whether documents can be resampled
for it, and what it does with split antecedents.

A new measure is one pure function (in :mod:`.metrics` or :mod:`~corefud_scorer.measures.further`)
and one entry here; scoring, summing, resampling, the option checks and the
report read this table. The further measures and the empty nodes' are named
here through :func:`~corefud_scorer.lazy.later`: their modules are imported
when one of them is first computed, not by every command that reads the table.
"""

from __future__ import annotations

from collections import namedtuple

from . import mentions, metrics
from .figures import PLAIN, blanc, bridging, columns, prf, row, undefined_when_empty
from .statistics import BlancCounts, BridgingCounts, Counts
from .scores import CONLL_PARTS, CONLL_SCORE, MetricScore, from_counts  # noqa: F401  (re-exported)
from ..lazy import lazy, later

further = lazy(f"{__package__}.further")
empty_nodes = lazy(f"{__package__}.empty_nodes")

# What a measure reads, per document.
CONTINGENCY = "contingency"          # the key x response contingency (follows --sync)
ONE_MENTION_SET = "one mention set"  # the contingency over one mention set: the union unless --sync
MENTIONS = "aligned mentions"        # the partition's aligned mentions (never synchronised)
LAYERS = "layers"                    # what a document has beside its entities (bridging, non-referring, empty nodes)

# What a measure does where split antecedents are scored.
AS_IS = "as is"
WEIGHTED = "weighted"                # the split antecedents' alignment weights it (:mod:`~corefud_scorer.measures.split_antecedents`)
UNSCORED = "unscored"                # no statistics (None): not applicable to the whole


# --- from summed statistics to a score ---

def _entropy_one(*sums):
    s = further.entropy_score(further.EntropyCounts(*sums))
    return s.recall, s.precision, s.f1


def entropy_figures(sums, ops):
    """The entropy-based measure's figures (:func:`.further.entropy_score`)."""
    return ops.each(_entropy_one, sums, len(columns(further.EntropyCounts())))


def empty_nodes_figures(sums, ops):
    """The empty nodes' own figures: the ALL part's, undefined with no empty
    node on either side (the official scripts print 0 there)."""
    return undefined_when_empty(sums, ops, at=4 * empty_nodes.PARTS.index(empty_nodes.ALL))


def score_of(name: str, statistics) -> MetricScore:
    """A measure's score of summed statistics: its figures (the function
    that also scores every resample, on one plain row), its parts' scores
    (undefined where the whole is), an agreement coefficient's value, and
    what else it reports; with None for statistics, not applicable."""
    if statistics is None:
        # A document that could not give it (MOR with split antecedents).
        return MetricScore(name, None, None, None, Counts())
    entry = MEASURES[name]
    if entry.value is not None:
        # An agreement coefficient is one value, without recall or precision.
        return MetricScore(name, None, None, None, statistics, value=entry.value(statistics))
    recall, precision, f1 = entry.figures(row(statistics), PLAIN)
    parts = {label: from_counts(label, c) if f1 is not None else MetricScore(label, None, None, None, c)
             for label, c in getattr(statistics, "parts", {}).items()}
    extra = entry.extra(statistics) if entry.extra is not None else {}
    return MetricScore(name, recall, precision, f1, statistics, parts, extra=extra)


def _variation_of_information(statistics) -> dict:
    return {"variation_of_information": further.entropy_score(statistics).variation_of_information}


class Measure(namedtuple("Measure", "name reads compute empty figures resampled split_antecedents further "
                                     "value extra no_value",
                         defaults=(Counts, prf, True, AS_IS, False, None, None, "no value"))):
    """One measure: what it ``reads`` (a contingency, or the partition, by
    which ``compute`` gives one document's statistics), ``empty`` the
    statistics of no document, ``figures`` its recall, precision and F1 from
    summed statistics, flattened (:mod:`~corefud_scorer.measures.figures`:
    one function for the reported score and every resample; recall and
    precision of one Counts unless said). ``resampled``: intervals and tests
    can resample it. ``split_antecedents``: what it does where they are
    scored. ``further``: one of the further measures (``-m every`` adds
    them; printed after 1.2's). ``value``: an agreement coefficient's one
    value from its sum (its score is that value alone). ``extra``: what else
    its score reports. ``no_value``: why its score can have no value (the
    text's words)."""

    __slots__ = ()

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
    Measure("blanc", CONTINGENCY, metrics.blanc, BlancCounts, blanc, split_antecedents=WEIGHTED),
    Measure("lea", CONTINGENCY, metrics.lea, split_antecedents=WEIGHTED),
    # MOR overlaps words, and a split antecedent has none.
    Measure("mor", MENTIONS, mentions.mention_overlap, split_antecedents=UNSCORED,
            no_value="split antecedents have no words to overlap"),
    Measure("zero", MENTIONS, mentions.zero_anaphors, figures=undefined_when_empty,
            no_value="no zero anaphor in the key or the response"),
    Measure("mention", MENTIONS, mentions.mention_identification),
    Measure("bcub-entity", CONTINGENCY, later(further, "b_cubed_entity"), further=True),
    Measure("pairwise", CONTINGENCY, later(further, "pairwise"), further=True),
    Measure("bcub-sys", CONTINGENCY, later(further, "b_cubed_sys"), further=True),
    Measure("ceaf-sys", CONTINGENCY, later(further, "ceaf_sys"), further=True),
    Measure("bcub-all", CONTINGENCY, later(further, "b_cubed_all"), further=True),
    Measure("alpha", ONE_MENTION_SET, later(further, "alpha"), later(further, "AlphaCounts"), resampled=False,
            further=True, value=later(further, "alpha_value")),
    Measure("kappa", ONE_MENTION_SET, later(further, "kappa"), later(further, "KappaCounts"), resampled=False,
            further=True, value=later(further, "kappa_value")),
    Measure("entropy", ONE_MENTION_SET, later(further, "entropy"), later(further, "EntropyCounts"), entropy_figures,
            further=True, extra=_variation_of_information),
    Measure("core-de", ONE_MENTION_SET, later(further, "core_de"), further=True),
    Measure("non-referring", LAYERS, mentions.non_referring, figures=undefined_when_empty,
            no_value="no non-referring markable in the key or the response"),
    Measure("bridging", LAYERS, mentions.bridging, BridgingCounts, bridging,
            no_value="no bridging anaphor in the key or the response"),
    Measure("empty-nodes", LAYERS, later(empty_nodes, "empty_nodes"), later(empty_nodes, "EmptyNodeCounts"),
            empty_nodes_figures,
            no_value="no empty node in the key or the response"),
)


# The further measures, in the order -m every lists them, and the measures of
# the layers beside the entities.
FURTHER = tuple(name for name, entry in MEASURES.items() if entry.further)
OF_LAYERS = tuple(name for name, entry in MEASURES.items() if entry.reads == LAYERS)

