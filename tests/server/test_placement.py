"""Tables placed where nginx routes them (:mod:`baccara.server.cluster.placement`).

The choice the casino computes is checked against a real nginx from Debian running the
shipped configuration, its upstream's servers being small servers of nginx's own that
answer their number: every table id from 1 to 400, for upstreams of 2, 3 and 5 servers,
on each of a table's paths. The plan is checked case by case. Two real processes behind
the shipped nginx on PostgreSQL then deal exactly the tables nginx sends each, take
bets that nobody forwards, and give a table back when nginx routes it elsewhere.
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import threading
import uuid
from typing import Any

import httpx
import psycopg
import pytest

from baccara.errors import BaccaraError
from baccara.server.app import create_app
from baccara.server.cluster import leases
from baccara.server.cluster.leases import Holder
from baccara.server.cluster.placement import Plan, Upstream, misplaced, plan, routed_to
from tests.server.books import Acknowledged, check_books
from tests.server.conftest import settings_for
from tests.server.harness import PASSWORD, free_port, serve, wait_for
from tests.server.postgres import Cluster
from tests.server.test_faults import check_records, register
from tests.server.test_nginx import configuration, nginx, running, site
from tests.server.test_observe import TestClient, sign_up
from tests.server.test_scaleout import LEASE, TIMERS, holders, plain

# --- the choice, against nginx ----------------------------------------------------------


@pytest.mark.process
@pytest.mark.parametrize("servers", [2, 3, 5])
def test_the_casino_routes_every_table_where_nginx_does(
    tmp_path: pathlib.Path, servers: int
) -> None:
    listen, ports = free_port(), [free_port() for _ in range(servers)]
    answering = "".join(
        f'server {{ listen 127.0.0.1:{port}; location / {{ return 200 "{number}"; }} }}\n'
        for number, port in enumerate(ports, start=1)
    )
    main = configuration(tmp_path, site(listen, ports, limits=False) + answering)
    with (
        running(tmp_path, main, listen),
        httpx.Client(base_url=f"http://127.0.0.1:{listen}", timeout=10) as client,
    ):
        for table_id in range(1, 401):
            expected = str(routed_to(table_id, servers))
            for path in (f"/api/tables/{table_id}/bets", f"/api/tables/{table_id}",
                         f"/ws/tables/{table_id}", f"/api/tables/00{table_id}/seat?x=1",
                         f"/api/tables/%3{table_id % 10}/bets" if table_id < 10 else
                         f"/ws/tables/{table_id}/"):  # fmt: skip
                assert client.get(path).text == expected, (path, servers)
        # Anything else goes round the servers, in either upstream: the lobby's socket,
        # the lobby, a round's actions, a path that names no table.
        everyone = {str(number) for number in range(1, servers + 1)}
        for path in ("/ws/lobby", "/api/tables", "/api/rounds/7/peek", "/api/tables/7abc",
                     "/api/tables/"):  # fmt: skip
            assert {client.get(path).text for _ in range(3 * servers)} == everyone, path


def test_a_place_in_the_upstream_is_read_or_refused_clearly() -> None:
    assert Upstream.parse(" 2/3 ") == Upstream(2, 3)
    assert str(Upstream(2, 3)) == "2/3"
    for text in ("0/2", "3/2", "2", "a/b", "1/1000", "-1/2", "1/2/3", ""):
        with pytest.raises(BaccaraError, match="must be INDEX/SERVERS"):
            Upstream.parse(text)
    # Every table goes to exactly one server of the upstream.
    for servers in (1, 2, 7):
        places = [Upstream(index, servers) for index in range(1, servers + 1)]
        for table_id in range(1, 200):
            assert sum(place.routes(table_id) for place in places) == 1


# --- the plan --------------------------------------------------------------------------

ONE, TWO = Upstream(1, 2), Upstream(2, 2)
TABLES = list(range(1, 11))
ROUTED_ONE = [t for t in TABLES if ONE.routes(t)]
ROUTED_TWO = [t for t in TABLES if TWO.routes(t)]


def test_without_nginx_the_tables_are_shared_fairly() -> None:
    """No process names a place: each deals the open tables divided among the live ones,
    rounded up, and hands over what it deals beyond that (as before nginx routed)."""
    assert plan(TABLES, [], TABLES, None, [], 1) == Plan(tuple(TABLES), (), (), 0)
    assert plan(TABLES, [], TABLES, None, [], 3).take == (1, 2, 3, 4)
    assert plan(TABLES, [1, 2], TABLES[2:], None, [], 3).take == (3, 4)
    held = plan(TABLES, TABLES, [], None, [], 2)
    assert held == Plan((), (), tuple(TABLES), 5)


def test_a_process_takes_its_own_tables_and_none_routed_to_another() -> None:
    """Both live: each takes the tables nginx sends it, and only those."""
    first = plan(TABLES, [], TABLES, ONE, [TWO], 2)
    assert first == Plan(tuple(ROUTED_ONE), (), (), 0)
    second = plan(TABLES, [], ROUTED_TWO, TWO, [ONE], 2)  # the first deals its own
    assert second == Plan(tuple(ROUTED_TWO), (), (), 0)


def test_tables_of_a_process_that_stopped_are_shared_and_given_back_when_it_returns() -> None:
    """Alone, a process deals every table; its partner started again, it gives back the
    partner's tables (at the end of their rounds) and keeps its own."""
    alone = plan(TABLES, [], TABLES, ONE, [], 1)
    assert set(alone.take) == set(TABLES)
    assert alone.take[: len(ROUTED_ONE)] == tuple(ROUTED_ONE)  # its own first
    back = plan(TABLES, TABLES, [], ONE, [TWO], 2)
    assert back == Plan((), tuple(ROUTED_TWO), (), 0)


def test_a_process_without_a_place_shares_only_the_tables_nobody_is_routed() -> None:
    """A process started without ``--upstream`` beside one with a place leaves that one
    its tables, and shares the rest fairly with it."""
    beside = plan(TABLES, [], ROUTED_TWO, None, [ONE], 2)
    assert beside.take == tuple(ROUTED_TWO[: -(-len(ROUTED_TWO) // 2)])
    assert plan(TABLES, ROUTED_ONE, [], None, [ONE], 2).give_back == tuple(ROUTED_ONE)


# --- two processes behind nginx -----------------------------------------------------------


def forwarded(base: str, admin: dict[str, str]) -> float:
    """The requests ``base`` has sent on to another process."""
    text = httpx.get(f"{base}/metrics", headers=admin, timeout=10).text
    found = re.search(r"^baccara_forwarded_requests_total (\S+)$", text, re.M)
    assert found is not None
    return float(found.group(1))


class Bettor(threading.Thread):
    """A player betting at one table through one process, as fast as it answers, until
    stopped: the table is never between bets for long, so it changes hands at the end of
    a round."""

    def __init__(self, base: str, table_id: int) -> None:
        super().__init__(daemon=True)
        self.base, self.table_id = base, table_id
        self.name_, self.token = register(base, seat_at=())
        self.headers = {"Authorization": f"Bearer {self.token}"}
        self.acknowledged: list[Acknowledged] = []
        self.halt = threading.Event()

    def run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=10, headers=self.headers) as client:
            while not self.halt.is_set():
                answer = client.post(f"/api/tables/{self.table_id}/bets",
                                     json={"bet": "banker", "amount_cents": 100},
                                     headers={"Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
                if answer.status_code == 201:
                    body = answer.json()
                    self.acknowledged.append(Acknowledged(
                        body["bet_id"], body["round_id"], self.table_id, self.name_, 100))  # fmt: skip
                self.halt.wait(0.05)


def admin_token(url: str, base: str) -> str:
    subprocess.run([sys.executable, "-m", "baccara", "user", "add", "boss", "--role", "admin"],
                   input=f"{PASSWORD}\n", text=True, env={**os.environ, "DATABASE_URL": url},
                   check=True, capture_output=True)  # fmt: skip
    answer = httpx.post(f"{base}/api/auth/login", json={"username": "boss", "password": PASSWORD})
    token: str = answer.json()["token"]
    return token


@pytest.mark.postgres
@pytest.mark.process
def test_two_processes_behind_nginx_deal_the_tables_it_routes_them_and_forward_nothing(
    postgres: Cluster, tmp_path: pathlib.Path
) -> None:
    url = postgres.new_database()
    ports, listen = [free_port(), free_port()], free_port()
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    one_log = tmp_path / "one.log"
    with serve(url, ports[0], *LEASE, *TIMERS, "--reveal-delay-ms", "0", "--upstream", "1/2",
               log=one_log):  # fmt: skip
        # Alone, the first process deals every table, those nginx routes to the second too.
        wait_for(lambda: holders(url) and {a for a, _ in holders(url).values()} == {bases[0]},
                 timeout=30)  # fmt: skip
        admin = {"Authorization": f"Bearer {admin_token(url, bases[0])}"}
        for _ in range(3):
            opened = httpx.post(f"{bases[0]}/api/tables", headers=admin, json={
                "game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 100_000})  # fmt: skip
            assert opened.status_code == 201, opened.text
        wait_for(lambda: len(holders(url)) == len(open_table_ids(url)), timeout=30)
        tables = sorted(holders(url))
        electronic = electronic_punto_banco(bases[0])
        second = next(t for t in electronic if routed_to(t, 2) == 2)
        bettor = Bettor(bases[0], second)  # keeps a round of the second's table in play
        bettor.start()
        wait_for(lambda: len(bettor.acknowledged) >= 3, timeout=30)
        with (
            serve(url, ports[1], *LEASE, *TIMERS, "--reveal-delay-ms", "0", "--upstream", "2/2",
                  log=tmp_path / "two.log"),
            nginx(tmp_path, listen, *ports),
        ):  # fmt: skip
            # The second started: it is given back its tables, and deals them.
            def placed() -> bool:
                dealt = holders(url)
                return set(dealt) == set(tables) and all(
                    dealt[t][0] == bases[routed_to(t, 2) - 1] for t in tables
                )

            wait_for(placed, timeout=30)
            wait_for(lambda: len({a.round_id for a in bettor.acknowledged}) >= 3, timeout=30)
            bettor.halt.set()
            bettor.join(timeout=20)
            # The busy table changed hands at the end of a round, or between the bettor's
            # rounds if the second process came up just then ("handed over" either way);
            # every round it took a bet on was settled.
            assert f"table {second}: handed over" in one_log.read_text()
            check_records(bases[1], bettor.token, bettor.acknowledged)

            # Bets through nginx reach the process that deals their table: none is sent on.
            before = [forwarded(base, admin) for base in bases]
            front = f"http://127.0.0.1:{listen}"
            _, token = register(front, seat_at=())
            with httpx.Client(base_url=front, timeout=10,
                              headers={"Authorization": f"Bearer {token}"}) as player:  # fmt: skip
                for number, table_id in enumerate(electronic):
                    answer = player.post(f"/api/tables/{table_id}/bets",
                                         json={"bet": "player", "amount_cents": 100},
                                         headers={"Idempotency-Key": f"placed-{number}"})  # fmt: skip
                    assert answer.status_code == 201, answer.text
            assert {routed_to(t, 2) for t in electronic} == {1, 2}  # both took bets
            assert [forwarded(base, admin) for base in bases] == before
            # Past nginx, straight to the process that does not deal the table: sent on.
            sent_on = httpx.post(f"{bases[0]}/api/tables/{second}/bets",
                                 headers={**bettor.headers, "Idempotency-Key": "sent-on"},
                                 json={"bet": "player", "amount_cents": 100})  # fmt: skip
            assert sent_on.status_code == 201, sent_on.text
            assert forwarded(bases[0], admin) == before[0] + 1

            # A table opened through the process nginx does not route it to is dealt by
            # the one it does from its first round (its lease's first generation).
            opened_ids: list[int] = []
            while not any(routed_to(t, 2) == 2 for t in opened_ids):
                opened = httpx.post(f"{bases[0]}/api/tables", headers=admin, json={
                    "game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 100_000})  # fmt: skip
                assert opened.status_code == 201, opened.text
                assert isinstance(opened.json()["round_id"], int)
                opened_ids.append(opened.json()["id"])
                assert len(opened_ids) < 20
            dealt = holders(url)
            for table_id in opened_ids:
                assert dealt[table_id] == (bases[routed_to(table_id, 2) - 1], 1)
    check_books(url)


def open_table_ids(url: str) -> set[int]:
    """The open tables."""
    with psycopg.connect(plain(url)) as db:
        return {row[0] for row in db.execute("SELECT id FROM casino_tables WHERE status = 'open'")}


def electronic_punto_banco(base: str) -> list[int]:
    tables = httpx.get(f"{base}/api/tables", timeout=10).json()
    return [t["id"] for t in tables if t["game"] == "punto-banco" and t["mode"] != "live"]


def test_what_a_misconfigured_casino_logs() -> None:
    assert misplaced(TWO, [ONE]) == []
    assert misplaced(None, []) == []
    assert "none: start each with --upstream" in misplaced(None, [ONE])[0]
    assert "also says it is server 2/2" in misplaced(TWO, [ONE, TWO])[0]
    assert "another counts 3" in misplaced(TWO, [Upstream(1, 3)])[0]


# --- one process in this test, another pretended -------------------------------------------


@pytest.mark.postgres
def test_a_table_routed_elsewhere_changes_hands_at_the_end_of_its_round_and_stays_if_not(
    postgres: Cluster,
) -> None:
    """This process is server 2 of 2; table 1 (Punto Banco) is routed to server 1, which
    a row of ``nodes`` pretends is alive. Table 1 is handed over once its round with a
    bet is over, its bet settled; taken back once server 1 is gone; and kept, its flag
    cleared, when server 1 goes before its round ends."""
    assert routed_to(1, 2) == 1
    settings = settings_for(postgres.new_database(), upstream="2/2", betting_seconds=1.0)
    app = create_app(settings)
    other = Holder("the-other-process", "http://127.0.0.1:9")
    with TestClient(app) as client:
        casino = app.state.casino
        cluster = casino.cluster

        def other_alive(alive: bool) -> None:
            with casino.db.write() as session:
                if alive:
                    leases.heartbeat(session, other, casino.clock(), cluster.seconds,
                                     upstream="1/2")  # fmt: skip
                else:
                    leases.forget(session, other)

        wait_for(lambda: 1 in casino.tables, timeout=20)  # alone, it deals every table
        token = sign_up(client, "routedplayer")
        headers = {"Authorization": f"Bearer {token}"}

        def bet(key: str) -> dict[str, Any]:
            answer = client.post("/api/tables/1/bets", headers={**headers, "Idempotency-Key": key},
                                 json={"bet": "player", "amount_cents": 100})  # fmt: skip
            assert answer.status_code == 201, answer.text
            placed: dict[str, Any] = answer.json()
            return placed

        first = bet("routed-1")
        other_alive(True)
        client.portal.call(cluster.cycle)
        assert casino.tables[1].give_back  # a bet in its round: it stays until the round ends
        wait_for(lambda: 1 not in casino.tables, timeout=20)
        with casino.db.read() as session:
            assert leases.holder(session, 1, casino.clock()) is None  # released, for server 1
        assert client.get(f"/api/rounds/{first['round_id']}", headers=headers).json()[
            "state"] == "settled"  # fmt: skip

        other_alive(False)  # server 1 never took it, and is gone: taken back
        client.portal.call(cluster.cycle)
        assert 1 in casino.tables and not casino.tables[1].give_back

        second = bet("routed-2")
        other_alive(True)
        client.portal.call(cluster.cycle)
        assert casino.tables[1].give_back
        other_alive(False)
        client.portal.call(cluster.cycle)
        assert not casino.tables[1].give_back  # cleared: server 1 stopped meanwhile
        live = casino.tables[1]
        wait_for(lambda: live.round_id != second["round_id"], timeout=20)  # the next round
        assert casino.tables.get(1) is live  # opened here
