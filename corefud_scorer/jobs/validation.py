"""Submission validation: every problem of a response file (or a folder of
them, paired with the key's files as ``bench`` pairs them), not only the
first. The readers and the alignment check report to a collecting
:class:`~corefud_scorer.formats.problems.Problems` and go on; each response
document is also loaded as scoring loads it, so that what the format's
parser refuses is found too. The submission would be scored when no
problem is an error."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace

from ..errors import ScorerError
from ..formats.problem_kinds import ERROR, WARNING, Problem
from ..formats.problems import Problems
from ..formats.readers import read_documents, resolve_format
from ..formats.same_text import aligned, check_documents, following
from ..model import breakdown
from ..results import Options
from .options import for_format
from .bench import folder_pairs, no_file_of_a_format

# Where a warning's example names its line.
RE_LINE = re.compile(r"\(line (\d+)\)")


@dataclass
class Validation:
    """The (key, response) files compared and every problem found, in file order."""

    pairs: list[tuple[str, str]]
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(p.severity == ERROR for p in self.problems)

    @property
    def warnings(self) -> int:
        return sum(p.severity == WARNING for p in self.problems)

    @property
    def would_score(self) -> bool:
        return self.errors == 0

    def to_json(self) -> dict:
        """``problems``: what stops the submission from being scored;
        ``warnings``: what scoring would warn about."""
        return {"would_score": self.would_score,
                "files": [{"key": key, "response": response} for key, response in self.pairs],
                "problems": [_problem_json(p) for p in self.problems if p.severity == ERROR],
                "warnings": [_problem_json(p) for p in self.problems if p.severity == WARNING]}


def _problem_json(problem: Problem) -> dict:
    return {"file": problem.path, "line": problem.line, "kind": problem.kind, "message": problem.message,
            "hint": problem.hint, "places": [{"file": path, "line": line} for path, line in problem.where]}


def validate(response: str, key: str, fmt: str | None = None, check_forms: bool | None = None) -> Validation:
    """Every problem of ``response`` (a file or a folder) against ``key``
    (the same); ``check_forms`` None takes the format's default (CoNLL-2012
    word forms that differ are warnings, as scoring warns about them)."""
    if os.path.isdir(key) != os.path.isdir(response) and os.path.exists(key) and os.path.exists(response):
        raise ScorerError("give two files or two folders", (key, None), (response, None))
    if os.path.isdir(key):
        datasets, keys_alone, responses_alone = folder_pairs(key, response)
        validation = Validation([(d.key, d.response) for d in datasets])
        for path in keys_alone:
            validation.problems.append(Problem(
                "pairing", f"the key's file {os.path.basename(path)} has no response file of that name",
                response, None, ERROR, ((path, None), (response, None))))
        for path in responses_alone:
            validation.problems.append(Problem(
                "pairing", "no key file has this name (its dataset is not scored)", path, None, ERROR,
                ((path, None),)))
        if not datasets and not keys_alone and not responses_alone:
            raise ScorerError(no_file_of_a_format(), (key, None))
    else:
        validation = Validation([(key, response)])
    for key_path, response_path in validation.pairs:
        validation.problems += validate_file(response_path, key_path, fmt, check_forms)
    return validation


def validate_file(response: str, key: str, fmt: str | None = None,
                  check_forms: bool | None = None) -> list[Problem]:
    """Every problem of one response file against its key file, sorted by line."""
    problems = Problems(collect=True, focus=response)
    try:
        fmt = resolve_format(fmt, key, response)
        # The key is read as scoring reads it: its first problem stops its reading.
        key_documents = list(read_documents(key, "key", fmt))
    except ScorerError as err:
        problems.error("file", err)
        return problems.items
    if check_forms is None:
        # The format's default, as scoring takes it.
        check_forms = for_format(Options(), fmt).check_forms
    documents, stopped = [], False
    try:
        for document in read_documents(response, "response", fmt, problems=problems, key=key_documents):
            loaded = document.load(problems)
            for kind, example, *count in loaded.warnings:
                line = RE_LINE.search(example)
                kind = f"{kind}: {breakdown(count[0])}" if count else kind
                problems.warning("warning", ScorerError(f"{kind} ({example})",
                                                        (response, int(line.group(1)) if line else None)))
            documents.append(document)
    except ScorerError as err:  # the rest of the file cannot be read
        problems.error("file", err)
        if not documents:
            return problems.items
        stopped = True
    _check_alignment(key_documents, documents, key, response, check_forms, problems, stopped)
    return _once(sorted(problems.items, key=lambda p: (p.line is not None, p.line or 0)))


def _once(problems: list[Problem]) -> list[Problem]:
    """A header problem said in the same words for several documents (a
    missing ``global.Entity`` is found in each) listed once, at its first
    line, naming the others."""
    lines: dict[tuple, list] = {}
    for problem in problems:
        if problem.kind == "header":
            lines.setdefault((problem.message, problem.severity), []).append(problem.line)
    out = []
    for problem in problems:
        if problem.kind == "header":
            others = lines.pop((problem.message, problem.severity), None)
            if others is None:
                continue
            others = [str(line) for line in others[1:] if line is not None]
            if others:
                shown = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
                problem = replace(problem, message=f"{problem.message} (and at lines {shown})")
        out.append(problem)
    return out


def _label(document, index: int):
    """A document is known by its id; one without is known by its place."""
    return document.doc_id if isinstance(document.newdoc, str) else ("#", index)


def _check_alignment(key_documents, documents, key: str, response: str, check_forms, problems: Problems,
                     stopped: bool = False) -> None:
    """The response's documents aligned with the key's by their ids, each
    pair checked sentence by sentence; a document on one side only is
    reported, one the response lacks at the response's document it belongs
    before. Where the reading ``stopped``, the key's documents after the
    last one read are not missing: they were not looked for."""
    pairs = aligned([_label(d, i) for i, d in enumerate(key_documents)],
                    [_label(d, i) for i, d in enumerate(documents)])
    last = max((k for k, r in pairs if k is not None and r is not None), default=-1) if stopped else None
    for (k, r), at in zip(pairs, following(pairs, [d.first_line for d in documents])):
        if r is None and last is not None and k > last:
            continue
        if r is None:
            missing = key_documents[k]
            problems.error("document-missing", ScorerError(
                f"document {missing.doc_id!r} of the key is missing from the response",
                (key, missing.first_line), (response, at)))
        elif k is None:
            extra = documents[r]
            problems.error("document-extra", ScorerError(
                f"document {extra.doc_id!r} is not in the key", (response, extra.first_line)))
        else:
            check_documents(key_documents[k], documents[r], check_forms, problems)
