"""The library's types: how to score (:class:`Options`) and what comes back
(:class:`Result`, :class:`MetricScore`, :class:`DocumentResult`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .measures.synchronisation import SYNC_OPTIONS
from .presets import PRESETS
from .formats import readers
from .measures.metrics import BlancCounts, BridgingCounts, Counts  # noqa: F401  (re-exported)
from .measures.registry import CONLL_PARTS, CONLL_SCORE, FURTHER, OF_LAYERS, score_of
from .measures.scores import MetricScore  # noqa: F401  (re-exported)

# What ``-m all`` means for CorefUD files, in 1.2's order (each format's
# profile says what it means for its files: all_metrics).
ALL_METRICS = readers.profile(readers.DEFAULT_FORMAT).all_metrics
# What ``-m every`` means: 1.2's set, mention identification, and the further
# measures of :mod:`.measures` (and what a format's ``all`` adds: every_metric).
EVERY_METRICS = ALL_METRICS + ("mention",) + FURTHER
METRIC_NAMES = EVERY_METRICS + OF_LAYERS
SYNC_CHOICES = SYNC_OPTIONS + ("all",)
GROUPS = {"all": ALL_METRICS, "every": EVERY_METRICS, CONLL_SCORE: CONLL_PARTS}


def all_metrics(fmt: str | None) -> tuple[str, ...]:
    """What ``all`` stands for with files of a format."""
    return readers.profile(fmt).all_metrics


def every_metric(fmt: str | None) -> tuple[str, ...]:
    """What ``every`` stands for with files of a format: every metric and
    further measure, then what the format's ``all`` adds (the UA layers)."""
    return tuple(dict.fromkeys(EVERY_METRICS + all_metrics(fmt)))


@dataclass(frozen=True)
class Options:
    """How to score. The defaults are those of ``corefud-scorer.py`` 1.2.

    ``metrics`` is a name or a sequence of names (``"all"`` stands for the
    format's set, in place); ``format`` is a reader's name, or None to detect
    it from the files; ``check_forms`` compares key and response word forms:
    True refuses a difference, ``"warn"`` scores the words by position and
    reports the differences as one warning, False skips the comparison.
    ``metrics``, ``match``, ``zero_match``, ``keep_zeros`` and ``check_forms``
    left as None take the defaults of the format the files are in (its
    reader's profile): 1.2's for CorefUD files (``all``, head matching, zeros
    by dependencies), the UA scorer's for UA files (``muc bcub ceafe``, exact
    matching, zeros left out), exact matching and forms compared with a
    warning for CoNLL-2012 files.

    A plain value: nothing is checked when it is made. Every job settles
    it before scoring (:func:`~corefud_scorer.jobs.options.for_format`):
    the fields left None take the defaults of the files' format, and a
    setting that is unknown, contradicts another or that the format cannot
    honour (head matching without heads, split antecedents in CoNLL-2012)
    is refused there with an :class:`~corefud_scorer.errors.OptionError`.
    ``"every"`` stands for every metric and measure. ``sync`` rebuilds key
    and response over one mention set before the metrics of the contingency
    (``intersection``, ``union``, ``key``, ``response``), or with ``all``
    adds the four side by side to the unsynchronised scores.

    The UA scorer's options: ``keep_zeros`` (False leaves zero mentions out
    after singletons, as the UA scorer's default does), ``keep_split_antecedents``
    (score plural entities with the set of entities they are made of; needs
    ``keep_singletons``), ``discourse_deixis`` (score the discourse-deixis
    entities instead of the identity ones) and ``only_split_antecedent``
    (score only the alignment of split antecedents). For CoNLL-2012 files,
    ``np_only`` leaves out the mentions the key's parse makes verb phrases
    and ``remove_nested`` the mentions inside another of their entity
    (:mod:`corefud_scorer.formats.mention_filters`).
    """

    metrics: tuple[str, ...] | str | None = None
    keep_singletons: bool = False
    match: str | None = None
    zero_match: str | None = None
    format: str | None = None
    check_forms: bool | str | None = None
    sync: str | None = None
    keep_zeros: bool | None = None
    keep_split_antecedents: bool = False
    discourse_deixis: bool = False
    only_split_antecedent: bool = False
    np_only: bool = False
    remove_nested: bool = False

    @classmethod
    def preset(cls, name: str, **overrides) -> "Options":
        """The settings of a CRAC shared task's official ranking (``crac24``…)."""
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r} (known: {', '.join(sorted(PRESETS))})")
        p = PRESETS[name]
        return cls(**{"metrics": p.metrics, "keep_singletons": p.keep_singletons,
                      "match": p.match, "zero_match": p.zero_match, **overrides})

    @property
    def requested(self) -> tuple[str, ...]:
        """The metrics as asked, ``all`` and ``every`` (for the format)
        expanded in place, repeats kept: the lines of 1.2's text."""
        groups = {**GROUPS, "all": all_metrics(self.format), "every": every_metric(self.format)}
        metrics = readers.profile(self.format).defaults["metrics"] if self.metrics is None else self.metrics
        metrics = (metrics,) if isinstance(metrics, str) else metrics
        return tuple(name for m in metrics for name in groups.get(m, (m,)))

    def preparation(self) -> dict:
        """What preparing each side's entities needs to know."""
        return {"keep_zeros": self.keep_zeros, "keep_split_antecedents": self.keep_split_antecedents,
                "discourse_deixis": self.discourse_deixis}

    @property
    def metric_list(self) -> tuple[str, ...]:
        """The metrics to compute, each once, in the order they are reported."""
        return tuple(dict.fromkeys(self.requested))


@dataclass
class DocumentResult:
    """One document's statistics per metric, and its size."""

    doc_id: object
    counts: dict[str, Counts | BlancCounts]
    key_mentions: int
    response_mentions: int
    key_entities: int
    response_entities: int
    tokens: int = 0
    # With ``sync="all"``: each synchronisation's statistics per metric, and
    # mention identification's (aligned over key and over response mentions).
    synchronised: dict[str, dict] = field(default_factory=dict)
    markables: Counts | None = None

    @property
    def metrics(self) -> dict[str, MetricScore]:
        """This document's recall, precision and F1 per metric."""
        return {name: score_of(name, counts) for name, counts in self.counts.items()}


@dataclass
class Result:
    """A response scored against a key: metrics from the statistics summed
    over documents, the CoNLL score (mean F1 of MUC, B-cubed and CEAF-e when
    all three are computed), each document's statistics, warnings (one line
    per kind) and the settings that reproduce the numbers."""

    metrics: dict[str, MetricScore]
    conll: float | None
    documents: list[DocumentResult]
    warnings: list[str]
    settings: dict
    counts: dict[str, int] = field(default_factory=dict)  # what was left out, by kind
    # With ``sync="all"``: per synchronisation ``{"metrics": ..., "conll": ...}``,
    # and mention identification.
    synchronisation: dict[str, dict] = field(default_factory=dict)
    mention_identification: MetricScore | None = None
