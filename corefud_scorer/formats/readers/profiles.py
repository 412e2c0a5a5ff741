"""Each format's :class:`~corefud_scorer.formats.profile.FormatProfile`,
its reader's ``PROFILE``: kept apart from the readers, so that what a format
means (the command line's help, option checks, the report) is known without
importing its reader."""

from __future__ import annotations

from ..profile import UA_SCORER_TEXT, FormatProfile, spans_only_refusals

COREFUD = FormatProfile(
    name="corefud", title="CorefUD",
    # Scorer 1.2's defaults.
    defaults={"metrics": ("all",), "match": "head", "zero_match": "dependent", "keep_zeros": True,
              "check_forms": True},
    all_metrics=("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"),
    matching_modes=("exact", "partial", "head", "partial-craft"),
    features=frozenset({"keep_zeros", "keep_split_antecedents", "only_split_antecedent", "shared_task"}),
    why_not={"discourse_deixis": "CorefUD files have no discourse-deixis layer (a UA file's DISCOURSE_DEIXIS column)",
             "non-referring": "CorefUD files have no non-referring markables (a UA file's markables of no entity)",
             "np_only": "needs the parse column of CoNLL-2012 files",
             "remove_nested": "is defined for CoNLL-2012 files"},
)

UA = FormatProfile(
    name="ua", title="Universal Anaphora",
    # The UA scorer's defaults: exact matching, zeros left out, the CoNLL metrics.
    defaults={"metrics": ("muc", "bcub", "ceafe"), "match": "exact", "zero_match": "linear",
              "keep_zeros": False, "check_forms": True},
    all_metrics=("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mention", "mor",
                 "non-referring", "bridging"),
    matching_modes=("exact", "partial", "head", "partial-craft"),
    features=frozenset({"keep_zeros", "keep_split_antecedents", "discourse_deixis", "only_split_antecedent",
                        "shared_task"}),
    text=UA_SCORER_TEXT,
    why_not={"np_only": "needs the parse column of CoNLL-2012 files",
             "remove_nested": "is defined for CoNLL-2012 files"},
)

_CONLL_NO_HEADS = "needs mention heads, and the CoNLL-2012 format has none (no column gives syntactic heads); use -a exact"
CONLL = FormatProfile(
    name="conll", title="CoNLL-2012",
    # exact: no heads; word forms compared with a warning, as scorer.pl compares only tokens.
    defaults={"metrics": ("all",), "match": "exact", "zero_match": "dependent", "keep_zeros": True,
              "check_forms": "warn"},
    all_metrics=("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"),
    matching_modes=("exact",),
    features=frozenset({"np_only", "remove_nested"}),
    repeated_spans="v8.01",
    pairs_with=("jsonlines",),
    why_not={"head": _CONLL_NO_HEADS, "partial": _CONLL_NO_HEADS,
             **spans_only_refusals("the CoNLL-2012 format", "has"),
             "shared_task": "the CRAC presets are for CorefUD files, not CoNLL-2012"},
)

_JSONLINES_NO_HEADS = "needs mention heads, and jsonlines files have none (clusters are spans only); use -a exact"
JSONLINES = CONLL._replace(
    name="jsonlines", title="jsonlines",
    # NP-only reads the key's parse bits, which jsonlines files do not carry.
    features=frozenset({"remove_nested"}),
    pairs_with=("conll",),
    why_not={"head": _JSONLINES_NO_HEADS, "partial": _JSONLINES_NO_HEADS,
             **spans_only_refusals("jsonlines files", "have"),
             "shared_task": "the CRAC presets are for CorefUD files, not jsonlines",
             "np_only": "needs the key's parse bits: give the key as CoNLL-2012"},
)

# Scored as the CorefUD documents it is read into: the same rules.
PLAINTEXT = COREFUD._replace(name="plaintext", title="plaintext", pairs_with=("corefud",))
PROFILES = {profile.name: profile for profile in (UA, CONLL, JSONLINES, PLAINTEXT, COREFUD)}
