"""``corefud-scorer errors KEY SYS``: the error analysis alone."""

from __future__ import annotations

from .. import memory
from ..presets import describe

from .flags import build_errors_parser, options_from, resampling_from


def analyse(key_file, sys_file, options, jobs):
    """The error analysis of one response file (the library's)."""
    from ..jobs.error_analysis import analyse_files

    return analyse_files(key_file, sys_file, options, jobs)


def errors_main(argv: list[str], stdout, stderr) -> int:
    """What a response got wrong: its errors by category and what each costs.

    (``corefud-scorer errors KEY SYS``; the first line is its line in ``--help``.)"""
    from ..jobs.error_analysis import refusal
    from ..jobs.options import for_format
    from ..render.error_analysis import plot_errors, render_errors_text
    from ..render.json_schema import SCHEMA_VERSION, render_json
    from ..provenance import file_settings, option_settings

    parser = build_errors_parser()
    args = parser.parse_args(argv)
    options = options_from(args, parser)
    if args.key_file == "-" and args.sys_file == "-":
        parser.error("only one of KEY and SYS can be - (standard input)")
    if resampling_from(args, parser, 1).asked:
        parser.error("errors: intervals and tests are for scores, not for the error analysis")
    why = refusal(options)
    if why is not None:
        parser.error(f"errors: {why}")
    if args.plot:
        from ..render.plot import check_plot_path

        check_plot_path(args.plot)
    memory.freeze()
    report = analyse(args.key_file, args.sys_file, options, args.jobs)
    options = for_format(options, report.format or None)
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
