"""The command line: parse flags, call :func:`corefud_scorer.score`, render.

Flags are those of ``corefud-scorer.py`` 1.2, plus ``--output`` and
``--version``.
"""

from __future__ import annotations

import argparse
import gc
import sys

from . import __version__
from .api import ALL_METRICS, Options, score
from .errors import ScorerError
from .parallel import available_cores
from .report import render_json, render_text

PROG = "corefud-scorer"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Coreference scorer for documents in the CorefUD 1.x scheme.")
    parser.add_argument("key_file", help="the key (gold) CoNLL-U file")
    parser.add_argument("sys_file", help="the response (system) CoNLL-U file")
    parser.add_argument("-m", "--metrics", nargs="*", default=["all"],
                        choices=["all", *ALL_METRICS, "mention"],
                        help="metrics to compute (default: all = %(choices)s less 'mention')")
    parser.add_argument("-s", "--keep-singletons", action="store_true",
                        help="score singleton entities too (dropped by default)")
    parser.add_argument("-a", "--match", choices=["exact", "partial", "head"], default="head",
                        help="mention matching (default: head)")
    parser.add_argument("-x", "--exact-match", action="store_true",
                        help="exact matching; overrides --match")
    parser.add_argument("-z", "--zero-match-method", choices=["linear", "dependent"],
                        default="dependent",
                        help="match zeros by position or by enhanced dependencies (default: dependent)")
    parser.add_argument("--output", choices=["text", "json"], default="text",
                        help="text as scorer 1.2 prints it (default) or one JSON object")
    parser.add_argument("-j", "--jobs", type=_positive, default=available_cores(),
                        help="processes scoring documents in parallel (default: all cores, %(default)s here)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no warnings on stderr")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return value


def options_from(args: argparse.Namespace) -> Options:
    return Options(
        metrics=tuple(args.metrics) or ("all",),
        keep_singletons=args.keep_singletons,
        match="exact" if args.exact_match else args.match,
        zero_match=args.zero_match_method,
    )


def main(argv: list[str] | None = None, stdout=None, stderr=None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = build_parser().parse_args(argv)
    options = options_from(args)
    # Udapi runs a full garbage collection after each document it reads; with
    # everything imported so far frozen out of the collector's reach, each
    # of those walks only the document at hand.
    gc.freeze()
    try:
        result = score(args.key_file, args.sys_file, options, jobs=args.jobs)
    except ScorerError as err:
        print(f"{PROG}: error: {err}", file=stderr)
        return 2
    if not args.quiet:
        for line in result.warnings:
            print(f"{PROG}: warning: {line}", file=stderr)
    text = render_json(result) if args.output == "json" else render_text(result, options)
    stdout.write(text)
    return 0
