"""The garbage-collection policy of the command line, in one place.

Udapi's nodes hold reference cycles. With automatic collection on, every
collection during a read walks the whole document (and Udapi collects after
each read), so the cost per token would grow with the document. The command
turns automatic collection off (:func:`manage`) and frees the previous
document pair's cycles, all in the youngest generation, in one pass before
the next pair is read (:func:`between_documents`). Library callers keep
their own settings: nothing here runs unless the command asked for it.
"""

from __future__ import annotations

import gc

_managed = False


def manage() -> None:
    """Take over collection for this process (and the workers it forks)."""
    global _managed
    _managed = True
    gc.disable()


def freeze() -> None:
    """Keep everything alive now out of later collections' reach."""
    if _managed:
        gc.freeze()


def between_documents() -> None:
    if _managed:
        gc.collect(0)
