"""Watching a table signed out: a table socket opened with no ticket is a watcher's.

- it gets the table and its round as everyone sees them, no balance and no one's own,
  then each event as a spectator sees it: never a face-down card, never the peeking
  bettor's hand;
- it is read-only: nothing it sends changes the table, and every action needs a sign-in;
- it counts among the table's watchers in the lobby;
- a table that never existed closes the socket 4404, one that has closed 4410, for a
  watcher and for a player alike;
- a watcher's connections count against their address's like anyone's (the guard rails').
"""

from __future__ import annotations

import base64
import contextlib
import os
import pathlib
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from baccara.server.http.api.watching import CLOSED_TABLE, UNKNOWN_TABLE
from baccara.server.http.transport import MAX_CONNECTIONS_PER_ADDRESS
from tests.server.harness import Server, SocketClosed, drain, free_port, receive, serve, wait_for
from tests.server.test_guard_tokens import socket_at

REDGREEN = 2
"""The default electronic RedGreen table, where the highest bettor peeks."""


def events_until_settled(watcher: Any) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    while not any(e["kind"] == "round-settled" for e in seen):
        message = receive(watcher)
        assert message["type"] != "balance", "a watcher has no balance"
        seen += message.get("events", [])
    return seen


def test_a_signed_out_socket_watches_the_table_as_everyone_sees_it(sqlite_server: Server) -> None:
    ann = sqlite_server.player("ann")
    ann.sit(1)
    with socket_at(sqlite_server, "/ws/tables/1") as watcher:
        snapshot = receive(watcher)
        assert snapshot["type"] == "snapshot"
        assert snapshot["table"]["id"] == 1 and snapshot["table"]["seated"] == {"1": "ann"}
        assert snapshot["balance_cents"] is None and snapshot["you"] is None
        assert snapshot["round"]["id"] == snapshot["table"]["round_id"]
        assert ann.bet(1, "banker", 500).status_code == 201
        placed = receive(watcher)
        assert placed["type"] == "events"
        (bet,) = placed["events"]
        assert bet["kind"] == "bet-placed" and bet["player"] == "ann"
        assert bet["amount_cents"] == 500 and not bet.get("client_seed")
        ann.http.post("/api/tables/1/deal")
        sqlite_server.play_out()
        seen = events_until_settled(watcher)
        dealt = [e for e in seen if e["kind"] == "card-dealt"]
        assert dealt and all(e["item"] is not None for e in dealt if e["face_up"])


def test_a_watcher_never_sees_the_peeking_bettors_hand(sqlite_server: Server) -> None:
    high, low = sqlite_server.player("high"), sqlite_server.player("low")
    high.sit(REDGREEN)
    low.sit(REDGREEN)
    round_id = high.http.get(f"/api/tables/{REDGREEN}").json()["round_id"]
    with socket_at(sqlite_server, f"/ws/tables/{REDGREEN}") as watcher:
        assert receive(watcher)["type"] == "snapshot"
        low.bet(REDGREEN, "red", 500)
        high.bet(REDGREEN, "green", 5000)
        low.http.post(f"/api/tables/{REDGREEN}/deal")
        high.http.post(f"/api/tables/{REDGREEN}/deal")
        sqlite_server.idle()
        peek = high.http.get(f"/api/rounds/{round_id}/peek")
        assert peek.status_code == 200 and len(peek.json()["cards"]) == 3
        while_peeking = [e for m in drain(watcher) for e in m.get("events", [])]
        peeked = next(e for e in while_peeking if e["kind"] == "peeked")
        assert peeked["player"] == "high" and peeked["cards"] is None
        face_down = [e for e in while_peeking if e["kind"] == "card-dealt"]
        assert len(face_down) == 6 and all(e["item"] is None for e in face_down)
        assert not [e for e in while_peeking if e["kind"] == "card-exposed"]
        with socket_at(sqlite_server, f"/ws/tables/{REDGREEN}") as late:  # mid-peek
            caught_up = receive(late)["round"]
            assert caught_up["state"] == "peek" and caught_up["cards"]["green"] == []
            assert not any(e.get("cards") for e in caught_up["events"])
            assert all(e["item"] is None for e in caught_up["events"] if e["kind"] == "card-dealt")
        high.http.post(f"/api/rounds/{round_id}/peek/done")
        seen = events_until_settled(watcher)
    assert [e for e in seen if e["kind"] == "card-exposed"]  # turned for everyone at last


def test_a_watcher_changes_nothing_and_may_not_act(sqlite_server: Server) -> None:
    anyone = sqlite_server.client()
    with socket_at(sqlite_server, "/ws/tables/1") as watcher:
        snapshot = receive(watcher)
        for said in ("bet banker 500", '{"bet": "banker", "amount_cents": 500}', "sit"):
            watcher.send(said)
        assert drain(watcher) == []  # nothing came of it: no event, no error
        asked = [anyone.post("/api/tables/1/seat", json={}),
                 anyone.post("/api/tables/1/bets", json={"bet": "banker", "amount_cents": 500},
                             headers={"Idempotency-Key": "a" * 32}),
                 anyone.post("/api/tables/1/deal")]  # fmt: skip
        assert [answer.status_code for answer in asked] == [401, 401, 401]
        assert drain(watcher) == []
    table = anyone.get("/api/tables/1").json()
    assert table["seated"] == {} and table["round_id"] == snapshot["table"]["round_id"]
    assert sqlite_server.casino.hub.held == {}  # a watcher holds no user's sockets


def _watching(lobby: Any, table_id: int, wanted: int) -> bool:
    """Whether the lobby's next message says ``wanted`` people watch the table."""
    try:
        message = receive(lobby, timeout=1.0)
    except TimeoutError:
        return False
    tables = message.get("tables", [])
    return any(t["id"] == table_id and t.get("watching") == wanted for t in tables)


def test_watchers_count_in_the_lobby(sqlite_server: Server) -> None:
    with (
        socket_at(sqlite_server, "/ws/tables/3") as one,
        socket_at(sqlite_server, "/ws/tables/3") as two,
    ):
        assert receive(one)["type"] == receive(two)["type"] == "snapshot"
        with socket_at(sqlite_server, "/ws/lobby") as lobby:
            snapshot = receive(lobby)
            assert snapshot["type"] == "lobby"
            watching = {t["id"]: t["watching"] for t in snapshot["tables"]}
            assert watching[3] == 2 and watching[1] == 0


@pytest.mark.parametrize("signed_in", [False, True], ids=["watcher", "player"])
def test_a_table_not_open_closes_the_socket_saying_which(
    sqlite_server: Server, signed_in: bool
) -> None:
    admin = sqlite_server.player("boss", role="admin")
    assert admin.http.delete("/api/tables/4").status_code == 204
    ann = sqlite_server.player("ann")

    def path(table_id: int) -> str:
        ticket = f"?ticket={sqlite_server.ticket(ann.token)}" if signed_in else ""
        return f"/ws/tables/{table_id}{ticket}"

    for table_id, code, said in ((99, UNKNOWN_TABLE, "no table 99"),
                                 (4, CLOSED_TABLE, "table 4 is closed")):  # fmt: skip
        with pytest.raises(SocketClosed) as refused, socket_at(sqlite_server, path(table_id)) as ws:
            receive(ws)  # accepted, so that a browser reads the code, and closed
        assert (refused.value.code, refused.value.reason) == (code, said)
    assert (UNKNOWN_TABLE, CLOSED_TABLE) == (4404, 4410)


def watcher_socket(port: int, table_id: int, source: str) -> socket.socket | None:
    """A signed-out WebSocket to a table from ``source``, its handshake answered; ``None``
    if the casino closed the connection instead."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    try:
        sock.sendall(
            f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(1)
            if not chunk:
                sock.close()
                return None
            head += chunk
    except (ConnectionResetError, BrokenPipeError):
        sock.close()
        return None
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


@contextlib.contextmanager
def closing_all(sockets: list[socket.socket]) -> Iterator[list[socket.socket]]:
    try:
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def test_a_watchers_connections_count_against_their_address(
    tmp_path: pathlib.Path, migrated_sqlite: pathlib.Path
) -> None:
    database = tmp_path / "casino.db"
    database.write_bytes(migrated_sqlite.read_bytes())
    port = free_port()
    with serve(f"sqlite:///{database}", port), closing_all([]) as held:
        for _ in range(MAX_CONNECTIONS_PER_ADDRESS):
            opened = watcher_socket(port, 1, "127.0.0.5")
            assert opened is not None
            held.append(opened)
        assert watcher_socket(port, 1, "127.0.0.5") is None  # one more: closed on accept
        other = watcher_socket(port, 1, "127.0.0.6")  # another address watches on
        assert other is not None
        held.append(other)
        held.pop(0).close()  # one closed: the address may open another
        again = wait_for(lambda: watcher_socket(port, 1, "127.0.0.5"))
        held.append(again)
