"""A CodaLab / Codabench scoring program: the gold files in ``INPUT/ref/``,
the unzipped submission in ``INPUT/res/`` (its files at the top or in one
folder; a ``.zip`` there is opened), scored dataset by dataset under the
leaderboard's settings (:mod:`.leaderboard`).

A submission is scored as far as it can be: a dataset it lacks counts 0 in
every macro-average and is named, a file that cannot be scored is named with
the scorer's one-line error and counts 0, and the other datasets are scored.
With nothing missing or wrong, every figure equals ``bench``'s.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from dataclasses import dataclass, field

from .benchmark import Dataset, benchmark_settings, dataset_name
from .errors import ScorerError
from .leaderboard import COLUMNS, ZERO, column_settings, primary_column, reports_zero
from .results import Options

SUFFIX = ".conllu"
# Folders an archiver adds beside the files.
IGNORED = ("__MACOSX",)
SCORED, MISSING, MALFORMED, FAILED = "scored", "missing", "malformed", "error"


@dataclass
class DatasetScore:
    """One gold dataset: the submission's file, how it went, the problem
    (one line), and each column's CoNLL F1 and the zero score (None where
    not scored or undefined)."""

    dataset: str
    key: str
    response: str | None
    status: str
    problem: str | None = None
    scores: dict[str, float | None] = field(default_factory=dict)
    zero: float | None = None
    warnings: list[str] = field(default_factory=list)  # what scoring noticed, one line per kind


@dataclass
class Evaluation:
    primary: str
    with_zero: bool
    datasets: list[DatasetScore]
    scores: dict[str, float]          # each column's macro-average, missing datasets counting 0
    zero: float | None
    problems: list[str]               # what was wrong with the submission, one line each
    extra: list[str]                  # submitted files naming no gold dataset
    signature: str = ""
    shared_task: str | None = None


def _visible(entries):
    return [e for e in entries if not e.name.startswith(".") and e.name not in IGNORED]


def conllu_folder(folder: str) -> str:
    """The folder holding the files: ``folder`` itself when ``*.conllu``
    files stand at its top, else its one subfolder (as a zip of a folder
    unpacks)."""
    entries = _visible(os.scandir(folder))
    if any(e.is_file() and e.name.endswith(SUFFIX) for e in entries):
        return folder
    folders = [e for e in entries if e.is_dir()]
    if len(folders) == 1:
        return conllu_folder(folders[0].path)
    return folder


def _archive(folder: str) -> str | None:
    entries = _visible(os.scandir(folder))
    if any(e.is_file() and e.name.endswith(SUFFIX) for e in entries):
        return None
    zips = sorted(e.path for e in entries if e.is_file() and e.name.lower().endswith(".zip"))
    return zips[0] if len(zips) == 1 else None


def unpack(archive: str, into: str) -> None:
    """Extract a submitted zip, refusing members that would land outside
    ``into``."""
    try:
        with zipfile.ZipFile(archive) as handle:
            root = os.path.realpath(into)
            for member in handle.namelist():
                target = os.path.realpath(os.path.join(into, member))
                if os.path.commonpath([root, target]) != root:
                    raise ScorerError(f"the archive's member {member!r} points outside it", (archive, None))
            handle.extractall(into)
    except (zipfile.BadZipFile, OSError) as err:
        raise ScorerError(f"cannot open the archive: {err}", (archive, None)) from None


def _files(folder: str) -> dict[str, list[str]]:
    """The ``*.conllu`` files of a folder by dataset name."""
    out: dict[str, list[str]] = {}
    for entry in sorted(_visible(os.scandir(folder)), key=lambda e: e.name):
        if entry.is_file() and entry.name.endswith(SUFFIX):
            out.setdefault(dataset_name(entry.name), []).append(entry.path)
    return out


def evaluate(input_dir: str, options: Options, shared_task: str | None = None) -> Evaluation:
    """Score the submission of ``input_dir`` (``ref/`` and ``res/``) against
    its gold files, dataset by dataset; only a missing or empty gold folder is
    an error (the program's own setup, not the submission)."""
    ref, res = os.path.join(input_dir, "ref"), os.path.join(input_dir, "res")
    if not os.path.isdir(ref):
        raise ScorerError("no gold folder 'ref'", (input_dir, None))
    keys = _files(conllu_folder(ref))
    if not keys:
        raise ScorerError("no gold *.conllu file", (ref, None))
    doubled = [name for name, paths in keys.items() if len(paths) > 1]
    if doubled:
        raise ScorerError(f"two gold files of dataset(s) {', '.join(doubled)}", (ref, None))
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="corefud-scorer-submission-") as unpacked:
        responses: dict[str, list[str]] = {}
        if not os.path.isdir(res):
            problems.append("the submission is empty (no 'res' folder)")
        else:
            folder = res
            archive = _archive(res)
            if archive is not None:
                try:
                    unpack(archive, unpacked)
                    folder = unpacked
                except ScorerError as err:
                    problems.append(str(err))
            responses = _files(conllu_folder(folder))
            if not responses and not problems:
                problems.append("the submission holds no *.conllu file")
        extra = sorted(os.path.basename(p) for name, paths in responses.items() if name not in keys for p in paths)
        if extra:
            problems.append(f"{len(extra)} submitted file(s) name no gold dataset, not scored: {', '.join(extra)}")
        settings = column_settings(options)
        datasets = []
        for name in sorted(keys, key=lambda n: os.path.basename(keys[n][0])):
            key = keys[name][0]
            found = responses.get(name, [])
            if not found:
                datasets.append(DatasetScore(name, key, None, MISSING, f"dataset {name}: no file in the submission "
                                             f"(expected {os.path.basename(key)}); it counts 0"))
            elif len(found) > 1:
                datasets.append(DatasetScore(name, key, None, MALFORMED,
                                             f"dataset {name}: {len(found)} files "
                                             f"({', '.join(os.path.basename(p) for p in found)}); "
                                             "submit one; it counts 0"))
            else:
                datasets.append(score_dataset(name, key, found[0], settings))
        if reports_zero(options):
            for d in datasets:
                if d.status != SCORED:
                    d.zero = _zero_when_unscored(d, settings[primary_column(options)])
    problems += [d.problem for d in datasets if d.problem]
    return _average(datasets, primary_column(options), reports_zero(options), problems, extra, shared_task)


def score_dataset(name: str, key: str, response: str, settings: dict[str, Options]) -> DatasetScore:
    """One dataset under every column's setting (one reading of its files);
    a file that cannot be scored gives the scorer's one-line error."""
    try:
        scored = benchmark_settings([[Dataset(name, key, response)]], list(settings.values()))
    except ScorerError as err:
        return DatasetScore(name, key, response, MALFORMED, f"dataset {name}: {_relative(str(err))}; it counts 0")
    except Exception as err:  # the platform shows nothing of a crash: name it and go on
        return DatasetScore(name, key, response, FAILED,
                            f"dataset {name}: the scorer failed ({type(err).__name__}: {err}); it counts 0")
    results = {column: per_system[0].results[0] for column, per_system in zip(settings, scored)}
    with_zero = next((c for c, o in settings.items() if ZERO in o.metric_list), None)
    zero = results[with_zero].metrics[ZERO].f1 if with_zero else None
    warnings = [_relative(line) for line in next(iter(results.values())).warnings]
    return DatasetScore(name, key, response, SCORED, None, {c: r.conll for c, r in results.items()}, zero, warnings)


def _zero_when_unscored(dataset: DatasetScore, options: Options) -> float | None:
    """The zero score of a dataset not scored: 0 where the key has zero
    anaphors (as for a response without them), undefined where it has none
    (the key scored against itself says which)."""
    try:
        (bench,), = benchmark_settings([[Dataset(dataset.dataset, dataset.key, dataset.key)]], [options])
    except Exception:  # noqa: BLE001 - a gold file that cannot be read counts no zero score
        return None
    return None if bench.results[0].metrics[ZERO].f1 is None else 0.0


def _relative(message: str) -> str:
    """An error line without the platform's temporary folders: files by
    name only."""
    import re

    return re.sub(r"(?:/[^\s:/]+)+/([^\s:/]+\.conllu)", r"\1", message)


def _average(datasets: list[DatasetScore], primary: str, with_zero: bool, problems: list[str],
             extra: list[str], shared_task: str | None) -> Evaluation:
    """Each column's mean over the gold datasets, in order, a dataset not
    scored counting 0; the zero score's over the datasets where it is
    defined (:func:`_zero_when_unscored` for those not scored)."""
    scores = {c: sum(d.scores.get(c) or 0.0 for d in datasets) / len(datasets) for c in COLUMNS}
    zero = None
    if with_zero:
        counted = [d.zero for d in datasets if d.zero is not None]
        zero = sum(counted) / len(counted) if counted else None
    return Evaluation(primary, with_zero, datasets, scores, zero, problems, extra, shared_task=shared_task)
