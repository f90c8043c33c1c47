"""Password hashing in a pool of its own, bounded, so sign-ups and sign-ins never stall the rest.

An Argon2 hash takes 64 MiB and tens of milliseconds of a processor by design. Run in
the thread pool that serves ``/api/me`` and ``/api/tables``, forty sign-ups at once
would hold every thread of it and over two gigabytes. Here at most :data:`WORKERS`
hashes run at once (so at most ``WORKERS × 64 MiB``), at most :data:`WAITING` more
wait their turn, and any beyond are answered at once 503 with a Retry-After
(:class:`~baccara.server.errors.PasswordsBusy`) rather than pile up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from baccara.server.errors import PasswordsBusy

T = TypeVar("T")

WORKERS = 2
"""Hashes computed at once: the pool's threads."""
WAITING = 32
"""Hashes that may wait for a thread; one more is refused (503)."""
RETRY_AFTER = 2.0
"""What a refusal's Retry-After says, in seconds: about the time the queue takes to drain."""


class PasswordPool:
    """The threads that hash and check passwords, and the bound on the work waiting for them.

    Used from one event loop (the casino's): the count of work taken is kept on it."""

    def __init__(self, workers: int = WORKERS, waiting: int = WAITING) -> None:
        self.workers, self.waiting = workers, waiting
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="passwords")
        self.taken = 0
        """Hashes running or waiting now."""

    def check_room(self) -> None:
        """:class:`PasswordsBusy` if as much work as the pool takes is already running and
        waiting: asked before a sign-up or sign-in is counted, so a refusal for want of
        room never counts against the one refused."""
        if self.taken >= self.workers + self.waiting:
            raise PasswordsBusy(
                "the server is checking as many passwords as it can at once: try again in a moment",
                retry_after=RETRY_AFTER,
            )

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` on one of the pool's threads, or :class:`PasswordsBusy` at once
        if there is no room for it (:meth:`check_room`)."""
        self.check_room()
        self.taken += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, work, *args)
        finally:
            self.taken -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
