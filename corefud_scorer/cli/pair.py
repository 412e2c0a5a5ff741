"""``corefud-scorer KEY SYS ...``: one response scored (scorer 1.2's text,
or JSON), or several compared with intervals and tests."""

from __future__ import annotations

from collections.abc import Mapping

from .. import memory
from ..jobs.job import Job, JobResult
from ..presets import describe

from .flags import build_parser, options_from, resampling_from
from .names import distinct, names_from
from .running import checked, primary_line, run_job


def pair_main(argv: list[str], stdout, stderr, commands: Mapping[str, str] | None = None) -> int:
    """``commands``: the subcommands ``--help`` lists (name -> one line)."""
    parser = build_parser(commands)
    args = parser.parse_args(argv)
    options = options_from(args, parser, stderr)
    files = [args.key_file, *args.sys_files]
    if files.count("-") > 1:
        parser.error("only one of KEY and SYS can be - (standard input)")
    distinct(parser, args.sys_files)
    names = names_from(args, parser, args.sys_files)
    resampling = resampling_from(args, parser, len(args.sys_files))
    job = checked(parser, Job.pair(args.key_file, args.sys_files, options, names, resampling=resampling,
                                   errors=args.errors, jobs=args.jobs))
    # Everything imported so far is kept out of the collector's reach, so that
    # collections between documents walk only what the documents made.
    memory.freeze()
    outcome = run_job(job, args, stderr)
    if job.compared:
        return _systems_output(job, outcome, args, stdout)
    result = outcome.results[0][0]
    if args.output == "json":
        # The renderers are imported by the output that uses them: text needs no json.
        from ..render.json_report import render_scores

        stdout.write(render_scores(names, [result], outcome.options, resampling, args.per_doc,
                                   args.shared_task, outcome.errors))
        return 0
    if args.score_only:
        stdout.write(primary_line(result.conll, result.metrics, args.width))
        return 0
    from ..render.text import render_text

    text = render_text(result, outcome.options, args.width)
    if args.shared_task:
        text = describe(args.shared_task) + "\n" + text
    if args.per_doc:
        from ..render.tables import document_rows

        text += "\n" + _per_document_table(document_rows(result), args.width)
    if outcome.errors is not None:
        from ..render.error_analysis import render_errors_text

        text += "\n" + render_errors_text(outcome.errors)
    stdout.write(text)
    return 0


def _systems_output(job: Job, outcome: JobResult, args, stdout) -> int:
    """Several responses against one key, or intervals or tests asked for."""
    from ..jobs.comparison import render
    from ..render.text import header

    results = [per_system[0] for per_system in outcome.results]
    if args.output == "json":
        from ..render.json_report import render_scores

        stdout.write(render_scores(job.names, results, outcome.options, job.resampling, args.per_doc,
                                   args.shared_task, systems=outcome.systems))
        return 0
    if args.score_only:
        for result in results:
            stdout.write(primary_line(result.conll, result.metrics, args.width))
        return 0
    text = header(outcome.options) + render(outcome.systems, "text", args.width)
    if args.shared_task:
        text = describe(args.shared_task) + "\n" + text
    if args.per_doc:
        from ..render.tables import document_rows

        rows = [{"system": name, **row} for name, result in zip(job.names, results) for row in document_rows(result)]
        text += "\n" + _per_document_table(rows, args.width)
    stdout.write(text)
    return 0


def _per_document_table(rows: list[dict], decimals: int) -> str:
    from ..render.fitted_table import render_fitted

    return render_fitted(rows, decimals)
