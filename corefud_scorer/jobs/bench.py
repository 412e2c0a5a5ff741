"""Score a system over many datasets at once: pairing, per-dataset results,
macro- and micro-averages, and plain rows for tables.

A dataset is named by its CorefUD file name, the part before ``-corefud-``
(``cs_pdt-corefud-dev.conllu`` -> ``cs_pdt``), or else by its file name
without the format's ending (``ontonotes.conll`` -> ``ontonotes``). A
format's ending is told in any case, as releases write them
(``AMI_dev.CONLLUA``, ``light_dev.CONLLUA.gz``).
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ScorerError
from ..formats.readers import file_suffixes
from ..measures.registry import MEASURES
from ..measures.totals import summarize
from ..results import MetricScore, Options, Result
from .pipeline import score_files


@dataclass(frozen=True)
class Dataset:
    name: str
    key: str
    response: str


def _plain(name: str) -> str:
    """A file name without ``.gz`` (in any case): what files are paired by."""
    return name[: -len(".gz")] if name.lower().endswith(".gz") else name


def _format_suffix(name: str, keys: bool = False) -> str | None:
    """The file-name ending of a format a (plain) name has, in any case, if
    any (with ``keys``, of a format a key can be in)."""
    lowered = name.lower()
    return next((name[len(name) - len(suffix):] for suffix in file_suffixes(keys) if lowered.endswith(suffix)),
                None)


def dataset_name(filename: str) -> str:
    base = _plain(os.path.basename(filename))
    if "-corefud-" in base:
        return base.split("-corefud-")[0]
    suffix = _format_suffix(base)
    return base[: -len(suffix)] if suffix else base


def _dataset_files(folder: str, keys: bool = False) -> dict[str, str]:
    """A folder's files of any format the readers name (plain or gzip; with
    ``keys``, of a format a key can be in): plain name -> path."""
    path = Path(folder)
    if not path.exists():
        raise ScorerError("no such folder", (folder, None))
    if not path.is_dir():
        raise ScorerError("not a folder", (folder, None))
    files = {}
    by_dataset: dict[str, str] = {}
    for entry in sorted(path.iterdir()):
        if entry.is_file() and _format_suffix(_plain(entry.name), keys):
            name = dataset_name(entry.name)
            if name in by_dataset:
                raise ScorerError(
                    f"two files of dataset {name!r}: {by_dataset[name]} and {entry.name} "
                    "(score dev and test in separate calls)", (folder, None))
            by_dataset[name] = entry.name
            files[_plain(entry.name)] = str(entry)
    return files


def folder_pairs(key_dir: str, response_dir: str) -> tuple[list[Dataset], list[str], list[str]]:
    """The files of two folders (``*.conllu``, ``*.conll``, ``*.jsonl``...,
    each plain or gzip) paired by file name, and the key files and response
    files left without a partner."""
    keys = _dataset_files(key_dir, keys=True)
    responses = _dataset_files(response_dir)
    return ([Dataset(dataset_name(n), keys[n], responses[n]) for n in sorted(keys.keys() & responses.keys())],
            [keys[n] for n in sorted(keys.keys() - responses.keys())],
            [responses[n] for n in sorted(responses.keys() - keys.keys())])


def first_key(inputs: list[str]) -> str | None:
    """The first key file ``bench`` would read (``KEY_DIR SYS_DIR...``: the
    key folder's first file of a format; ``MANIFEST``: its first key), to
    tell its format before scoring; None where there is none to be found
    (the pairing says why)."""
    try:
        if len(inputs) == 1:
            return read_manifest(inputs[0])[0].key
        return next(iter(_dataset_files(inputs[0], keys=True).values()), None)
    except (ScorerError, OSError):
        return None


def pair_folders(key_dir: str, response_dir: str) -> list[Dataset]:
    """Pair the files of two folders by file name."""
    datasets, keys_alone, responses_alone = folder_pairs(key_dir, response_dir)
    unpaired = ([f"key {k} has no response" for k in keys_alone]
                + [f"response {r} has no key" for r in responses_alone])
    if unpaired:
        raise ScorerError(f"{len(unpaired)} file(s) without a partner: " + "; ".join(unpaired))
    if not datasets:
        raise ScorerError(no_file_of_a_format(), (key_dir, None))
    return datasets


def no_file_of_a_format() -> str:
    """What a folder without a file to pair lacks."""
    return ("no file of a format the scorer reads (" + ", ".join(f"*{s}" for s in file_suffixes())
            + ", in any case, plain or .gz)")


def _manifest_fields(line: str) -> list[str]:
    """A manifest line's fields: tab-separated when it has tabs, else split
    as a shell would (quotes for spaces); a word starting with ``#`` starts a
    comment, a ``#`` inside a word is part of it."""
    if "\t" in line:
        fields = [f.strip() for f in line.split("\t")]
        fields = [f for f in fields if f]
        return [] if fields and fields[0].startswith("#") else fields
    fields = shlex.split(line)
    for index, field_ in enumerate(fields):
        if field_.startswith("#"):
            return fields[:index]
    return fields


def read_manifest(path: str) -> list[Dataset]:
    """Lines ``dataset key response`` (paths relative to the manifest; quoted
    or tab-separated when they hold spaces); ``#`` comments."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except FileNotFoundError:
        raise ScorerError("no such file", (path, None)) from None
    except (OSError, UnicodeDecodeError) as err:
        raise ScorerError(f"cannot read manifest: {err}", (path, None)) from None
    base = os.path.dirname(os.path.abspath(path))
    datasets = []
    names: dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        try:
            fields = _manifest_fields(line)
        except ValueError as err:
            raise ScorerError(f"cannot split the line: {err}", (path, number)) from None
        if not fields:
            continue
        if len(fields) != 3:
            raise ScorerError(f"expected 'dataset key response', found {len(fields)} field(s)",
                              (path, number))
        name, key, response = fields
        if name in names:
            raise ScorerError(f"dataset {name!r} listed twice (first on line {names[name]})", (path, number))
        names[name] = number
        resolve = lambda p: p if os.path.isabs(p) else os.path.join(base, p)
        for role, file in (("key", resolve(key)), ("response", resolve(response))):
            if not os.path.isfile(file):
                raise ScorerError(f"{role} file {file} does not exist", (path, number))
        datasets.append(Dataset(name, resolve(key), resolve(response)))
    if not datasets:
        raise ScorerError("lists no dataset", (path, None))
    return datasets


@dataclass
class Average:
    """A metric's recall, precision and F1 averaged over datasets."""

    name: str
    recall: float | None
    precision: float | None
    f1: float | None
    datasets: int
    value: float | None = None  # a measure that is one number (agreement coefficients)


@dataclass
class Benchmark:
    options: Options
    datasets: list[Dataset]
    results: list[Result]
    macro: dict[str, Average]
    macro_conll: float | None
    micro: dict[str, MetricScore]
    micro_conll: float | None
    warnings: list[str] = field(default_factory=list)


def macro_average(results: list[Result], options: Options) -> tuple[dict[str, Average], float | None]:
    """The mean over datasets of each metric's recall, precision and F1.

    A dataset where a metric is not applicable (the zero score without zero
    anaphors) is left out of that metric's mean. The CoNLL score is the mean
    of the datasets' CoNLL scores: the CRAC primary score.
    """
    macro = {}
    for name in options.metric_list:
        scores = [r.metrics[name] for r in results if r.metrics[name].applicable]
        if MEASURES[name].one_number:
            macro[name] = Average(name, None, None, None, len(scores),
                                  sum(s.value for s in scores) / len(scores) if scores else None)
        elif scores:
            macro[name] = Average(name, sum(s.recall for s in scores) / len(scores),
                                  sum(s.precision for s in scores) / len(scores),
                                  sum(s.f1 for s in scores) / len(scores), len(scores))
        else:
            macro[name] = Average(name, None, None, None, 0)
    conlls = [r.conll for r in results if r.conll is not None]
    return macro, (sum(conlls) / len(conlls) if conlls else None)


def benchmark(datasets: list[Dataset], options: Options | None = None, jobs: int = 1,
              progress=None) -> Benchmark:
    """Score every dataset with the same options; documents share one pool."""
    return benchmark_systems([datasets], options, jobs, progress)[0]


def assemble(datasets: list[Dataset], options: Options, results: list[Result]) -> Benchmark:
    """A system's benchmark from its results, one per dataset, scored with
    ``options`` (as scored: the files' format's defaults)."""
    macro, macro_conll = macro_average(results, options)
    micro, micro_conll = summarize([doc for r in results for doc in r.documents], options.metric_list)
    warnings = [line for r in results for line in r.warnings]
    return Benchmark(options, datasets, results, macro, macro_conll, micro, micro_conll, warnings)


def benchmark_systems(systems: list[list[Dataset]], options: Options | None = None, jobs: int = 1,
                      progress=None) -> list[Benchmark]:
    """Score several systems over the same datasets (``systems[s]`` the
    datasets of system ``s``, with the same names and keys in the same
    order); each key document is read once for all systems. One
    :class:`Benchmark` per system. ``progress`` is called with the flat index
    of a (dataset, system) pair, datasets first."""
    return benchmark_settings(systems, [options or Options()], jobs, progress)[0]


def check_systems(systems: list[list[Dataset]]) -> None:
    """Systems cover the same datasets, with the same keys."""
    first = systems[0]
    for datasets in systems[1:]:
        if [(d.name, d.key) for d in datasets] != [(d.name, d.key) for d in first]:
            raise ScorerError("the systems do not cover the same datasets: "
                              + ", ".join(sorted({d.name for d in datasets} ^ {d.name for d in first}))
                              if {d.name for d in datasets} != {d.name for d in first}
                              else "the systems' datasets are paired with different keys")


def dataset_groups(systems: list[list[Dataset]]) -> list[tuple]:
    """Per dataset, its key and every system's response: the pipeline's groups."""
    return [(dataset.key, [datasets[i].response for datasets in systems]) for i, dataset in enumerate(systems[0])]


def benchmark_settings(systems: list[list[Dataset]], settings: list[Options], jobs: int = 1,
                       progress=None) -> list[list[Benchmark]]:
    """:func:`benchmark_systems` under several settings at once (each
    document read and loaded once for all of them): per setting, one
    :class:`Benchmark` per system, with the setting as scored (the files'
    format's defaults)."""
    check_systems(systems)
    settings, scored = score_files(dataset_groups(systems), settings, jobs, progress)
    return [[assemble(datasets, options, [group[s] for group in per_setting]) for s, datasets in enumerate(systems)]
            for options, per_setting in zip(settings, scored)]
