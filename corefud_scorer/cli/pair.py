"""``corefud-scorer KEY SYS ...``: one response scored (scorer 1.2's text,
or JSON), or several compared with intervals and tests."""

from __future__ import annotations

from collections.abc import Mapping

from .. import memory
from ..presets import describe
from ..render.text import document_rows
from ..render.json_report import render_scores
from ..jobs.options import OptionConflict, check_errors
from ..jobs.resampling import Resampling
from ..results import Options

from .flags import (Progress, as_scored, build_parser, compare_systems, distinct, measures_alone, options_from,
                    names_from, primary_line, report_warnings, resampling_from, score_pairs, signature_of)


def pair_main(argv: list[str], stdout, stderr, commands: Mapping[str, str] | None = None) -> int:
    """``commands``: the subcommands ``--help`` lists (name -> one line)."""
    from ..render.text import render_table, render_text

    parser = build_parser(commands)
    args = parser.parse_args(argv)
    options = options_from(args, parser, stderr)
    files = [args.key_file, *args.sys_files]
    if files.count("-") > 1:
        parser.error("only one of KEY and SYS can be - (standard input)")
    distinct(parser, args.sys_files)
    names = names_from(args, parser, args.sys_files)
    resampling = resampling_from(args, parser, len(args.sys_files))
    if args.errors:
        try:
            check_errors(options, len(args.sys_files), resampling.asked, "-" in files)
        except OptionConflict as err:
            parser.error(str(err))
    measures_alone(parser, options, len(args.sys_files) > 1 or resampling.asked)
    # Everything imported so far is kept out of the collector's reach, so that
    # collections between documents walk only what the documents made.
    memory.freeze()
    if len(args.sys_files) > 1 or resampling.asked:
        return _systems_main(args, options, resampling, names, stdout, stderr)
    (result,) = score_pairs([(args.key_file, args.sys_files[0])], options, args, stderr)
    errors = None
    if args.errors:
        from .analysis import analyse

        errors = analyse(args.key_file, args.sys_files[0], options, args.jobs)
    options = as_scored(options, [result])
    report_warnings([result], args, stderr)
    if args.output == "json":
        stdout.write(render_scores(names, [result], options, resampling, args.per_doc,
                                   args.shared_task, errors))
        return 0
    if args.score_only:
        stdout.write(primary_line(result.conll, result.metrics, args.width))
        return 0
    text = render_text(result, options, args.width)
    if args.shared_task:
        text = describe(args.shared_task) + "\n" + text
    if args.per_doc:
        text += "\n" + render_table(document_rows(result), "text", decimals=args.width)
    if errors is not None:
        from ..render.error_analysis import render_errors_text

        text += "\n" + render_errors_text(errors)
    stdout.write(text)
    return 0


def _systems_main(args, options: Options, resampling: Resampling, names: list[str], stdout, stderr) -> int:
    """Several responses against one key, or intervals or tests asked for."""
    from ..api import score_systems
    from ..jobs.comparison import pair_figures, render
    from ..render.text import header, render_table

    pairs = [(args.key_file, name) for name in args.sys_files]
    progress = Progress(pairs, stderr, args.quiet)
    try:
        (results,) = score_systems([(args.key_file, args.sys_files)], options, args.jobs,
                                   progress if progress.bar else None)
    finally:
        progress.close()
    report_warnings(results, args, stderr)
    options = as_scored(options, results)
    signature = signature_of(options, results[0].settings.get("format"), resampling)
    systems = compare_systems(names, [[r.documents] for r in results], [pair_figures(r) for r in results],
                              options, resampling, signature, args, stderr)
    if args.output == "json":
        stdout.write(render_scores(names, results, options, resampling, args.per_doc, args.shared_task,
                                   systems=systems))
        return 0
    if args.score_only:
        for result in results:
            stdout.write(primary_line(result.conll, result.metrics, args.width))
        return 0
    text = header(options) + render(systems, "text", args.width)
    if args.shared_task:
        text = describe(args.shared_task) + "\n" + text
    if args.per_doc:
        rows = [{"system": name, **row} for name, result in zip(names, results) for row in document_rows(result)]
        text += "\n" + render_table(rows, "text", decimals=args.width)
    stdout.write(text)
    return 0
