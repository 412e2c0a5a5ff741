"""Several systems side by side: their figures, bootstrap confidence
intervals and paired tests against the first system (the baseline), and
how they are rendered as text and JSON.

The figures of a file pair are its scores; those of a benchmark its
macro-averages over datasets, resampled within each dataset
(:mod:`.significance`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import significance
from ..measures.registry import CONLL_SCORE
from .resampling import LEVEL, Resampling  # noqa: F401  (Resampling: re-exported)
from .significance import TRUSTWORTHY_DOCUMENTS
from .stacked import Statistics


@dataclass
class Systems:
    """Systems' figures (per system, name -> (recall, precision, F1); CoNLL
    has F1 only), their intervals (when asked for) and each system's tests
    against the first (when asked for)."""

    names: list[str]
    figures: list[dict[str, tuple]]
    intervals: list[dict[str, significance.Interval]] | None
    tests: list[dict[str, significance.Comparison]] | None
    signature: str
    level: float = LEVEL
    warnings: list[str] = field(default_factory=list)

    @property
    def figure_names(self) -> list[str]:
        return list(self.figures[0])


def pair_figures(result) -> dict[str, tuple]:
    """A file pair's figures from its :class:`~corefud_scorer.results.Result`."""
    figures = {name: (m.recall, m.precision, m.f1) for name, m in result.metrics.items()}
    if result.conll is not None:
        figures[CONLL_SCORE] = (None, None, result.conll)
    return figures


def macro_figures(bench) -> dict[str, tuple]:
    """A benchmark's macro-averaged figures."""
    figures = {name: (a.recall, a.precision, a.f1) for name, a in bench.macro.items()}
    if bench.macro_conll is not None:
        figures[CONLL_SCORE] = (None, None, bench.macro_conll)
    return figures


def few_documents(resampling: Resampling, sizes: list[int], groups: list[str] | None = None) -> str | None:
    """The warning for intervals and tests resampled from fewer than
    :data:`~.significance.TRUSTWORTHY_DOCUMENTS` documents (in a group:
    ``sizes`` per group, ``groups`` their names for a benchmark), or None."""
    if not resampling.asked:
        return None
    parts = [part for part, asked in (("the intervals", resampling.confidence), ("the test", resampling.test))
             if asked]
    what, plural = " and ".join(parts), parts != ["the test"]
    short = [(name, size) for name, size in zip(groups or [None] * len(sizes), sizes) if size < TRUSTWORTHY_DOCUMENTS]
    if not short:
        return None
    why = ("too few to trust: resampling so few documents understates the variation "
           "(intervals too narrow, p-values too small)")
    if groups is None:
        documents = sizes[0]
        return (f"{what} {'rest' if plural else 'rests'} on {documents} document{'s' if documents != 1 else ''}, "
                f"fewer than {TRUSTWORTHY_DOCUMENTS}: {why}")
    listed = ", ".join(f"{name} {size}" for name, size in short[:3])
    more = f" and {len(short) - 3} more" if len(short) > 3 else ""
    return (f"{what} {'are' if plural else 'is'} resampled within datasets of fewer than {TRUSTWORTHY_DOCUMENTS} "
            f"documents ({listed}{more}): {why}")


def compare(names: list[str], documents: list[list[list]], figures: list[dict], metrics,
            resampling: Resampling, signature: str, progress=None, groups: list[str] | None = None) -> Systems:
    """Intervals and tests from each system's per-document statistics
    (``documents[s][g]``: system ``s``'s document results in group ``g``;
    ``groups`` names the groups of a benchmark, its datasets).
    ``progress``, if given, is called with the samples and trials of each
    block done (:meth:`Resampling.work` in all)."""
    intervals = tests = None
    warnings = []
    if resampling.asked:
        stats = Statistics.from_documents(documents, metrics)
        warning = few_documents(resampling, [len(group) for group in documents[0]], groups)
        if warning:
            warnings.append(warning)
        if resampling.confidence:
            intervals = significance.confidence_intervals(stats, resampling.confidence, resampling.level,
                                                          resampling.seed, progress)
        if resampling.test == "bs":
            tests = significance.paired_bootstrap(stats, resampling.paired_bs, resampling.level, resampling.seed,
                                                  progress)
        elif resampling.test == "ar":
            tests = significance.approximate_randomization(
                stats, resampling.paired_ar, resampling.level, resampling.seed, resampling.interval_samples,
                progress)
    return Systems(names, figures, intervals, tests, signature, resampling.level, warnings)


# --- text ---

def _percent(value, decimals: int) -> str:
    return "n/a" if value is None else f"{value * 100:.{decimals}f}"


def _with_interval(value, interval, decimals: int) -> str:
    if interval is None:
        return _percent(value, decimals) + " [n/a]"
    low, high = interval
    return f"{_percent(value, decimals)} [{_percent(low, decimals)}, {_percent(high, decimals)}]"


# sacreBLEU's mark of a p-value under the threshold.
SIGNIFICANT = "*"


def significant(test: significance.Comparison, level: float) -> bool:
    """Whether the test rejects "no difference" at ``1 - level`` (0.05)."""
    return test.p_value is not None and test.p_value < 1 - level - 1e-12


def p_text(p_value: float) -> str:
    """A p-value to four decimals; one that rounds to 0 (many trials and
    none as extreme) is said to be below the last decimal, not 0."""
    text = f"{p_value:.4f}"
    return "< 0.0001" if float(text) == 0 else text


def legend(systems: Systems) -> str:
    """The line that says what the mark means, when a test was run."""
    if systems.tests is None:
        return ""
    threshold = f"{1 - systems.level:.2g}"
    return (f"{SIGNIFICANT} p < {threshold}: the difference from the baseline ({systems.names[0]}) "
            f"is significant at the {threshold} level\n")


def table_rows(systems: Systems, decimals: int = 2) -> tuple[list[str], list[list[str]]]:
    """The comparison as a header and rows of cells: a row per figure and
    system."""
    level = f"{systems.level * 100:g}%"
    header = ["metric", "system", "recall", "precision", "F1"]
    if systems.intervals:
        header[2:] = [f"{h} [{level} CI]" for h in header[2:]]
    if systems.tests is not None:
        header += [f"F1 diff [{level} CI]", "p-value"]
    rows = []
    for name in systems.figure_names:
        for s, system in enumerate(systems.names):
            figures = systems.figures[s][name]
            cells = [name, system]
            for k, label in enumerate(("recall", "precision", "f1")):
                if figures[k] is None and name == CONLL_SCORE:
                    cells.append("")
                elif systems.intervals:
                    cells.append(_with_interval(figures[k], getattr(systems.intervals[s][name], label), decimals))
                else:
                    cells.append(_percent(figures[k], decimals))
            if systems.tests is not None:
                if s == 0:
                    cells += ["baseline", ""]
                else:
                    test = systems.tests[s - 1][name]
                    if test.difference is None:
                        cells += ["n/a", "n/a"]
                    else:
                        difference = f"{test.difference * 100:+.{decimals}f}"
                        interval = ("[n/a]" if test.interval is None else
                                    f"[{test.interval[0] * 100:+.{decimals}f}, {test.interval[1] * 100:+.{decimals}f}]")
                        mark = SIGNIFICANT if significant(test, systems.level) else ""
                        cells += [f"{difference} {interval}", p_text(test.p_value) + mark]
            rows.append(cells)
    return header, rows


def render(systems: Systems, fmt: str = "text", decimals: int = 2) -> str:
    """The comparison table (aligned text or Markdown), then the signature."""
    header, rows = table_rows(systems, decimals)
    if fmt == "markdown":
        lines = ["| " + " | ".join(cells) + " |"
                 for cells in [header, ["---", "---"] + ["---:"] * (len(header) - 2)] + rows]
        note = legend(systems).replace(SIGNIFICANT, "\\" + SIGNIFICANT, 1)
        return "\n".join(lines) + ("\n\n" + note if note else "") + f"\nSignature: `{systems.signature}`\n"
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                       for i, (cell, w) in enumerate(zip(cells, widths))).rstrip()
             for cells in [header] + rows]
    return "\n".join(lines) + "\n\n" + legend(systems) + f"Signature: {systems.signature}\n"


# --- JSON ---

def add_intervals(metrics: dict, intervals: dict[str, significance.Interval]) -> None:
    """Add each figure's intervals to a JSON ``metrics`` object, in place:
    ``interval`` (F1), ``recall_interval``, ``precision_interval``."""
    for name, interval in intervals.items():
        if name not in metrics:
            continue
        target = metrics[name]
        target["interval"] = None if interval.f1 is None else list(interval.f1)
        if name != CONLL_SCORE:
            target["recall_interval"] = None if interval.recall is None else list(interval.recall)
            target["precision_interval"] = None if interval.precision is None else list(interval.precision)


def tests_json(systems: Systems) -> dict:
    """``{figure: {system: {"difference", "interval", "p_value"}}}`` for each
    system but the baseline, on F1 (system minus baseline)."""
    return {name: {system: {"difference": tests[name].difference,
                            "interval": None if tests[name].interval is None else list(tests[name].interval),
                            "p_value": tests[name].p_value}
                   for system, tests in zip(systems.names[1:], systems.tests)}
            for name in systems.figure_names}
