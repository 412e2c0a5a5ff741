"""The settings of each CRAC shared task on multilingual coreference (CorefUD)
for its official ranking, as ``-t/--shared-task`` presets.

Every year ranked systems by the CoNLL F1 (mean of MUC, B-cubed and CEAF-e)
without singletons, macro-averaged over datasets; what changed is mention
matching and zeros. A preset fixes those settings and the metrics of the
ranking call; scoring is always scorer 1.2's, whose 1-to-1 matching fixed a
bug of the 1.0/1.1 scorers used in 2022 and 2023 (they could match one
response mention to several key mentions), so those two years' official
numbers can differ slightly (see docs/shared-task.md).
"""

from __future__ import annotations

from collections import namedtuple

from .measures.registry import CONLL_PARTS


class Preset(namedtuple("Preset", "name match keep_singletons zero_match metrics corefud scorer note")):
    """One year's official settings: matching, singletons, zeros and
    metrics, with the CorefUD and scorer versions it ranked with."""

    __slots__ = ()


PRESETS = {
    "crac22": Preset(
        "crac22", "partial", False, "linear", CONLL_PARTS, corefud="1.0", scorer="1.0",
        note="gold empty nodes in the input, identical in key and response"),
    "crac23": Preset(
        "crac23", "head", False, "linear", CONLL_PARTS, corefud="1.1", scorer="1.1",
        note="gold empty nodes in the input, identical in key and response"),
    "crac24": Preset(
        "crac24", "head", False, "dependent", CONLL_PARTS + ("zero",), corefud="1.2", scorer="1.2",
        note="no gold empty nodes: systems predict them"),
    "crac25": Preset(
        "crac25", "head", False, "dependent", CONLL_PARTS + ("zero",), corefud="1.3", scorer="1.2",
        note="input with baseline-predicted empty nodes"),
    "crac26": Preset(
        "crac26", "head", False, "dependent", CONLL_PARTS + ("zero",), corefud="1.4", scorer="1.2",
        note="blind and predicted-zero inputs"),
}


def describe(name: str) -> str:
    """One line naming a preset and what it fixes."""
    p = PRESETS[name]
    year = "20" + name[-2:]
    return (f"CRAC {year} shared task settings ({name}): {p.match} match, "
            f"{'with' if p.keep_singletons else 'without'} singletons, zeros matched {'by position' if p.zero_match == 'linear' else 'by enhanced dependencies'} "
            f"({p.note}); CorefUD {p.corefud}, official scorer {p.scorer}")
