"""``corefud-scorer bench``: many datasets, one or several systems."""

from __future__ import annotations

from .. import memory
from ..presets import describe

from .flags import build_bench_parser, options_from, resampling_from
from .names import distinct, names_from
from .running import checked, primary_line, run_job


def bench_main(argv: list[str], stdout, stderr) -> int:
    """Many datasets at once (KEY_DIR SYS_DIR or a manifest), macro- and micro-averaged.

    (``corefud-scorer bench``; the first line is its line in ``--help``.)"""
    from ..jobs.bench import pair_folders, read_manifest
    from ..jobs.job import Job

    parser = build_bench_parser()
    args = parser.parse_args(argv)
    if args.leaderboard:
        from .leaderboard import leaderboard_main

        return leaderboard_main(args, parser, stdout, stderr)
    if args.output == "latex":
        parser.error("--output latex prints the --leaderboard table")
    options = options_from(args, parser)
    several = len(args.inputs) > 2
    if several:
        distinct(parser, args.inputs[1:])
    resampling = resampling_from(args, parser, len(args.inputs) - 1 if len(args.inputs) > 1 else 1)
    systems = args.inputs if len(args.inputs) == 1 else args.inputs[1:]
    # What the job can honour, before a folder is read.
    checked(parser, Job([], options, list(systems), resampling))
    if options.sync == "all":
        parser.error("--sync all prints one pair of files' four score sets; give bench one synchronisation")
    names = names_from(args, parser, systems)
    if args.plot:
        from ..render.plot import check_plot_path

        check_plot_path(args.plot)
    memory.freeze()
    if len(args.inputs) == 1:
        systems_datasets = [read_manifest(args.inputs[0])]
    else:
        systems_datasets = [pair_folders(args.inputs[0], folder) for folder in args.inputs[1:]]
    outcome = run_job(Job.bench(systems_datasets, options, names, resampling=resampling, jobs=args.jobs),
                      args, stderr)
    benches, systems = outcome.benches, outcome.systems
    if args.plot:
        from ..render.plot import plot_benchmark

        plot_benchmark(benches, args.plot, names)
    return _write(stdout, args, names, benches, systems, outcome.signature)


def _write(stdout, args, names, benches, systems, signature) -> int:
    from ..render.json_schema import benchmark_json, render_json
    from ..render.tables import benchmark_rows, render_table
    from ..render.json_report import systems_json

    several = len(benches) > 1
    if args.output == "json":
        from ..jobs.comparison import add_intervals

        entries = []
        for index, (name, bench) in enumerate(zip(names, benches)):
            entry = benchmark_json(bench, args.per_doc, args.shared_task)
            if systems is not None and systems.intervals:
                add_intervals(entry["macro"]["metrics"], systems.intervals[index])
            entries.append({"name": name, **entry})
        stdout.write(render_json(systems_json(entries, signature, systems)))
        return 0
    if args.score_only:
        for bench in benches:
            stdout.write(primary_line(bench.macro_conll, bench.macro, args.width))
        return 0
    text = ""
    if args.shared_task and args.output in ("text", "markdown"):
        text = describe(args.shared_task) + "\n\n"
    if several:
        table = _interleaved_rows(names, [benchmark_rows(bench, per_doc=args.per_doc) for bench in benches])
    else:
        table = benchmark_rows(benches[0], per_doc=args.per_doc)
    text += render_table(table, args.output, args.columns, args.width)
    if systems is not None and args.output != "csv":
        from ..jobs.comparison import render

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
