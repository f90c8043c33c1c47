"""The server's one clock, passed in: the casino, its scheduler, the group commit and the
hub read the time through a :class:`Clock`, so a test can run them on a clock of its own.

``now`` is the wall clock (seconds since the epoch: what rounds, tokens and sessions
record); ``monotonic`` measures intervals (how long a batch has run, when a socket last
sent) and never goes back.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start, never going back."""
        ...


@dataclass(frozen=True)
class SystemClock:
    """The operating system's clocks."""

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()


@dataclass(frozen=True)
class WallClock:
    """A clock whose time of day is ``now`` (a test's), its intervals the system's."""

    wall: Callable[[], float]

    def now(self) -> float:
        return self.wall()

    def monotonic(self) -> float:
        return time.monotonic()


SYSTEM = SystemClock()
"""The real clock: what every part takes when given none."""
