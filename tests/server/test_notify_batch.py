"""The notifications to the other processes: what the tables did goes out once it has
committed, every NOTIFY_SECONDS at most, packed — the bets of many tables in one
notification (or a few, each under the payload limit), never one a bet: every notifying
commit takes PostgreSQL's one lock of the notification queue, which all the processes'
commits share."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest

from baccara.server.cluster import notify
from baccara.server.cluster.notify import CHANNEL, NOTIFY_LIMIT, Bus, _pack, _split
from baccara.server.db.database import Database
from tests.server.postgres import Cluster


def test_messages_are_packed_in_order_under_the_limit() -> None:
    parts = [json.dumps({"n": "me", "t": i, "pad": "x" * 900}) for i in range(20)]
    payloads = _pack(parts)
    assert 2 < len(payloads) < 20  # several a payload, more than one payload
    assert all(len(p) <= NOTIFY_LIMIT for p in payloads)
    assert [m for p in payloads for m in json.loads(p)] == [json.loads(p) for p in parts]
    assert _pack(parts[:1]) == parts[:1]  # one message goes as the object it is
    assert _pack([]) == []


def test_a_message_too_long_for_one_notification_is_split_then_packed() -> None:
    balances = {str(user): 100_000 + user for user in range(1200)}
    payloads = _pack(_split({"n": "me", "t": 3, "s": [[7, 0]], "b": balances}))
    assert len(payloads) >= 2 and all(len(p) <= NOTIFY_LIMIT for p in payloads)
    heard: dict[str, int] = {}
    for payload in payloads:
        loaded = json.loads(payload)
        for message in loaded if isinstance(loaded, list) else [loaded]:
            heard.update(message.get("b", {}))
    assert heard == balances


@pytest.fixture
def database(postgres: Cluster) -> Iterator[Database]:
    database = Database(postgres.new_database())
    try:
        yield database
    finally:
        database.dispose()


@pytest.fixture
def listener(database: Database) -> Iterator[psycopg.Connection[Any]]:
    dsn = database.url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute(f"LISTEN {CHANNEL}")
        yield connection


def heard(connection: psycopg.Connection[Any]) -> list[Any]:
    """Each notification's payload, as it came, of those that come within a second."""
    return [json.loads(n.payload) for n in connection.notifies(timeout=1.0)]


def bus_of(database: Database) -> Bus[Any]:
    return Bus(SimpleNamespace(db=database), "me")  # type: ignore[arg-type]


def test_what_is_posted_together_goes_in_one_notification_in_order(
    database: Database, listener: psycopg.Connection[Any]
) -> None:
    """Fifty bets' events at twenty tables, posted within the tick: one notification."""
    bus = bus_of(database)
    posted = [{"t": i % 20, "s": [[i, 0]], "b": {str(i): 100 * i}} for i in range(50)]

    async def run() -> None:
        for message in posted:
            bus.post(message)
        await asyncio.sleep(notify.NOTIFY_SECONDS * 20)

    asyncio.run(run())
    assert heard(listener) == [[{"n": "me", **m} for m in posted]]


def test_a_stop_sends_what_is_posted_and_a_rolled_back_announcement_goes_nowhere(
    database: Database, listener: psycopg.Connection[Any]
) -> None:
    bus = bus_of(database)
    with pytest.raises(ValueError), database.write() as session:
        bus.announce(session, {"t": 1, "s": [[1, 0]]})
        raise ValueError("refused")

    async def run() -> None:
        bus.post({"t": 2, "closed": True})
        await bus.stop()  # before the tick: sent by the stop

    asyncio.run(run())
    bus.publish({"r": [[7, 2, "tok"]]})  # at once, in a transaction of its own
    assert heard(listener) == [{"n": "me", "t": 2, "closed": True},
                               {"n": "me", "r": [[7, 2, "tok"]]}]  # fmt: skip


def test_what_could_not_be_sent_is_kept_and_sent_first_after(
    database: Database, listener: psycopg.Connection[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    bus = bus_of(database)
    real = bus._send
    failures = [OSError("the database went away")]

    def flaky(payloads: list[str]) -> None:
        if failures:
            raise failures.pop()
        real(payloads)

    monkeypatch.setattr(bus, "_send", flaky)

    async def run() -> None:
        bus.post({"t": 1, "s": [[1, 0]]})
        for _ in range(500):  # until the first try has failed
            if not failures:
                break
            await asyncio.sleep(0.01)
        bus.post({"t": 1, "s": [[1, 1]]})
        await bus.stop()

    asyncio.run(run())
    assert not failures
    assert heard(listener) == [[{"n": "me", "t": 1, "s": [[1, 0]]},
                                {"n": "me", "t": 1, "s": [[1, 1]]}]]  # fmt: skip


def test_a_message_postgresql_would_refuse_is_dropped_and_holds_nothing_up(
    database: Database, listener: psycopg.Connection[Any]
) -> None:
    """A message no split brings under PostgreSQL's payload limit (here a note for the
    table's watchers) could never be sent: it is dropped, and what came before and after
    it goes."""
    bus = bus_of(database)

    async def run() -> None:
        bus.post({"t": 1, "s": [[1, 0]]})
        bus.post({"t": 1, "m": [{"type": "note", "text": "x" * 9000}]})
        bus.post({"t": 1, "s": [[1, 1]]})
        await bus.stop()

    asyncio.run(run())
    assert heard(listener) == [[{"n": "me", "t": 1, "s": [[1, 0]]},
                                {"n": "me", "t": 1, "s": [[1, 1]]}]]  # fmt: skip


def test_nothing_is_posted_after_a_stop(
    database: Database, listener: psycopg.Connection[Any]
) -> None:
    bus = bus_of(database)

    async def run() -> None:
        await bus.stop()
        bus.post({"t": 1, "s": [[1, 0]]})
        await asyncio.sleep(notify.NOTIFY_SECONDS * 10)
        assert bus._sender is None

    asyncio.run(run())
    assert heard(listener) == []


def test_a_stop_while_a_send_is_under_way_neither_loses_nor_repeats_it(
    database: Database, listener: psycopg.Connection[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stop cancels the sender while its thread sends: the thread's send stands, and
    the stop's own send takes only what came after it."""
    bus = bus_of(database)
    real = bus._send
    in_thread = threading.Event()
    go_on = threading.Event()

    def slow(payloads: list[str]) -> None:
        in_thread.set()
        go_on.wait(10)
        real(payloads)

    monkeypatch.setattr(bus, "_send", slow)

    async def run() -> None:
        bus.post({"t": 1, "s": [[1, 0]]})
        await asyncio.to_thread(in_thread.wait, 10)  # the sender's thread is sending
        monkeypatch.setattr(bus, "_send", real)
        bus.post({"t": 1, "s": [[1, 1]]})
        stopping = asyncio.ensure_future(bus.stop())
        await asyncio.sleep(0.05)
        go_on.set()
        await stopping

    asyncio.run(run())
    assert heard(listener) == [{"n": "me", "t": 1, "s": [[1, 0]]},
                               {"n": "me", "t": 1, "s": [[1, 1]]}]  # fmt: skip
