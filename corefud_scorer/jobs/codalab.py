"""A CodaLab / Codabench scoring program: the gold files in ``INPUT/ref/``,
the unzipped submission in ``INPUT/res/`` (its files at the top or in one
folder; a ``.zip`` there is opened), scored dataset by dataset under the
leaderboard's settings (:mod:`.leaderboard`). Files of every format the
readers read count, named in any case, plain or gzip (:func:`..formats.readers.stem`).

A submission is scored as far as it can be: a dataset it lacks counts 0 in
every macro-average and is named, a file that cannot be scored is named with
the scorer's one-line error and counts 0, with every problem submission
validation finds in it (:func:`.validation.validate`: file, line, what is
wrong, what to do), and the other datasets are scored. Each dataset is
scored in a process of its own under a time and a memory limit
(:mod:`.confined`), and a zip is unpacked within the reading limits
(:mod:`..formats.readers.limits`), so that no submission keeps the program from
writing its outputs. With nothing missing or wrong, every figure equals
``bench``'s; the extra measures asked (the empty-node evaluation) are
scored under the primary setting. What the program itself lacks (no gold
file, gold files its settings cannot score) is an error, not a score.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field

from .bench import Dataset, benchmark_settings, dataset_name
from .confined import DATASET_BUDGET, Budget, Overrun, run
from ..errors import ScorerError
from .options import for_format
from .leaderboard import COLUMNS, ZERO, column_settings, extra_measures, primary_column, reports_zero
from ..formats.readers import detect_format, stem
from ..formats.readers.files import BoundedText
from ..formats.readers.limits import MB, limits, variable
from ..results import Options

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
    extra_scores: dict[str, float | None] = field(default_factory=dict)  # each extra measure's F1
    # A malformed file: every problem validation finds ({file, line, severity, kind, message, hint}).
    validation: list[dict] = field(default_factory=list)


@dataclass
class Evaluation:
    primary: str
    with_zero: bool
    datasets: list[DatasetScore]
    scores: dict[str, float]          # each column's macro-average, missing datasets counting 0
    zero: float | None
    problems: list[str]               # what was wrong with the submission, one line each
    extra_files: list[str]            # submitted files naming no gold dataset
    signature: str = ""
    shared_task: str | None = None
    extra_names: tuple[str, ...] = ()
    extra_scores: dict[str, float | None] = field(default_factory=dict)  # over the datasets where defined


def _visible(entries):
    return [e for e in entries if not e.name.startswith(".") and e.name not in IGNORED]


def _readable(entry, keys: bool = False) -> bool:
    return entry.is_file() and stem(entry.name, keys) is not None


def files_folder(folder: str, keys: bool = False) -> str:
    """The folder holding the files: ``folder`` itself when files the
    readers read (with ``keys``, gold files) stand at its top, else its one
    subfolder (as a zip of a folder unpacks)."""
    entries = _visible(os.scandir(folder))
    if any(_readable(e, keys) for e in entries):
        return folder
    folders = [e for e in entries if e.is_dir()]
    if len(folders) == 1:
        return files_folder(folders[0].path, keys)
    return folder


def _archive(folder: str) -> str | None:
    entries = _visible(os.scandir(folder))
    if any(_readable(e) for e in entries):
        return None
    zips = sorted(e.path for e in entries if e.is_file() and e.name.lower().endswith(".zip"))
    return zips[0] if len(zips) == 1 else None


def unpack(archive: str, into: str) -> None:
    """Extract the files of a submitted zip that the readers read, within
    the reading limits (its members, what they unpack to and their lines,
    checked as they are unpacked: a member is named as the archive's path
    and its own), refusing members that would land outside ``into``."""
    bounds = limits()
    try:
        with zipfile.ZipFile(archive) as handle:
            members = handle.infolist()
            if len(members) > bounds.zip_members:
                raise ScorerError(f"the archive holds {len(members):,} members, more than the limit of "
                                  f"{bounds.zip_members:,} ({variable('zip_members')})", (archive, None))
            root = os.path.realpath(into)
            targets = []
            for member in members:
                target = os.path.realpath(os.path.join(into, member.filename))
                if os.path.commonpath([root, target]) != root:
                    raise ScorerError(f"the archive's member {member.filename!r} points outside it", (archive, None))
                if not member.is_dir() and stem(os.path.basename(target)) is not None:
                    targets.append((member, target))
            unpacked = 0
            for member, target in targets:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with handle.open(member) as source, open(target, "wb") as sink:
                    for data in BoundedText(source, os.path.join(archive, member.filename), True).chunks():
                        unpacked += len(data)
                        if unpacked > bounds.unpacked_bytes:
                            raise ScorerError(f"the archive unpacks to more than {bounds.unpacked_bytes / MB:g} MB, "
                                              f"the limit ({variable('unpacked_bytes')})", (archive, None))
                        sink.write(data)
    except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as err:
        raise ScorerError(f"cannot open the archive: {err}", (archive, None)) from None


def _files(folder: str, keys: bool = False) -> dict[str, list[str]]:
    """The files of a folder that the readers read (with ``keys``, the gold
    files: a plaintext answer is no key), by dataset name."""
    out: dict[str, list[str]] = {}
    for entry in sorted(_visible(os.scandir(folder)), key=lambda e: e.name):
        if _readable(entry, keys):
            out.setdefault(dataset_name(stem(entry.name, keys)), []).append(entry.path)
    return out


def _check_gold(keys: dict[str, list[str]], settings: dict[str, Options]) -> None:
    """Refuses gold files the table's settings cannot score (a format
    without heads under head matching): the program's setup, not the
    submission, is wrong."""
    for paths in keys.values():
        fmt = detect_format(paths[0])
        for column, options in settings.items():
            try:
                for_format(options, fmt)
            except ScorerError as err:
                raise ScorerError(f"the {column} column cannot score this gold file: {err}", (paths[0], None)) from None


def evaluate(input_dir: str, options: Options, shared_task: str | None = None,
             extra: Sequence[str] = (), budget: Budget = DATASET_BUDGET) -> Evaluation:
    """Score the submission of ``input_dir`` (``ref/`` and ``res/``) against
    its gold files, dataset by dataset, each under ``budget``; only what is
    wrong with the gold folder is an error (the program's own setup, not the
    submission). ``extra``: measures scored under the primary setting beside
    the columns (:func:`.leaderboard.extra_columns`)."""
    ref, res = os.path.join(input_dir, "ref"), os.path.join(input_dir, "res")
    if not os.path.isdir(ref):
        raise ScorerError("no gold folder 'ref'", (input_dir, None))
    keys = _files(files_folder(ref, keys=True), keys=True)
    if not keys:
        raise ScorerError("no gold file of a format the scorer reads", (ref, None))
    doubled = [name for name, paths in keys.items() if len(paths) > 1]
    if doubled:
        raise ScorerError(f"two gold files of dataset(s) {', '.join(doubled)}", (ref, None))
    options = for_format(options)
    settings = column_settings(options, extra)
    _check_gold(keys, settings)
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
            responses = _files(files_folder(folder))
            if not responses and not problems:
                problems.append("the submission holds no file of a format the scorer reads")
        unmatched = sorted(os.path.basename(p) for name, paths in responses.items() if name not in keys
                           for p in paths)
        if unmatched:
            problems.append(f"{len(unmatched)} submitted file(s) name no gold dataset, not scored: "
                            f"{', '.join(unmatched)}")
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
                datasets.append(confined_dataset(name, key, found[0], settings, budget))
        if reports_zero(options) or extra:
            for d in datasets:
                if d.status != SCORED:
                    d.zero, d.extra_scores = _when_unscored(d, settings[primary_column(options)], reports_zero(options),
                                                            tuple(extra), budget)
    problems += [d.problem for d in datasets if d.problem]
    evaluation = _average(datasets, primary_column(options), reports_zero(options), problems, unmatched,
                          shared_task)
    evaluation.extra_names = tuple(extra)
    evaluation.extra_scores = {name: _defined_mean([d.extra_scores.get(name) for d in datasets]) for name in extra}
    return evaluation


def confined_dataset(name: str, key: str, response: str, settings: dict[str, Options],
                     budget: Budget) -> DatasetScore:
    """:func:`score_dataset` in a process of its own under ``budget``; past
    it, the dataset is named with what it took and counts 0."""
    try:
        return run(score_dataset, name, key, response, settings, budget=budget)
    except Overrun as err:
        return DatasetScore(name, key, response, FAILED, f"dataset {name}: scoring {os.path.basename(response)} "
                            f"{err}; it counts 0")


def score_dataset(name: str, key: str, response: str, settings: dict[str, Options]) -> DatasetScore:
    """One dataset under every column's setting (one reading of its files);
    a file that cannot be scored gives the scorer's one-line error."""
    try:
        scored = benchmark_settings([[Dataset(name, key, response)]], list(settings.values()))
    except ScorerError as err:
        found = validation_problems(key, response)
        more = f" ({len(found)} problems found in the file, each listed)" if len(found) > 1 else ""
        return DatasetScore(name, key, response, MALFORMED,
                            f"dataset {name}: {_by_name(str(err), key, response)}; it counts 0{more}",
                            validation=found)
    except Exception as err:  # the platform shows nothing of a crash: name it and go on
        return DatasetScore(name, key, response, FAILED,
                            f"dataset {name}: the scorer failed ({type(err).__name__}: {err}); it counts 0")
    results = {column: per_system[0].results[0] for column, per_system in zip(settings, scored)}
    with_zero = next((c for c, o in settings.items() if ZERO in o.metric_list), None)
    zero = results[with_zero].metrics[ZERO].f1 if with_zero else None
    warnings = [_by_name(line, key, response) for line in next(iter(results.values())).warnings]
    # The extra measures are computed in the primary column's setting alone.
    extra = {m: results[c].metrics[m].f1 for c, o in settings.items() for m in extra_measures(o.metric_list)}
    return DatasetScore(name, key, response, SCORED, None, {c: r.conll for c, r in results.items()}, zero, warnings,
                        extra)


def validation_problems(key: str, response: str) -> list[dict]:
    """Every problem submission validation finds in a file that could not
    be scored, files by name only; none when validation itself fails (the
    scorer's own error line still names the first problem)."""
    from .validation import validate

    try:
        found = validate(response, key).problems
    except Exception:  # noqa: BLE001 - the scorer's one line is said already
        return []
    return [{"file": os.path.basename(p.path) if p.path else None, "line": p.line, "severity": p.severity,
             "kind": p.kind, "message": _by_name(p.message, key, response), "hint": p.hint} for p in found]


def _when_unscored(dataset: DatasetScore, options: Options, with_zero: bool, extra: tuple[str, ...],
                   budget: Budget) -> tuple[float | None, dict[str, float | None]]:
    """The zero score and the extra measures of a dataset not scored: 0
    where the key has what they count (as for a response without it),
    undefined where it has none (the key scored against itself, under the
    budget, says which)."""
    try:
        defined = run(_defined_in_key, dataset, options, extra, budget=budget)
    except Exception:  # noqa: BLE001 - a gold file that cannot be read (or in time) counts no score
        return None, dict.fromkeys(extra)
    zero = None if not with_zero or not defined[ZERO] else 0.0
    return zero, {name: 0.0 if defined[name] else None for name in extra}


def _defined_in_key(dataset: DatasetScore, options: Options, extra: tuple[str, ...]) -> dict[str, bool]:
    """Which of the zero score and the extra measures the key scored against itself defines."""
    (bench,), = benchmark_settings([[Dataset(dataset.dataset, dataset.key, dataset.key)]], [options])
    metrics = bench.results[0].metrics
    return {name: name in metrics and metrics[name].f1 is not None for name in (ZERO, *extra)}


def _defined_mean(values: list[float | None]) -> float | None:
    counted = [v for v in values if v is not None]
    return sum(counted) / len(counted) if counted else None


def _by_name(message: str, *paths: str) -> str:
    """A message with the platform's folders left out: files by name only."""
    for path in sorted(paths, key=len, reverse=True):
        message = message.replace(path, os.path.basename(path))
    return message


def counted(dataset: DatasetScore, column: str) -> float:
    """A dataset's figure as the macro-average counts it: 0 where it was not
    scored (what the page and ``scores.txt`` both show)."""
    return dataset.scores.get(column) or 0.0


def _average(datasets: list[DatasetScore], primary: str, with_zero: bool, problems: list[str],
             extra_files: list[str], shared_task: str | None) -> Evaluation:
    """Each column's mean over the gold datasets, in order, a dataset not
    scored counting 0; the zero score's over the datasets where it is
    defined (:func:`_when_unscored` for those not scored)."""
    scores = {c: sum(counted(d, c) for d in datasets) / len(datasets) for c in COLUMNS}
    zero = _defined_mean([d.zero for d in datasets]) if with_zero else None
    return Evaluation(primary, with_zero, datasets, scores, zero, problems, extra_files, shared_task=shared_task)
