"""The test's clock: a table's timer runs out when the clock is moved, not after real
seconds; the real clock's timeout is asyncio's."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field

import pytest

from baccara.server.clock import SYSTEM, ManualClock
from baccara.server.domain.scheduler import Scheduler


def test_a_timeout_runs_out_when_an_advance_from_another_thread_reaches_it() -> None:
    clock = ManualClock(start=1_000.0)
    ran_out: list[float] = []

    async def wait() -> None:
        with pytest.raises(TimeoutError):
            async with clock.timeout_at(1_010.0):
                await asyncio.Event().wait()  # nothing else ends it
        ran_out.append(clock.now())

    async def run() -> None:
        waiting = asyncio.create_task(wait())
        await asyncio.sleep(0)
        await asyncio.to_thread(clock.advance, 9.0)  # not yet
        await asyncio.sleep(0.05)
        assert not waiting.done()
        await asyncio.to_thread(clock.advance, 1.0)
        await asyncio.wait_for(waiting, 5)

    asyncio.run(run())
    assert ran_out == [1_010.0]


def test_a_timeout_already_due_runs_out_at_once_and_a_block_left_early_is_forgotten() -> None:
    clock = ManualClock(start=50.0)

    async def run() -> None:
        with pytest.raises(TimeoutError):
            async with clock.timeout_at(50.0):
                await asyncio.Event().wait()
        async with clock.timeout_at(60.0):
            pass  # left before it ran out: moving the clock past it later touches nothing
        clock.advance(20.0)
        await asyncio.sleep(0)

    asyncio.run(run())


def test_the_clock_never_goes_back_and_its_intervals_jump_with_it() -> None:
    clock = ManualClock(start=0.0)
    before = clock.monotonic()
    clock.advance(3600.0)
    assert clock.monotonic() - before >= 3600.0 and clock.now() == 3600.0
    with pytest.raises(ValueError, match="never back"):
        clock.advance(-1.0)
    assert clock.now() == 3600.0


def test_the_system_clocks_timeout_is_asyncios() -> None:
    async def run() -> float:
        began = time.monotonic()
        with pytest.raises(TimeoutError):
            async with SYSTEM.timeout_at(SYSTEM.now() + 0.05):
                await asyncio.Event().wait()
        return time.monotonic() - began

    assert asyncio.run(run()) >= 0.04


@dataclass
class Timed:
    """A table whose only timer is ``due``."""

    table_id: int
    due: float | None
    ticks: list[float] = field(default_factory=list)

    def deadline(self) -> float | None:
        return self.due


def test_the_scheduler_ticks_a_table_when_the_clock_reaches_its_deadline() -> None:
    clock = ManualClock(start=0.0)
    table = Timed(1, due=15.0)
    ticked = asyncio.Event()

    async def act(live: Timed) -> None:
        live.ticks.append(clock.now())
        live.due = None
        ticked.set()

    async def run() -> None:
        scheduler = Scheduler({1: table}, act, clock)  # type: ignore[dict-item, arg-type]
        running = asyncio.create_task(scheduler.run())
        await asyncio.sleep(0.05)
        assert table.ticks == []  # real time passes; the clock does not
        moved = threading.Thread(target=clock.advance, args=(15.0,))
        moved.start()
        moved.join()
        await asyncio.wait_for(ticked.wait(), 5)
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running

    asyncio.run(run())
    assert table.ticks == [15.0]
