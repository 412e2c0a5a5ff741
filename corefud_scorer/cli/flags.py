"""The command line's flags, shared by its commands: parsing, and the
options and resampling they make (checked against the files' format
before a file is read)."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from .. import __version__
from ..alignment.match import MATCHING_MODES, MATCHING_SYNONYMS, ZERO_METHODS
from ..jobs.parallel import WARM_UP, default_jobs
from ..presets import PRESETS
from ..formats.readers import formats, profiles
from ..jobs.options import FIELDS, SECTIONS, OptionConflict, check_tests
from ..jobs.resampling import (AR_TRIALS, BOOTSTRAP_SAMPLES, DEFAULT_SEED, LEVEL, MAX_AR_TRIALS,
                               MAX_BOOTSTRAP_SAMPLES, Resampling)
from ..results import GROUPS, METRIC_NAMES, SYNC_CHOICES, Options

from .usage import Parser

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from ..jobs.confined import Budget  # imported by the commands that confine their work

PROG = "corefud-scorer"
INTERRUPTED = 130
# What a group of flags says under its title.
SECTION_NOTES = {"systems": "resampling documents (within each dataset for bench); the first system is the baseline"}


def _by_format(values) -> str:
    """``values`` (format profile -> a value) said once per value, naming
    the formats that share it, read off the readers' profiles."""
    titles: dict[str, list[str]] = {}
    for p in profiles().values():
        value = values(p)
        titles.setdefault(" ".join(value) if isinstance(value, tuple) else str(value), []).append(p.title)
    return "; ".join(f"{value} for {', '.join(names[:-1]) + ' and ' if len(names) > 1 else ''}{names[-1]} files"
                     for value, names in titles.items())


def _groups(parser: argparse.ArgumentParser) -> dict[str, argparse._ArgumentGroup]:
    """One group of flags per concern, the sections the page shows the
    same fields in (:data:`~corefud_scorer.jobs.options.SECTIONS`); what
    concerns the run itself (-j, -q, -v) stays among the general options."""
    return {name: parser.add_argument_group(title[0].lower() + title[1:], SECTION_NOTES.get(name))
            for name, title in SECTIONS.items()}


def _add_scoring_flags(parser: argparse.ArgumentParser) -> dict[str, argparse._ArgumentGroup]:
    """The flags every scoring command shares, in their groups; returns the
    groups, for the command's own flags."""
    groups = _groups(parser)

    def add(*flags, **kwargs):
        name = kwargs.get("dest") or flags[-1].lstrip("-").replace("-", "_")
        return groups[FIELDS[name].section].add_argument(*flags, **kwargs)

    # Defaults are filled in after parsing, so that a flag given against a
    # preset can be told from a default.
    add("-m", "--metrics", nargs="+", choices=[*GROUPS, *METRIC_NAMES], metavar="METRIC",
        help="metrics to compute, each one of " + ", ".join([*GROUPS, *METRIC_NAMES])
        + " (default: " + _by_format(lambda p: p.defaults["metrics"])
        + "; all: " + _by_format(lambda p: p.all_metrics)
        + "; every: all, mention and the further measures)")
    add("--sync", choices=SYNC_CHOICES,
        help="rebuild key and response over one mention set before the metrics of the "
        "contingency (Popescu-Belis et al. 2004); all: the four side by side")
    add("-s", "--keep-singletons", action="store_const", const=True,
        help="score singleton entities too (dropped by default)")
    add("-a", "--match", choices=[*MATCHING_MODES, *MATCHING_SYNONYMS],
        help="mention matching (default: " + _by_format(lambda p: p.defaults["match"])
        + "); partial-corefud is partial; partial-craft is CRAFT 2019's")
    add("-x", "--exact-match", action="store_true", help="the same as -a exact")
    add("-z", "--zero-match-method", choices=ZERO_METHODS,
        help="match zeros by position or by enhanced dependencies "
        "(default: " + _by_format(lambda p: p.defaults["zero_match"]) + ")")
    add("--keep-zeros", action="store_true",
        help="score zero mentions in files of the other formats too "
        "(CorefUD files always keep them)")
    add("-l", "--keep-split-antecedents", action="store_true",
        help="score plural mentions with the entities they are made of "
        "(UA ElementOf, CorefUD SplitAnte); needs -s")
    add("-d", "--evaluate-discourse-deixis", action="store_true",
        help="score discourse deixis instead of identity (sets -s and -l)")
    add("--only-split-antecedent", action="store_true",
        help="score only the alignment of split antecedents (sets -s and -l)")
    add("--allow-boundary-crossing", action="store_true",
        help="UA markables closed by name may cross others (always accepted; "
        "the UA scorer's flag)")
    add("--np-only", action="store_true",
        help="CoNLL files: leave out the mentions the key's parse (sixth column) makes "
        "verb phrases, as the UA scorer's CoNLL reader does")
    add("--remove-nested-mentions", action="store_true",
        help="CoNLL files: leave out each mention inside another of its entity")
    add("-t", "--shared-task", choices=sorted(PRESETS),
        help="the settings of a CRAC shared task's official ranking")
    add("--format", choices=formats(),
        help="the files' format (default: detected from the files)")
    add("--no-form-check", action="store_true",
        help="do not compare the key's and the response's word forms")
    add("--form-check", action="store_true",
        help="refuse CoNLL-2012 files whose word forms differ (by default such words "
        "are scored by position with a warning, as scorer.pl compares only the "
        "tokens, and its test files change the words of mentions)")
    add("--per-doc", action="store_true", help="add one row per document")
    parser.add_argument("-j", "--jobs", type=_positive, default=default_jobs(),
                        help="processes scoring documents in parallel (default: all cores, %(default)s here, "
                        f"once the work has taken {WARM_UP:g} s of CPU time in one process)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no warnings or progress on stderr")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print what was left out as asked (e.g. singletons dropped) on stderr")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _add_resampling_flags(groups)
    return groups


def _add_resampling_flags(groups: dict[str, argparse._ArgumentGroup]) -> None:
    group = groups["systems"]
    samples = _count(MAX_BOOTSTRAP_SAMPLES, "samples")
    group.add_argument("--confidence", type=samples, nargs="?", const=BOOTSTRAP_SAMPLES, metavar="N",
                       help=f"{LEVEL * 100:g}%% percentile bootstrap intervals of every figure "
                       f"(N samples, default {BOOTSTRAP_SAMPLES}, at most {MAX_BOOTSTRAP_SAMPLES:,})")
    tests = group.add_mutually_exclusive_group()
    tests.add_argument("--paired-bs", type=samples, nargs="?", const=BOOTSTRAP_SAMPLES, metavar="N",
                       help=f"paired bootstrap test against the first system (N samples, default "
                       f"{BOOTSTRAP_SAMPLES}, at most {MAX_BOOTSTRAP_SAMPLES:,})")
    tests.add_argument("--paired-ar", type=_count(MAX_AR_TRIALS, "trials"), nargs="?", const=AR_TRIALS, metavar="N",
                       help=f"approximate randomization test against the first system "
                       f"(N trials, default {AR_TRIALS}, at most {MAX_AR_TRIALS:,})")
    group.add_argument("--seed", type=_natural, default=DEFAULT_SEED,
                       help="the resampling's random seed (default: %(default)s)")
    output = groups["files"]
    output.add_argument("-w", "--width", type=_decimals, default=2,
                        help="decimals of the figures in text output (default: %(default)s)")
    group.add_argument("--names", metavar="A,B,...",
                       help="the systems' names in tables and JSON, one per response, separated by commas "
                       "(\\, for a comma in a name; default: the shortest ending of each path that tells "
                       "them apart)")
    output.add_argument("-b", "--score-only", action="store_true",
                        help="print the primary figure alone (CoNLL F1, else the first metric's F1), "
                        "one line per system")


def build_parser(commands: Mapping[str, str] | None = None) -> argparse.ArgumentParser:
    """``corefud-scorer KEY SYS ...``; ``commands`` (name -> one line) are
    the subcommands its help lists."""
    parser = Parser(
        prog=PROG, commands=commands,
        description="Coreference scorer for documents in the CorefUD 1.x scheme, UA files and "
        f"CoNLL-2012 files: '{PROG} KEY SYS' scores a response against a key, or one of the "
        "commands below.")
    parser.add_argument("key_file", help="the key (gold) file, or - for standard input")
    parser.add_argument("sys_files", nargs="+", metavar="sys_file",
                        help="the response (system) file, or - for standard input; several are "
                        "compared in one table, the first being the baseline of the tests")
    output = _add_scoring_flags(parser)["files"]
    output.add_argument("--output", choices=["text", "json"], default="text",
                        help="text as scorer 1.2 prints it (default) or one JSON object")
    output.add_argument("--errors", action="store_true",
                        help="add an error analysis (an 'errors' object in JSON, a report after the text)")
    return parser


def build_errors_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=f"{PROG} errors",
        description="What the response got wrong: the corrections that turn it into the key, "
        "by category (span error, missing/extra mention, missing/extra entity, divided entity, "
        "conflated entities), and what each category costs. Mentions are matched as the score "
        "matches them (-a, -z, -s).")
    parser.add_argument("key_file", help="the key (gold) file, or - for standard input")
    parser.add_argument("sys_file", help="the response (system) file, or - for standard input")
    output = _add_scoring_flags(parser)["files"]
    output.add_argument("--output", choices=["text", "json"], default="text",
                        help="a readable report (default) or one JSON object with every occurrence")
    output.add_argument("--examples", type=_natural, default=3,
                        help="examples shown per category in the text report (default: %(default)s)")
    output.add_argument("--plot", metavar="FILE",
                        help="draw what each category costs (.png at 300 dpi, .svg or .pdf)")
    return parser


def build_bench_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=f"{PROG} bench", usage="%(prog)s [options] KEY_DIR SYS_DIR [SYS_DIR ...] | MANIFEST",
        description="Score a system over many datasets: KEY_DIR SYS_DIR (files paired by name, "
        "dataset = the part before '-corefud-') or one MANIFEST of 'dataset key response' lines. "
        "Several systems: KEY_DIR SYS_DIR SYS_DIR ...")
    parser.add_argument("inputs", nargs="+", metavar="KEY_DIR SYS_DIR [SYS_DIR ...] | MANIFEST")
    groups = _add_scoring_flags(parser)
    output = groups["files"]
    output.add_argument("--output", choices=["text", "json", "csv", "markdown", "latex"], default="text",
                        help="an aligned table (default), JSON, CSV or a Markdown table; latex: "
                        "the --leaderboard as a booktabs table")
    output.add_argument("--columns", choices=["f1", "all"], default="f1",
                        help="text and Markdown tables: each metric's F1 (default, fits 100 columns) "
                        "or recall, precision, F1 and every count")
    output.add_argument("--plot", metavar="FILE",
                        help="draw the primary score per dataset (.png at 300 dpi, .svg or .pdf)")
    groups["systems"].add_argument(
        "--leaderboard", action="store_true",
        help="the official results table: systems ranked by the macro-averaged CoNLL F1 (-t's matching, else "
        "-a's), beside head, partial, exact matching and with singletons, per dataset, with significance "
        f"clusters (--paired-bs or --paired-ar; default --paired-ar {AR_TRIALS}); -m adds columns to the "
        "year's (e.g. -m empty-nodes)")
    return parser


def _whole(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}: {value}")
    return value


def _positive(text: str) -> int:
    return _whole(text, 1)


def _above_zero(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be above 0: {text}")
    return value


def add_budget_flags(parser: argparse.ArgumentParser, default: Budget, unit: str, past: str) -> None:
    """``--max-seconds`` and ``--max-memory-mb``: what scoring one ``unit``
    (a dataset, a request) may take in its process (:mod:`..jobs.confined`);
    ``past``: what becomes of it beyond."""
    parser.add_argument("--max-seconds", type=_above_zero, default=default.seconds, metavar="S",
                        help=f"what scoring one {unit} may take, in seconds; past it {past} (default: %(default)g)")
    parser.add_argument("--max-memory-mb", type=_above_zero, default=default.memory_mb, metavar="MB",
                        help=f"the memory (address space) scoring one {unit} may take; past it {past} "
                        "(default: %(default)g)")


def budget_of(args: argparse.Namespace) -> Budget:
    from ..jobs.confined import Budget

    return Budget(args.max_seconds, args.max_memory_mb)


def _count(limit: int, what: str):
    """A number of samples or trials from 1 to ``limit``: past it, memory
    and time would grow for no gain in precision."""
    def count(text: str) -> int:
        value = _positive(text)
        if value > limit:
            raise argparse.ArgumentTypeError(f"at most {limit:,} {what}, not {value:,}")
        return value

    count.__name__ = what  # argparse names the type in its own messages
    return count


def _natural(text: str) -> int:
    return _whole(text, 0)


def _decimals(text: str) -> int:
    value = _natural(text)
    if value > 10:
        raise argparse.ArgumentTypeError(f"at most 10 decimals: {value}")
    return value


def resampling_from(args: argparse.Namespace, parser: argparse.ArgumentParser, systems: int) -> Resampling:
    """What to resample; a test needs two systems, and the one-figure and
    CSV outputs have no room for intervals."""
    resampling = Resampling(args.confidence, args.paired_bs, args.paired_ar, args.seed)
    try:
        check_tests(args.paired_bs, args.paired_ar, systems)
    except OptionConflict as err:
        parser.error(str(err))
    if args.score_only and args.output != "text":
        parser.error(f"-b/--score-only prints text, not --output {args.output}")
    if args.output == "csv" and resampling.asked:
        parser.error("--confidence and the tests print text, markdown or json, not csv")
    return resampling


def _key_of(args: argparse.Namespace):
    """The key whose format the options are resolved for: the pair's key
    file, or the first key ``bench`` reads (:func:`~corefud_scorer.jobs.bench.first_key`)."""
    key = getattr(args, "key_file", None)
    if key is None and getattr(args, "inputs", None):
        from ..jobs.bench import first_key

        key = first_key(args.inputs)
    return key


def options_from(args: argparse.Namespace, parser: argparse.ArgumentParser,
                 stderr=None) -> Options:
    """Options from flags and a preset (:func:`~corefud_scorer.jobs.options.resolve`, the
    rule every front end follows); a contradiction is a usage error, a
    setting the format cannot honour the options' own one-line refusal,
    both before any file is read."""
    from ..jobs.job import resolve_options

    try:
        resolved = resolve_options(vars(args), _key_of(args))
    except OptionConflict as err:
        parser.error(str(err))
    if stderr is not None and not args.quiet:
        for flag in resolved.implied:
            print(f"{PROG}: warning: {flag} scores split antecedents with singletons: "
                  "-s and -l are set", file=stderr)
    return resolved.options
