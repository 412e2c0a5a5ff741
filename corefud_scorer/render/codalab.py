"""What the CodaLab / Codabench scoring program writes (:mod:`.codalab`):
``scores.txt`` (``name: value`` lines the leaderboard reads), ``scores.json``,
``detailed_results.html``, and the scoring program folder an organiser
uploads (its ``metadata`` and README)."""

from __future__ import annotations

import html
import os
import textwrap

from ..formats.readers import profiles, reader
from ..formats.readers.limits import statement
from ..jobs.codalab import SCORED, Evaluation, counted
from ..jobs.confined import DATASET_BUDGET, Budget
from ..jobs.leaderboard import COLUMNS, ZERO
from .leaderboard import LABELS
from .json_schema import SCHEMA_VERSION


def _number(value: float) -> str:
    return repr(float(value))


def scores_txt(evaluation: Evaluation) -> str:
    """The leaderboard's columns as fractions (``head: 0.7116...``), the
    zero score where the year reports it and is defined, each extra
    measure asked where defined (``empty-nodes: 0.83...``), then the primary
    score of each dataset (``DATASET_head``), a dataset not scored as 0."""
    lines = [f"{column}: {_number(evaluation.scores[column])}" for column in COLUMNS]
    if evaluation.with_zero and evaluation.zero is not None:
        lines.append(f"{ZERO}: {_number(evaluation.zero)}")
    lines += [f"{name}: {_number(evaluation.extra_scores[name])}" for name in evaluation.extra_names
              if evaluation.extra_scores[name] is not None]
    for dataset in evaluation.datasets:
        lines.append(f"{dataset.dataset}_{evaluation.primary}: {_number(counted(dataset, evaluation.primary))}")
    return "\n".join(lines) + "\n"


def scores_json(evaluation: Evaluation) -> dict:
    """``scores`` (the columns, fractions), ``datasets`` (each with its
    ``status``: scored, missing, malformed or error, its ``problem``, figures,
    warnings and, for a malformed file, ``validation``: every problem found
    in it) and ``problems``."""
    return {
        "schema_version": SCHEMA_VERSION,
        "signature": evaluation.signature,
        "shared_task": evaluation.shared_task,
        "primary": evaluation.primary,
        "scores": {**evaluation.scores, **({ZERO: evaluation.zero} if evaluation.with_zero else {}),
                   **evaluation.extra_scores},
        "datasets": [{"dataset": d.dataset, "status": d.status, "problem": d.problem,
                      **{c: d.scores.get(c) for c in COLUMNS},
                      **({ZERO: d.zero} if evaluation.with_zero else {}),
                      **{name: d.extra_scores.get(name) for name in evaluation.extra_names}, "warnings": d.warnings,
                      "validation": d.validation}
                     for d in evaluation.datasets],
        "problems": evaluation.problems,
        "extra_files": evaluation.extra_files,
    }


def _percent(value) -> str:
    return "n/a" if value is None else f"{value * 100:.2f}"


def detailed_html(evaluation: Evaluation) -> str:
    """A page for the participant: what was wrong with the submission, the
    macro-averages and the per-dataset table."""
    esc = html.escape
    columns = list(COLUMNS) + ([ZERO] if evaluation.with_zero else []) + list(evaluation.extra_names)
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8"><title>Detailed results</title>',
           "<style>body{font-family:sans-serif}table{border-collapse:collapse}"
           "td,th{border:1px solid #999;padding:2px 8px;text-align:right}"
           "td:first-child,th:first-child{text-align:left}.problem{color:#a00}</style></head><body>",
           "<h1>Detailed results</h1>"]
    if evaluation.problems:
        out.append("<h2>Problems with the submission</h2><ul>")
        out += [f'<li class="problem">{esc(problem)}</li>' for problem in evaluation.problems]
        out.append("</ul>")
        for d in evaluation.datasets:
            if d.validation:
                name = os.path.basename(d.response) if d.response else d.dataset
                out.append(f"<h3>Every problem found in {esc(name)} ({len(d.validation)})</h3><ul>")
                out += [_validation_item(p) for p in d.validation]
                out.append("</ul>")
    else:
        out.append("<p>Every dataset was scored.</p>")
    out.append(f"<h2>Scores (CoNLL F1, %; ranked by {esc(evaluation.primary)} match)</h2>")
    out.append("<table><tr><th>dataset</th><th>status</th>"
               + "".join(f"<th>{esc(LABELS.get(c, c))}</th>" for c in columns) + "</tr>")
    for d in evaluation.datasets:
        # As the macro-average and scores.txt count them: 0 for a dataset not scored.
        figures = ([counted(d, c) for c in COLUMNS] + ([d.zero] if evaluation.with_zero else [])
                   + [d.extra_scores.get(name) for name in evaluation.extra_names])
        status = d.status if d.status == SCORED else f'<span class="problem">{esc(d.status)}: counts 0</span>'
        out.append(f"<tr><td>{esc(d.dataset)}</td><td>{status}</td>"
                   + "".join(f"<td>{_percent(v)}</td>" for v in figures) + "</tr>")
    averages = ([evaluation.scores[c] for c in COLUMNS] + ([evaluation.zero] if evaluation.with_zero else [])
                + [evaluation.extra_scores[name] for name in evaluation.extra_names])
    out.append("<tr><th>macro-average</th><th></th>" + "".join(f"<th>{_percent(v)}</th>" for v in averages)
               + "</tr></table>")
    warned = [(d.dataset, line) for d in evaluation.datasets for line in d.warnings]
    if warned:
        out.append("<h2>Warnings (scored all the same)</h2><ul>")
        out += [f"<li>{esc(dataset)}: {esc(line)}</li>" for dataset, line in warned]
        out.append("</ul>")
    if evaluation.signature:
        out.append(f"<p><code>{esc(evaluation.signature)}</code></p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _validation_item(problem: dict) -> str:
    """One problem validation found: place, severity, message and what to do."""
    esc = html.escape
    place = problem["file"] or ""
    if problem["line"] is not None:
        place += f":{problem['line']}"
    return (f'<li><code>{esc(place)}</code>: <span class="problem">{esc(problem["severity"])}</span> '
            f'[{esc(problem["kind"])}]: {esc(problem["message"])}<br>to do: {esc(problem["hint"])}</li>')


def error_html(problem: str) -> str:
    """The page when the submission could not be scored at all."""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Detailed results</title>"
            "</head><body>\n<h1>The submission could not be scored</h1>\n"
            f"<p>{html.escape(problem)}</p>\n</body></html>\n")


def bundle_files(shared_task: str | None, describe_line: str, with_zero: bool,
                 extra: tuple[str, ...] = (), asked: list[str] | None = None,
                 budget: Budget = DATASET_BUDGET) -> dict[str, str]:
    """The scoring program folder: ``metadata`` (the command the platform
    runs, with the measures ``-m`` asked as asked and a budget other than the
    default) and a README."""
    preset = f"-t {shared_task} " if shared_task else ""
    limits = "".join(f"{flag} {value:g} " for flag, value, default in (
        ("--max-seconds", budget.seconds, DATASET_BUDGET.seconds),
        ("--max-memory-mb", budget.memory_mb, DATASET_BUDGET.memory_mb)) if value != default)
    # After the folders: -m takes every word that follows it.
    measures = f" -m {' '.join(asked)}" if asked else ""
    command = f"python3 -m corefud_scorer codalab {preset}{limits}$input $output{measures}"
    metadata = (f"command: {command}\n"
                f"description: corefud-scorer{' ' + shared_task if shared_task else ''} scoring program\n")
    endings = "".join(f"- {p.title}: `{'`, `'.join(reader(fmt).SUFFIXES)}`\n" for fmt, p in profiles().items())
    limited = textwrap.fill(
        f"Each dataset is scored within {budget.seconds:g} s and {budget.memory_mb:g} MB of memory "
        "(`--max-seconds` and `--max-memory-mb` of `codalab --bundle` set them); past either it is named "
        f"and counts 0. {statement()}", 80)
    readme = f"""# Scoring program

Zip this folder's files (not the folder) and upload the zip as the competition's
scoring program. The platform runs

    {command}

with the gold files in `$input/ref/` and the participant's submission in
`$input/res/` (files at its top, in one folder, or a `.zip`): one file per
dataset, named `DATASET-corefud-SPLIT.conllu` or `DATASET` and an ending of its
format, in any case, plain or gzip (`.gz` after it):
{endings}
The competition's Docker image needs the scorer (Python 3.10+). It is on no
package index: build a wheel in a clone of its source,

    python3 -m pip wheel --no-deps -w dist .

copy `dist/corefud_scorer-*.whl` into the image and `pip install` it there
(pip fetches numpy, scipy and udapi), or run `pip install .` in a clone inside
the image.

Settings: {describe_line}

Written to `$output/`, readable by every user:
- `scores.txt`: `head`, `partial`, `exact`, `with_singletons` (the CoNLL F1
  macro-averaged over datasets, as fractions){", `zero`" if with_zero else ""}{
  "".join(f", `{name}`" for name in extra)}
  and `DATASET_<primary>` per dataset: the leaderboard's keys;
- `scores.json`: the same with each dataset's status and problem;
- `detailed_results.html`: the per-dataset table and what was wrong.

A dataset missing from the submission counts 0 and is named; a file that cannot
be scored is named with the scorer's error and every problem found in it, and
counts 0; the other datasets are scored. Gold files the settings cannot score
(head matching on a format without heads) stop the program with one error line
and exit code 2, and nothing is written.

{limited}
"""
    return {"metadata": metadata, "README.md": readme}
