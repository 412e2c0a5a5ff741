"""``corefud-scorer codalab INPUT_DIR OUTPUT_DIR``: the CodaLab / Codabench
scoring program, which writes its outputs whatever the submission holds;
``corefud-scorer codalab --bundle DIR`` writes the folder to upload."""

from __future__ import annotations

import argparse
import json
import os
import tempfile

from ..jobs.confined import DATASET_BUDGET, Budget
from ..errors import ScorerError
from ..presets import PRESETS, describe
from ..formats.readers.limits import statement
from ..results import GROUPS, METRIC_NAMES
from .flags import PROG, add_budget_flags, budget_of

SCORES_TXT, SCORES_JSON, DETAILS = "scores.txt", "scores.json", "detailed_results.html"


def build_codalab_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{PROG} codalab",
        description="The CodaLab / Codabench scoring program: gold files in INPUT_DIR/ref/, the "
        "submission in INPUT_DIR/res/ (files at its top, in one folder, or a .zip); writes "
        f"OUTPUT_DIR/{SCORES_TXT}, {SCORES_JSON} and {DETAILS}. A missing dataset counts 0, a file "
        "that cannot be scored is named and counts 0; gold files the settings cannot score are an error "
        "(exit 2, nothing written).", epilog=statement())
    parser.add_argument("dirs", nargs="*", metavar="INPUT_DIR OUTPUT_DIR")
    parser.add_argument("-t", "--shared-task", choices=sorted(PRESETS),
                        help="the settings of a CRAC shared task's official ranking")
    parser.add_argument("-m", "--metrics", nargs="+", choices=[*GROUPS, *METRIC_NAMES], metavar="METRIC",
                        help="measures to score beside the leaderboard's columns, each a scores.txt line of its "
                        "F1 (e.g. -m empty-nodes); added to the year's metrics, as bench --leaderboard adds them")
    add_budget_flags(parser, DATASET_BUDGET, "dataset", "the dataset is named and counts 0")
    parser.add_argument("--bundle", metavar="DIR",
                        help="write the scoring program folder to upload (metadata and README) into DIR")
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    return parser


def codalab_main(argv: list[str], stdout, stderr) -> int:
    """A CodaLab / Codabench scoring program: INPUT_DIR/ref and INPUT_DIR/res scored into OUTPUT_DIR."""
    parser = build_codalab_parser()
    args = parser.parse_args(argv)
    try:
        _table(args.shared_task, args.metrics)
    except ScorerError as err:
        parser.error(str(err))
    if args.bundle:
        if args.dirs:
            parser.error("--bundle writes the program folder: no INPUT_DIR OUTPUT_DIR with it")
        return _bundle(args, stdout)
    if len(args.dirs) != 2:
        parser.error("give INPUT_DIR and OUTPUT_DIR (or --bundle DIR)")
    input_dir, output_dir = args.dirs
    try:
        os.makedirs(output_dir, exist_ok=True)
    except OSError as err:
        raise ScorerError(f"cannot create the output folder: {err.strerror}", (output_dir, None)) from None
    files, problems = _outputs(input_dir, args.shared_task, args.metrics,
                               budget_of(args))
    _write(output_dir, files)
    if not args.quiet:
        for problem in problems:
            print(f"{PROG}: submission: {problem}", file=stderr)
    stdout.write(files[SCORES_TXT])
    return 0


def _table(shared_task: str | None, metrics: list[str] | None):
    """The options and extra measures of the table (the rule
    :func:`..jobs.leaderboard.extra_columns` states)."""
    from ..jobs.leaderboard import extra_columns
    from ..jobs.options import for_format
    from ..results import Options

    return extra_columns(for_format(Options.preset(shared_task) if shared_task else Options()), metrics)


def _outputs(input_dir: str, shared_task: str | None, metrics: list[str] | None = None,
             budget: Budget = DATASET_BUDGET) -> tuple[dict[str, str], list[str]]:
    """The three files' text and the problems found. What is wrong with the
    gold folder is raised (nothing is written: no score is better than a
    wrong one); a failure of the scorer itself is named in the files (a
    crash on the platform shows the participant nothing)."""
    from ..render.codalab import detailed_html, error_html, scores_json, scores_txt
    from ..jobs.leaderboard import COLUMNS, column_settings, primary_column
    from ..render.json_schema import render_json

    try:
        from ..jobs.codalab import evaluate
        from ..provenance import signature

        options, extra = _table(shared_task, metrics)
        evaluation = evaluate(input_dir, options, shared_task, extra, budget)
        evaluation.signature = signature(column_settings(options, extra)[primary_column(options)], None)
        return ({SCORES_TXT: scores_txt(evaluation), SCORES_JSON: render_json(scores_json(evaluation)),
                 DETAILS: detailed_html(evaluation)}, evaluation.problems)
    except ScorerError:
        raise
    except Exception as err:  # noqa: BLE001 - the outputs must name any failure
        problem = f"the scorer failed: {type(err).__name__}: {err}"
        zeros = dict.fromkeys(COLUMNS, 0.0)
        data = {"scores": zeros, "datasets": [], "problems": [problem], "error": problem}
        return ({SCORES_TXT: "".join(f"{c}: 0.0\n" for c in COLUMNS), SCORES_JSON: json.dumps(data, indent=1) + "\n",
                 DETAILS: error_html(problem)}, [problem])


def _mode() -> int:
    """What a new file's mode is under the process's umask (0644 under 022):
    the platform's web server reads the outputs as another user."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _write(folder: str, files: dict[str, str]) -> None:
    """Each file whole or not at all."""
    for name, text in files.items():
        handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, prefix=f".{name}.", delete=False)
        try:
            with handle:
                handle.write(text)
            os.chmod(handle.name, _mode())
            os.replace(handle.name, os.path.join(folder, name))
        except OSError as err:
            try:
                os.unlink(handle.name)
            except OSError:
                pass
            raise ScorerError(f"cannot write {name}: {err.strerror}", (folder, None)) from None


def _bundle(args, stdout) -> int:
    from ..render.codalab import bundle_files
    from ..jobs.leaderboard import reports_zero

    options, extra = _table(args.shared_task, args.metrics)
    line = describe(args.shared_task) if args.shared_task else "the scorer's defaults (head match, no singletons)"
    try:
        os.makedirs(args.bundle, exist_ok=True)
    except OSError as err:
        raise ScorerError(f"cannot create the folder: {err.strerror}", (args.bundle, None)) from None
    files = bundle_files(args.shared_task, line, reports_zero(options), extra, args.metrics,
                         budget_of(args))
    _write(args.bundle, files)
    stdout.write("".join(f"{os.path.join(args.bundle, name)}\n" for name in files))
    return 0
