"""The scheduler: it ticks each table when its engine says a timer is due (the end of
betting, a peek or a choice running out, the next card of a reveal), each in its own
task, and sleeps until the next deadline (on the casino's clock) or until an action
wakes it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping

from baccara.server.clock import SYSTEM, Clock
from baccara.server.domain.types import Live
from baccara.server.errors import TableMoved

log = logging.getLogger("baccara.server")


class Scheduler:
    """Drives the tables' timers: ``act(live)`` runs one table's due tick (the casino's
    transaction); ``wake`` is set whenever an action may have moved a deadline."""

    def __init__(
        self,
        tables: Mapping[int, Live],
        act: Callable[[Live], Awaitable[None]],
        clock: Clock = SYSTEM,
    ) -> None:
        self.tables = tables
        self.act = act
        self.clock = clock
        self.wake = asyncio.Event()
        self.ticking: dict[int, asyncio.Task[None]] = {}
        """The tick under way at each table (at most one)."""

    async def run(self) -> None:
        """Start a tick of every table whose timer is due; sleep until the next one (or a
        wake-up). Each table ticks in its own task: a table whose tick waits behind bets
        queued on its lock holds up no other table's round."""
        while True:
            now = self.clock.now()
            upcoming: list[float] = []
            for live in list(self.tables.values()):
                if live.table_id in self.ticking:  # its tick wakes this loop when done
                    continue
                due = live.deadline()
                if due is None:
                    continue
                if due <= now:
                    self.ticking[live.table_id] = asyncio.create_task(self._tick(live))
                else:
                    upcoming.append(due)
            self.wake.clear()
            until = min(upcoming, default=now + 5.0)
            now = self.clock.now()
            if until > now:
                # Not asyncio.wait_for: on Python 3.11 it swallows a cancellation that comes
                # as the wake-up does, and stop() would wait for this task forever. The
                # timeout is the clock's: a test's clock runs it out as the test moves on.
                with contextlib.suppress(TimeoutError):
                    async with self.clock.timeout_at(min(until, now + 5.0)):
                        await self.wake.wait()

    async def _tick(self, live: Live) -> None:
        try:
            await self.act(live)
        except TableMoved:  # another process deals it now
            log.warning("table %s: lease lost to another process", live.table_id)
        except Exception:  # one table's failure must not stop the others
            log.exception("table %s: tick failed", live.table_id)
        finally:
            self.ticking.pop(live.table_id, None)
            self.wake.set()
