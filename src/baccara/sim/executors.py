"""Blocks of a run dealt on an executor: the caller's, or a pool of processes made for the run.

A caller that already keeps workers (a server's process pool, a notebook's thread pool)
passes its :class:`~concurrent.futures.Executor` to :func:`baccara.sim.runs.count_outcomes`
or :func:`baccara.sim.rng_tests.run_battery`, and the run hands it its blocks without
starting or stopping anything. Without one, ``workers > 1`` makes a pool of that many
processes for the run (:func:`process_pool`) and shuts it down at the end.

Either way only a few blocks are in the executor's hands at once (:func:`results`): a
run of 10^13 rounds has ten million blocks, and submitting them all up front would hold
ten million futures before the first is dealt.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

Result = TypeVar("Result")

BLOCKS_PER_WORKER = 2
"""Blocks handed out per worker at a time: one being dealt, one waiting behind it."""


def _ignore_interrupts(start: Callable[..., object] | None, args: tuple[Any, ...]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    if start is not None:
        start(*args)


def process_pool(
    workers: int, start: Callable[..., object] | None = None, args: tuple[Any, ...] = ()
) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that leave Ctrl-C to the parent; each calls
    ``start(*args)`` once when it begins.

    Forked where the platform has it: workers start at once and need no importable
    ``__main__``; elsewhere spawned, which re-imports baccara in each worker.
    """
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    return ProcessPoolExecutor(
        workers, mp_context=context, initializer=_ignore_interrupts, initargs=(start, args)
    )


def on_own_pool(
    call: Callable[..., Result],
    jobs: Iterable[tuple[Any, ...]],
    workers: int,
    *,
    ordered: bool,
    start: Callable[..., object] | None = None,
    args: tuple[Any, ...] = (),
) -> Iterator[Result]:
    """:func:`results` on a :func:`process_pool` of ``workers`` made for these jobs, shut
    down when the iterator ends or is closed (the jobs not yet started are cancelled)."""
    pool = process_pool(workers, start, args)
    try:
        yield from results(pool, call, jobs, workers, ordered=ordered)
    finally:
        pool.shutdown(cancel_futures=True)


def results(
    executor: Executor,
    call: Callable[..., Result],
    jobs: Iterable[tuple[Any, ...]],
    workers: int,
    *,
    ordered: bool,
) -> Iterator[Result]:
    """``call(*job)`` for each job, run on ``executor``, with at most
    :data:`BLOCKS_PER_WORKER` × ``workers`` jobs in its hands at once.

    Results come in the order of ``jobs`` when ``ordered``, else as each job finishes.
    Closing the iterator early cancels the jobs not yet started; the executor itself
    is left as it was (whoever made it shuts it down).
    """
    ahead = BLOCKS_PER_WORKER * workers
    queue: deque[Future[Result]] = deque()
    pending: set[Future[Result]] = set()
    try:
        for job in jobs:
            future = executor.submit(call, *job)
            if ordered:
                queue.append(future)
                if len(queue) >= ahead:
                    yield queue.popleft().result()
            else:
                pending.add(future)
                if len(pending) >= ahead:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for finished in done:
                        yield finished.result()
        while queue:
            yield queue.popleft().result()
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for finished in done:
                yield finished.result()
    finally:
        for future in (*queue, *pending):
            future.cancel()
