"""Two ``baccara serve`` processes on one PostgreSQL database.

Each table is dealt by one process at a time, under a lease (:mod:`baccara.server.cluster.leases`);
requests reaching the other process are forwarded, and table events reach WebSockets on
either process through LISTEN/NOTIFY. These tests run real processes with two-second
leases: players on both, the holder of tables killed mid-round (the other finishes its
rounds), and the holder paused past its lease (its fencing token is stale when it
wakes, so it cannot deal another card).
"""

from __future__ import annotations

import contextlib
import pathlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
from websockets.sync.client import connect

from baccara.server.db.database import Database
from baccara.table.record import verify_record
from tests.server.books import check_books, check_rounds
from tests.server.harness import free_port, receive, serve, ticket_for, wait_for
from tests.server.postgres import Cluster
from tests.server.test_faults import SEED, Load, check_records, register

LEASE = ("--lease-seconds", "2")
TIMERS = ("--betting-seconds", "1", "--peek-seconds", "1", "--choose-seconds", "1")


def plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def holders(url: str) -> dict[int, tuple[str, int]]:
    """Each open table's current lease: the holder's address and the generation."""
    with psycopg.connect(plain(url)) as db:
        rows = db.execute(
            "SELECT l.table_id, l.address, l.generation FROM table_leases l"
            " JOIN casino_tables t ON t.id = l.table_id"
            " WHERE t.status = 'open' AND l.expires_at >= extract(epoch from now())"
        ).fetchall()
    return {table: (address, generation) for table, address, generation in rows}


def rounds_in_flight(url: str, tables: set[int]) -> dict[int, str]:
    """Rounds of ``tables`` not over yet that hold bets: round id → stored state."""
    with psycopg.connect(plain(url)) as db:
        rows = db.execute(
            "SELECT r.id, r.state, r.table_id FROM rounds r WHERE r.state NOT IN"
            " ('settled', 'voided') AND EXISTS (SELECT 1 FROM bets b WHERE b.round_id = r.id)"
        ).fetchall()
    return {round_id: state for round_id, state, table in rows if table in tables}


@contextlib.contextmanager
def two_servers(
    url: str, tmp_path: pathlib.Path, *flags: str
) -> Iterator[tuple[list[str], list[Any]]]:
    """Two processes on ``url`` that have shared the tables out between them."""
    ports = [free_port(), free_port()]
    with contextlib.ExitStack() as stack:
        processes = [stack.enter_context(serve(url, port, *LEASE, *flags,
                                               log=tmp_path / f"server-{i}.log"))
                     for i, port in enumerate(ports)]  # fmt: skip
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        wait_for(lambda: {a for a, _ in holders(url).values()} == set(bases), timeout=30)
        yield bases, processes


def test_the_other_process_finishes_the_rounds_of_one_killed_mid_round(
    postgres: Cluster, tmp_path: pathlib.Path
) -> None:
    url = postgres.new_database()
    with two_servers(url, tmp_path, *TIMERS, "--reveal-delay-ms", "300") as (bases, processes):
        players = [register(bases[i % 2]) for i in range(6)]
        watcher = players[0][1]
        dealt = holders(url)
        theirs = {t for t, (address, _) in dealt.items() if address == bases[0]}
        mine = set(dealt) - theirs
        assert theirs and mine  # both processes deal
        # A WebSocket on each process, at a table the other one deals.
        far_url = (
            f"ws://{bases[1][7:]}/ws/tables/{min(theirs)}?ticket={ticket_for(bases[1], watcher)}"
        )
        near_url = (
            f"ws://{bases[0][7:]}/ws/tables/{min(mine)}?ticket={ticket_for(bases[0], watcher)}"
        )
        with (
            connect(far_url) as far,
            connect(near_url) as near,
        ):
            assert receive(far)["type"] == receive(near)["type"] == "snapshot"
            load = Load(bases, players, SEED)
            load.start()
            for ws in (far, near):  # the other process's events reach it
                wait_for(lambda w=ws: receive(w)["type"] == "events", timeout=20, every=0)
        # Kill the first process when one of its tables has a round with bets being dealt.
        wait_for(lambda: any(s != "betting" for s in rounds_in_flight(url, theirs).values()),
                 timeout=30, every=0.01)  # fmt: skip
        processes[0].send_signal(signal.SIGKILL)
        processes[0].wait(timeout=30)
        cut_short = rounds_in_flight(url, theirs)
        assert cut_short
        wait_for(lambda: {a for a, _ in holders(url).values()} == {bases[1]}
                 and set(holders(url)) == set(dealt), timeout=30)  # fmt: skip
        taken = holders(url)
        assert all(taken[t][1] > dealt[t][1] for t in theirs)  # new generations
        load.await_bets(20)  # bets go on, all of them now at the survivor
        load.stop()
        check_records(bases[1], players[0][1], load.acknowledged)
    counts = check_rounds(url, load.acknowledged, complete=True)
    assert counts["acknowledged"] >= 30, (counts, load.statuses)
    assert load.failures == []
    with psycopg.connect(plain(url)) as db:
        states = dict(db.execute("SELECT id, state FROM rounds WHERE id = ANY(%s)",
                                 [list(cut_short)]).fetchall())  # fmt: skip
    # Taken over, not restarted: the rounds the killed process was dealing are played out
    # and settled by the other, none voided.
    assert set(states.values()) == {"settled"}, states


def test_a_holder_paused_past_its_lease_cannot_deal_when_it_wakes(
    postgres: Cluster, tmp_path: pathlib.Path
) -> None:
    url = postgres.new_database()
    with two_servers(url, tmp_path, *TIMERS, "--reveal-delay-ms", "1500") as (bases, processes):
        dealt = holders(url)
        first = processes[0]
        table = min(t for t, (address, _) in dealt.items() if address == bases[0])
        _, token = register(bases[1], seat_at=())
        client = httpx.Client(base_url=bases[1], headers={"Authorization": f"Bearer {token}"})
        with client:
            spot = client.get(f"/api/tables/{table}").json()
            assert client.post(f"/api/tables/{table}/seat", json={}).status_code == 200
            game_bet = {"punto-banco": "banker", "redgreen": "red", "redgreen-mini": "red",
                        "lo-ball": "main"}[spot["game"]]  # fmt: skip
            placed = client.post(f"/api/tables/{table}/bets", headers={"Idempotency-Key": "k1"},
                                 json={"bet": game_bet, "amount_cents": 1000})  # fmt: skip
            assert placed.status_code == 201, placed.text
            round_id = placed.json()["round_id"]
            client.post(f"/api/tables/{table}/deal")
            wait_for(lambda: client.get(f"/api/rounds/{round_id}").json()["state"]
                     in ("revealing", "peek", "choosing"), timeout=20)  # fmt: skip
            first.send_signal(signal.SIGSTOP)  # mid-round, its cards half turned
            try:
                wait_for(lambda: holders(url).get(table, ("", 0))[0] == bases[1], timeout=20)
            finally:
                first.send_signal(signal.SIGCONT)
            # It wakes believing it deals the table; its next write carries a stale
            # generation and is refused, so it stops dealing and the other finishes.
            settled = wait_for(lambda: (r := client.get(f"/api/rounds/{round_id}").json())
                               ["state"] == "settled" and r, timeout=40)  # fmt: skip
            assert verify_record(settled).ok  # one log, the cards its seeds fixed
            [bet] = settled["bets"]
            assert client.get("/api/me").json()["balance_cents"] == (
                100_000 - 1000 + bet["payout_cents"]
            )
            log = (tmp_path / "server-0.log").read_text(errors="replace")
            assert f"table {table}: lease lost to another process" in log, log
            # The woken process forwards the table's requests to the one dealing it now.
            woken = wait_for(lambda: (a := httpx.post(
                f"{bases[0]}/api/tables/{table}/bets",
                headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "k2"},
                json={"bet": game_bet, "amount_cents": 500})).status_code != 503 and a,
                timeout=20, every=0.2)  # fmt: skip
            assert woken.status_code == 201, woken.text
            assert woken.json()["round_id"] != round_id
    check_books(url)


def test_a_second_process_on_one_sqlite_file_is_refused(
    sqlite_url: str, tmp_path: pathlib.Path
) -> None:
    with serve(sqlite_url, free_port()):
        try:
            with serve(sqlite_url, free_port(), log=tmp_path / "second.log"):
                raise AssertionError("a second process started on one SQLite file")
        except AssertionError as refused:
            assert "SQLite serves one process" in str(refused), refused


def test_processes_starting_together_on_a_new_database_upgrade_it_once(postgres: Cluster) -> None:
    url = postgres.new_database()
    failures: list[BaseException] = []

    def start() -> None:
        database = Database(url)
        try:
            database.migrate()
        except BaseException as error:  # reported below, with the others
            failures.append(error)
        finally:
            database.dispose()

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)  # none waits on another forever
    assert failures == []
    with psycopg.connect(plain(url)) as db:
        assert db.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)
