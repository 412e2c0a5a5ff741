"""``python -m corefud_scorer`` and the ``corefud-scorer`` command."""

# First of all, before the heavy imports: an interrupt from here on is one
# line and exit 130 (spawned workers import this module as __mp_main__).
if __name__ in ("__main__", "corefud_scorer.__main__"):
    from .interrupts import install

    install("corefud-scorer")

import os  # noqa: E402


def entry_point() -> None:
    # Set before numpy is imported: its BLAS would start a thread per core,
    # which costs more CPU time than a small run's scoring. Nothing here
    # multiplies matrices, and -j runs processes, which inherit this.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    # The command's collection policy from before its imports, whose
    # allocations would otherwise start collections of their own.
    from .memory import manage

    manage()
    from .cli import entry_point as run

    run()


# Guarded: worker processes started by spawn import this module again.
if __name__ == "__main__":
    entry_point()
