"""Running a command's job on the command line: progress bars on a
terminal, the warnings on stderr, and the figures of ``-b``'s line."""

from __future__ import annotations

import argparse

from ..jobs.options import OptionConflict
from ..jobs.resampling import Resampling
from ..measures.totals import headline, primary_figure

from .flags import PROG


class Progress:
    """A progress bar on stderr when it is a terminal (tqdm), else nothing."""

    def __init__(self, pairs, stderr, quiet):
        self.bar = None
        if quiet or not getattr(stderr, "isatty", lambda: False)():
            return
        from tqdm import tqdm

        from ..formats.readers import count_documents

        self.files = len(pairs)
        self.bar = tqdm(total=sum(count_documents(k) for k, _ in pairs), unit="doc",
                        file=stderr, dynamic_ncols=True, leave=False)
        self.tokens = 0

    def __call__(self, index, document):
        self.tokens += document.tokens
        rate = self.tokens / max(self.bar.format_dict["elapsed"], 1e-9)
        self.bar.set_postfix_str(f"file {index + 1}/{self.files}, {rate:,.0f} tokens/s", refresh=False)
        self.bar.update(1)

    def close(self):
        if self.bar is not None:
            self.bar.close()


# Seconds of resampling before its progress bar shows: a short run stays quiet.
RESAMPLING_DELAY = 1.0


def resampling_bar(resampling: Resampling, stderr, quiet: bool):
    """A progress bar of the samples and trials drawn, on a terminal (not
    with -q), shown once resampling has taken :data:`RESAMPLING_DELAY`
    seconds; None where none is shown."""
    if quiet or not resampling.asked or not getattr(stderr, "isatty", lambda: False)():
        return None
    from tqdm import tqdm

    return tqdm(total=resampling.work, unit="sample", unit_scale=True, desc="resampling", file=stderr,
                dynamic_ncols=True, leave=False, delay=RESAMPLING_DELAY)


def checked(parser: argparse.ArgumentParser, job):
    """The job, once it is known to be one it can honour
    (:meth:`~corefud_scorer.jobs.job.Job.check`); else a usage error."""
    try:
        job.check()
    except OptionConflict as err:
        parser.error(str(err))
    return job


def run_job(job, args, stderr):
    """:func:`~corefud_scorer.jobs.job.run` with progress bars on a terminal (documents, then
    resampling), and its warnings on stderr unless -q: the scoring's, then
    the comparison's (too few documents)."""
    from ..jobs.job import run

    progress = Progress([(key, response) for key, responses in job.groups for response in responses],
                        stderr, args.quiet)
    try:
        outcome = run(job, progress if progress.bar else None,
                      lambda: resampling_bar(job.resampling, stderr, args.quiet))
    finally:
        progress.close()
    report_warnings([r for per_system in outcome.results for r in per_system], args, stderr)
    if not args.quiet and outcome.systems is not None:
        for line in outcome.systems.warnings:
            print(f"{PROG}: warning: {line}", file=stderr)
    return outcome


def report_warnings(results, args, stderr):
    """Warnings (unless -q) and, with -v, what was left out as asked."""
    if args.quiet:
        return
    for result in results:
        for line in result.warnings:
            print(f"{PROG}: warning: {line}", file=stderr)
        if args.verbose:
            for kind, count in result.counts.items():
                print(f"{PROG}: {result.settings.get('response_file', '')}: "
                      f"{kind.replace('_', ' ')}: {count}", file=stderr)


def primary_line(conll, metrics: dict, decimals: int) -> str:
    """``-b``'s line: the primary figure (:func:`..measures.totals.primary_figure`)."""
    _, value = primary_figure(conll, {name: headline(score) for name, score in metrics.items()})
    return figure(value, decimals) + "\n"


def figure(value, decimals: int) -> str:
    return "n/a" if value is None else "%.*f" % (decimals, value * 100)
