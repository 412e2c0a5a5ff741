"""The command line: parse flags, call the library, render.

``corefud-scorer KEY SYS`` takes the flags of ``corefud-scorer.py`` 1.2 and
prints its text; ``corefud-scorer bench KEY_DIR SYS_DIR`` (or ``bench
MANIFEST``) scores many datasets at once. Nothing here computes a score.
"""

from __future__ import annotations

import argparse
import gc
import sys

from . import __version__
from .api import ALL_METRICS, Options, score_many
from .errors import ScorerError
from .parallel import available_cores
from .presets import PRESETS, describe
from .report import render_json, render_table, render_text, to_json_object

PROG = "corefud-scorer"
DEFAULTS = {"match": "head", "zero_match_method": "dependent", "metrics": ["all"],
            "keep_singletons": False}


def _add_scoring_flags(parser: argparse.ArgumentParser) -> None:
    # Defaults are filled in after parsing, so that a flag given against a
    # preset can be told from a default.
    parser.add_argument("-m", "--metrics", nargs="*", choices=["all", *ALL_METRICS, "mention"],
                        help="metrics to compute (default: all = muc bcub ceafe ceafm blanc lea mor zero)")
    parser.add_argument("-s", "--keep-singletons", action="store_const", const=True,
                        help="score singleton entities too (dropped by default)")
    parser.add_argument("-a", "--match", choices=["exact", "partial", "head"],
                        help="mention matching (default: head)")
    parser.add_argument("-x", "--exact-match", action="store_true",
                        help="exact matching; overrides --match")
    parser.add_argument("-z", "--zero-match-method", choices=["linear", "dependent"],
                        help="match zeros by position or by enhanced dependencies (default: dependent)")
    parser.add_argument("-t", "--shared-task", choices=sorted(PRESETS),
                        help="the settings of a CRAC shared task's official ranking")
    parser.add_argument("--per-doc", action="store_true", help="add one row per document")
    parser.add_argument("-j", "--jobs", type=_positive, default=available_cores(),
                        help="processes scoring documents in parallel (default: all cores, %(default)s here)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no warnings or progress on stderr")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Coreference scorer for documents in the CorefUD 1.x scheme. "
        f"'{PROG} bench ...' scores many datasets at once.")
    parser.add_argument("key_file", help="the key (gold) CoNLL-U file")
    parser.add_argument("sys_file", help="the response (system) CoNLL-U file")
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
    parser.add_argument("--plot", metavar="FILE", help="draw the primary score per dataset (.png or .svg)")
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
    the preset is a usage error."""
    match = "exact" if args.exact_match else args.match
    given = {"match": match, "keep_singletons": args.keep_singletons,
             "zero_match": args.zero_match_method, "metrics": args.metrics}
    if args.shared_task:
        preset = PRESETS[args.shared_task]
        wanted = {"match": preset.match, "keep_singletons": preset.keep_singletons,
                  "zero_match": preset.zero_match, "metrics": list(preset.metrics)}
        for name, value in given.items():
            if value is not None and value != wanted[name]:
                parser.error(f"--shared-task {preset.name} sets {name} to {wanted[name]!r}; "
                             f"the flags ask for {value!r}")
        given = wanted
    return Options(
        metrics=tuple(given["metrics"] or DEFAULTS["metrics"]),
        keep_singletons=bool(given["keep_singletons"]),
        match=given["match"] or DEFAULTS["match"],
        zero_match=given["zero_match"] or DEFAULTS["zero_match_method"],
    )


class _Progress:
    """A progress bar on stderr when it is a terminal (tqdm), else nothing."""

    def __init__(self, pairs, stderr, quiet):
        self.bar = None
        if quiet or not getattr(stderr, "isatty", lambda: False)():
            return
        from tqdm import tqdm

        from .read import count_documents

        self.files = len(pairs)
        self.bar = tqdm(total=sum(count_documents(k) for k, _ in pairs), unit="doc",
                        file=stderr, dynamic_ncols=True, leave=False)
        self.tokens = 0
        self.done_files = set()

    def __call__(self, index, document):
        if self.bar is None:
            return
        self.tokens += document.tokens
        rate = self.tokens / max(self.bar.format_dict["elapsed"], 1e-9)
        self.bar.set_postfix_str(f"file {index + 1}/{self.files}, {rate:,.0f} tokens/s", refresh=False)
        self.bar.update(1)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def _run(pairs, options, args, stderr):
    progress = _Progress(pairs, stderr, args.quiet)
    try:
        return score_many(pairs, options, args.jobs, progress if progress.bar else None)
    finally:
        progress.close()


def _warn(results, args, stderr):
    if not args.quiet:
        for result in results:
            for line in result.warnings:
                print(f"{PROG}: warning: {line}", file=stderr)


def entry_point() -> None:
    """The ``corefud-scorer`` command.

    Automatic garbage collection stays off: each document frees the previous
    one's cycles (see :func:`api.score_document`), and what the last leaves
    behind is frozen out of the collection at exit and goes back to the
    system with the process.
    """
    gc.disable()
    code = main()
    gc.freeze()
    sys.exit(code)


def main(argv: list[str] | None = None, stdout=None, stderr=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "bench":
        return bench_main(argv[1:], stdout, stderr)
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = build_parser()
    args = parser.parse_args(argv)
    options = options_from(args, parser)
    # Everything imported so far is kept out of the collector's reach, so that
    # collections between documents walk only what the documents made.
    gc.freeze()
    try:
        (result,) = _run([(args.key_file, args.sys_file)], options, args, stderr)
    except ScorerError as err:
        print(f"{PROG}: error: {err}", file=stderr)
        return 2
    _warn([result], args, stderr)
    if args.output == "json":
        data = to_json_object(result)
        if args.shared_task:
            data["settings"]["shared_task"] = args.shared_task
        if args.per_doc:
            from .benchmark import document_rows

            data["per_document"] = document_rows(None, result, options)
        stdout.write(render_json(data))
        return 0
    if args.shared_task:
        stdout.write(describe(args.shared_task) + "\n")
    stdout.write(render_text(result, options))
    if args.per_doc:
        from .benchmark import document_rows

        rows = [{k: v for k, v in row.items() if k != "dataset"}
                for row in document_rows(None, result, options)]
        stdout.write("\n" + render_table(rows, "text"))
    return 0


def bench_main(argv: list[str], stdout=None, stderr=None) -> int:
    from .benchmark import benchmark, pair_folders, read_manifest, rows
    from .report import render_benchmark_json

    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = build_bench_parser()
    args = parser.parse_args(argv)
    if len(args.inputs) > 2:
        parser.error("give KEY_DIR SYS_DIR, or one MANIFEST file")
    options = options_from(args, parser)
    gc.freeze()
    try:
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
    except ScorerError as err:
        print(f"{PROG}: error: {err}", file=stderr)
        return 2
    _warn(result.results, args, stderr)
    table = rows(result, per_doc=args.per_doc)
    if args.output == "json":
        stdout.write(render_benchmark_json(result, table, args.shared_task))
    else:
        if args.shared_task and args.output in ("text", "markdown"):
            stdout.write(describe(args.shared_task) + "\n\n")
        stdout.write(render_table(table, args.output))
    return 0
