"""Render results as text: scorer 1.2's, the UA scorer's (for files of the
other formats) and the synchronisation table. The JSON schema is
:mod:`.json_schema`'s, tables of rows :mod:`.tables`'."""

from __future__ import annotations

from ..measures.synchronisation import SYNC_OPTIONS
from ..formats.profile import UA_SCORER_TEXT
from ..formats.readers import profiles
from ..measures.registry import CONLL_PARTS, CONLL_SCORE, FURTHER, MEASURES
from ..measures.figures import mean_f1
from ..jobs.options import for_format

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from ..results import MetricScore, Options, Result

# The names 1.2 gives the matching modes in its header.
MATCH_NAMES = {"exact": "exact", "partial": "partial-corefud", "head": "head"}
COREF_METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mention", "zero")


# --- scorer 1.2's text ---

def _other_layers(metrics) -> list[str]:
    """The UA scorer's words for the layers beside identity that are asked for."""
    return [label for name, label in (("non-referring", "non-referring mentions"), ("bridging", "bridging relations"),
                                      ("empty-nodes", "empty nodes"))
            if name in metrics]


def header(options: Options) -> str:
    """The two settings lines and the blank line 1.2 opens with."""
    metrics = options.requested
    text = "The scorer is evaluating "
    if any(name in COREF_METRICS or name in FURTHER for name in metrics):
        text += "coreferential mentions"
        if options.keep_singletons:
            text += ", singletons"
        text += f", zeros (using {options.zero_match} match method)"
        # The UA scorer's words for its CoNLL filters.
        if options.np_only:
            text += ", keep only np mentions"
        if options.remove_nested:
            text += ", excluding nested mentions"
        text += "".join(f", {label}" for label in _other_layers(metrics))
    else:
        # Metrics 1.2 never had; with none of them (-m mor alone) the line
        # stays 1.2's, word for word.
        text += ", ".join(_other_layers(metrics))
    text += f" using {MATCH_NAMES[options.match]} match evaluation setting.\n"
    text += f"The following metrics will be evaluated: {', '.join(metrics)}\n"
    if options.sync not in (None, "all"):
        text += f"Markable synchronisation: {options.sync} (mention sets rebuilt before the partition metrics)\n"
    text += "\n"
    return text


# A further measure with no value (no mention pair to compare), in every text layout.
NO_VALUE_LINE = "Value: n/a  (not applicable: no mention pair to compare)\n"


def _percent(value: float, decimals: int = 2) -> str:
    return "%.*f" % (decimals, value * 100)


# --- the UA scorer's text, for files of the other formats ---

UA_MATCH_NAMES = {**MATCH_NAMES, "partial-craft": "partial-craft"}
RULE = "=" * 44


def ua_header(options: Options) -> str:
    """The UA scorer's two settings lines and blank line."""
    metrics = options.requested
    text = "The scorer is evaluating "
    if options.discourse_deixis:
        text += "discourse deixis"
    elif options.only_split_antecedent:
        text += "only split-antecedents"
    elif not any(name in COREF_METRICS for name in metrics):
        text += ", ".join(_other_layers(metrics))
    else:
        text += "coreferential mentions"
        if options.keep_singletons:
            text += ", singletons"
        if options.keep_split_antecedents:
            text += ", split-antecedents"
        if options.keep_zeros:
            text += f", zeros (using {options.zero_match} match method)"
        text += "".join(f", {label}" for label in _other_layers(metrics))
    text += f" using {UA_MATCH_NAMES[options.match]} match evaluation setting.\n"
    text += f"The following metrics will be evaluated: {', '.join(metrics)}\n\n"
    return text


def _scores_line(score: MetricScore, decimals: int = 2, measure: str | None = None) -> str:
    """A score's line; ``measure``: the measure a part's score is of (its
    reason for having no value)."""
    measure = measure or score.name
    one_number = measure in MEASURES and MEASURES[measure].one_number  # an agreement coefficient
    if not score.applicable:
        if one_number:
            return NO_VALUE_LINE
        return ("Recall: n/a  Precision: n/a  F1: n/a"
                f"  (not applicable: {MEASURES[measure].no_value if measure in MEASURES else 'no value'})\n")
    if one_number:
        return f"Value: {_percent(score.value, decimals)}\n"
    return (f"Recall: {_percent(score.recall, decimals)}  Precision: {_percent(score.precision, decimals)}"
            f"  F1: {_percent(score.f1, decimals)}\n")


def _ua_metric_lines(name: str, score: MetricScore, decimals: int = 2) -> list[str]:
    if name == "non-referring":
        return [RULE + "\n", "Non-referring markable identification scores:\n",
                _scores_line(score, decimals)]
    if name == "bridging":
        parts = score.parts
        return [RULE + "\n", "Bridging anaphora recognition scores:\n",
                _scores_line(parts["anaphor_recognition"], decimals, name),
                "Full bridging scores (Markable Level):\n", _scores_line(parts["markable"], decimals, name),
                "Full bridging scores (Entity Level):\n", _scores_line(parts["entity"], decimals, name)]
    if name == "empty-nodes":
        lines = [RULE + "\n", "Empty node scores (first DEPS head, and per part what else must match):\n"]
        if not score.applicable:
            return lines + [_scores_line(score, decimals)]
        width = max(len(label) for label in score.parts)
        return lines + [f"{label.ljust(width)}  {_scores_line(part, decimals)}"
                        for label, part in score.parts.items()]
    return [name + "\n", _scores_line(score, decimals)]


def render_ua_text(result: Result, options: Options, decimals: int = 2) -> str:
    """The UA scorer's text: its header, a block per metric, the CoNLL score."""
    lines = [ua_header(options)]
    for name in options.requested:
        lines.extend(_ua_metric_lines(name, result.metrics[name], decimals))
    conll = text_conll(result, options)
    if conll is not None:
        lines.append("CoNLL score: %.*f\n" % (decimals, conll * 100))
    return "".join(lines)


def text_conll(result: Result, options: Options) -> float | None:
    """1.2's rule for its text: a CoNLL score is printed when exactly three
    of the reported lines are MUC, B-cubed or CEAF-e (repeats included),
    their F1 added in reporting order."""
    lines = [name for name in options.requested if name in CONLL_PARTS]
    if len(lines) != len(CONLL_PARTS):
        return None
    return mean_f1([result.metrics[name].f1 for name in lines])


def render_text(result: Result, options: Options, decimals: int = 2) -> str:
    """Scorer 1.2's text for CorefUD files (``decimals`` other than 2 only
    when asked, ``-w``), the UA scorer's for the others."""
    fmt = result.settings.get("format") or options.format
    # Documents scored from the model ("model") print the default format's text.
    if fmt in profiles() and profiles()[fmt].text == UA_SCORER_TEXT:
        return render_ua_text(result, for_format(options, fmt), decimals)
    lines = [header(options)]
    for name in options.requested:
        if name in FURTHER:
            continue
        # 1.2's lines; the UA scorer's blocks for what 1.2 does not score.
        lines.extend(_ua_metric_lines(name, result.metrics[name], decimals))
    conll = text_conll(result, options)
    if conll is not None:
        lines.append("CoNLL score: %.*f\n" % (decimals, conll * 100))
    # The further measures come after all of 1.2's lines, in the same layout.
    for name in options.requested:
        if name in FURTHER:
            lines.append(name + "\n" + _measure_line(result.metrics[name]))
    if result.synchronisation:
        lines.append("\n" + render_synchronisation(result, options))
    return "".join(lines)


def _measure_line(score: MetricScore) -> str:
    if score.recall is not None:
        return (f"Recall: {_percent(score.recall)}  Precision: {_percent(score.precision)}"
                f"  F1: {_percent(score.f1)}\n")
    if score.value is not None:
        return f"Value: {_percent(score.value)}\n"
    return NO_VALUE_LINE


def render_synchronisation(result: Result, options: Options) -> str:
    """``--sync all``: mention identification, then each metric's recall,
    precision and F1 (one value for an agreement coefficient) under the four
    synchronisations side by side. Mention-level metrics are left out: they
    are not synchronised."""
    found = result.mention_identification
    lines = ["Markable synchronisation (Popescu-Belis et al. 2004)\n",
             f"Mention identification  Recall: {_percent(found.recall)}  "
             f"Precision: {_percent(found.precision)}  F1: {_percent(found.f1)}\n"]
    names = [n for n in options.metric_list if MEASURES[n].of_contingency]
    if any(result.synchronisation[o][CONLL_SCORE] is not None for o in SYNC_OPTIONS):
        names.append(CONLL_SCORE)
    rows = [["", *["R", "P", "F1"] * len(SYNC_OPTIONS)]]
    for name in names:
        row = [name]
        for option in SYNC_OPTIONS:
            synced = result.synchronisation[option]
            if name == CONLL_SCORE:
                row += ["", "", _percent(synced[CONLL_SCORE])]
                continue
            score = synced["metrics"][name]
            if score.recall is not None:
                row += [_percent(score.recall), _percent(score.precision), _percent(score.f1)]
            else:
                row += ["", "", "n/a" if score.value is None else _percent(score.value)]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    # Each option's name heads its three columns.
    head = "".ljust(widths[0])
    for k, option in enumerate(SYNC_OPTIONS):
        head += "  " + option.ljust(sum(widths[1 + 3 * k: 4 + 3 * k]) + 4)
    out = [head.rstrip() + "\n"]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        out.append("  ".join(cells).rstrip() + "\n")
    return "".join(lines + out)
