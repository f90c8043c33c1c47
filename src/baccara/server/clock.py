"""The server's one clock, passed in: the casino, its scheduler, the group commit and the
hub read the time through a :class:`Clock`, so a test can run them on a clock of its own.

``now`` is the wall clock (seconds since the epoch: what rounds, tokens and sessions
record); ``monotonic`` measures intervals (how long a batch has run, when a socket last
sent) and never goes back; ``timeout_at`` is how the scheduler sleeps until a table's
next deadline, so that on a test's :class:`ManualClock` the deadline comes when the test
moves the clock, not after real seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start, never going back."""
        ...

    def timeout_at(self, when: float) -> contextlib.AbstractAsyncContextManager[object]:
        """An :func:`asyncio.timeout` that runs out when :meth:`now` reaches ``when``."""
        ...


@dataclass(frozen=True)
class SystemClock:
    """The operating system's clocks."""

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def timeout_at(self, when: float) -> contextlib.AbstractAsyncContextManager[object]:
        return asyncio.timeout(when - self.now())


@dataclass(frozen=True)
class WallClock:
    """A clock whose time of day is ``now`` (a test's), its intervals the system's."""

    wall: Callable[[], float]

    def now(self) -> float:
        return self.wall()

    def monotonic(self) -> float:
        return time.monotonic()

    def timeout_at(self, when: float) -> contextlib.AbstractAsyncContextManager[object]:
        return asyncio.timeout(when - self.now())


SYSTEM = SystemClock()
"""The real clock: what every part takes when given none."""


class ManualClock:
    """A clock that stands still until it is moved: a test's.

    ``now`` starts at ``start`` (the real time of day if none is given) and changes only
    by :meth:`advance`, so a table's timers run out exactly when a test says, however
    loaded the machine. ``monotonic`` is the system's plus every advance: the intervals
    the server measures for its own pacing (a group-commit batch, a socket's sends) pass
    as they really do, and jump with the clock. An advance may come from any thread (a
    test's, while the casino runs on its event loop in another): each :meth:`timeout_at`
    it reaches runs out on its own loop.

    >>> clock = ManualClock(start=1_000.0)
    >>> clock.now(), clock.advance(15.0), clock.now()
    (1000.0, None, 1015.0)
    """

    def __init__(self, start: float | None = None) -> None:
        self._now = time.time() if start is None else start
        self._moved = 0.0
        self._lock = threading.Lock()
        self._waiting: dict[object, tuple[float, Callable[[], None]]] = {}
        """Each timeout under way: when it runs out, and how to make it (from any thread)."""

    def now(self) -> float:
        with self._lock:
            return self._now

    def monotonic(self) -> float:
        with self._lock:
            return time.monotonic() + self._moved

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds``; every timeout that this reaches runs out."""
        if not seconds >= 0:
            raise ValueError(f"a clock moves on, never back: {seconds!r} seconds")
        with self._lock:
            self._now += seconds
            self._moved += seconds
            due = [expire for when, expire in self._waiting.values() if when <= self._now]
        for expire in due:
            expire()

    @contextlib.asynccontextmanager
    async def timeout_at(self, when: float) -> AsyncIterator[object]:
        loop = asyncio.get_running_loop()
        key = object()
        async with asyncio.timeout(None) as timeout:
            running = [True]  # until the block is left or the timeout has run out

            def run_out() -> None:  # on the loop
                if running[0]:
                    running[0] = False
                    timeout.reschedule(loop.time())

            def expire() -> None:  # from the thread that advanced the clock
                with contextlib.suppress(RuntimeError):  # its loop has closed: nothing waits
                    loop.call_soon_threadsafe(run_out)

            with self._lock:
                if when <= self._now:
                    run_out()
                else:
                    self._waiting[key] = (when, expire)
            try:
                yield timeout
            finally:
                running[0] = False
                with self._lock:
                    self._waiting.pop(key, None)
