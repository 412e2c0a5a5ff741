"""The scoring options by name, as a front end asks for them, and the one way
from what was asked to :class:`~corefud_scorer.results.Options`, with the
checks every front end makes: a preset against the settings it fixes, the
settings against each other, the format's own refusals.

A field's name is the command line's long option with underscores
(``--keep-singletons`` is ``keep_singletons``): the HTTP API takes these
fields, and ``tests/test_web.py`` holds them equal to the command line's
scoring flags. What a format cannot honour is its profile's to say
(:mod:`~corefud_scorer.formats.profile`), what a measure can do the registry's (:mod:`~corefud_scorer.measures.registry`);
the table below only says how a field is asked for and where the page
shows it.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping
from dataclasses import replace

from ..errors import OptionError, plain_setting
from ..alignment.match import MATCHING_MODES, MATCHING_SYNONYMS, ZERO_METHODS
from ..presets import PRESETS
from ..formats.profile import OPTIONAL_FEATURES
from ..formats import readers
from ..measures.registry import CONLL_PARTS, CONLL_SCORE
from ..results import GROUPS, METRIC_NAMES, SYNC_CHOICES, Options
from .resampling import AR_TRIALS, BOOTSTRAP_SAMPLES, DEFAULT_SEED, MAX_AR_TRIALS, MAX_BOOTSTRAP_SAMPLES

# Where the page shows a field: the basic settings, then folded groups.
SECTIONS = {
    "basic": "Basic settings",
    "mentions": "Mentions, zeros and split antecedents",
    "measures": "Further measures and synchronisation",
    "systems": "Several systems: intervals and tests",
    "files": "Files and output",
}

# The kinds of field: a flag (true or false), one of the choices, several of
# them, a count (true for its default number, or a number; off by default),
# a whole number.
FLAG, CHOICE, CHOICES, COUNT, NUMBER = "flag", "choice", "choices", "count", "number"


class Field(namedtuple("Field", "name flag kind section label help choices default feature most",
                       defaults=((), None, None, None))):
    """One scoring option as the front ends ask for it: its ``flag`` is the
    command line's spelling, its ``feature`` the profile feature it needs (a
    key of OPTIONAL_FEATURES), ``most`` a count's largest value
    (resampling's limits)."""

    __slots__ = ()

    def to_dict(self) -> dict:
        return {"name": self.name, "flag": self.flag, "kind": self.kind, "section": self.section,
                "label": self.label, "help": self.help, "choices": list(self.choices) or None,
                "default": self.default, "feature": self.feature}


def _fields(*fields: Field) -> dict[str, Field]:
    return {f.name: f for f in fields}


FIELDS = _fields(
    Field("shared_task", "-t/--shared-task", CHOICE, "basic", "CRAC preset",
          "the settings of a CRAC shared task's official ranking", tuple(sorted(PRESETS)), feature="shared_task"),
    Field("match", "-a/--match", CHOICE, "basic", "Mention matching",
          "how key and response mentions are matched (partial-corefud is partial)",
          MATCHING_MODES[:2] + tuple(MATCHING_SYNONYMS) + MATCHING_MODES[2:]),
    Field("keep_singletons", "-s/--keep-singletons", FLAG, "basic", "Keep singletons",
          "score singleton entities too (dropped by default)"),
    Field("metrics", "-m/--metrics", CHOICES, "basic", "Metrics",
          "the metrics to compute (none ticked: the format's default set)", tuple(GROUPS) + METRIC_NAMES),
    Field("zero_match_method", "-z/--zero-match-method", CHOICE, "mentions", "Zero matching",
          "match zeros by position or by enhanced dependencies", ZERO_METHODS),
    Field("exact_match", "-x/--exact-match", FLAG, "mentions", "Exact match", "the same as match exact"),
    Field("keep_zeros", "--keep-zeros", FLAG, "mentions", "Keep zeros",
          "score zero mentions in files of the other formats too (CorefUD files always keep them)",
          feature="keep_zeros"),
    Field("keep_split_antecedents", "-l/--keep-split-antecedents", FLAG, "mentions", "Keep split antecedents",
          "score plural mentions with the entities they are made of; needs keep singletons",
          feature="keep_split_antecedents"),
    Field("evaluate_discourse_deixis", "-d/--evaluate-discourse-deixis", FLAG, "mentions",
          "Discourse deixis", "score discourse deixis instead of identity (sets keep singletons and "
          "keep split antecedents)", feature="discourse_deixis"),
    Field("only_split_antecedent", "--only-split-antecedent", FLAG, "mentions", "Only split antecedents",
          "score only the alignment of split antecedents (sets keep singletons and keep split antecedents)",
          feature="only_split_antecedent"),
    Field("allow_boundary_crossing", "--allow-boundary-crossing", FLAG, "mentions", "Allow boundary crossing",
          "UA markables closed by name may cross others (always accepted; the UA scorer's flag)"),
    Field("np_only", "--np-only", FLAG, "mentions", "NP only",
          "leave out the mentions the key's parse makes verb phrases", feature="np_only"),
    Field("remove_nested_mentions", "--remove-nested-mentions", FLAG, "mentions", "Remove nested mentions",
          "leave out each mention inside another of its entity", feature="remove_nested"),
    Field("sync", "--sync", CHOICE, "measures", "Markable synchronisation",
          "rebuild key and response over one mention set before the metrics of the contingency; "
          "all: the four side by side", SYNC_CHOICES),
    Field("confidence", "--confidence", COUNT, "systems", "Confidence intervals",
          "percentile bootstrap intervals of every figure: true, or a number of samples",
          default=BOOTSTRAP_SAMPLES, most=MAX_BOOTSTRAP_SAMPLES),
    Field("paired_bs", "--paired-bs", COUNT, "systems", "Paired bootstrap test",
          "against the first response: true, or a number of samples", default=BOOTSTRAP_SAMPLES,
          most=MAX_BOOTSTRAP_SAMPLES),
    Field("paired_ar", "--paired-ar", COUNT, "systems", "Approximate randomization test",
          "against the first response: true, or a number of trials", default=AR_TRIALS, most=MAX_AR_TRIALS),
    Field("seed", "--seed", NUMBER, "systems", "Random seed", "the resampling's random seed",
          default=DEFAULT_SEED),
    Field("format", "--format", CHOICE, "files", "Format", "the files' format (default: told from the key)",
          tuple(readers.formats())),
    Field("no_form_check", "--no-form-check", FLAG, "files", "Skip the word-form check",
          "do not compare the key's and the response's word forms"),
    Field("form_check", "--form-check", FLAG, "files", "Refuse differing word forms",
          "refuse CoNLL-2012 files whose word forms differ (by default a warning)"),
    Field("per_doc", "--per-doc", FLAG, "files", "Per document", "add one row per document"),
    Field("errors", "--errors", FLAG, "files", "Error analysis",
          "add an error analysis (one response, without intervals or tests)"),
)


# Options whose None means "the format's default" (its profile's ``defaults``).
FORMAT_DEFAULTED = ("metrics", "match", "zero_match", "keep_zeros", "check_forms")
# Boolean options a format may not support (its profile's ``features``).
FEATURE_OPTIONS = ("keep_split_antecedents", "discourse_deixis", "only_split_antecedent", "np_only", "remove_nested")


def for_format(options: Options, fmt: str | None = None) -> Options:
    """``options`` settled for files of format ``fmt`` (None: the format
    they ask for, or CorefUD's): checked, with the fields left None given
    the format's defaults (its reader's profile). The one rule every job
    applies before scoring; an option that is unknown, contradicts another
    or that the format cannot honour is an :class:`~corefud_scorer.errors.OptionError`.
    Settled options remember which fields took a default, so that they
    settle again for another format as the options asked."""
    fmt = options.format if fmt is None else fmt
    defaulted = options.__dict__.get("_defaulted")
    if defaulted is not None and options.format == fmt:
        return options
    if defaulted:
        options = replace(options, **dict.fromkeys(defaulted))
    _check_names(options, fmt)
    profile = readers.profile(fmt)
    defaulted = tuple(name for name in FORMAT_DEFAULTED if getattr(options, name) is None)
    given = {name: profile.defaults[name] if name in defaulted else getattr(options, name)
             for name in FORMAT_DEFAULTED}
    metrics, match = given.pop("metrics"), given.pop("match")
    settled = replace(options, format=fmt, **given, metrics=(metrics,) if isinstance(metrics, str) else tuple(metrics),
                      match=MATCHING_SYNONYMS.get(match, match))
    _check_values(settled)
    if fmt is not None:
        _check_format(settled, profile)
    object.__setattr__(settled, "_defaulted", defaulted)
    return settled


def _check_names(options: Options, fmt: str | None) -> None:
    if fmt is not None and fmt not in readers.formats():
        raise OptionError(f"format must be one of {', '.join(readers.formats())}, not {fmt!r}")
    if options.check_forms not in (True, False, "warn", None):
        raise OptionError(f"check_forms must be True, False or 'warn', not {options.check_forms!r}")


def _check_values(options: Options) -> None:
    if (options.keep_split_antecedents or options.only_split_antecedent or options.discourse_deixis) \
            and not (options.keep_singletons and options.keep_split_antecedents):
        raise OptionError("split antecedents, discourse deixis and the split-antecedent score "
                          "need keep_singletons and keep_split_antecedents (an antecedent of a "
                          "plural may be a singleton)")
    if options.sync is not None and options.keep_split_antecedents:
        raise OptionError("--sync: not with split antecedents (synchronisation rebuilds entities "
                          "of mentions, and a split antecedent is a set of entities)")
    if not options.metrics:
        raise OptionError("no metric asked for")
    if options.match not in MATCHING_MODES:
        raise OptionError(f"match must be one of {', '.join(MATCHING_MODES)}, not {options.match!r}")
    if options.zero_match not in ZERO_METHODS:
        raise OptionError(f"zero_match must be one of {', '.join(ZERO_METHODS)}, not {options.zero_match!r}")
    if options.sync is not None and options.sync not in SYNC_CHOICES:
        raise OptionError(f"sync must be one of {', '.join(SYNC_CHOICES)}, not {options.sync!r}")
    unknown = [m for m in options.metrics if m not in GROUPS and m not in METRIC_NAMES]
    if unknown:
        raise OptionError(f"unknown metric(s): {', '.join(unknown)}")


def _check_format(options: Options, profile) -> None:
    """Refuse what the format cannot honour, one line naming the option."""
    if options.match not in profile.matching_modes:
        raise profile.refuse(options.match, f"-a {options.match}")
    for name in FEATURE_OPTIONS:
        if getattr(options, name) and not profile.supports(name):
            raise profile.refuse(name, OPTIONAL_FEATURES[name])
    for name in options.metric_list:
        if name in profile.why_not:
            raise profile.refuse(name, f"-m {name}")


class OptionConflict(OptionError):
    """Settings that contradict each other, a preset or the number of files:
    the command line's usage error, the API's 422."""


class Resolved(namedtuple("Resolved", "options implied", defaults=((),))):
    """The ``options``, and the flags that set others as they imply
    (``implied``, said as a warning once the options are known to be right)."""

    __slots__ = ()


def resolve(asked: Mapping, fmt: str) -> Resolved:
    """Options from what was asked (field name -> value; absent, None or
    False: not asked) for files of format ``fmt``; what is left unset takes
    the format's defaults (its reader's profile). A setting that contradicts
    the preset or another is an :class:`OptionConflict`; one the format
    cannot honour is refused by :func:`for_format`."""
    get = asked.get
    profile = readers.profile(fmt)
    shared_task = get("shared_task")
    if shared_task and not profile.supports("shared_task"):
        raise profile.refuse("shared_task", OPTIONAL_FEATURES["shared_task"])
    match = get("match")
    if match in MATCHING_SYNONYMS:
        match = MATCHING_SYNONYMS[match]
    keep_singletons = get("keep_singletons") or None
    keep_split = bool(get("keep_split_antecedents"))
    implied = []
    for flag, on in (("--evaluate-discourse-deixis", get("evaluate_discourse_deixis")),
                     ("--only-split-antecedent", get("only_split_antecedent"))):
        if on and not (keep_split and keep_singletons):
            implied.append(flag)
            keep_split = keep_singletons = True
    if keep_split and not keep_singletons:
        raise OptionConflict("-l/--keep-split-antecedents needs -s/--keep-singletons "
                             "(an antecedent of a plural may be a singleton)")
    metrics = get("metrics")
    if metrics and CONLL_SCORE in metrics:
        # Expanded here, so that a preset's metrics compare with the parts.
        metrics = [m for name in metrics for m in (CONLL_PARTS if name == CONLL_SCORE else (name,))]
    if get("form_check") and get("no_form_check"):
        raise OptionConflict("--form-check contradicts --no-form-check")
    if get("exact_match") and match not in (None, "exact"):
        raise OptionConflict(f"-x/--exact-match contradicts -a {match}")
    if get("exact_match"):
        match = "exact"
    given = {"match": match, "keep_singletons": keep_singletons,
             "zero_match": get("zero_match_method"), "metrics": metrics, "sync": get("sync")}
    if shared_task:
        preset = Options.preset(shared_task)
        wanted = {"match": preset.match, "keep_singletons": preset.keep_singletons,
                  "zero_match": preset.zero_match, "metrics": list(preset.metrics), "sync": None}
        for name, value in given.items():
            if value is not None and value != wanted[name]:
                raise OptionConflict(f"--shared-task {shared_task} sets {name.replace('_', ' ')} to "
                                     f"{plain_setting(wanted[name])}; the flags ask for {plain_setting(value)}")
        given = wanted
    options = Options(
        metrics=tuple(given["metrics"]) if given["metrics"] else None,
        keep_singletons=bool(given["keep_singletons"]),
        match=given["match"],
        zero_match=given["zero_match"],
        format=get("format"),
        # Neither: the format's default (compared, and for CoNLL-2012 a warning).
        check_forms=False if get("no_form_check") else True if get("form_check") else None,
        sync=given["sync"],
        keep_zeros=True if get("keep_zeros") else None,
        keep_split_antecedents=keep_split,
        discourse_deixis=bool(get("evaluate_discourse_deixis")),
        only_split_antecedent=bool(get("only_split_antecedent")),
        np_only=bool(get("np_only")),
        remove_nested=bool(get("remove_nested_mentions")),
    )
    # The format's own check, now, on the format the key is in.
    for_format(options, fmt)
    return Resolved(options, tuple(implied))


def check_tests(paired_bs, paired_ar, systems: int) -> None:
    """A test compares systems: it needs two responses."""
    if paired_bs and paired_ar:
        raise OptionConflict("--paired-bs and --paired-ar are two tests: ask for one")
    if (paired_bs or paired_ar) and systems < 2:
        flag = "--paired-bs" if paired_bs else "--paired-ar"
        raise OptionConflict(f"{flag} compares systems: give at least two responses (the first is the baseline)")


def check_compared(options: Options, compared: bool) -> None:
    """Several systems, intervals and tests resample statistics that add
    across documents (:func:`.stacked.not_resampled` says which are
    refused), for one synchronisation, not ``--sync all``."""
    if not compared:
        return
    from .stacked import not_resampled

    unsupported = not_resampled(options.metric_list)
    if unsupported:
        raise OptionConflict(f"{', '.join(unsupported)}: not with several systems, --confidence or the tests "
                             "(agreement coefficients are one number, not recall and precision)")
    if options.sync == "all":
        raise OptionConflict("--sync all: not with several systems, --confidence or the tests; "
                             "give one synchronisation")


def refusals(fmt: str) -> dict[str, str | dict[str, str]]:
    """What files of format ``fmt`` cannot honour, read off its profile:
    field name -> why, or for a field of choices, choice -> why (the reasons
    :func:`for_format` gives when it refuses them)."""
    profile = readers.profile(fmt)
    out: dict = {}
    for field in FIELDS.values():
        if field.feature and not profile.supports(field.feature):
            out[field.name] = profile.reason(field.feature)
    modes = {choice: profile.reason(MATCHING_SYNONYMS.get(choice, choice)) for choice in FIELDS["match"].choices
             if MATCHING_SYNONYMS.get(choice, choice) not in profile.matching_modes}
    if modes:
        out["match"] = modes
    measures = {name: profile.reason(name) for name in METRIC_NAMES if name in profile.why_not}
    if measures:
        out["metrics"] = measures
    return out
