"""Resampling is bounded: counts past a stated limit are refused in one line,
blocks keep memory flat however many trials are drawn, and a long run shows
its progress on a terminal."""

from __future__ import annotations

import io
import tracemalloc

import numpy as np
import pytest

from corefud_scorer.jobs import significance
from corefud_scorer.cli import main, running
from corefud_scorer.jobs.significance import (MAX_AR_TRIALS, MAX_BOOTSTRAP_SAMPLES, approximate_randomization,
                                         confidence_intervals, paired_bootstrap)

from conftest import FIXTURES, run_cli
from test_significance import synthetic

KEY, RESPONSE = FIXTURES / "example" / "key.conllu", FIXTURES / "example" / "response.conllu"


@pytest.mark.parametrize("flag, count, message", [
    ("--confidence", "1000000000000", "argument --confidence: at most 100,000 samples, not 1,000,000,000,000"),
    ("--paired-bs", "100001", "argument --paired-bs: at most 100,000 samples, not 100,001"),
    ("--paired-ar", "100000000000", "argument --paired-ar: at most 1,000,000 trials, not 100,000,000,000"),
])
def test_a_count_past_the_limit_is_one_line(flag, count, message):
    run = run_cli(KEY, RESPONSE, KEY, flag, count)
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines()[-1] == f"corefud-scorer: error: {message}"
    bench = run_cli("bench", FIXTURES / "bench" / "key", FIXTURES / "bench" / "sys", flag, count)
    assert bench.code == 2 and bench.err.splitlines()[-1] == f"corefud-scorer bench: error: {message}"


def test_the_limits_are_stated_in_the_help_and_the_library_keeps_them():
    text = " ".join(run_cli("--help").out.split())
    assert f"at most {MAX_BOOTSTRAP_SAMPLES:,})" in text and f"at most {MAX_AR_TRIALS:,})" in text
    stats = synthetic(2, 5)
    with pytest.raises(ValueError, match="at most 100,000 bootstrap samples"):
        confidence_intervals(stats, MAX_BOOTSTRAP_SAMPLES + 1)
    with pytest.raises(ValueError, match="at most 1,000,000 randomization trials"):
        approximate_randomization(stats, MAX_AR_TRIALS + 1)


def _figures(tests):
    return [{name: (c.difference, c.interval, c.p_value, c.count, c.trials) for name, c in t.items()} for t in tests]


def test_blocks_change_no_figure(monkeypatch):
    stats = synthetic(3, 40, shift=[0.0, 0.02, -0.05])
    whole = (_figures(paired_bootstrap(stats, 300)), _figures(approximate_randomization(stats, 700, interval_samples=200)),
             confidence_intervals(stats, 300))
    # Blocks of a few samples each: the same random stream, the same figures.
    monkeypatch.setattr(significance, "BLOCK", 97)
    done = []
    blocked = (_figures(paired_bootstrap(stats, 300, progress=done.append)),
               _figures(approximate_randomization(stats, 700, interval_samples=200)),
               confidence_intervals(stats, 300))
    assert blocked == whole
    assert sum(done) == 300 and len(done) > 10 and max(done) <= 97 // stats.layout.width


def test_a_block_is_bounded_by_documents_and_by_systems_times_columns():
    # Few documents, many systems and columns: the sums, not the weights, are
    # what a block must bound (a block of BLOCK / documents samples would
    # hold millions of sums per system).
    for systems, documents in ((8, 2), (2, 5000), (3, 1)):
        stats = synthetic(systems, documents, metrics=("muc", "bcub", "ceafe", "zero", "lea", "ceafm"))
        sizes = list(significance._blocks(3_000_000, stats))
        assert sum(sizes) == 3_000_000
        for size in sizes:
            assert size * documents <= significance.BLOCK
            assert size * systems * stats.layout.width <= significance.BLOCK


def _peak(trials: int, stats) -> int:
    tracemalloc.start()
    try:
        approximate_randomization(stats, trials, interval_samples=10)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_randomization_memory_does_not_grow_with_the_trials(monkeypatch):
    monkeypatch.setattr(significance, "BLOCK", 1 << 14)
    stats = synthetic(3, 3)
    few, many = _peak(10_000, stats), _peak(100_000, stats)
    assert many < 1.5 * few, (few, many)


def test_progress_of_a_long_resampling_only_on_a_terminal(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(running, "RESAMPLING_DELAY", 0)
    for stream, quiet, shown in ((Terminal(), [], True), (Terminal(), ["-q"], False), (io.StringIO(), [], False)):
        out = io.StringIO()
        assert main([str(KEY), str(RESPONSE), str(KEY), "--paired-ar", "3000", "-j", "1", *quiet],
                    stdout=out, stderr=stream) == 0
        # 3000 trials and the 1000 samples of the test's interval.
        assert ("resampling:" in stream.getvalue() and "/4.00k [" in stream.getvalue()) == shown, stream.getvalue()
        assert "Signature:" in out.getvalue()


def test_a_short_resampling_shows_nothing_before_its_delay():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    assert main([str(KEY), str(RESPONSE), "--confidence", "50", "-j", "1"], stdout=io.StringIO(), stderr=stream) == 0
    assert "resampling:" not in stream.getvalue() and "sample/s" not in stream.getvalue()
    assert np.isfinite(running.RESAMPLING_DELAY) and running.RESAMPLING_DELAY >= 0.5


def test_running_out_of_memory_is_one_line(monkeypatch):
    from corefud_scorer.jobs import comparison

    def exhausted(*args, **kwargs):
        raise MemoryError("Unable to allocate 7.45 TiB for an array")

    monkeypatch.setattr(comparison.significance, "approximate_randomization", exhausted)
    run = run_cli(KEY, RESPONSE, KEY, "--paired-ar", "500000", "-q", "-j", "1")
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines() == ["corefud-scorer: error: not enough memory to resample 501,000 samples and "
                                    "trials over 2 systems: give fewer (--confidence N, --paired-bs N, "
                                    "--paired-ar N)"]
