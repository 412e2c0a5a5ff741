"""The command line: parse and check flags, call the library, render.

``corefud-scorer KEY SYS`` takes the flags of ``corefud-scorer.py`` 1.2 and
prints its text; ``corefud-scorer bench KEY_DIR SYS_DIR`` (or ``bench
MANIFEST``) scores many datasets at once. Every flag, output path and
optional dependency is checked before a file is read. Nothing here computes
a score.
"""

from __future__ import annotations

import argparse
import sys

from . import __version__, memory
from .errors import ScorerError
from .parallel import available_cores
from .presets import PRESETS, describe
from .readers import formats
from .results import ALL_METRICS, METRIC_NAMES, Options

PROG = "corefud-scorer"
DEFAULTS = {"match": "head", "zero_match": "dependent", "metrics": ["all"], "keep_singletons": False}
INTERRUPTED = 130


def _add_scoring_flags(parser: argparse.ArgumentParser) -> None:
    # Defaults are filled in after parsing, so that a flag given against a
    # preset can be told from a default.
    parser.add_argument("-m", "--metrics", nargs="+", choices=["all", *METRIC_NAMES],
                        help="metrics to compute (default: all = " + " ".join(ALL_METRICS) + ")")
    parser.add_argument("-s", "--keep-singletons", action="store_const", const=True,
                        help="score singleton entities too (dropped by default)")
    parser.add_argument("-a", "--match", choices=["exact", "partial", "head"],
                        help="mention matching (default: head)")
    parser.add_argument("-x", "--exact-match", action="store_true", help="the same as -a exact")
    parser.add_argument("-z", "--zero-match-method", choices=["linear", "dependent"],
                        help="match zeros by position or by enhanced dependencies (default: dependent)")
    parser.add_argument("-t", "--shared-task", choices=sorted(PRESETS),
                        help="the settings of a CRAC shared task's official ranking")
    parser.add_argument("--format", choices=formats(),
                        help="the files' format (default: detected from the files)")
    parser.add_argument("--no-form-check", action="store_true",
                        help="do not compare the key's and the response's word forms")
    parser.add_argument("--per-doc", action="store_true", help="add one row per document")
    parser.add_argument("-j", "--jobs", type=_positive, default=available_cores(),
                        help="processes scoring documents in parallel (default: all cores, %(default)s here)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no warnings or progress on stderr")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print what was left out as asked (e.g. singletons dropped) on stderr")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Coreference scorer for documents in the CorefUD 1.x scheme. "
        f"'{PROG} bench ...' scores many datasets at once.")
    parser.add_argument("key_file", help="the key (gold) file, or - for standard input")
    parser.add_argument("sys_file", help="the response (system) file, or - for standard input")
    _add_scoring_flags(parser)
    parser.add_argument("--output", choices=["text", "json"], default="text",
                        help="text as scorer 1.2 prints it (default) or one JSON object")
    return parser


def build_bench_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{PROG} bench",
        description="Score a system over many datasets: KEY_DIR SYS_DIR (files paired by name, "
        "dataset = the part before '-corefud-') or one MANIFEST of 'dataset key response' lines.")
    parser.add_argument("inputs", nargs="+", metavar="KEY_DIR SYS_DIR | MANIFEST")
    _add_scoring_flags(parser)
    parser.add_argument("--output", choices=["text", "json", "csv", "markdown"], default="text",
                        help="an aligned table (default), JSON, CSV or a Markdown table")
    parser.add_argument("--columns", choices=["f1", "all"], default="f1",
                        help="text and Markdown tables: each metric's F1 (default, fits 100 columns) "
                        "or recall, precision, F1 and every count")
    parser.add_argument("--plot", metavar="FILE",
                        help="draw the primary score per dataset (.png at 300 dpi, .svg or .pdf)")
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return value


def options_from(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Options:
    """Options from flags, a preset, and 1.2's defaults; a flag that contradicts
    the preset, or another flag, is a usage error."""
    if args.exact_match and args.match not in (None, "exact"):
        parser.error(f"-x/--exact-match contradicts -a {args.match}")
    match = "exact" if args.exact_match else args.match
    given = {"match": match, "keep_singletons": args.keep_singletons,
             "zero_match": args.zero_match_method, "metrics": args.metrics}
    if args.shared_task:
        preset = Options.preset(args.shared_task)
        wanted = {"match": preset.match, "keep_singletons": preset.keep_singletons,
                  "zero_match": preset.zero_match, "metrics": list(preset.metrics)}
        for name, value in given.items():
            if value is not None and value != wanted[name]:
                parser.error(f"--shared-task {args.shared_task} sets {name} to {wanted[name]!r}; "
                             f"the flags ask for {value!r}")
        given = wanted
    return Options(
        metrics=tuple(given["metrics"] or DEFAULTS["metrics"]),
        keep_singletons=bool(given["keep_singletons"]),
        match=given["match"] or DEFAULTS["match"],
        zero_match=given["zero_match"] or DEFAULTS["zero_match"],
        format=args.format,
        check_forms=not args.no_form_check,
    )


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
    code = main()
    memory.freeze()
    sys.exit(code)


def main(argv: list[str] | None = None, stdout=None, stderr=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        if argv and argv[0] == "bench":
            return bench_main(argv[1:], stdout, stderr)
        return pair_main(argv, stdout, stderr)
    except ScorerError as err:
        print(f"{PROG}: error: {err}", file=stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=stderr)
        return INTERRUPTED


def pair_main(argv: list[str], stdout, stderr) -> int:
    from .report import render_json, render_table, render_text

    parser = build_parser()
    args = parser.parse_args(argv)
    options = options_from(args, parser)
    if args.key_file == "-" and args.sys_file == "-":
        parser.error("only one of KEY and SYS can be - (standard input)")
    # Everything imported so far is kept out of the collector's reach, so that
    # collections between documents walk only what the documents made.
    memory.freeze()
    (result,) = _run([(args.key_file, args.sys_file)], options, args, stderr)
    _report([result], args, stderr)
    if args.output == "json":
        data = result.to_dict(per_document=args.per_doc)
        if args.shared_task:
            data["settings"]["shared_task"] = args.shared_task
        stdout.write(render_json(data))
        return 0
    text = render_text(result, options)
    if args.shared_task:
        text = describe(args.shared_task) + "\n" + text
    if args.per_doc:
        text += "\n" + render_table(result.rows(), "text")
    stdout.write(text)
    return 0


def bench_main(argv: list[str], stdout, stderr) -> int:
    from .benchmark import benchmark, pair_folders, read_manifest, rows
    from .report import benchmark_json, render_json, render_table

    parser = build_bench_parser()
    args = parser.parse_args(argv)
    if len(args.inputs) > 2:
        parser.error("give KEY_DIR SYS_DIR, or one MANIFEST file")
    options = options_from(args, parser)
    if args.plot:
        from .plot import check_plot_path

        check_plot_path(args.plot)
    memory.freeze()
    datasets = read_manifest(args.inputs[0]) if len(args.inputs) == 1 else pair_folders(*args.inputs)
    pairs = [(d.key, d.response) for d in datasets]
    progress = _Progress(pairs, stderr, args.quiet)
    try:
        result = benchmark(datasets, options, args.jobs, progress if progress.bar else None)
    finally:
        progress.close()
    if args.plot:
        from .plot import plot_benchmark

        plot_benchmark(result, args.plot)
    _report(result.results, args, stderr)
    if args.output == "json":
        data = benchmark_json(result, args.per_doc, args.shared_task)
        stdout.write(render_json(data))
        return 0
    text = ""
    if args.shared_task and args.output in ("text", "markdown"):
        text = describe(args.shared_task) + "\n\n"
    stdout.write(text + render_table(rows(result, per_doc=args.per_doc), args.output, args.columns))
    return 0
