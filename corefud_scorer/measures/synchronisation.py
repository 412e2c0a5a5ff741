"""Markable synchronisation (``--sync``): a document's contingency rebuilt
over one mention set, each side's *twinless* mentions (those without an
aligned partner on the other side) deleted or added to the other side as
singletons; and the markables identified, which ``--sync all`` reports
beside its four score sets. Mentions aligned by the matching are one
markable."""

from __future__ import annotations

from .statistics import Counts
from ..alignment.contingency import Cells, Contingency
from ..lazy import lazy

np = lazy("numpy")

SYNC_OPTIONS = ("intersection", "union", "key", "response")
# What synchronisation does with a twinless mention of each side
# (Popescu-Belis et al. 2004, section 2.3; the note's table in section 7):
# "delete" it, or keep it and add it to the other side as a "singleton".
SYNC_ACTIONS = {
    "intersection": ("delete", "delete"),
    "union": ("singleton", "singleton"),
    "key": ("singleton", "delete"),
    "response": ("delete", "singleton"),
}


def _sums(c: Contingency) -> tuple[np.ndarray, np.ndarray]:
    cells = c.recall_cells
    rows = np.bincount(cells.rows, weights=cells.counts, minlength=len(c.key_sizes)).astype(np.int64)
    cols = np.bincount(cells.cols, weights=cells.counts, minlength=len(c.response_sizes)).astype(np.int64)
    return rows, cols


def twinless(c: Contingency) -> tuple[np.ndarray, np.ndarray]:
    """Twinless mentions per key entity and per response entity."""
    rows, cols = _sums(c)
    return np.maximum(c.key_sizes - rows, 0), np.maximum(c.response_sizes - cols, 0)


def rebuild(c: Contingency, key_twinless: str, response_twinless: str,
            drop_twinless_response_singletons: bool = False) -> Contingency:
    """A new contingency in which each side's twinless mentions are kept as they
    are (``"keep"``), deleted from their entity (``"delete"``, an entity left
    empty vanishes), or kept and added to the other side as a singleton entity
    (``"singleton"``, which makes them aligned). With
    ``drop_twinless_response_singletons`` response entities made of one
    twinless mention are removed first (Cai & Strube's first step).

    The result has one reading (its three cell sets are the same object):
    where a span stood in two entities of one side, the rebuilt partitions
    count it once per entity, as the recall reading does."""
    cells = c.recall_cells
    key_twins, response_twins = twinless(c)
    rows_sum, cols_sum = _sums(c)
    response_sizes = c.response_sizes.copy()
    if drop_twinless_response_singletons:
        lone = (response_sizes == 1) & (response_twins == 1)
        response_sizes[lone] = 0
        response_twins = np.where(lone, 0, response_twins)
    key_sizes = rows_sum + (0 if key_twinless == "delete" else key_twins)
    response_sizes = np.where(response_sizes == 0, 0,
                              cols_sum + (0 if response_twinless == "delete" else response_twins))
    rows, cols, counts = [cells.rows], [cells.cols], [cells.counts]
    n_key, n_response = len(key_sizes), len(response_sizes)
    new_key_sizes, new_response_sizes = [key_sizes], [response_sizes]
    if key_twinless == "singleton":
        # Each twinless key mention becomes a response singleton of its own.
        owners = np.repeat(np.arange(n_key), key_twins)
        rows.append(owners)
        cols.append(n_response + np.arange(len(owners)))
        counts.append(np.ones(len(owners), dtype=np.int64))
        new_response_sizes.append(np.ones(len(owners), dtype=np.int64))
    if response_twinless == "singleton":
        owners = np.repeat(np.arange(n_response), response_twins)
        rows.append(n_key + np.arange(len(owners)))
        cols.append(owners)
        counts.append(np.ones(len(owners), dtype=np.int64))
        new_key_sizes.append(np.ones(len(owners), dtype=np.int64))
    key_sizes = np.concatenate(new_key_sizes)
    response_sizes = np.concatenate(new_response_sizes)
    rows, cols, counts = np.concatenate(rows), np.concatenate(cols), np.concatenate(counts)
    # Entities left empty vanish; the others keep their order.
    key_index = np.cumsum(key_sizes > 0) - 1
    response_index = np.cumsum(response_sizes > 0) - 1
    keep = (key_sizes[rows] > 0) & (response_sizes[cols] > 0)
    rows, cols, counts = key_index[rows[keep]], response_index[cols[keep]], counts[keep]
    order = np.lexsort((cols, rows))
    new_cells = Cells(rows[order].astype(np.int64), cols[order].astype(np.int64),
                      counts[order].astype(np.int64))
    return Contingency(key_sizes[key_sizes > 0], response_sizes[response_sizes > 0],
                       new_cells, new_cells, new_cells)


def synchronise(c: Contingency, option: str) -> Contingency:
    """Key and response rebuilt over one mention set (the markable
    synchronisation of Popescu-Belis et al. 2004): ``intersection`` (twinless
    mentions deleted), ``union`` (each added to the other side as a
    singleton), ``key`` (the key's mentions: twinless key mentions added to
    the response, twinless response mentions deleted) or ``response`` (the
    reverse). Mentions aligned by the matching are one markable."""
    if option not in SYNC_ACTIONS:
        raise ValueError(f"sync must be one of {SYNC_OPTIONS}, not {option!r}")
    return rebuild(c, *SYNC_ACTIONS[option])


def markable_identification(c: Contingency) -> Counts:
    """Markables identified, read off a contingency (as ``--sync all``
    reports them beside its four score sets): aligned mentions over key
    mentions (recall) and over response mentions (precision)."""
    aligned = float(c.recall_cells.counts.sum())
    return Counts(aligned, float(c.key_sizes.sum()), aligned, float(c.response_sizes.sum()))
