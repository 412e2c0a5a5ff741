"""``corefud-scorer validate SYS --key KEY``: every problem of a submission
against the key, each with its place and what to do; exit 0 when it would
be scored, 2 when not."""

from __future__ import annotations

import argparse

from ..formats.readers import formats

from .flags import PROG


def build_validate_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{PROG} validate",
        description="List every problem of a submission, not only the first: its alignment with the "
        "key (documents, sentences, word forms), bracket syntax, entity ids, heads and empty nodes. "
        "Exit 0 when the submission would be scored (warnings allowed), 2 when not. Folders are "
        "paired file by file as 'bench' pairs them.")
    parser.add_argument("sys", metavar="SYS_FILE_OR_DIR", help="the submission: a response file or a folder of them")
    parser.add_argument("--key", required=True, metavar="KEY_FILE_OR_DIR", help="the key file or folder")
    parser.add_argument("--format", choices=formats(), help="the files' format (default: detected from the files)")
    forms = parser.add_mutually_exclusive_group()
    forms.add_argument("--no-form-check", action="store_true",
                       help="do not compare the key's and the response's word forms")
    forms.add_argument("--form-check", action="store_true",
                       help="differing word forms are errors in CoNLL-2012 files too (warnings by default)")
    parser.add_argument("--output", choices=["text", "json"], default="text",
                        help="one line per problem with what to do (default), or one JSON object "
                        "(would_score, problems and warnings with file, line, kind, message, hint)")
    return parser


def validate_main(argv: list[str], stdout, stderr) -> int:
    """Every problem of a submission against its key, not only the first."""
    from ..render.json_schema import render_json
    from ..jobs.validation import validate

    args = build_validate_parser().parse_args(argv)
    check_forms = False if args.no_form_check else True if args.form_check else None
    validation = validate(args.sys, args.key, args.format, check_forms)
    if args.output == "json":
        stdout.write(render_json(validation.to_json()))
    else:
        stdout.write(render_text(validation))
    return 0 if validation.would_score else 2


def render_text(validation) -> str:
    lines = []
    for problem in validation.problems:
        place = problem.path if problem.line is None else f"{problem.path}:{problem.line}"
        others = [f"{path}:{line}" if line is not None else path for path, line in problem.where
                  if (path, line) != (problem.path, problem.line)]
        also = f" (also {', '.join(others)})" if others else ""
        lines.append(f"{place}: {problem.severity} [{problem.kind}]: {problem.message}{also}")
        lines.append(f"    to do: {problem.hint}")
    errors, warnings = validation.errors, validation.warnings
    verdict = "would be scored" if validation.would_score else "would not be scored"
    files = len(validation.pairs)
    lines.append(f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''} "
                 f"in {files} file{'s' if files != 1 else ''}: the submission {verdict}")
    return "\n".join(lines) + "\n"
