"""Password hashing in a pool of its own, bounded, so sign-ups and sign-ins never stall the rest.

An Argon2 hash takes 64 MiB and tens of milliseconds of a processor by design. Run in
the thread pool that serves ``/api/me`` and ``/api/tables``, forty sign-ups at once
would hold every thread of it and over two gigabytes. Here at most :data:`WORKERS`
hashes run at once (so at most ``WORKERS × 64 MiB``), at most :data:`WAITING` more
wait their turn, and any beyond are answered at once 503 with a Retry-After
(:class:`~baccara.server.errors.PasswordsBusy`) rather than pile up.

A bound on the whole pool alone lets one client fill it: forty wrong passwords at once
from one address (or one token's password changes) would leave every other sign-in
answered 503. So each client is admitted (:meth:`PasswordPool.admit`) for at most
:data:`PER_CLIENT` checks running or waiting, and one more is refused it alone, 429 with
a Retry-After (:class:`~baccara.server.errors.TooManyPasswordChecks`): the pool keeps
room for everyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from baccara.server.errors import PasswordsBusy, TooManyPasswordChecks

T = TypeVar("T")

WORKERS = 2
"""Hashes computed at once: the pool's threads."""
WAITING = 32
"""Hashes that may wait for a thread; one more is refused (503)."""
PER_CLIENT = 2
"""Password checks one client (an address, a user) may have running or waiting at once;
one more is refused that client (429), so no one client holds more than this of the pool."""
RETRY_AFTER = 2.0
"""What a refusal's Retry-After says, in seconds: about the time the queue takes to drain."""


class PasswordPool:
    """The threads that hash and check passwords, and the bound on the work waiting for them.

    Used from one event loop (the casino's): the count of work taken is kept on it."""

    def __init__(
        self, workers: int = WORKERS, waiting: int = WAITING, per_client: int = PER_CLIENT
    ) -> None:
        self.workers, self.waiting, self.per_client = workers, waiting, per_client
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="passwords")
        self.taken = 0
        """Hashes running or waiting now."""
        self.clients: Counter[str] = Counter()
        """Requests admitted now, by client key (:meth:`admit`)."""

    @contextlib.contextmanager
    def admit(self, *clients: str) -> Iterator[None]:
        """Count a request that checks passwords against each of ``clients`` (the address
        it comes from as the casino counts it; for a password change, the user too) while
        it runs, or :class:`TooManyPasswordChecks` at once if any already has
        :attr:`per_client` in. An empty key (no address known) is bounded by the pool alone.

        A request checks one password at a time, so a client's requests in are a bound
        on its hashes running or waiting.

        >>> pool = PasswordPool(per_client=1)
        >>> with pool.admit("192.0.2.7"):
        ...     with pool.admit("192.0.2.8"):
        ...         pool.admit("192.0.2.7").__enter__()
        Traceback (most recent call last):
        baccara.server.errors.TooManyPasswordChecks: ...
        """
        keys = {client for client in clients if client}
        if any(self.clients[key] >= self.per_client for key in keys):
            raise TooManyPasswordChecks(
                "you have as many passwords being checked as one may at once: try again "
                "in a moment",
                retry_after=RETRY_AFTER,
            )
        self.clients.update(keys)
        try:
            yield
        finally:
            self.clients.subtract(keys)
            for key in keys:
                if self.clients[key] <= 0:
                    del self.clients[key]

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
