"""The command line: parse and check flags, call the library, render.

``corefud-scorer KEY SYS`` takes the flags of ``corefud-scorer.py`` 1.2 and
prints its text; ``corefud-scorer bench KEY_DIR SYS_DIR`` (or ``bench
MANIFEST``) scores many datasets at once; ``corefud-scorer errors KEY SYS``
analyses what the response got wrong. Every flag, output path and
optional dependency is checked before a file is read. Nothing here computes
a score.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import __version__, memory
from .errors import ScorerError, run_command
from .interrupts import report as report_interrupt
from .parallel import available_cores
from .presets import PRESETS, describe
from .readers import formats
from .comparison import Resampling
from .profile import OPTIONAL_FEATURES
from .results import ALL_METRICS, CONLL_PARTS, CONLL_SCORE, GROUPS, METRIC_NAMES, SYNC_CHOICES, UA_ALL_METRICS, Options, format_profile
from .significance import AR_TRIALS, BOOTSTRAP_SAMPLES, DEFAULT_SEED, LEVEL, not_resampled

PROG = "corefud-scorer"
INTERRUPTED = 130


def _add_scoring_flags(parser: argparse.ArgumentParser) -> None:
    # Defaults are filled in after parsing, so that a flag given against a
    # preset can be told from a default.
    parser.add_argument("-m", "--metrics", nargs="+", choices=[*GROUPS, *METRIC_NAMES],
                        help="metrics to compute (CorefUD files: default all = " + " ".join(ALL_METRICS)
                        + "; UA files: default conll = muc bcub ceafe, all = " + " ".join(UA_ALL_METRICS)
                        + "; every = all, mention and the further measures)")
    parser.add_argument("--sync", choices=SYNC_CHOICES,
                        help="rebuild key and response over one mention set before the metrics of the "
                        "contingency (Popescu-Belis et al. 2004); all: the four side by side")
    parser.add_argument("-s", "--keep-singletons", action="store_const", const=True,
                        help="score singleton entities too (dropped by default)")
    parser.add_argument("-a", "--match", choices=["exact", "partial", "partial-corefud", "head",
                                                   "partial-craft"],
                        help="mention matching (default: head for CorefUD files, exact for the "
                        "others); partial-corefud is partial; partial-craft is CRAFT 2019's")
    parser.add_argument("-x", "--exact-match", action="store_true", help="the same as -a exact")
    parser.add_argument("-z", "--zero-match-method", choices=["linear", "dependent"],
                        help="match zeros by position or by enhanced dependencies "
                        "(default: dependent for CorefUD files, linear for the others)")
    parser.add_argument("--keep-zeros", action="store_true",
                        help="score zero mentions in files of the other formats too "
                        "(CorefUD files always keep them)")
    parser.add_argument("-l", "--keep-split-antecedents", action="store_true",
                        help="score plural mentions with the entities they are made of "
                        "(UA ElementOf, CorefUD SplitAnte); needs -s")
    parser.add_argument("-d", "--evaluate-discourse-deixis", action="store_true",
                        help="score discourse deixis instead of identity (sets -s and -l)")
    parser.add_argument("--only-split-antecedent", action="store_true",
                        help="score only the alignment of split antecedents (sets -s and -l)")
    parser.add_argument("--allow-boundary-crossing", action="store_true",
                        help="UA markables closed by name may cross others (always accepted; "
                        "the UA scorer's flag)")
    parser.add_argument("--np-only", action="store_true",
                        help="CoNLL files: leave out the mentions the key's parse (sixth column) makes "
                        "verb phrases, as the UA scorer's CoNLL reader does")
    parser.add_argument("--remove-nested-mentions", action="store_true",
                        help="CoNLL files: leave out each mention inside another of its entity")
    parser.add_argument("-t", "--shared-task", choices=sorted(PRESETS),
                        help="the settings of a CRAC shared task's official ranking")
    parser.add_argument("--format", choices=formats(),
                        help="the files' format (default: detected from the files)")
    parser.add_argument("--no-form-check", action="store_true",
                        help="do not compare the key's and the response's word forms")
    parser.add_argument("--form-check", action="store_true",
                        help="refuse CoNLL-2012 files whose word forms differ (by default such words "
                        "are scored by position with a warning, as scorer.pl compares only the "
                        "tokens, and its test files change the words of mentions)")
    parser.add_argument("--per-doc", action="store_true", help="add one row per document")
    parser.add_argument("-j", "--jobs", type=_positive, default=available_cores(),
                        help="processes scoring documents in parallel (default: all cores, %(default)s here)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no warnings or progress on stderr")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print what was left out as asked (e.g. singletons dropped) on stderr")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _add_resampling_flags(parser)


def _add_resampling_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "several systems, confidence intervals and significance tests",
        "resampling documents (within each dataset for bench); the first system is the baseline")
    group.add_argument("--confidence", type=_positive, nargs="?", const=BOOTSTRAP_SAMPLES, metavar="N",
                       help=f"{LEVEL * 100:g}%% percentile bootstrap intervals of every figure "
                       f"(N samples, default {BOOTSTRAP_SAMPLES})")
    tests = group.add_mutually_exclusive_group()
    tests.add_argument("--paired-bs", type=_positive, nargs="?", const=BOOTSTRAP_SAMPLES, metavar="N",
                       help=f"paired bootstrap test against the first system (N samples, default {BOOTSTRAP_SAMPLES})")
    tests.add_argument("--paired-ar", type=_positive, nargs="?", const=AR_TRIALS, metavar="N",
                       help=f"approximate randomization test against the first system "
                       f"(N trials, default {AR_TRIALS})")
    group.add_argument("--seed", type=_natural, default=DEFAULT_SEED,
                       help="the resampling's random seed (default: %(default)s)")
    group.add_argument("-w", "--width", type=_decimals, default=2,
                       help="decimals of the figures in text output (default: %(default)s)")
    group.add_argument("-b", "--score-only", action="store_true",
                       help="print the primary figure alone (CoNLL F1, else the first metric's F1), "
                       "one line per system")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Coreference scorer for documents in the CorefUD 1.x scheme. "
        f"'{PROG} bench ...' scores many datasets at once; "
        f"'{PROG} serve' starts the evaluation page and HTTP API (the 'web' extra).")
    parser.add_argument("key_file", help="the key (gold) file, or - for standard input")
    parser.add_argument("sys_files", nargs="+", metavar="sys_file",
                        help="the response (system) file, or - for standard input; several are "
                        "compared in one table, the first being the baseline of the tests")
    _add_scoring_flags(parser)
    parser.add_argument("--output", choices=["text", "json"], default="text",
                        help="text as scorer 1.2 prints it (default) or one JSON object")
    parser.add_argument("--errors", action="store_true",
                        help="add an error analysis (an 'errors' object in JSON, a report after the text)")
    return parser


def build_errors_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{PROG} errors",
        description="What the response got wrong: the corrections that turn it into the key, "
        "by category (span error, missing/extra mention, missing/extra entity, divided entity, "
        "conflated entities), and what each category costs. Mentions are matched as the score "
        "matches them (-a, -z, -s).")
    parser.add_argument("key_file", help="the key (gold) file, or - for standard input")
    parser.add_argument("sys_file", help="the response (system) file, or - for standard input")
    _add_scoring_flags(parser)
    parser.add_argument("--output", choices=["text", "json"], default="text",
                        help="a readable report (default) or one JSON object with every occurrence")
    parser.add_argument("--examples", type=_natural, default=3,
                        help="examples shown per category in the text report (default: %(default)s)")
    parser.add_argument("--plot", metavar="FILE",
                        help="draw what each category costs (.png at 300 dpi, .svg or .pdf)")
    return parser


def build_bench_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{PROG} bench",
        description="Score a system over many datasets: KEY_DIR SYS_DIR (files paired by name, "
        "dataset = the part before '-corefud-') or one MANIFEST of 'dataset key response' lines. "
        "Several systems: KEY_DIR SYS_DIR SYS_DIR ...")
    parser.add_argument("inputs", nargs="+", metavar="KEY_DIR SYS_DIR [SYS_DIR ...] | MANIFEST")
    _add_scoring_flags(parser)
    parser.add_argument("--output", choices=["text", "json", "csv", "markdown"], default="text",
                        help="an aligned table (default), JSON, CSV or a Markdown table")
    parser.add_argument("--columns", choices=["f1", "all"], default="f1",
                        help="text and Markdown tables: each metric's F1 (default, fits 100 columns) "
                        "or recall, precision, F1 and every count")
    parser.add_argument("--plot", metavar="FILE",
                        help="draw the primary score per dataset (.png at 300 dpi, .svg or .pdf)")
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
    if resampling.test and systems < 2:
        flag = "--paired-bs" if resampling.test == "bs" else "--paired-ar"
        parser.error(f"{flag} compares systems: give at least two responses (the first is the baseline)")
    if args.score_only and args.output != "text":
        parser.error(f"-b/--score-only prints text, not --output {args.output}")
    if args.output == "csv" and resampling.asked:
        parser.error("--confidence and the tests print text, markdown or json, not csv")
    return resampling


def _measures_alone(parser: argparse.ArgumentParser, options: Options, compared: bool) -> None:
    """Several systems, intervals and tests resample statistics that add
    across documents (:func:`.significance.not_resampled` says which are
    refused), for one synchronisation, not --sync all."""
    if not compared:
        return
    unsupported = not_resampled(options.metric_list)
    if unsupported:
        parser.error(f"{', '.join(unsupported)}: not with several systems, --confidence or the tests "
                     "(agreement coefficients are one number, not recall and precision)")
    if options.sync == "all":
        parser.error("--sync all: not with several systems, --confidence or the tests; give one synchronisation")


def _format_of(args: argparse.Namespace) -> str:
    """The format asked for, or the key file's (the library checks the
    response's); ``bench`` reads CorefUD unless told."""
    if args.format:
        return args.format
    key = getattr(args, "key_file", None)
    from .readers import DEFAULT_FORMAT, detect_format

    if key is None or key == "-":
        return DEFAULT_FORMAT

    return detect_format(key)


def as_scored(options: Options, results) -> Options:
    """The options with the format the files were scored in (what ``all``
    and the defaults meant there), for what the command line prints about
    them: the text, the signature, the figures compared."""
    fmt = next((r.settings.get("format") for r in results if r.settings.get("format") in formats()), None)
    return options.for_format(fmt) if fmt else options


def options_from(args: argparse.Namespace, parser: argparse.ArgumentParser,
                 stderr=None) -> Options:
    """Options from flags and a preset; what a flag leaves unset takes the
    defaults of the files' format (its reader's profile). A flag that
    contradicts the preset or another flag is a usage error; one that the
    format cannot honour is refused by the options' own check, before any
    file is read."""
    fmt = _format_of(args)
    profile = format_profile(fmt)
    if args.shared_task and not profile.supports("shared_task"):
        raise profile.refuse("shared_task", OPTIONAL_FEATURES["shared_task"])
    if args.match == "partial-corefud":
        args.match = "partial"
    keep_split = args.keep_split_antecedents
    implied = []  # flags that set -s and -l, said once the options are known to be right
    for flag, on in (("--evaluate-discourse-deixis", args.evaluate_discourse_deixis),
                     ("--only-split-antecedent", args.only_split_antecedent)):
        if on and not (keep_split and args.keep_singletons):
            implied.append(flag)
            keep_split = args.keep_singletons = True
    if keep_split and not args.keep_singletons:
        parser.error("-l/--keep-split-antecedents needs -s/--keep-singletons "
                     "(an antecedent of a plural may be a singleton)")
    if args.metrics and CONLL_SCORE in args.metrics:
        # Expanded here, so that a preset's metrics compare with the parts.
        args.metrics = [m for name in args.metrics for m in (CONLL_PARTS if name == CONLL_SCORE else (name,))]
    if args.form_check and args.no_form_check:
        parser.error("--form-check contradicts --no-form-check")
    if args.exact_match and args.match not in (None, "exact"):
        parser.error(f"-x/--exact-match contradicts -a {args.match}")
    match = "exact" if args.exact_match else args.match
    given = {"match": match, "keep_singletons": args.keep_singletons,
             "zero_match": args.zero_match_method, "metrics": args.metrics, "sync": args.sync}
    if args.shared_task:
        preset = Options.preset(args.shared_task)
        wanted = {"match": preset.match, "keep_singletons": preset.keep_singletons,
                  "zero_match": preset.zero_match, "metrics": list(preset.metrics), "sync": None}
        for name, value in given.items():
            if value is not None and value != wanted[name]:
                parser.error(f"--shared-task {args.shared_task} sets {name} to {wanted[name]!r}; "
                             f"the flags ask for {value!r}")
        given = wanted
    options = Options(
        metrics=tuple(given["metrics"]) if given["metrics"] else None,
        keep_singletons=bool(given["keep_singletons"]),
        match=given["match"],
        zero_match=given["zero_match"],
        format=args.format,
        # Neither flag: the format's default (compared, and for CoNLL-2012 a warning).
        check_forms=False if args.no_form_check else True if args.form_check else None,
        sync=given["sync"],
        keep_zeros=True if args.keep_zeros else None,
        keep_split_antecedents=keep_split,
        discourse_deixis=args.evaluate_discourse_deixis,
        only_split_antecedent=args.only_split_antecedent,
        np_only=args.np_only,
        remove_nested=args.remove_nested_mentions,
    )
    # The format's own check, now, on the format the key is in.
    options.for_format(fmt)
    if stderr is not None and not args.quiet:
        for flag in implied:
            print(f"{PROG}: warning: {flag} scores split antecedents with singletons: "
                  "-s and -l are set", file=stderr)
    return options


class _Progress:
    """A progress bar on stderr when it is a terminal (tqdm), else nothing."""

    def __init__(self, pairs, stderr, quiet):
        self.bar = None
        if quiet or not getattr(stderr, "isatty", lambda: False)():
            return
        from tqdm import tqdm

        from .readers.corefud import count_documents

        self.files = len(pairs)
        self.bar = tqdm(total=sum(count_documents(k) for k, _ in pairs), unit="doc",
                        file=stderr, dynamic_ncols=True, leave=False)
        self.tokens = 0

    def __call__(self, index, document):
        self.tokens += document.tokens
        rate = self.tokens / max(self.bar.format_dict["elapsed"], 1e-9)
        self.bar.set_postfix_str(f"file {index + 1}/{self.files}, {rate:,.0f} tokens/s", refresh=False)
        self.bar.update(1)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def _run(pairs, options, args, stderr):
    from .api import score_many

    progress = _Progress(pairs, stderr, args.quiet)
    try:
        return score_many(pairs, options, args.jobs, progress if progress.bar else None)
    finally:
        progress.close()


def _report(results, args, stderr):
    """Warnings (unless -q) and, with -v, what was left out as asked."""
    if args.quiet:
        return
    for result in results:
        for line in result.warnings:
            print(f"{PROG}: warning: {line}", file=stderr)
        if args.verbose:
            for kind, count in result.counts.items():
                print(f"{PROG}: {result.settings.get('response_file', '')}: "
                      f"{kind.replace('_', ' ')}: {count}", file=stderr)


def entry_point() -> None:
    """The ``corefud-scorer`` command, with the command's collection policy
    (:mod:`.memory`)."""
    memory.manage()
    code = run_command(PROG, main)
    memory.freeze()
    sys.exit(code)


def main(argv: list[str] | None = None, stdout=None, stderr=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        if argv and argv[0] == "bench":
            return bench_main(argv[1:], stdout, stderr)
        if argv and argv[0] == "errors":
            return errors_main(argv[1:], stdout, stderr)
        if argv and argv[0] == "serve":
            from .web.server import serve_main

            return serve_main(argv[1:], stdout, stderr)
        return pair_main(argv, stdout, stderr)
    except ScorerError as err:
        print(f"{PROG}: error: {err}", file=stderr)
        return 2
    except KeyboardInterrupt:
        return report_interrupt(PROG, stderr)


def _signature(options: Options, fmt, resampling: Resampling) -> str:
    from .settings import signature

    return signature(options, fmt, resampling.test, resampling.samples, resampling.confidence,
                     resampling.level, resampling.seed)


def _distinct(parser, names: list[str]) -> None:
    seen = set()
    for name in names:
        if name in seen:
            parser.error(f"{name} is given twice: each system once")
        seen.add(name)


def _figure(value, decimals: int) -> str:
    return "n/a" if value is None else "%.*f" % (decimals, value * 100)


def pair_main(argv: list[str], stdout, stderr) -> int:
    from .report import render_json, render_table, render_text

    parser = build_parser()
    args = parser.parse_args(argv)
    options = options_from(args, parser, stderr)
    files = [args.key_file, *args.sys_files]
    if files.count("-") > 1:
        parser.error("only one of KEY and SYS can be - (standard input)")
    _distinct(parser, args.sys_files)
    resampling = resampling_from(args, parser, len(args.sys_files))
    if args.errors and (options.np_only or options.remove_nested):
        parser.error("--errors analyses the mentions as read: not with --np-only or --remove-nested-mentions")
    if args.errors and (len(args.sys_files) > 1 or resampling.asked or "-" in files):
        parser.error("--errors analyses one response file (not - : it is read a second time), "
                     "without intervals or tests")
    _measures_alone(parser, options, len(args.sys_files) > 1 or resampling.asked)
    # Everything imported so far is kept out of the collector's reach, so that
    # collections between documents walk only what the documents made.
    memory.freeze()
    if len(args.sys_files) > 1 or resampling.asked:
        return _systems_main(args, options, resampling, stdout, stderr)
    (result,) = _run([(args.key_file, args.sys_files[0])], options, args, stderr)
    errors = _errors(args.key_file, args.sys_files[0], options, args.jobs) if args.errors else None
    options = as_scored(options, [result])
    _report([result], args, stderr)
    if args.output == "json":
        data = {**result.to_dict(per_document=args.per_doc),
                "signature": _signature(options, result.settings.get("format"), resampling)}
        if args.shared_task:
            data["settings"]["shared_task"] = args.shared_task
        if errors is not None:
            data["errors"] = errors.to_json()
        stdout.write(render_json(data))
        return 0
    if args.score_only:
        primary = result.conll if result.conll is not None else result.metrics[options.requested[0]].f1
        stdout.write(_figure(primary, args.width) + "\n")
        return 0
    text = render_text(result, options, args.width)
    if args.shared_task:
        text = describe(args.shared_task) + "\n" + text
    if args.per_doc:
        text += "\n" + render_table(result.rows(), "text", decimals=args.width)
    if errors is not None:
        from .errors_report import render_errors_text

        text += "\n" + render_errors_text(errors)
    stdout.write(text)
    return 0


def _errors(key_file, sys_file, options, jobs):
    from .errors_analysis import analyse_files

    return analyse_files(key_file, sys_file, options, jobs)


def errors_main(argv: list[str], stdout, stderr) -> int:
    """``corefud-scorer errors KEY SYS``: the error analysis alone."""
    from .errors_report import plot_errors, render_errors_text
    from .report import SCHEMA_VERSION, render_json
    from .settings import file_settings, option_settings

    parser = build_errors_parser()
    args = parser.parse_args(argv)
    options = options_from(args, parser)
    if args.key_file == "-" and args.sys_file == "-":
        parser.error("only one of KEY and SYS can be - (standard input)")
    if resampling_from(args, parser, 1).asked:
        parser.error("errors: intervals and tests are for scores, not for the error analysis")
    if options.np_only or options.remove_nested:
        parser.error("errors: the analysis reads the mentions as written, not with --np-only or "
                     "--remove-nested-mentions")
    if args.plot:
        from .plot import check_plot_path

        check_plot_path(args.plot)
    memory.freeze()
    report = _errors(args.key_file, args.sys_file, options, args.jobs)
    if report.format:
        options = options.for_format(report.format)
    if args.plot:
        plot_errors(report, args.plot)
    if args.output == "json":
        settings = option_settings(options, options.format)
        if "-" not in (args.key_file, args.sys_file):
            settings.update(file_settings(args.key_file, args.key_file, args.sys_file, args.sys_file))
        if args.shared_task:
            settings["shared_task"] = args.shared_task
        stdout.write(render_json({"schema_version": SCHEMA_VERSION, "errors": report.to_json(),
                                  "settings": settings}))
        return 0
    text = render_errors_text(report, examples=args.examples)
    if args.shared_task:
        text = describe(args.shared_task) + "\n" + text
    stdout.write(text)
    return 0


def _systems_main(args, options: Options, resampling: Resampling, stdout, stderr) -> int:
    """Several responses against one key, or intervals or tests asked for."""
    from .api import score_systems
    from .comparison import add_intervals, compare, pair_figures, render, tests_json
    from .report import header, render_json, render_table

    pairs = [(args.key_file, name) for name in args.sys_files]
    progress = _Progress(pairs, stderr, args.quiet)
    try:
        (results,) = score_systems([(args.key_file, args.sys_files)], options, args.jobs,
                                   progress if progress.bar else None)
    finally:
        progress.close()
    _report(results, args, stderr)
    options = as_scored(options, results)
    names = list(args.sys_files)
    signature = _signature(options, results[0].settings.get("format"), resampling)
    systems = compare(names, [[r.documents] for r in results], [pair_figures(r) for r in results],
                      options.metric_list, resampling, signature)
    if args.output == "json":
        entries = []
        for name, result, index in zip(names, results, range(len(results))):
            entry = result.to_dict(per_document=args.per_doc)
            if args.shared_task:
                entry["settings"]["shared_task"] = args.shared_task
            if systems.intervals:
                add_intervals(entry["metrics"], systems.intervals[index])
            entries.append({"name": name, **entry})
        if len(names) == 1:
            data = {**entries[0], "signature": signature}
            del data["name"]
        else:
            data = {"schema_version": entries[0]["schema_version"], "signature": signature, "systems": entries}
            if systems.tests is not None:
                data["tests"] = tests_json(systems)
        stdout.write(render_json(data))
        return 0
    if args.score_only:
        for result in results:
            primary = result.conll if result.conll is not None else result.metrics[options.requested[0]].f1
            stdout.write(_figure(primary, args.width) + "\n")
        return 0
    text = header(options) + render(systems, "text", args.width)
    if args.shared_task:
        text = describe(args.shared_task) + "\n" + text
    if args.per_doc:
        rows = [{"system": name, **row} for name, result in zip(names, results) for row in result.rows()]
        text += "\n" + render_table(rows, "text", decimals=args.width)
    stdout.write(text)
    return 0


def bench_main(argv: list[str], stdout, stderr) -> int:
    from .benchmark import benchmark, benchmark_systems, pair_folders, read_manifest, rows
    from .report import benchmark_json, render_json, render_table

    parser = build_bench_parser()
    args = parser.parse_args(argv)
    options = options_from(args, parser)
    several = len(args.inputs) > 2
    if several:
        _distinct(parser, args.inputs[1:])
    resampling = resampling_from(args, parser, len(args.inputs) - 1 if len(args.inputs) > 1 else 1)
    _measures_alone(parser, options, several or resampling.asked)
    if options.sync == "all":
        parser.error("--sync all prints one pair of files' four score sets; give bench one synchronisation")
    if args.plot:
        from .plot import check_plot_path

        check_plot_path(args.plot)
    memory.freeze()
    if len(args.inputs) == 1:
        systems_datasets = [read_manifest(args.inputs[0])]
        names = [args.inputs[0]]
    else:
        systems_datasets = [pair_folders(args.inputs[0], folder) for folder in args.inputs[1:]]
        names = list(args.inputs[1:])
    pairs = [(d.key, d.response) for i in range(len(systems_datasets[0])) for d in
             (datasets[i] for datasets in systems_datasets)]
    progress = _Progress(pairs, stderr, args.quiet)
    try:
        if several:
            benches = benchmark_systems(systems_datasets, options, args.jobs, progress if progress.bar else None)
        else:
            benches = [benchmark(systems_datasets[0], options, args.jobs, progress if progress.bar else None)]
    finally:
        progress.close()
    if args.plot:
        from .plot import plot_benchmark

        plot_benchmark(benches, args.plot, [os.path.basename(os.path.normpath(n)) for n in names])
    for bench in benches:
        _report(bench.results, args, stderr)
    fmt = benches[0].results[0].settings.get("format") if benches[0].results else None
    options = as_scored(options, benches[0].results)
    signature = _signature(options, fmt, resampling)
    systems = None
    if several or resampling.asked:
        from .comparison import compare, macro_figures

        systems = compare(names, [[r.documents for r in bench.results] for bench in benches],
                          [macro_figures(bench) for bench in benches], options.metric_list, resampling, signature)
    if args.output == "json":
        from .comparison import add_intervals, tests_json

        entries = []
        for index, (name, bench) in enumerate(zip(names, benches)):
            entry = benchmark_json(bench, args.per_doc, args.shared_task)
            if systems is not None and systems.intervals:
                add_intervals(entry["macro"]["metrics"], systems.intervals[index])
            entries.append({"name": name, **entry})
        if not several:
            data = {**entries[0], "signature": signature}
            del data["name"]
        else:
            data = {"schema_version": entries[0]["schema_version"], "signature": signature, "systems": entries}
            if systems.tests is not None:
                data["tests"] = tests_json(systems)
        stdout.write(render_json(data))
        return 0
    if args.score_only:
        for bench in benches:
            primary = (bench.macro_conll if bench.macro_conll is not None
                       else bench.macro[options.metric_list[0]].f1)
            stdout.write(_figure(primary, args.width) + "\n")
        return 0
    text = ""
    if args.shared_task and args.output in ("text", "markdown"):
        text = describe(args.shared_task) + "\n\n"
    if several:
        table = _interleaved_rows(names, [rows(bench, per_doc=args.per_doc) for bench in benches])
    else:
        table = rows(benches[0], per_doc=args.per_doc)
    text += render_table(table, args.output, args.columns, args.width)
    if systems is not None and args.output != "csv":
        from .comparison import render

        datasets = len(benches[0].datasets)
        title = f"Macro-average over {datasets} dataset{'s' if datasets != 1 else ''}"
        text += "\n" + (f"**{title}**\n\n" if args.output == "markdown" else f"{title}:\n")
        text += render(systems, args.output, args.width)
    stdout.write(text)
    return 0


def _interleaved_rows(names: list[str], tables: list[list[dict]]) -> list[dict]:
    """The systems' rows of each dataset (and document) together: row ``i``
    of every system, then row ``i + 1``; a ``system`` column after the
    dataset."""
    out = []
    for index in range(len(tables[0])):
        for name, table in zip(names, tables):
            row = table[index]
            keys = list(row)
            at = keys.index("dataset") + 1
            out.append({**{k: row[k] for k in keys[:at]}, "system": name, **{k: row[k] for k in keys[at:]}})
    return out
