"""What resampling a call asks for (:class:`Resampling`), with the defaults
and limits of its counts: what the command line, the options' table and the
web service read without importing the resampling itself
(:mod:`.significance`)."""

from __future__ import annotations

from collections import namedtuple

from ..provenance import signature

DEFAULT_SEED = 12345
BOOTSTRAP_SAMPLES = 1000
AR_TRIALS = 10000
LEVEL = 0.95
# The most samples a bootstrap keeps (their figures are kept to take
# percentiles) and the most randomization trials (only counted).
MAX_BOOTSTRAP_SAMPLES = 100_000
MAX_AR_TRIALS = 1_000_000


class Resampling(namedtuple("Resampling", "confidence paired_bs paired_ar seed level",
                             defaults=(None, None, None, DEFAULT_SEED, LEVEL))):
    """What to resample: ``confidence`` bootstrap samples for intervals, a
    paired bootstrap (``paired_bs`` samples) or approximate randomization
    (``paired_ar`` trials), with ``seed``; intervals at ``level``."""

    __slots__ = ()

    @property
    def test(self) -> str | None:
        return "bs" if self.paired_bs else "ar" if self.paired_ar else None

    @property
    def samples(self) -> int | None:
        return self.paired_bs or self.paired_ar

    @property
    def asked(self) -> bool:
        return bool(self.confidence or self.test)

    @property
    def interval_samples(self) -> int:
        """The bootstrap samples of the randomization test's interval."""
        return self.confidence or BOOTSTRAP_SAMPLES

    @property
    def work(self) -> int:
        """Samples and trials drawn in all, for a progress bar."""
        return ((self.confidence or 0) + (self.paired_bs or 0)
                + ((self.paired_ar or 0) + self.interval_samples if self.paired_ar else 0))


def signature_of(options, fmt: str | None, resampling: Resampling) -> str:
    """The signature of figures scored with ``options`` in format ``fmt``
    and compared with ``resampling``."""
    return signature(options, fmt, resampling.test, resampling.samples, resampling.confidence,
                     resampling.level, resampling.seed)
