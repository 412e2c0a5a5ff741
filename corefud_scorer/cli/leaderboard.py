"""``corefud-scorer bench ... --leaderboard``: the official results table
of several systems over the same datasets."""

from __future__ import annotations

import argparse

from .. import memory
from ..presets import describe

from .flags import PROG, options_from
from .names import distinct, names_from
from .running import Progress

# Flags the table has no room for, or that its columns set themselves.
REFUSED = (("keep_singletons", "-s: the table has its own column with singletons"),
           ("keep_split_antecedents", "-l: the columns score identity without split antecedents"),
           ("evaluate_discourse_deixis", "-d: the columns score identity without split antecedents"),
           ("only_split_antecedent", "--only-split-antecedent: the columns score identity"),
           ("sync", "--sync: the columns are the official settings, without synchronisation"),
           ("per_doc", "--per-doc: the table has a row per system and dataset, not per document"),
           ("plot", "--plot: draw a single system's bench instead"),
           ("confidence", "--confidence: the table shows clusters, not intervals"),
           ("score_only", "-b: the table is the output"))


def leaderboard_main(args, parser, stdout, stderr) -> int:
    from ..errors import ScorerError
    from ..jobs.bench import first_key, pair_folders, read_manifest
    from ..jobs.job import key_format
    from ..jobs.options import for_format
    from ..jobs.leaderboard import build, column_settings, extra_columns
    from ..jobs.resampling import Resampling
    from ..render.leaderboard import render, to_json
    from ..render.json_schema import render_json

    for name, message in REFUSED:
        if getattr(args, name):
            parser.error(f"--leaderboard: not with {message}")
    if args.columns != "f1":
        parser.error("--leaderboard: not with --columns (the table has its own columns)")
    # -m adds measures to the table's own (extra_columns), so it does not
    # contradict the year's metrics: the preset's settings are resolved without it.
    options = options_from(argparse.Namespace(**{**vars(args), "metrics": None}), parser)
    try:
        # What -m and the matching mean for the first key's format, refused
        # before a file is read; the board resolves them on all the files.
        first, extra = extra_columns(for_format(options, key_format(args.format, first_key(args.inputs))),
                                     args.metrics)
        column_settings(first, extra)
    except ScorerError as err:
        parser.error(str(err))
    resampling = Resampling(None, args.paired_bs, args.paired_ar, args.seed)
    if len(args.inputs) > 2:
        distinct(parser, args.inputs[1:])
    memory.freeze()
    # Named as bench names them: --names, or each path's shortest distinct ending.
    names = names_from(args, parser, args.inputs if len(args.inputs) == 1 else args.inputs[1:])
    if len(args.inputs) == 1:
        systems = [read_manifest(args.inputs[0])]
    else:
        systems = [pair_folders(args.inputs[0], folder) for folder in args.inputs[1:]]
    progress = Progress([(d.key, d.response) for datasets in systems for d in datasets], stderr, args.quiet)
    try:
        board = build(names, systems, options, resampling if resampling.test else None, args.jobs,
                      progress if progress.bar else None, shared_task=args.shared_task, metrics=args.metrics)
    finally:
        progress.close()
    if not args.quiet:
        for line in dict.fromkeys(board.warnings or []):
            print(f"{PROG}: warning: {line}", file=stderr)
    if args.output == "json":
        stdout.write(render_json(to_json(board)))
        return 0
    text = ""
    if args.shared_task and args.output in ("text", "markdown"):
        text = describe(args.shared_task) + "\n\n"
    stdout.write(text + render(board, args.output, args.width))
    return 0
