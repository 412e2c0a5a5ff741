"""Score documents in a process pool, in order, with bounded look-ahead."""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator

from ..interrupts import ignore_in_worker


# Seconds of work (CPU time) in this process before the default jobs start a pool:
# starting one (importing multiprocessing, forking, sending documents) costs
# more than the whole of a small run.
WARM_UP = 0.5


class Cores(int):
    """``-j``'s default: the machine's cores, used once the work has taken
    :data:`WARM_UP` seconds of CPU time in one process (a number asked for
    is used at once)."""


def default_jobs() -> Cores:
    return Cores(available_cores())


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _context():
    # Forked workers inherit the imported libraries instead of importing them again.
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def ordered_map(function: Callable, items: Iterable, jobs: int) -> Iterator:
    """``map(function, items)``, in ``jobs`` processes when jobs > 1.

    Results come back in input order, so sums over them do not depend on
    ``jobs``. At most ``2 * jobs`` items are in flight, so a long input is
    never read ahead whole. The pool starts only when a second item exists;
    with ``jobs`` the default :class:`Cores`, only once the items mapped in
    this process have taken :data:`WARM_UP` seconds of its CPU time.
    """
    warm_up = WARM_UP if isinstance(jobs, Cores) else 0.0
    start = time.process_time()
    iterator = iter(items)
    item = next(iterator, None)  # an error here is the first one: nothing precedes it
    if item is None:
        return
    while True:
        # Reading ahead may fail; what comes before it in the input is
        # finished first, so that the first error in input order is the one
        # raised, whatever ``jobs``.
        try:
            following = next(iterator, None)
        except Exception:
            yield function(item)
            raise
        if following is None:
            yield function(item)
            return
        if jobs > 1 and time.process_time() - start >= warm_up:
            break
        yield function(item)
        item = following
    yield from _pooled(function, item, following, iterator, jobs)


def _pooled(function: Callable, first, second, iterator: Iterator, jobs: int) -> Iterator:
    """The items from ``first`` on, mapped by a pool of ``jobs`` processes."""
    # Imported only here: a run in one process does not pay for them.
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=_context(), initializer=ignore_in_worker)
    try:
        pending: deque = deque()
        pending.append(pool.submit(function, first))
        pending.append(pool.submit(function, second))
        failure = None
        while pending:
            while failure is None and len(pending) < 2 * jobs:
                try:
                    item = next(iterator, None)
                except Exception as err:
                    failure = err
                    break
                if item is None:
                    failure = StopIteration()
                    break
                pending.append(pool.submit(function, item))
            yield pending.popleft().result()
        if failure is not None and not isinstance(failure, StopIteration):
            raise failure
    except Exception:
        # Failed (bad input in a later document): what is queued is dropped
        # and the tasks running are waited for, so that the pool's threads
        # are gone before the interpreter exits (left running, they may
        # write to a pipe already closed and print a traceback).
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    except BaseException:
        # Interrupted: nothing is waited for; the command ends its workers.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


_shared: tuple | None = None  # (function, shared), inherited by forked workers


def _call_shared(item):
    function, shared = _shared
    return function(shared, item)


def shared_map(function: Callable, shared, items: list, jobs: int) -> list:
    """``[function(shared, item) for item in items]``, in up to ``jobs``
    forked processes that inherit ``shared`` (a large document's analysis)
    rather than receive it pickled with each item; in this process when
    ``jobs`` is 1, an item is alone, this is a worker already or the
    platform cannot fork."""
    global _shared
    if jobs <= 1 or len(items) < 2:
        return [function(shared, item) for item in items]
    # Imported only here: a run in one process does not pay for them.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if multiprocessing.parent_process() is not None or "fork" not in multiprocessing.get_all_start_methods():
        return [function(shared, item) for item in items]
    _shared = (function, shared)  # set before the workers fork
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(items)), mp_context=multiprocessing.get_context("fork"),
                                 initializer=ignore_in_worker) as pool:
            return list(pool.map(_call_shared, items))
    finally:
        _shared = None
