"""Faults under load: the server killed at random moments, its database connections cut
mid-transaction, clients vanishing mid-round, and a graceful stop with rounds in flight.

Players bet from threads at four tables of four games, each bet with its own
Idempotency-Key, retried with the same key until the server answers (as a client
should across a crash). Afterwards, once play has stopped and the rounds in flight are
over, :func:`~tests.server.books.check_rounds` checks that every bet the server
acknowledged is on its round's record, every round is settled or voided and refunded,
no bet is paid twice, no balance is negative and the money adds up to the cent. The
moments of the faults come from a seeded generator, so a failure can be replayed.
"""

from __future__ import annotations

import base64
import collections
import json
import os
import pathlib
import random
import signal
import socket
import struct
import threading
import time
import uuid
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy.exc import OperationalError

from tests.server.books import OVER, Acknowledged, check_rounds
from tests.server.conftest import settings_for
from tests.server.harness import (
    PASSWORD,
    Server,
    free_port,
    receive,
    running,
    serve,
    ticket_for,
    wait_for,
)
from tests.server.postgres import Cluster

SEED = 20_250_611
TIMERS = ("--betting-seconds", "1", "--peek-seconds", "1", "--choose-seconds", "1",
          "--reveal-delay-ms", "60")  # fmt: skip
SPOTS = {1: ("banker", "player", "tie"), 2: ("red", "green", "bonus"), 3: ("red", "green"),
         4: ("main", "lo-card", "hi-card")}  # fmt: skip
"""The electronic tables of the default casino, one per game, and bets each takes."""
SEATED = (2, 3, 4)
"""Tables whose games seat their bettors."""
AMOUNTS = (100, 250, 500, 1000)
ASGI_ERROR = "Exception in ASGI application"
"""What uvicorn logs for a request the application let fail: an answer that is no JSON."""


class Load:
    """Players betting from threads until stopped; each bet is retried with its key (on a
    lost connection or a 503) until the server answers it. With several server processes
    (``base`` a list), player i starts on process i mod n and moves to the next one when
    the connection fails, as a load balancer sends a client elsewhere."""

    def __init__(self, base: str | list[str], players: list[tuple[str, str]], seed: int) -> None:
        self.bases = [base] if isinstance(base, str) else base
        self.players = players
        self.seed = seed
        self.acknowledged: list[Acknowledged] = []
        self.statuses: collections.Counter[int] = collections.Counter()
        self.unavailable: list[str] = []
        self.failures: list[str] = []
        self._lock = threading.Lock()
        self._acknowledged = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._where: dict[int, int] = {}
        """Which process each player's bets go to now."""
        self._threads = [
            threading.Thread(target=self._play, args=(i, name, token), daemon=True)
            for i, (name, token) in enumerate(players)
        ]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def await_bets(self, more: int, timeout: float = 60.0) -> None:
        """Until ``more`` bets beyond those acknowledged so far are acknowledged: play has
        gone on for that long (a moment measured in bets, however loaded the machine)."""
        with self._acknowledged:
            target = len(self.acknowledged) + more
            went_on = self._acknowledged.wait_for(
                lambda: len(self.acknowledged) >= target, timeout=timeout
            )
        assert went_on, f"{len(self.acknowledged)} bets acknowledged, not {target}: play stopped"

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=30)
            assert not thread.is_alive()

    def _play(self, index: int, name: str, token: str) -> None:
        rng = random.Random(self.seed * 100 + index)
        headers = {"Authorization": f"Bearer {token}"}
        self._where[index] = index % len(self.bases)
        with httpx.Client(headers=headers, timeout=15) as client:
            for n in range(10**9):
                if self._stop.is_set():
                    return
                table = rng.choice(list(SPOTS))
                spot, amount = rng.choice(SPOTS[table]), rng.choice(AMOUNTS)
                body = {"bet": spot, "amount_cents": amount}
                key = f"{name}-{n}"
                answer = self._send(client, index, f"/api/tables/{table}/bets", body, key)
                if answer is None:
                    return
                with self._lock:
                    self.statuses[answer.status_code] += 1
                    if answer.status_code == 201:
                        got = answer.json()
                        self.acknowledged.append(Acknowledged(
                            got["bet_id"], got["round_id"], table, name, amount))  # fmt: skip
                        self._acknowledged.notify_all()
                    elif answer.status_code >= 500 or "error" not in answer.json():
                        self.failures.append(f"{answer.status_code} {answer.text}")
                self._stop.wait(rng.uniform(0, 0.03))  # a player's pause between bets
        raise AssertionError("unreachable")

    def _send(self, client: httpx.Client, index: int, path: str, body: dict[str, Any],
              key: str) -> httpx.Response | None:  # fmt: skip
        """The answer to this bet, asked again with the same key until there is one."""
        while True:
            base = self.bases[self._where[index]]
            try:
                answer = client.post(base + path, json=body, headers={"Idempotency-Key": key})
            except httpx.TransportError:  # the server is down, or dropped the connection
                if self._stop.is_set():
                    return None
                self._where[index] = (self._where[index] + 1) % len(self.bases)
                self._stop.wait(0.05)  # a client tries again a moment later, as clients do
                continue
            if answer.status_code != 503:
                return answer
            with self._lock:
                self.unavailable.append(answer.text)
            assert answer.headers["content-type"] == "application/json", answer.text
            assert answer.json()["error"] in ("unavailable", "table_moving"), answer.text
            self._stop.wait(0.05)  # told to try again: a moment later, as clients do


def register(base: str, seat_at: tuple[int, ...] = SEATED) -> tuple[str, str]:
    name = f"p{uuid.uuid4().hex[:10]}"
    made = httpx.post(f"{base}/api/auth/register", json={"username": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    token = httpx.post(f"{base}/api/auth/login",
                       json={"username": name, "password": PASSWORD}).json()["token"]  # fmt: skip
    for table in seat_at:
        for _ in range(
            100
        ):  # a table changing hands says "try again": a moment later, as clients do
            seated = httpx.post(f"{base}/api/tables/{table}/seat", json={},
                                headers={"Authorization": f"Bearer {token}"})  # fmt: skip
            if seated.status_code != 503 or seated.json()["error"] != "table_moving":
                break
            time.sleep(0.05)
        assert seated.status_code == 200, seated.text
    return name, token


def check_records(base: str, token: str, acknowledged: list[Acknowledged]) -> None:
    """Through the API: every acknowledged bet is on its round's record, which is over."""
    by_round = collections.defaultdict(list)
    for ack in acknowledged:
        by_round[ack.round_id].append(ack)
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}) as client:

        def over(round_id: int) -> dict[str, Any] | None:
            record: dict[str, Any] = client.get(f"/api/rounds/{round_id}").json()
            return record if record["state"] in OVER else None

        for round_id, acks in sorted(by_round.items()):
            record = wait_for(lambda r=round_id: over(r), timeout=30, every=0.1)
            on_record = {b["bet_id"]: b for b in record["bets"]}
            for ack in acks:
                bet = on_record.get(ack.bet_id)
                assert bet is not None, f"{ack} is not on round {round_id}'s record"
                assert (bet["username"], bet["amount_cents"]) == (ack.username, ack.amount_cents)
                assert bet["payout_cents"] is not None, bet


def test_killed_at_random_moments_under_load_loses_nothing(
    database_url: str, tmp_path: pathlib.Path
) -> None:
    rng = random.Random(SEED)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    kills = 3
    load: Load | None = None
    players: list[tuple[str, str]] = []
    for life in range(kills + 1):
        with serve(database_url, port, *TIMERS, log=log) as process:
            if load is None:
                players = [register(base) for _ in range(6)]
                load = Load(base, players, SEED)
                load.start()
            if life < kills:
                # Killed after a random number of this life's bets: bets, deals and
                # payouts under way at the four tables.
                load.await_bets(rng.randint(3, 60))
                process.send_signal(signal.SIGKILL)
                process.wait(timeout=30)
                continue
            load.await_bets(20)  # the casino takes bets after its last restart
            load.stop()
            check_records(base, players[0][1], load.acknowledged)
    assert load is not None
    assert load.failures == [] and load.unavailable == []
    counts = check_rounds(database_url, load.acknowledged, complete=True)
    assert counts["acknowledged"] >= 30, (counts, load.statuses)
    assert counts["voided"] >= 1, counts  # a kill caught some round open for bets
    assert ASGI_ERROR not in log.read_text(errors="replace")


def terminate_backends(url: str) -> int:
    """Cut every other connection to the casino's database, as an administrator (or a
    failover) would: ``pg_terminate_backend``. How many were cut."""
    plain = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        cut = connection.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    return int(cut[0]) if cut else 0


def test_database_connections_cut_mid_transaction(
    postgres: Cluster, tmp_path: pathlib.Path
) -> None:
    """PostgreSQL's backends terminated while bets flow: a request caught mid-transaction
    gets a 503 with a JSON body (and the client retries with its key); the pool opens
    new connections; nothing is lost or paid twice."""
    rng = random.Random(SEED)
    url = postgres.new_database()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    with serve(url, port, *TIMERS, log=log):
        players = [register(base) for _ in range(6)]
        load = Load(base, players, SEED)
        load.start()
        cut = 0
        for _ in range(6):
            load.await_bets(rng.randint(2, 20))  # a random moment of play, counted in bets
            cut += terminate_backends(url)
        load.await_bets(10)  # the casino goes on after the last cut
        load.stop()
        check_records(base, players[0][1], load.acknowledged)
        assert httpx.get(f"{base}/api/health").status_code == 200
    assert cut >= 6, cut
    assert load.failures == [], load.failures
    counts = check_rounds(url, load.acknowledged, complete=True)
    assert counts["acknowledged"] >= 30, (counts, load.statuses)
    assert ASGI_ERROR not in log.read_text(errors="replace")


# --- clients that vanish -------------------------------------------------------------------


def abort(sock: socket.socket) -> None:
    """Close a socket abruptly: a TCP reset, no goodbye of any protocol."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def port_of(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1])


def raw_websocket(
    port: int, table_id: int, token: str, receive_buffer: int | None = None
) -> socket.socket:
    """A WebSocket to a table, opened by hand so that the test can drop it mid-frame (or,
    with a small ``receive_buffer``, leave it unread and soon full)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:  # before connecting: the window offered is this small
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET /ws/tables/{table_id}?ticket={ticket_for(f'http://127.0.0.1:{port}', token)}"
        f" HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def raw_bet(port: int, token: str, table_id: int, bet: dict[str, Any],
            key: str) -> socket.socket:  # fmt: skip
    """A bet sent over a bare socket whose answer the test need never read."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    body = json.dumps(bet).encode()
    sock.sendall(
        f"POST /api/tables/{table_id}/bets HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {token}\r\nIdempotency-Key: {key}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    return sock


@pytest.mark.process  # a real uvicorn on a port, whose connections the test cuts
def test_clients_that_vanish_mid_round_are_paid_and_disturb_nobody(sqlite_url: str) -> None:
    """Bettors drop their HTTP connections (one before the answer could come, one after
    the bet was taken) and their WebSockets (mid-frame, while the cards are turned);
    the round settles, each is paid in their wallet, and the player who stayed sees
    every event of the round."""
    with running(settings_for(sqlite_url, reveal_delay_ms=150, betting_seconds=3.0)) as server:
        casino = server.casino
        carol, ann, bob, dan = (server.player() for _ in range(4))
        spectators = [server.player() for _ in range(4)]
        with server.ws(1, carol.token) as watching:
            assert receive(watching)["type"] == "snapshot"
            dropped = [raw_websocket(port_of(server), 1, p.token) for p in (ann, *spectators)]
            wait_for(lambda: len(casino.hub.at(1)) == 6)
            assert ann.bet(1, "banker", 1000).status_code == 201
            assert carol.bet(1, "player", 2000).status_code == 201
            round_id = ann.round_of(1)["id"]
            # Bob's connection is reset right after his bet is sent: taken or not, his
            # retry with the same key places it once.
            abort(
                raw_bet(port_of(server), bob.token, 1, {"bet": "tie", "amount_cents": 500}, "bob-1")
            )
            retried = bob.bet(1, "tie", 500, key="bob-1")
            assert retried.status_code == 201, retried.text
            # Dan's is reset after the bet was taken, the answer unread: it stands.
            sock = raw_bet(
                port_of(server), dan.token, 1, {"bet": "player", "amount_cents": 700}, "dan-1"
            )
            wait_for(lambda: dan.balance() == 100_000 - 700)
            abort(sock)
            # Betting closes by its timer; the WebSockets go while the cards are turned,
            # ann's after half a frame.
            wait_for(lambda: ann.round_of(1)["state"] == "revealing")
            for sock in dropped:
                sock.recv(3)
                abort(sock)
            seen: list[dict[str, Any]] = []
            balance = None
            while balance is None:
                message = receive(watching)
                if message["type"] == "events" and message["round_id"] == round_id:
                    seen += message["events"]
                elif message["type"] == "balance" and any(  # after the payout, not the stake
                    e["kind"] == "round-settled" for e in seen
                ):
                    balance = message["balance_cents"]
        record = wait_for(
            lambda: (
                (r := ann.http.get(f"/api/rounds/{round_id}").json())["state"] == "settled" and r
            )
        )
        assert [e["seq"] for e in seen] == [e["seq"] for e in record["events"]][-len(seen) :]
        assert seen[-1]["kind"] == "round-settled"
        paid = {b["username"]: b for b in record["bets"]}
        assert set(paid) == {carol.name, ann.name, bob.name, dan.name}
        for player in (carol, ann, bob, dan):
            bet = paid[player.name]
            assert player.balance() == 100_000 - bet["amount_cents"] + bet["payout_cents"]
        assert balance == carol.balance()
        wait_for(lambda: len(casino.hub.at(1)) == 0)  # every dropped socket let go of
        wait_for(lambda: casino.sessions.connected_users == {})
    counts = check_rounds(sqlite_url, [])
    assert counts["bets"] == 4


# --- a graceful stop -----------------------------------------------------------------------


@pytest.mark.process  # a real uvicorn on a port, whose connections the test cuts
def test_a_graceful_stop_just_after_play_is_prompt(sqlite_url: str) -> None:
    """Stopping wakes the scheduler (the rounds open for bets are voided) just as it is
    cancelled: the stop must not wait for it forever."""
    with running(settings_for(sqlite_url)) as server:
        ann = server.player()
        assert ann.bet(1, "banker", 1000).status_code == 201
        round_id = ann.round_of(1)["id"]
        wait_for(lambda: ann.http.get(f"/api/rounds/{round_id}").json()["state"] == "settled")
        started = time.monotonic()
    assert time.monotonic() - started < 5
    assert check_rounds(sqlite_url, [])["voided"] == 6  # the next rounds, opened and voided


def test_sigterm_finishes_rounds_dealt_and_voids_rounds_open_for_bets(
    database_url: str, tmp_path: pathlib.Path
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    flags = ("--reveal-delay-ms", "700", "--betting-seconds", "600")
    log = tmp_path / "server.log"
    with serve(database_url, port, *flags, log=log) as process:
        (ann, ann_token), (bob, bob_token) = register(base, (1,)), register(base, (2,))
        ann_http = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {ann_token}"})
        bob_http = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {bob_token}"})
        acks = []
        for who, http, table, spot, cents in ((ann, ann_http, 1, "banker", 2000),
                                              (bob, bob_http, 2, "red", 5000)):  # fmt: skip
            answer = http.post(f"/api/tables/{table}/bets", json={"bet": spot,
                               "amount_cents": cents}, headers={"Idempotency-Key": who})  # fmt: skip
            assert answer.status_code == 201, answer.text
            acks.append(Acknowledged(answer.json()["bet_id"], answer.json()["round_id"], table,
                                     who, cents))  # fmt: skip
        dealt, betting = acks[0].round_id, acks[1].round_id
        ann_http.post("/api/tables/1/deal")
        record = ann_http.get(f"/api/rounds/{dealt}").json()
        assert record["state"] == "revealing" and len(record["cards"]["player"]) == 1
        ws = raw_websocket(port, 1, ann_token)
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        took = time.monotonic() - started
        ws.close()
        for http in (ann_http, bob_http):
            http.close()
    assert took < 15, took  # the reveal's few cards, 0.7 s apart, and no more
    counts = check_rounds(database_url, acks, complete=True)
    # Table 1's round settled; bob's and the empty rounds of tables 3 to 6 voided; none opened.
    assert (counts["rounds"], counts["voided"]) == (6, 5), counts
    with serve(database_url, port, *flags, log=log):
        ann_http = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {ann_token}"})
        bob_http = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {bob_token}"})
        with ann_http, bob_http:
            settled = ann_http.get(f"/api/rounds/{dealt}").json()
            assert settled["state"] == "settled"
            assert settled["result"]["winner"] in ("banker", "player", "tie")
            voided = bob_http.get(f"/api/rounds/{betting}").json()
            assert voided["state"] == "voided" and "shut down" in voided["result"]["voided"]
            assert bob_http.get("/api/me").json()["balance_cents"] == 100_000
            payout = settled["bets"][0]["payout_cents"]
            assert ann_http.get("/api/me").json()["balance_cents"] == 100_000 - 2000 + payout
    after = check_rounds(database_url, acks, complete=True)
    assert (after["rounds"], after["voided"]) == (12, 5), after  # nothing to recover: new rounds
    assert ASGI_ERROR not in log.read_text(errors="replace")


def test_a_request_whose_database_connection_is_lost_gets_a_503_in_json(
    sqlite_server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = sqlite_server.player()

    def lost(user_id: int) -> int:
        raise OperationalError("SELECT", {}, Exception("server closed the connection"))

    monkeypatch.setattr(sqlite_server.casino, "balance", lost)
    answer = ann.http.get("/api/me")
    assert answer.status_code == 503, answer.text
    assert answer.headers["retry-after"] == "1"
    assert answer.json()["error"] == "unavailable"
    monkeypatch.undo()
    assert ann.http.get("/api/me").json()["balance_cents"] == 100_000
