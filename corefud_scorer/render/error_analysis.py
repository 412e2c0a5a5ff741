"""Renderers of an error analysis (:mod:`~corefud_scorer.jobs.error_analysis`): a readable text
report and a bar chart of what each category costs."""

from __future__ import annotations

from ..errors import ScorerError
from ..jobs.error_analysis import CATEGORIES, LABELS, METHODS, ErrorReport
from ..results import CONLL_SCORE
from ..measures.totals import primary_figure


def primary(scores: dict) -> tuple[str, float | None]:
    """The primary figure of a score's figures (CoNLL F1, F1 or value by name)."""
    return primary_figure(scores.get(CONLL_SCORE), scores)


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.2f}"


def _gain(value: float | None, base: float | None) -> str:
    if value is None or base is None:
        return "-"
    return f"{100 * (value - base):+.2f}"


def _mention(m: dict) -> str:
    kind = "" if m["kind"] == "nominal" else f" ({m['kind']})"
    return f"{m['sentence']}:{m['tokens']} \"{m['words']}\"{kind}"


def _mentions(mentions: list[dict], limit: int = 4) -> str:
    shown = ", ".join(_mention(m) for m in mentions[:limit])
    return shown + (f", and {len(mentions) - limit} more" if len(mentions) > limit else "")


def _entities(ids: list) -> str:
    return ", ".join(str(i) for i in ids) or "-"


def describe_occurrence(o: dict) -> str:
    """One line saying what is wrong and where."""
    mentions = o["mentions"]
    category = o["category"]
    doc = f"[{o['document']}] " if o["document"] is not None else ""
    if category == "span_error":
        response, key = mentions
        return (f"{doc}response {_mention(response)} for key {_mention(key)} "
                f"(key entity {_entities(o['key_entities'])})")
    if category == "extra_mention":
        return f"{doc}{_mention(mentions[0])} in response entity {_entities(o['response_entities'])}"
    if category == "extra_entity":
        return f"{doc}response entity {_entities(o['response_entities'])}: {_mentions(mentions)}"
    if category == "missing_mention":
        return f"{doc}{_mention(mentions[0])} of key entity {_entities(o['key_entities'])}"
    if category == "missing_entity":
        return f"{doc}key entity {_entities(o['key_entities'])}: {_mentions(mentions)}"
    if category == "conflated_entities":
        return (f"{doc}response entity {_entities(o['response_entities'])} joins key entities "
                f"{_entities(o['key_entities'])}; split off: {_mentions(mentions)}")
    return (f"{doc}key entity {_entities(o['key_entities'])} is spread over response entities "
            f"{_entities(o['response_entities'])}; merge: {_mentions(mentions)}")


def render_errors_text(report: ErrorReport, examples: int = 3, worst: int = 5) -> str:
    method = METHODS[report.text_kind]
    label, base = primary(report.cost["baseline"])
    lines = ["Error analysis: the corrections that turn the response into the key",
             "(categories of Kummerfeld & Klein 2013, applied in the order below)",
             f"Heads: {method['heads']}; pronouns: {method['pronouns']}.",
             ""]
    header = ("error", "count", f"{label} alone", "gain", "cumulative", "gain")
    rows = []
    for category in CATEGORIES:
        _, alone = primary(report.cost["alone"][category])
        _, cumulative = primary(report.cost["cumulative"][category])
        rows.append((LABELS[category], str(report.counts[category]), _percent(alone), _gain(alone, base),
                     _percent(cumulative), _gain(cumulative, base)))
    rows.append(("Total", str(sum(report.counts.values())), "", "", "", ""))
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for row in [header] + rows:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    lines.append(f"{label} of the response as it is: {_percent(base)}")

    documents = sorted((d for d in report.per_document if sum(d["counts"].values())),
                       key=lambda d: -sum(d["counts"].values()))
    if len(report.per_document) > 1 and documents:
        shown = min(worst, len(documents))
        lines += ["", f"Documents with the most errors ({shown} of {len(report.per_document)}):"]
        for d in documents[:worst]:
            parts = ", ".join(f"{LABELS[c]} {n}" for c, n in d["counts"].items() if n)
            lines.append(f"  {d['document']}: {sum(d['counts'].values())} ({parts})")

    if examples > 0:
        by_category: dict[str, list] = {c: [] for c in CATEGORIES}
        for o in report.occurrences:
            by_category[o["category"]].append(o)
        for category in CATEGORIES:
            found = by_category[category]
            if not found:
                continue
            lines += ["", f"{LABELS[category]} ({len(found)}), for example:"]
            lines += [f"  {describe_occurrence(o)}" for o in found[:examples]]
    return "\n".join(lines) + "\n"


def plot_errors(report: ErrorReport, path: str) -> None:
    """Bars: the score gained by correcting each category alone, and
    cumulatively in the procedure's order."""
    from .plot import check_plot_path

    check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    label, base = primary(report.cost["baseline"])
    base = base or 0.0
    names = [LABELS[c] for c in CATEGORIES]
    alone = [100 * ((primary(report.cost["alone"][c])[1] or 0.0) - base) for c in CATEGORIES]
    cumulative = [100 * ((primary(report.cost["cumulative"][c])[1] or 0.0) - base) for c in CATEGORIES]
    x = list(range(len(names)))
    figure, axes = plt.subplots(figsize=(9, 4.5))
    axes.bar([i - 0.2 for i in x], alone, width=0.4, color="#4c72b0", label="corrected alone")
    axes.bar([i + 0.2 for i in x], cumulative, width=0.4, color="#dd8452", label="corrected with those before")
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_xticks(x)
    axes.set_xticklabels(names, rotation=30, ha="right")
    axes.set_ylabel(f"{label} gained (points, from {100 * base:.2f})")
    axes.set_title("What each error category costs")
    axes.legend()
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=300 if path.lower().endswith(".png") else None)
    except OSError as err:
        raise ScorerError(f"cannot write the plot: {err.strerror or err}", (path, None)) from None
    finally:
        plt.close(figure)
