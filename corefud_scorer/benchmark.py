"""Score a system over many datasets at once: pairing, per-dataset results,
macro- and micro-averages, and plain rows for tables.

A dataset is named by its CorefUD file name, the part before ``-corefud-``
(``cs_pdt-corefud-dev.conllu`` -> ``cs_pdt``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .api import CONLL_PARTS, DocumentResult, MetricScore, Options, Result, score_many, summarize
from .errors import ScorerError

MACRO, MICRO = "macro-average", "micro-average"


@dataclass(frozen=True)
class Dataset:
    name: str
    key: str
    response: str


def dataset_name(filename: str) -> str:
    base = os.path.basename(filename)
    if "-corefud-" in base:
        return base.split("-corefud-")[0]
    return base[: -len(".conllu")] if base.endswith(".conllu") else base


def _conllu_files(folder: str) -> dict[str, str]:
    path = Path(folder)
    if not path.exists():
        raise ScorerError("no such folder", (folder, None))
    if not path.is_dir():
        raise ScorerError("not a folder", (folder, None))
    files = {}
    by_dataset: dict[str, str] = {}
    for entry in sorted(path.iterdir()):
        if entry.is_file() and entry.name.endswith(".conllu"):
            name = dataset_name(entry.name)
            if name in by_dataset:
                raise ScorerError(
                    f"two files of dataset {name!r}: {by_dataset[name]} and {entry.name} "
                    "(score dev and test in separate calls)", (folder, None))
            by_dataset[name] = entry.name
            files[entry.name] = str(entry)
    return files


def pair_folders(key_dir: str, response_dir: str) -> list[Dataset]:
    """Pair the ``*.conllu`` files of two folders by file name."""
    keys = _conllu_files(key_dir)
    responses = _conllu_files(response_dir)
    unpaired = ([f"key {keys[n]} has no response" for n in sorted(keys.keys() - responses.keys())]
                + [f"response {responses[n]} has no key" for n in sorted(responses.keys() - keys.keys())])
    if unpaired:
        raise ScorerError(f"{len(unpaired)} file(s) without a partner: " + "; ".join(unpaired))
    if not keys:
        raise ScorerError("no *.conllu file", (key_dir, None))
    return [Dataset(dataset_name(n), keys[n], responses[n]) for n in sorted(keys)]


def read_manifest(path: str) -> list[Dataset]:
    """Lines ``dataset key response`` (paths relative to the manifest); ``#`` comments."""
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
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        fields = text.split()
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
    for name in dict.fromkeys(options.metric_list):
        scores = [r.metrics[name] for r in results if r.metrics[name].applicable]
        if scores:
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
    options = options or Options()
    results = score_many([(d.key, d.response) for d in datasets], options, jobs, progress)
    macro, macro_conll = macro_average(results, options)
    micro, micro_conll = summarize([doc for r in results for doc in r.documents], options)
    warnings = [line for r in results for line in r.warnings]
    return Benchmark(options, datasets, results, macro, macro_conll, micro, micro_conll, warnings)


# --- rows: plain dicts for text, Markdown, CSV and JSON tables ---

COUNT_COLUMNS = ("documents", "tokens", "key_mentions", "response_mentions", "key_entities",
                 "response_entities")


def _counts(documents: list[DocumentResult]) -> dict:
    return {
        "documents": len(documents),
        "tokens": sum(d.tokens for d in documents),
        "key_mentions": sum(d.key_mentions for d in documents),
        "response_mentions": sum(d.response_mentions for d in documents),
        "key_entities": sum(d.key_entities for d in documents),
        "response_entities": sum(d.response_entities for d in documents),
    }


def _scores(metrics: dict, conll, options: Options) -> dict:
    row = {}
    for name in dict.fromkeys(options.metric_list):
        m = metrics[name]
        row[f"{name}_recall"] = m.recall
        row[f"{name}_precision"] = m.precision
        row[f"{name}_f1"] = m.f1
    if has_conll(options):
        row["conll_f1"] = conll
    return row


def has_conll(options: Options) -> bool:
    """Whether a CoNLL score is reported (the rule of :func:`api.summarize`)."""
    return len([n for n in options.metric_list if n in CONLL_PARTS]) == 3


def document_rows(dataset: str, result: Result, options: Options) -> list[dict]:
    rows = []
    for document in result.documents:
        metrics, conll = summarize([document], options)
        row = {"dataset": dataset, "document": document.doc_id}
        row.update(_counts([document]))
        row.update(_scores(metrics, conll, options))
        rows.append(row)
    return rows


def rows(bench: Benchmark, per_doc: bool = False) -> list[dict]:
    """One row per dataset (and per document), then the macro and micro averages."""
    options = bench.options
    out = []
    for dataset, result in zip(bench.datasets, bench.results):
        row = {"dataset": dataset.name, "document": None}
        row.update(_counts(result.documents))
        row.update(_scores(result.metrics, result.conll, options))
        out.append(row)
        if per_doc:
            out.extend(document_rows(dataset.name, result, options))
    all_documents = [d for r in bench.results for d in r.documents]
    macro = {"dataset": MACRO, "document": None}
    macro.update({column: None for column in COUNT_COLUMNS})
    macro.update(_scores(bench.macro, bench.macro_conll, options))
    micro = {"dataset": MICRO, "document": None}
    micro.update(_counts(all_documents))
    micro.update(_scores(bench.micro, bench.micro_conll, options))
    return out + [macro, micro]
