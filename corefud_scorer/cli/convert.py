"""``corefud-scorer convert IN OUT [--to FORMAT]``: a file in another format."""

from __future__ import annotations

import argparse

from ..formats.readers import formats as read_formats
from ..formats.writers import formats as written_formats
from .flags import PROG


def build_convert_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{PROG} convert", description="Write a coreference file in another format, through the "
        "format-free model; what the target cannot hold is named in a warning with its count.")
    parser.add_argument("input", help="the file to convert (its format detected unless --format)")
    parser.add_argument("output", help="the file to write (written whole, or not at all)")
    parser.add_argument("--to", choices=written_formats(),
                        help="the output's format (default: from its name: .conll, .jsonl, ...)")
    parser.add_argument("--format", choices=read_formats(), help="the input's format (default: detected)")
    parser.add_argument("--blind", action="store_true",
                        help="the words alone, without the annotation (the plaintext format's prompts)")
    return parser


def convert_main(argv: list[str], stdout, stderr) -> int:
    """Convert a file between CorefUD, UA, CoNLL-2012, jsonlines and plaintext."""
    from ..jobs.convert import convert, loss_warning, target_format

    args = build_convert_parser().parse_args(argv)
    fmt = target_format(args.output, args.to)
    warning = loss_warning(convert(args.input, args.output, fmt, args.format, args.blind), fmt)
    if warning:
        print(f"{PROG}: warning: {warning}", file=stderr)
    return 0
