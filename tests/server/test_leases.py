"""Table leases and their fencing token, statement by statement, on SQLite and PostgreSQL.

The property that protects money: once another process has taken a table over, every
write of the old holder fails, however long it was paused — its generation is stale.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from baccara.server.cluster import leases
from baccara.server.cluster.leases import Holder
from baccara.server.db.database import Database
from baccara.server.db.store import insert_table
from baccara.server.errors import LeaseLost
from baccara.table import TableConfig

ANN = Holder("ann-process", "http://10.0.0.1:8000")
BOB = Holder("bob-process", "http://10.0.0.2:8000")
LEASE = 10.0


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    db = Database(database_url)
    db.migrate()
    with db.write() as session:
        for _ in range(3):
            insert_table(session, TableConfig("punto-banco", 100, 10_000), 0.0)
    try:
        yield db
    finally:
        db.dispose()


def test_a_table_is_taken_once_and_over_again_only_when_its_lease_ran_out(
    database: Database,
) -> None:
    with database.write() as session:
        assert leases.acquire(session, 1, ANN, 100.0, LEASE) == 1
        assert leases.acquire(session, 1, BOB, 105.0, LEASE) is None  # ann holds it
        assert leases.holder(session, 1, 105.0) == ANN
        assert leases.unheld_tables(session, 105.0) == [2, 3]
    with database.write() as session:
        assert leases.acquire(session, 1, BOB, 110.5, LEASE) == 2  # ann's ran out at 110
        assert leases.holder(session, 1, 111.0) == BOB


def test_the_old_holder_cannot_write_once_the_table_was_taken_over(database: Database) -> None:
    with database.write() as session:
        assert leases.acquire(session, 1, ANN, 100.0, LEASE) == 1
        leases.fence(session, 1, ANN, 1, 115.0)  # a write in time renews the lease
        assert leases.acquire(session, 1, BOB, 112.0, LEASE) is None
    with database.write() as session:
        assert leases.acquire(session, 1, BOB, 116.0, LEASE) == 2
    # Ann wakes from a pause believing she deals table 1 in generation 1.
    with pytest.raises(LeaseLost), database.write() as session:
        leases.fence(session, 1, ANN, 1, 130.0)
    with database.write() as session:
        leases.fence(session, 1, BOB, 2, 130.0)
        assert leases.renew(session, ANN, {1: 1}, 140.0) == set()
        assert leases.renew(session, BOB, {1: 2}, 140.0) == {1}


def test_a_lease_ran_out_but_not_taken_is_still_the_holders(database: Database) -> None:
    with database.write() as session:
        assert leases.acquire(session, 2, ANN, 100.0, LEASE) == 1
    with database.write() as session:  # paused past its lease, but nobody took the table
        leases.fence(session, 2, ANN, 1, 200.0)
        assert leases.holder(session, 2, 150.0) == ANN


def test_a_released_table_is_taken_at_once_in_a_new_generation(database: Database) -> None:
    with database.write() as session:
        assert leases.acquire(session, 3, ANN, 100.0, LEASE) == 1
        leases.release(session, 3, ANN, 1)
        assert leases.holder(session, 3, 100.5) is None
        assert leases.renew(session, ANN, {3: 1}, 110.0) == set()  # released is released
        assert leases.holder(session, 3, 100.5) is None
        assert leases.acquire(session, 3, BOB, 100.5, LEASE) == 2
        with pytest.raises(LeaseLost):
            leases.release(session, 3, ANN, 1)


def test_processes_alive_are_counted_with_their_places_in_the_upstream(
    database: Database,
) -> None:
    cat = Holder("cat", "http://127.0.0.1:8003")
    with database.write() as session:
        assert leases.heartbeat(session, ANN, 100.0, LEASE) == 1
        assert leases.heartbeat(session, BOB, 101.0, LEASE) == 2
        assert leases.heartbeat(session, cat, 102.0, LEASE, upstream="2/3") == 3
        assert leases.live_nodes(session, 109.0, LEASE, besides=ANN.id) == 2
        assert leases.live_upstreams(session, 109.0, LEASE, besides=ANN.id) == ["2/3"]
        assert leases.live_upstreams(session, 109.0, LEASE, besides=cat.id) == []
        assert leases.live_upstreams(session, 112.5, LEASE, besides=ANN.id) == []  # unseen
        assert leases.live_nodes(session, 111.5, LEASE) == 1  # only cat seen within a lease
        leases.forget(session, BOB)
        assert leases.live_nodes(session, 105.0, LEASE) == 2


def test_a_process_restarted_at_the_address_of_a_dead_one_takes_its_tables_at_once(
    database: Database,
) -> None:
    again = Holder("ann-restarted", ANN.address)
    with database.write() as session:
        leases.heartbeat(session, ANN, 100.0, LEASE)
        leases.heartbeat(session, BOB, 100.0, LEASE)
        assert leases.acquire(session, 1, ANN, 100.0, LEASE) == 1
        assert leases.acquire(session, 2, BOB, 100.0, LEASE) == 1
    with database.write() as session:
        leases.succeed(session, again)
        assert leases.acquire(session, 1, again, 101.0, LEASE) == 2  # ann's, taken at once
        assert leases.acquire(session, 2, again, 101.0, LEASE) is None  # bob lives elsewhere
        assert leases.live_nodes(session, 101.0, LEASE, besides=again.id) == 1
