"""One scoring job, whatever front end asks for it: the files (a key and
its responses, or datasets of them), the options, resampling and the error
analysis in, one :class:`JobResult` out.

``corefud-scorer KEY SYS...``, ``bench`` and the web service build a
:class:`Job` and call :func:`run`, so that for the same files and options
they cannot disagree: the files go through the one pipeline
(:mod:`.pipeline`), which gives the options the defaults of the format the
files are in; the figures compared are a pair's scores or a benchmark's
macro-averages; intervals and tests resample the same statistics.
"""

from __future__ import annotations

import os
from collections import namedtuple

from ..errors import ScorerError
from ..formats.inputs import STDIN
from ..formats.readers import DEFAULT_FORMAT, detect_format
from ..results import Options, Result
from .options import OptionConflict, Resolved, check_compared, check_tests, resolve
from .pipeline import score_files
from .resampling import Resampling, signature_of

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from .bench import Benchmark, Dataset
    from .comparison import Systems

# Benchmarks, comparisons and the error analysis are imported by the jobs that
# ask for them: a single pair does not pay for them (tests/test_startup.py).


class Job(namedtuple("Job", "groups options names resampling errors jobs datasets",
                     defaults=(Resampling(), False, 1, None))):
    """What to score: ``groups`` of ``(key, [response, ...])`` (paths,
    ``"-"`` or file-like objects; one group for a pair of files, one per
    dataset for a benchmark, whose ``datasets`` are then given: per system,
    its :class:`~corefud_scorer.jobs.bench.Dataset` list), the systems' ``names`` (one
    per response), the options, resampling, whether to add the error
    analysis of the one response, and the processes to score in
    (``jobs``)."""

    __slots__ = ()

    @classmethod
    def pair(cls, key, responses: list, options: Options, names: list[str], **more) -> "Job":
        """Responses scored against one key file."""
        return cls([(key, list(responses))], options, names, **more)

    @classmethod
    def bench(cls, systems: list[list[Dataset]], options: Options, names: list[str], **more) -> "Job":
        """Systems scored over the same datasets (``systems[s]``: system
        ``s``'s datasets, with the same names and keys in the same order)."""
        from .bench import check_systems, dataset_groups

        check_systems(systems)
        return cls(dataset_groups(systems), options, names, datasets=systems, **more)

    @property
    def compared(self) -> bool:
        """Several systems, or intervals or tests: a comparison is made."""
        return len(self.names) > 1 or self.resampling.asked

    def check(self) -> None:
        """Refuse, before a file is read, what the job cannot honour (an
        :class:`~corefud_scorer.jobs.options.OptionConflict`): a test without two
        systems, an error analysis of several responses, resampling of a
        measure that is one number."""
        check_tests(self.resampling.paired_bs, self.resampling.paired_ar, len(self.names))
        if self.errors:
            stdin = any(isinstance(s, str) and s == STDIN for key, responses in self.groups for s in (key, *responses))
            check_errors(self.options, len(self.names), self.resampling.asked, stdin)
        check_compared(self.options, self.compared)


class JobResult:
    """What a job gives: the options as scored (the defaults of the files'
    format), per system its results (one per group), per system its
    benchmark (a benchmark job), the comparison (several systems, or
    resampling asked), the error analysis, and the signature; the last
    three are added as the job makes them."""

    __slots__ = ("options", "results", "signature", "benches", "systems", "errors")

    def __init__(self, options: Options, results: list[list[Result]], signature: str):
        self.options = options
        self.results = results
        self.signature = signature
        self.benches: list[Benchmark] | None = None
        self.systems: Systems | None = None
        self.errors: object | None = None


def run(job: Job, progress=None, resampling_bar=None) -> JobResult:
    """Score the job. ``progress`` is called with the flat index of each
    (group, response) pair and each document's result as it is scored;
    ``resampling_bar``, called once resampling starts, gives a bar (with
    ``update`` and ``close``) or None."""
    (options,), (per_group,) = score_files(job.groups, [job.options], job.jobs, progress)
    results = [[group[s] for group in per_group] for s in range(len(job.names))]
    outcome = JobResult(options, results, signature_of(options, options.format, job.resampling))
    if job.datasets is not None:
        from .bench import assemble

        outcome.benches = [assemble(datasets, options, per_system)
                           for datasets, per_system in zip(job.datasets, results)]
    if job.compared:
        outcome.systems = _compare(job, outcome, resampling_bar)
    if job.errors:
        from .error_analysis import analyse_files

        key, (response,) = job.groups[0]
        outcome.errors = analyse_files(key, response, options, job.jobs)
    return outcome


def _compare(job: Job, outcome: JobResult, resampling_bar) -> Systems:
    """Intervals and tests over the systems' documents (within each dataset
    for a benchmark, whose figures are its macro-averages)."""
    from .comparison import compare, macro_figures, pair_figures

    if outcome.benches is not None:
        documents = [[r.documents for r in bench.results] for bench in outcome.benches]
        figures = [macro_figures(bench) for bench in outcome.benches]
        groups = [dataset.name for dataset in outcome.benches[0].datasets]
    else:
        documents = [[r.documents for r in per_system] for per_system in outcome.results]
        figures = [pair_figures(per_system[0]) for per_system in outcome.results]
        groups = None
    bar = resampling_bar() if resampling_bar is not None and job.resampling.asked else None
    try:
        return compare(job.names, documents, figures, outcome.options.metric_list, job.resampling,
                       outcome.signature, bar.update if bar is not None else None, groups)
    except MemoryError:
        # Under a memory limit below a block's needs (numpy's _ArrayMemoryError).
        raise ScorerError(f"not enough memory to resample {job.resampling.work:,} samples and trials over "
                          f"{len(documents)} system{'s' if len(documents) != 1 else ''}: give fewer "
                          "(--confidence N, --paired-bs N, --paired-ar N)") from None
    finally:
        if bar is not None:
            bar.close()


def key_format(asked_format: str | None, key) -> str:
    """The format options are resolved for before a file is scored: the one
    asked for, else the key's (``key``: a path; standard input, a stream or
    no key give the default). The pipeline finds the format of every file
    again, and refuses a mix."""
    if asked_format:
        return asked_format
    if not isinstance(key, (str, os.PathLike)) or str(key) == STDIN:
        return DEFAULT_FORMAT
    return detect_format(str(key))


def resolve_options(asked, key) -> Resolved:
    """Options from what was asked (field name -> value), checked against
    the format of the key (:func:`key_format`)."""
    return resolve(asked, key_format(asked.get("format"), key))


def check_errors(options: Options, responses: int, resampled: bool, stdin: bool) -> None:
    """The error analysis reads one response file, twice, and refuses what
    :func:`.error_analysis.refusal` says it cannot honour."""
    from .error_analysis import refusal

    why = refusal(options)
    if why is not None:
        raise OptionConflict(f"--errors: {why}")
    if responses > 1 or resampled or stdin:
        raise OptionConflict("--errors analyses one response file (not - : it is read a second time), "
                             "without intervals or tests")
