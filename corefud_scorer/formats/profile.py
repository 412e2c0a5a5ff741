"""What a file format means for scoring: its defaults, what ``-m all``
stands for, the matching modes and options it supports, its text and its
reading of repeated spans.

Each format's :class:`FormatProfile` is kept in :mod:`.readers.profiles`
(read without importing a reader) and exported by its reader as ``PROFILE``;
option resolution (:class:`~corefud_scorer.results.Options`), the command line, the
web form and the report read it, so that no other module compares a value
with a format's name.
"""

from __future__ import annotations

from collections import namedtuple

from ..errors import OptionError

# The layouts of the text output: scorer 1.2's, and the UA scorer's.
SCORER_12_TEXT = "scorer 1.2"
UA_SCORER_TEXT = "UA scorer"

# The options a format may lack, by their command-line spelling.
OPTIONAL_FEATURES = {
    "keep_zeros": "--keep-zeros",
    "keep_split_antecedents": "-l/--keep-split-antecedents",
    "discourse_deixis": "-d/--evaluate-discourse-deixis",
    "only_split_antecedent": "--only-split-antecedent",
    "np_only": "--np-only",
    "remove_nested": "--remove-nested-mentions",
    "shared_task": "-t/--shared-task",
}


class FormatProfile(namedtuple("FormatProfile", "name title defaults all_metrics matching_modes features "
                                                 "text repeated_spans why_not pairs_with",
                                 defaults=(frozenset(), SCORER_12_TEXT, "1.2", {}, ()))):
    """One format's scoring rules, fixed once made.

    ``defaults`` gives, for each option a caller leaves as None, its value
    for files of this format. ``matching_modes`` are the ``-a`` modes the
    format can honour (head-based ones need heads), ``features`` the
    optional settings it supports (keys of :data:`OPTIONAL_FEATURES`).
    ``text`` names the layout of its text output (:data:`SCORER_12_TEXT`
    or :data:`UA_SCORER_TEXT`) and ``repeated_spans`` whose reading
    of a span given twice it follows (``"1.2"`` or ``"v8.01"``, the
    reference scorer's). ``why_not`` says, by mode or feature, why the
    format cannot honour it; ``pairs_with`` names the formats whose files
    a file of this one is scored against (documents read alike, scored by
    the same rules): key and response may mix them."""

    __slots__ = ()

    def supports(self, feature: str) -> bool:
        return feature in self.features

    def reason(self, what: str) -> str:
        """Why the format cannot honour ``what`` (a mode, feature or measure)."""
        return self.why_not.get(what, f"not supported for {self.title} files")

    def refuse(self, what: str, flag: str) -> OptionError:
        return OptionError(f"{flag}: {self.reason(what)}")


def spans_only_refusals(subject: str, has: str) -> dict[str, str]:
    """Why a format whose mentions are bare spans (``subject`` and its verb,
    e.g. "jsonlines files", "have") refuses what needs more: minimum spans,
    zeros, split antecedents and the layers beside identity."""
    no = f"{subject} {has} no"
    return {"partial-craft": f"needs minimum spans, and {subject} {has} none; use -a exact",
            "keep_zeros": f"{no} zero mentions",
            "keep_split_antecedents": f"{no} split antecedents",
            "discourse_deixis": f"{no} discourse-deixis layer",
            "only_split_antecedent": f"{no} split antecedents",
            "bridging": f"{no} bridging",
            "non-referring": f"{no} non-referring markables",
            "empty-nodes": f"{no} empty nodes"}

