"""The garbage-collection policy of the command line, in one place.

Udapi's nodes hold reference cycles. With automatic collection on, every
collection during a read walks the whole document (and Udapi collects after
each read), so the cost per token would grow with the document. The command
turns automatic collection off (:func:`manage`) and frees the previous
document pair's cycles, all in the youngest generation, in one pass before
the next pair is read (:func:`between_documents`), when there are enough to
be worth it. Library callers keep their own settings: nothing here runs
unless the command asked for it.
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


# Objects left in the youngest generation below which a collection is not
# worth its own cost: a reader without reference cycles leaves few (its
# documents are freed as they go), Udapi's leave tens of thousands.
YOUNG = 1000


def between_documents() -> None:
    if _managed and gc.get_count()[0] >= YOUNG:
        gc.collect(0)
