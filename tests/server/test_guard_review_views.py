"""What a dealer sees is their own tables', and a void stands nobody up.

A dealer an admin has not assigned to a live table is a player there as far as its
cards go: the face-down cards another dealer dealt, and the staff's names, are not
theirs to read, on the table's WebSocket nor in ``GET /api/rounds/{id}``, and a dealer
taken off a table stops reading them. A round
voided while others played stands up none of the players seated at it.
"""

from __future__ import annotations

import contextlib
import pathlib
import uuid
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from baccara.table.table import IDLE_ROUND_SECONDS
from tests.helpers import run
from tests.server.harness import (
    PASSWORD,
    Player,
    Server,
    SocketClosed,
    drain,
    receive,
    ticket_for,
)
from tests.server.postgres import Cluster
from tests.server.test_scaleout import TIMERS, two_servers

PUNTO = 1
"""The default electronic Punto Banco table."""
RED = ["9S", "2H", "KD"]
GREEN = ["3C", "4D", "5S"]


def dealer_elsewhere(server: Server) -> Player:
    """A dealer on the casino's roster whom no admin has assigned to any table."""
    name = f"d{uuid.uuid4().hex[:10]}"
    server.casino.register(name, PASSWORD, "dealer")
    return server.sign_in(name)


def dealt(events: list[dict[str, Any]]) -> list[Any]:
    return [e["item"] for e in events if e["kind"] == "card-dealt"]


def test_an_unassigned_dealer_sees_no_face_down_card(sqlite_server: Server) -> None:
    server = sqlite_server
    admin, ann = server.player(role="admin"), server.player()
    table_id = admin.http.post("/api/tables", json={"game": "redgreen", "min_bet_cents": 100,
                               "max_bet_cents": 10_000, "mode": "live"}).json()["id"]  # fmt: skip
    dealer = server.player(role="dealer")
    server.assign(dealer, table_id)
    other = dealer_elsewhere(server)
    assert ann.sit(table_id).status_code == 200
    round_id = ann.http.get(f"/api/tables/{table_id}").json()["round_id"]
    with server.ws(table_id, other.token) as watching:
        assert receive(watching)["type"] == "snapshot"
        assert ann.bet(table_id, "red", 1000).status_code == 201
        refused = other.http.post(f"/api/tables/{table_id}/close-betting")
        assert refused.status_code == 403 and refused.json()["error"] == "not_assigned"
        assert dealer.http.post(f"/api/tables/{table_id}/close-betting").status_code == 200
        entered = dealer.http.post(f"/api/tables/{table_id}/cards", json={"cards": RED + GREEN})
        assert entered.status_code == 200, entered.text
        sent = [e for m in drain(watching) if m["type"] == "events" for e in m["events"]]
    assert len(dealt(sent)) == 6 and dealt(sent) == [None] * 6
    assert {e["by"] for e in sent if e["kind"] == "betting-closed"} == {"staff"}
    with server.ws(table_id, other.token) as late:
        snapshot = receive(late)
    assert dealt(snapshot["round"]["events"]) == [None] * 6
    record = other.http.get(f"/api/rounds/{round_id}").json()
    assert dealt(record["events"]) == [None] * 6
    assert record["cards"] == {"red": [], "green": []}
    assert {e["by"] for e in record["events"] if e["kind"] == "card-dealt"} == {"staff"}
    own = dealer.http.get(f"/api/rounds/{round_id}").json()  # the table's own dealer does
    assert dealt(own["events"]) == RED + GREEN
    with server.ws(table_id, dealer.token) as dealing:
        assert dealt(receive(dealing)["round"]["events"]) == RED + GREEN


def test_a_voided_round_stands_up_nobody(sqlite_server: Server) -> None:
    """Both players bet on a round; the next one a player bets on a minute later is
    voided. Neither is stood up as the round after it opens, nor a minute on: the voided
    round counted for nobody, and the rounds nobody played count from its end."""
    server = sqlite_server
    admin, ann, bob = server.player(role="admin"), server.player(), server.player()
    assert ann.sit(PUNTO).status_code == 200
    assert bob.sit(PUNTO).status_code == 200
    with contextlib.ExitStack() as pages:
        for player in (ann, bob):
            pages.enter_context(server.ws(PUNTO, player.token))
        for player in (ann, bob):
            assert player.bet(PUNTO, "banker", 1000).status_code == 201
        server.advance(server.settings.betting_seconds)  # both bet: settled, nobody sat out
        voided = ann.http.get(f"/api/tables/{PUNTO}").json()["round_id"]
        server.advance(IDLE_ROUND_SECONDS - 1)
        assert ann.bet(PUNTO, "banker", 1000).status_code == 201
        answer = admin.http.post(f"/api/rounds/{voided}/void", json={"reason": "wrong limits"})
        assert answer.json() == {"state": "voided"}
        server.advance(IDLE_ROUND_SECONDS + 2)  # one round nobody played since the void
        seats = ann.http.get(f"/api/tables/{PUNTO}").json()["seated"]
        assert seats == {"1": ann.name, "2": bob.name}
        stood = [e for e in ann.http.get(f"/api/rounds/{voided}").json()["events"]
                 if e["kind"] == "stood-up"]  # fmt: skip
        assert stood == []


def test_a_dealer_taken_off_a_table_reads_its_face_down_cards_no_more(
    sqlite_server: Server,
) -> None:
    """The dealer's open socket at the table closes (1012, to reopen) when an admin takes
    the table from their assignment; reopened, it is shown what a player is."""
    server = sqlite_server
    admin, ann = server.player(role="admin"), server.player()
    table_id = admin.http.post("/api/tables", json={"game": "redgreen", "min_bet_cents": 100,
                               "max_bet_cents": 10_000, "mode": "live"}).json()["id"]  # fmt: skip
    dealer = dealer_elsewhere(server)
    server.assign(dealer, table_id)
    assert ann.sit(table_id).status_code == 200
    assert ann.bet(table_id, "red", 1000).status_code == 201
    assert dealer.http.post(f"/api/tables/{table_id}/close-betting").status_code == 200
    cards = dealer.http.post(f"/api/tables/{table_id}/cards", json={"cards": RED + GREEN})
    assert cards.status_code == 200
    path = f"/api/admin/dealers/{dealer.name}/tables"
    with server.ws(table_id, dealer.token) as dealing, server.ws(PUNTO, dealer.token) as other:
        assert dealt(receive(dealing)["round"]["events"]) == RED + GREEN
        receive(other)
        moved = admin.http.put(path, json={"tables": [], "reason": "moved to the floor"})
        assert moved.status_code == 200 and moved.json()["tables"] == []
        with pytest.raises(SocketClosed) as closed:
            for _ in range(100):
                receive(dealing)
        assert closed.value.code == 1012
        other.send("ping")
        assert receive(other) == {"type": "pong"}  # a socket the change is nothing to stays
    with server.ws(table_id, dealer.token) as again:
        assert dealt(receive(again)["round"]["events"]) == [None] * 6


def test_a_dealer_taken_off_a_table_in_one_process_is_closed_in_the_other(
    postgres: Cluster, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes: the admin changes the dealer's tables at one, and the dealer's socket
    at the table, open at the other, closes (1012) to be decided again."""
    url = postgres.new_database()
    with two_servers(url, tmp_path, *TIMERS) as (bases, _):
        monkeypatch.setenv("DATABASE_URL", url)
        names = {role: f"{role[0]}{uuid.uuid4().hex[:10]}" for role in ("admin", "dealer")}
        for role, name in names.items():
            assert run("user", "add", name, "--role", role, stdin=f"{PASSWORD}\n").returncode == 0
        tokens = {role: httpx.post(f"{bases[0]}/api/auth/login", json={
            "username": name, "password": PASSWORD}).json()["token"] for role, name in names.items()}  # fmt: skip
        admin = {"Authorization": f"Bearer {tokens['admin']}"}
        live = next(t["id"] for t in httpx.get(f"{bases[0]}/api/tables").json()
                    if t["mode"] == "live")  # fmt: skip
        path = f"{bases[0]}/api/admin/dealers/{names['dealer']}/tables"
        assigned = httpx.put(path, headers=admin, json={"tables": [live], "reason": "shift"})
        assert assigned.status_code == 200, assigned.text
        ticket = ticket_for(bases[1], tokens["dealer"])
        with connect(f"ws://{bases[1][7:]}/ws/tables/{live}?ticket={ticket}") as socket:
            assert receive(socket)["type"] == "snapshot"
            moved = httpx.put(path, headers=admin, json={"tables": [], "reason": "floor"})
            assert moved.status_code == 200
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(100):
                    receive(socket, timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
