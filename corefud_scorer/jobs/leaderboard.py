"""The official results table of a CRAC shared task: systems ranked by the
primary score (the CoNLL F1 macro-averaged over datasets under the year's
matching, singletons left out), beside the same score under head, partial
and exact matching and with singletons, the primary score and the zero
score per dataset, and significance clusters. Extra measures asked
(``-m``, :func:`extra_columns`) are columns beside the zero score.

Every column comes from one reading of the files: each key and response
document is read, checked and loaded once and scored under the four
settings (:func:`~corefud_scorer.jobs.bench.benchmark_settings`), so a column equals a
``bench`` run with that setting to the last digit.

Clusters, as WMT presents its rankings: systems are taken in rank order,
and a system whose primary score does not differ significantly from that
of the system ranked just above it (a paired test over documents, per
dataset then macro-averaged, :mod:`.significance`) stays in that system's
cluster; a significant difference opens the next cluster.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from . import significance
from .bench import Benchmark, Dataset, benchmark_settings
from .comparison import Resampling
from .options import for_format
from ..errors import ScorerError
from ..formats.readers import profile
from ..measures.registry import CONLL_PARTS, CONLL_SCORE, MEASURES
from ..results import Options
from .pipeline import files_format
from .stacked import Statistics

COLUMNS = ("head", "partial", "exact", "with_singletons")
MATCHES = ("head", "partial", "exact")
ZERO = "zero"
# The test when none is asked for: approximate randomization, as CRAC's
# papers and WMT's use it.
DEFAULT_TEST = Resampling(paired_ar=significance.AR_TRIALS)


def primary_column(options: Options) -> str:
    """The column of the primary score: the options' matching."""
    if options.match not in MATCHES:
        raise ScorerError(f"--leaderboard: its columns are head, partial and exact matching, not -a {options.match}")
    return options.match


def matchings(options: Options) -> tuple[str, ...]:
    """The matching columns the format of the options can fill (CoNLL-2012
    files have no heads: exact matching alone)."""
    modes = profile(options.format).matching_modes
    return tuple(match for match in MATCHES if match in modes)


def column_settings(options: Options, extra: Sequence[str] = ()) -> dict[str, Options]:
    """The options of each column: the matchings the format can honour
    without singletons and the primary matching with singletons, each
    computing the CoNLL score's metrics; the primary column adds the zero
    score when the options ask for it (the years that report it) and the
    extra measures (:func:`extra_columns`)."""
    primary = primary_column(options)
    zero = (ZERO,) if reports_zero(options) else ()
    out = {match: replace(options, match=match, keep_singletons=False,
                          metrics=CONLL_PARTS + (zero + tuple(extra) if match == primary else ()))
           for match in matchings(options)}
    out["with_singletons"] = replace(options, match=primary, keep_singletons=True, metrics=CONLL_PARTS)
    return out


def reports_zero(options: Options) -> bool:
    """The table has a zero column where the options ask for the zero
    score and the files' format can hold zero mentions."""
    return ZERO in options.metric_list and profile(options.format).supports("keep_zeros")


def for_files(options: Options, systems: list[list[Dataset]], asked: Sequence[str] | None = None
              ) -> tuple[Options, tuple[str, ...]]:
    """The options with the defaults of the format of every system's files
    (the readers' seam finds it, and refuses a mix), as a single pair of
    those files is scored, and the extra columns ``-m`` asks for
    (:func:`extra_columns`)."""
    fmt = files_format([(d.key, d.response) for datasets in systems for d in datasets], [options])
    return extra_columns(for_format(options, fmt), asked)


def extra_measures(names: Sequence[str]) -> tuple[str, ...]:
    """The measures beyond the table's own (the CoNLL parts and the zero
    score), once each, in order."""
    return tuple(dict.fromkeys(name for name in names if name not in CONLL_PARTS and name != ZERO))


def extra_columns(options: Options, asked: Sequence[str] | None) -> tuple[Options, tuple[str, ...]]:
    """The rule of ``-m`` with the table, stated once: ``-m`` adds measures
    to the table's own, never replaces them. The table always has the
    CoNLL parts (its four columns) and the zero score where the options
    report it (the year's metrics under ``-t``, the format's defaults
    without); a zero score asked is added, and every other measure asked
    (groups such as ``all`` expanded) is an extra column: its F1
    macro-averaged over datasets under the primary setting, and per
    dataset. A measure without an F1 (an agreement coefficient) has no
    column and is refused. Returns the options (with the zero score when
    asked) and the extra columns, in the order asked."""
    if not asked:
        return options, ()
    expanded = replace(options, metrics=tuple(asked)).metric_list
    if ZERO in expanded and not reports_zero(options):
        options = replace(options, metrics=options.metric_list + (ZERO,))
    extra = extra_measures(expanded)
    without = [name for name in extra if MEASURES[name].one_number]
    if without:
        raise ScorerError(f"-m {' '.join(without)}: {'is' if len(without) == 1 else 'are'} one number, not an F1, "
                          "so no column of the results table (-m adds measures with an F1 to it)")
    return options, extra


@dataclass
class Row:
    """One system's line: its rank (1 + the systems with a higher primary
    score), cluster, the four columns' macro-averaged CoNLL F1 and, but for
    the first, its test against the system ranked just above."""

    system: str
    rank: int
    cluster: int
    scores: dict[str, float | None]
    zero: float | None
    difference: float | None = None
    p_value: float | None = None
    extra: dict[str, float | None] = field(default_factory=dict)  # each extra measure's macro F1


@dataclass
class Leaderboard:
    primary: str
    rows: list[Row]
    datasets: list[str]
    # per dataset, per system (in the rows' order): (primary CoNLL F1, zero F1)
    per_dataset: dict[str, dict[str, tuple[float | None, float | None]]]
    with_zero: bool
    resampling: Resampling
    signature: str
    shared_task: str | None = None
    warnings: list[str] | None = None
    extra: tuple[str, ...] = ()
    # per dataset, per system, per extra measure: its F1
    extra_per_dataset: dict[str, dict[str, dict[str, float | None]]] = field(default_factory=dict)
    columns: tuple[str, ...] = COLUMNS  # the matchings the files' format can honour, and with singletons


def build(names: list[str], systems: list[list[Dataset]], options: Options, resampling: Resampling | None = None,
          jobs: int = 1, progress=None, signature: str = "", shared_task: str | None = None,
          metrics: Sequence[str] | None = None) -> Leaderboard:
    """Score every system over the same datasets under the columns'
    settings (one reading of the files) and rank them; ``options`` take the
    defaults of the files' format (:func:`for_files`), and ``metrics`` asked
    (``-m``) add the zero score or extra columns (:func:`extra_columns`)."""
    from ..provenance import signature as signature_of

    options, extra = for_files(options, systems, metrics)
    settings = column_settings(options, extra)
    scored = benchmark_settings(systems, list(settings.values()), jobs, progress)
    resampling = resampling or DEFAULT_TEST
    if not signature:
        # One system is tested against none.
        tested = len(names) > 1
        signature = signature_of(settings[primary_column(options)], options.format,
                                 resampling.test if tested else None,
                                 resampling.samples if tested else None, None, resampling.level, resampling.seed)
    return rank(names, dict(zip(settings, scored)), primary_column(options), reports_zero(options),
                resampling, signature, shared_task, tuple(extra))


def rank(names: list[str], columns: dict[str, list[Benchmark]], primary: str, with_zero: bool,
         resampling: Resampling, signature: str = "", shared_task: str | None = None,
         extra: tuple[str, ...] = ()) -> Leaderboard:
    """The table from each column's benchmarks (one per system, in
    ``names``' order); ``extra`` measures are read off the primary
    column's."""
    first = columns[primary]
    score = [b.macro_conll for b in first]
    order = sorted(range(len(names)), key=lambda s: -score[s] if score[s] is not None else float("inf"))
    rows, cluster = [], 1
    for position, s in enumerate(order):
        # Equal scores share a rank; a system without a score comes last.
        higher = sum(1 for v in score if v is not None and (score[s] is None or v > score[s]))
        difference = p_value = None
        if position:
            difference, p_value = adjacent_test(first[order[position - 1]], first[s], resampling)
            if significant(p_value, resampling.level):
                cluster += 1
        rows.append(Row(names[s], higher + 1, cluster,
                        {column: benches[s].macro_conll for column, benches in columns.items()},
                        first[s].macro[ZERO].f1 if with_zero else None, difference, p_value,
                        {name: first[s].macro[name].f1 for name in extra}))
    datasets = [d.name for d in first[0].datasets]
    per_dataset, extra_per_dataset = {}, {}
    for g, dataset in enumerate(datasets):
        per_dataset[dataset], extra_per_dataset[dataset] = {}, {}
        for s in order:
            result = first[s].results[g]
            per_dataset[dataset][names[s]] = (result.conll, result.metrics[ZERO].f1 if with_zero else None)
            extra_per_dataset[dataset][names[s]] = {name: result.metrics[name].f1 for name in extra}
    warnings = [line for bench in first for line in bench.warnings]
    return Leaderboard(primary, rows, datasets, per_dataset, with_zero, resampling, signature, shared_task,
                       warnings, tuple(extra), extra_per_dataset, tuple(columns))


def significant(p_value: float | None, level: float) -> bool:
    """A difference is significant when its p-value is below 1 - level (an
    undefined test is no evidence of a difference)."""
    return p_value is not None and p_value < 1 - level - significance.TOLERANCE


def adjacent_test(above: Benchmark, below: Benchmark, resampling: Resampling) -> tuple[float | None, float | None]:
    """The primary score's difference (below minus above) and its p-value
    under the paired test, documents resampled within each dataset."""
    stats = Statistics.from_documents([[r.documents for r in above.results], [r.documents for r in below.results]],
                                      CONLL_PARTS)
    if resampling.test == "bs":
        tests = significance.paired_bootstrap(stats, resampling.paired_bs, resampling.level, resampling.seed)
    else:
        trials = resampling.paired_ar or significance.AR_TRIALS
        # The interval is not shown: the fewest bootstrap samples.
        tests = significance.approximate_randomization(stats, trials, resampling.level, resampling.seed, 1)
    comparison = tests[0][CONLL_SCORE]
    return comparison.difference, comparison.p_value
