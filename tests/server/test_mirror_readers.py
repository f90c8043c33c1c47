"""A mirror given up takes the reader of its notifications with it.

A process follows a table another process deals in a mirror, whose reader task reads
the notified events into it. When the mirror is replaced (a fresh snapshot after the
table changed hands) or dropped (the table is dealt here again, or closed), a reader
left running would push the old mirror's events after the fresh snapshot. The tests
run the casino in process on SQLite, whose runner follows a table the same way when
it is not among the tables it deals, and ask it what the cluster and the bus ask.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import settings_for
from tests.server.harness import Server, in_process

TABLE = 2


@pytest.fixture
def casino(sqlite_url: str) -> Iterator[Server]:
    with in_process(settings_for(sqlite_url, betting_seconds=600)) as server:
        yield server


def followed(server: Server) -> Any:
    """Table 2 as a process that does not deal it follows it, its reader under way."""
    runner = server.casino.runner
    assert server.loop is not None

    async def follow() -> Any:
        await runner.resync(TABLE)
        mirror = runner.bus.mirrors[TABLE]
        mirror.reader = asyncio.create_task(asyncio.sleep(3600))
        return mirror

    return server.loop.run(follow())


def cancelled(server: Server, task: asyncio.Task[None]) -> bool:
    assert server.loop is not None

    async def ended() -> bool:
        await asyncio.wait([task], timeout=5)
        return task.cancelled()

    return bool(server.loop.run(ended()))


def test_a_fresh_snapshot_cancels_the_old_mirrors_reader(casino: Server) -> None:
    live = casino.casino.tables.pop(TABLE)  # dealt by another process, as far as this one knows
    try:
        old = followed(casino)
        assert casino.loop is not None
        casino.loop.run(casino.casino.runner.resync(TABLE))
        assert casino.casino.bus.mirrors[TABLE] is not old
        assert cancelled(casino, old.reader)
    finally:
        casino.casino.tables[TABLE] = live


def test_a_table_dealt_here_again_cancels_its_mirrors_reader(casino: Server) -> None:
    runner = casino.casino.runner
    live = casino.casino.tables.pop(TABLE)
    mirror = followed(casino)
    assert casino.loop is not None
    casino.loop.run(runner.bring_up(TABLE, live.generation, void_open=False))
    assert TABLE in casino.casino.tables and TABLE not in runner.bus.mirrors
    assert cancelled(casino, mirror.reader)


def test_the_bus_forgets_a_table_and_its_reader(casino: Server) -> None:
    bus = casino.casino.bus
    live = casino.casino.tables.pop(TABLE)
    try:
        mirror = followed(casino)
        assert casino.loop is not None

        async def forget() -> None:
            bus.forget(TABLE)

        casino.loop.run(forget())
        assert TABLE not in bus.mirrors
        assert cancelled(casino, mirror.reader)
        casino.loop.run(forget())  # a table not followed: nothing to do
    finally:
        casino.casino.tables[TABLE] = live


def test_a_mirror_that_missed_a_notification_reads_its_round_to_the_end_and_the_next_whole(
    sqlite_server: Server,
) -> None:
    """The notifications of a round's end and the next round's start never came (their
    process died between the commit and its notification): the next notification names
    only the new round, from its middle. The mirror reads the rest of its own round
    first, then the new one from its first event, so its sockets miss nothing."""
    from baccara.server.cluster.mirror import Mirror

    server = sqlite_server
    casino = server.casino
    mirror = Mirror.load(casino.db, 1)
    assert mirror is not None and mirror.round is not None
    first, seen = mirror.round_id, len(mirror.round.events)
    player = server.player()
    assert player.bet(1, "banker", 100).status_code == 201
    server.advance(1.0)  # betting runs out
    server.play_out()  # dealt and settled; the next round opens
    live = casino.tables[1]
    assert live.round_id is not None and live.round_id != first
    segments = mirror.follow(casino.db, [[live.round_id, 2]])
    assert [(s.round_id, s.since) for s in segments] == [(first, seen), (live.round_id, 0)]
    ended = segments[0].round_
    assert ended.phase.over and len(ended.events) > seen  # the bet, the deal, the settlement
    assert mirror.round_id == live.round_id
