"""The library entry point: score a response file against a key file.

``score(key_path, response_path, Options(...))`` reads both files document by
document (read -> check -> match -> partition -> metrics), adds each
document's sufficient statistics, and returns a typed :class:`Result`.
"""

from __future__ import annotations

import gc
import hashlib
import re
from dataclasses import dataclass, field
from itertools import zip_longest

from . import __version__
from .check import check_documents, missing_document
from .errors import ScorerError
from .match import MATCHING_MODES, ZERO_METHODS
from .metrics import BLANC_PARTS, ENTITY_METRICS, MENTION_METRICS, Counts, f1, ordered_sum, ratio
from .partition import build_partition
from .model import Document
from .parallel import ordered_map
from .read import collector_paused, iter_raw_documents, load_document

# What ``-m all`` means, in 1.2's order.
ALL_METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero")
METRIC_NAMES = ALL_METRICS + ("mention",)
CONLL_PARTS = ("muc", "bcub", "ceafe")


@dataclass(frozen=True)
class Options:
    """How to score. The defaults are those of ``corefud-scorer.py`` 1.2."""

    metrics: tuple[str, ...] = ("all",)
    keep_singletons: bool = False
    match: str = "head"
    zero_match: str = "dependent"

    def __post_init__(self):
        if self.match not in MATCHING_MODES:
            raise ValueError(f"match must be one of {MATCHING_MODES}, not {self.match!r}")
        if self.zero_match not in ZERO_METHODS:
            raise ValueError(f"zero_match must be one of {ZERO_METHODS}, not {self.zero_match!r}")
        unknown = [m for m in self.metrics if m != "all" and m not in METRIC_NAMES]
        if unknown:
            raise ValueError(f"unknown metric(s): {', '.join(unknown)}")

    @property
    def metric_list(self) -> tuple[str, ...]:
        """The metrics to compute, in the order they are reported."""
        return ALL_METRICS if "all" in self.metrics else tuple(self.metrics)


@dataclass
class MetricScore:
    """One metric's scores (fractions) and the summed statistics behind them.

    ``recall``/``precision``/``f1`` are None when the metric is not applicable
    (the zero score with no zero anaphor on either side). BLANC is the mean of
    its coreference and non-coreference parts, given in ``parts``.
    """

    name: str
    recall: float | None
    precision: float | None
    f1: float | None
    counts: Counts
    parts: dict[str, "MetricScore"] = field(default_factory=dict)

    @property
    def applicable(self) -> bool:
        return self.recall is not None

    @property
    def recall_num(self) -> float:
        return self.counts.recall_num

    @property
    def recall_den(self) -> float:
        return self.counts.recall_den

    @property
    def precision_num(self) -> float:
        return self.counts.precision_num

    @property
    def precision_den(self) -> float:
        return self.counts.precision_den


@dataclass
class DocumentResult:
    """One document's statistics, per metric (BLANC as its two parts)."""

    doc_id: object
    counts: dict[str, object]
    key_mentions: int
    response_mentions: int
    key_entities: int
    response_entities: int
    tokens: int = 0


@dataclass
class Result:
    metrics: dict[str, MetricScore]
    conll: float | None
    documents: list[DocumentResult]
    warnings: list[str]
    settings: dict


def _from_counts(name: str, counts: Counts) -> MetricScore:
    recall = ratio(counts.recall_num, counts.recall_den)
    precision = ratio(counts.precision_num, counts.precision_den)
    return MetricScore(name, recall, precision, f1(precision, recall), counts)


def _blanc(parts: list[Counts]) -> MetricScore:
    # 1.2 averages recall, precision and F1 over the parts that have links
    # on either side; with none, BLANC is 0.
    scored = {label: _from_counts(label, c)
              for label, c in zip(("coreference", "non_coreference"), parts)}
    used = [s for s, c in zip(scored.values(), parts)
            if not (c.precision_den == 0 and c.recall_den == 0)]
    total = parts[0] + parts[1]
    if not used:
        return MetricScore("blanc", 0.0, 0.0, 0.0, total, scored)
    return MetricScore("blanc",
                       ordered_sum([s.recall for s in used]) / len(used),
                       ordered_sum([s.precision for s in used]) / len(used),
                       ordered_sum([s.f1 for s in used]) / len(used), total, scored)


def document_counts(partition, metrics) -> dict[str, object]:
    """Each requested metric's statistics for one aligned document."""
    out: dict[str, object] = {}
    for name in metrics:
        if name in out:
            continue
        if name in ENTITY_METRICS:
            out[name] = ENTITY_METRICS[name](partition.contingency)
        elif name == "blanc":
            out[name] = [part(partition.contingency) for part in BLANC_PARTS]
        else:
            out[name] = MENTION_METRICS[name](partition)
    return out


def _document_result(partition, options: Options, tokens: int) -> DocumentResult:
    return DocumentResult(
        partition.doc_id, document_counts(partition, options.metric_list),
        sum(len(e) for e in partition.key), sum(len(e) for e in partition.response),
        len(partition.key), len(partition.response), tokens)


def file_digest(path: str) -> str:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return ""
    return digest.hexdigest()


def option_settings(options: Options) -> dict:
    """What reproduces a number, apart from the files: versions and options."""
    import udapi

    return {
        "scorer": "corefud_scorer",
        "version": __version__,
        "udapi_version": getattr(udapi, "__version__", None) or _package_version("udapi"),
        "metrics": list(options.metric_list),
        "keep_singletons": options.keep_singletons,
        "match": options.match,
        "zero_match_method": options.zero_match,
    }


def settings_of(key_path: str, response_path: str, options: Options) -> dict:
    return {
        **option_settings(options),
        "key_file": key_path,
        "response_file": response_path,
        "key_sha256": file_digest(key_path),
        "response_sha256": file_digest(response_path),
    }


def _package_version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def _warning_kind(message: str) -> str:
    """A Udapi message without its particulars, to count alike messages together."""
    general = re.sub(r"<[^<>]*>", "<node>", message)
    return general.split(":")[0].strip()


class _Warnings:
    """Counts each kind of warning; reported once per kind, with the total
    and the first place it was seen."""

    def __init__(self):
        self.kinds: dict[str, list] = {}

    def add(self, kind: str, example: str, count: int = 1):
        entry = self.kinds.setdefault(kind, [0, example])
        entry[0] += count

    def lines(self) -> list[str]:
        return [f"{kind}: {count} (first in {example})" if example.startswith("document")
                else f"{kind}: {count} (first: {example})"
                for kind, (count, example) in self.kinds.items()]


def _paired_documents(key_path: str, response_path: str):
    """Yield aligned (key, response) raw documents with their headers."""
    key_header: dict = {}
    response_header: dict = {}
    for key_raw, response_raw in zip_longest(iter_raw_documents(key_path, key_header),
                                             iter_raw_documents(response_path, response_header)):
        if response_raw is None:
            raise missing_document(key_raw, response_path, present_is_key=True)
        if key_raw is None:
            raise missing_document(response_raw, key_path, present_is_key=False)
        check_documents(key_raw, response_raw)
        # Checked: the word forms are not needed again (nor sent to workers).
        key_raw.drop_forms()
        response_raw.drop_forms()
        yield key_raw, key_header.get("global.Entity"), response_raw, response_header.get("global.Entity")


@dataclass
class _Outcome:
    """What scoring one document sends back (from a worker process too)."""

    result: DocumentResult
    key_eids: list[str]
    response_eids: list[str]
    notes: list[tuple[str, str, int]]  # (kind, first example, count)


def score_document(key_raw, key_entity_header, response_raw, response_entity_header,
                   options: Options) -> _Outcome:
    """Parse, align and score one pair of aligned raw documents."""
    # Udapi's nodes hold reference cycles. With automatic collection on, every
    # collection during a read walks the whole document (and Udapi collects
    # after each read), so the cost per token would grow with the document.
    # Paused instead, and the previous document's cycles, all in the youngest
    # generation, are freed in one pass before this one is read.
    with collector_paused():
        gc.collect(0)
        key_doc = load_document(key_raw, key_entity_header)
        response_doc = load_document(response_raw, response_entity_header)
        partition = build_partition(key_doc, response_doc, options.match, options.zero_match,
                                    options.keep_singletons)
        result = _document_result(partition, options, key_raw.tokens)
        notes = _document_notes(partition, (f"key {key_raw.path}", key_doc),
                                (f"response {response_raw.path}", response_doc))
    return _Outcome(result, _file_level_eids(key_doc, key_entity_header),
                    _file_level_eids(response_doc, response_entity_header), notes)


def _document_notes(partition, *sides) -> list[tuple[str, str, int]]:
    """What to warn about one scored document: (kind, example, count)."""
    doc = f"document {partition.doc_id!r}"
    notes = []
    for (label, model_doc), dropped in zip(sides, partition.dropped):
        for message in model_doc.warnings:
            notes.append((f"{label}: Udapi: {_warning_kind(message)}", message, 1))
        if dropped.repeated_mentions:
            notes.append((f"{label}: mentions repeated within their entity, counted once",
                          doc, dropped.repeated_mentions))
        if dropped.singletons:
            notes.append((f"{label}: singleton entities dropped (-s keeps them)", doc, dropped.singletons))
        if dropped.shared_spans:
            notes.append((f"{label}: spans in more than one entity (scored as scorer 1.2 does)",
                          doc, dropped.shared_spans))
    return notes


def _file_level_eids(doc: Document, entity_header: str | None) -> list[str]:
    """Entity ids that could recur in a later document. GRP ids (UD GUM's
    header) are numbered per document, so an entity cannot span documents."""
    if entity_header and "GRP" in entity_header.split("-"):
        return []
    return [e.eid for e in doc.entities]


def _score_task(task):
    index, *arguments = task
    return index, score_document(*arguments)


def summarize(documents: list[DocumentResult], options: Options) -> tuple[dict, float | None]:
    """Metric scores and the CoNLL score from documents' summed statistics."""
    metrics = options.metric_list
    totals: dict[str, object] = {}
    for document in documents:
        for name, value in document.counts.items():
            if name == "blanc":
                previous = totals.get(name, [Counts(), Counts()])
                totals[name] = [previous[0] + value[0], previous[1] + value[1]]
            else:
                totals[name] = totals.get(name, Counts()) + value
    results: dict[str, MetricScore] = {}
    for name in metrics:
        if name in results:
            continue
        value = totals.get(name)
        if name == "blanc":
            results[name] = _blanc(value or [Counts(), Counts()])
        elif name == "zero" and (value is None or (value.recall_den == 0 and value.precision_den == 0)):
            # No zero anaphor on either side: the score is undefined, not 0.
            results[name] = MetricScore(name, None, None, None, value or Counts())
        else:
            results[name] = _from_counts(name, value or Counts())
    # 1.2 prints a CoNLL score when exactly three of the reported lines are
    # MUC, B-cubed or CEAF-e, adding their F1 in reporting order.
    conll_parts = [name for name in metrics if name in CONLL_PARTS]
    conll = ordered_sum([results[name].f1 for name in conll_parts]) / 3 if len(conll_parts) == 3 else None
    return results, conll


def score_many(pairs: list[tuple[str, str]], options: Options | None = None, jobs: int = 1,
               progress=None) -> list[Result]:
    """Score several (key path, response path) pairs; one :class:`Result` each.

    Documents of all pairs go through one pool of ``jobs`` processes (started
    only once a second document appears) and come back in order, so nothing
    depends on ``jobs``. ``progress``, if given, is called with each pair
    index and :class:`DocumentResult` as it is scored.
    """
    options = options or Options()
    warnings = [_Warnings() for _ in pairs]
    documents: list[list[DocumentResult]] = [[] for _ in pairs]
    seen_eids = [({}, {}) for _ in pairs]

    def tasks():
        for index, (key_path, response_path) in enumerate(pairs):
            for k, kh, r, rh in _paired_documents(key_path, response_path):
                yield index, k, kh, r, rh, options

    for index, outcome in ordered_map(_score_task, tasks(), jobs):
        key_path, response_path = pairs[index]
        doc_id = outcome.result.doc_id
        for seen, eids, path in ((seen_eids[index][0], outcome.key_eids, f"key {key_path}"),
                                 (seen_eids[index][1], outcome.response_eids, f"response {response_path}")):
            for eid in eids:
                first = seen.setdefault(eid, doc_id)
                if first != doc_id:
                    warnings[index].add(f"{path}: entities spanning documents, split per document",
                                        f"{eid} in documents {first!r} and {doc_id!r}")
        for kind, example, count in outcome.notes:
            warnings[index].add(kind, example, count)
        documents[index].append(outcome.result)
        if progress is not None:
            progress(index, outcome.result)
    results = []
    for index, (key_path, response_path) in enumerate(pairs):
        metrics, conll = summarize(documents[index], options)
        results.append(Result(metrics, conll, documents[index], warnings[index].lines(),
                              settings_of(key_path, response_path, options)))
    return results


def score_documents(key: list[Document], response: list[Document],
                    options: Options | None = None) -> Result:
    """Score documents already loaded into the model (by :func:`read.read_file`
    or another format's reader), paired by position. The text alignment is the
    reader's business; here the documents' ids must agree."""
    options = options or Options()
    if len(key) != len(response):
        raise ScorerError(f"{len(key)} key documents but {len(response)} response documents")
    warnings = _Warnings()
    documents = []
    for key_doc, response_doc in zip(key, response):
        if key_doc.doc_id != response_doc.doc_id:
            raise ScorerError(f"document ids differ: {key_doc.doc_id!r} vs {response_doc.doc_id!r}")
        partition = build_partition(key_doc, response_doc, options.match, options.zero_match,
                                    options.keep_singletons)
        for kind, example, count in _document_notes(partition, ("key", key_doc), ("response", response_doc)):
            warnings.add(kind, example, count)
        documents.append(_document_result(partition, options, key_doc.tokens))
    metrics, conll = summarize(documents, options)
    return Result(metrics, conll, documents, warnings.lines(), option_settings(options))


def score(key_path: str, response_path: str, options: Options | None = None,
          jobs: int = 1) -> Result:
    """Score ``response_path`` against ``key_path``; raises :class:`ScorerError`
    for input that cannot be scored. ``jobs`` > 1 scores documents in that
    many processes; the result does not depend on it."""
    return score_many([(key_path, response_path)], options, jobs)[0]
