"""The lobby's one WebSocket (``/ws/lobby``): a snapshot of every open table, then what
changes — rounds' states and countdowns, results, seats, watchers, tables closed — and
never a card of a round in play, a bet, a peek or a balance."""

from __future__ import annotations

import contextlib
import json
import pathlib
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from baccara.server.cluster.hub import UNSUPPORTED
from baccara.server.domain import lobby as feed
from tests.server.harness import InProcessSocket, Server, SocketClosed, ticket_for, wait_for
from tests.server.harness import receive as read
from tests.server.postgres import Cluster
from tests.server.test_faults import register
from tests.server.test_rounds import settle
from tests.server.test_scaleout import holders, two_servers

ROUND_KEYS = {"id", "nonce", "state", "deadline"}
TABLE_KEYS = {"id", "game", "name", "mode", "options", "rule_set", "sidebets", "seats", "seated",
              "min_bet_cents", "max_bet_cents", "bet_step_cents", "bets", "shoe", "squeeze",
              "timers", "round", "watching"}  # fmt: skip
"""What the lobby says of a table: the lobby's own facts, never a card, bet or balance."""


@contextlib.contextmanager
def lobby(server: Server, query: str = "") -> Iterator[InProcessSocket]:
    assert server.loop is not None
    with InProcessSocket(server.loop, server.app, f"/ws/lobby{query}") as socket:
        yield socket


def receive(socket: InProcessSocket, timeout: float = 5.0) -> dict[str, Any]:
    text = socket.recv(timeout)
    assert isinstance(text, str)
    message: dict[str, Any] = json.loads(text)
    return message


def until(socket: InProcessSocket, wanted: Callable[[dict[str, Any]], bool],
          seen: list[dict[str, Any]] | None = None, seconds: float = 10.0) -> dict[str, Any]:  # fmt: skip
    """The first lobby change for which ``wanted`` holds of one of its tables (each message
    read on the way is kept in ``seen``)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        message = receive(socket, max(0.1, end - time.monotonic()))
        if seen is not None:
            seen.append(message)
        if message["type"] == "lobby-changes":
            for table in message["tables"]:
                if wanted(table):
                    return dict(table)
    raise AssertionError("the lobby did not tell the change")


def nothing_hidden(message: dict[str, Any]) -> None:
    """A lobby message holds only the lobby's facts: a round in play by its state and
    deadline, the results of rounds over only."""
    for table in message.get("tables", []):
        assert set(table) - {"recent", "rounds"} == TABLE_KEYS, set(table) ^ TABLE_KEYS
        if table["round"] is not None:
            assert set(table["round"]) == ROUND_KEYS
        for row in table.get("recent", []) + table.get("rounds", []):
            assert set(row) == {"round_id", "nonce", "state", "result"}
            assert row["state"] in ("settled", "voided")
    text = json.dumps(message)
    for private in ("amount_cents", "balance", 'server_seed"', "bet_id", "client_seed"):
        assert private not in text, private


def test_the_snapshot_has_every_open_table(sqlite_server: Server) -> None:
    listed = {t["id"]: t for t in sqlite_server.client().get("/api/tables").json()}
    with lobby(sqlite_server) as socket:
        snapshot = receive(socket)
    assert snapshot["type"] == "lobby"
    assert abs(snapshot["now"] - sqlite_server.casino.clock()) < 5
    tables = {t["id"]: t for t in snapshot["tables"]}
    assert set(tables) == set(listed)
    for table_id, table in tables.items():
        nothing_hidden(snapshot)
        for key in ("game", "name", "mode", "seats", "min_bet_cents", "max_bet_cents"):
            assert table[key] == listed[table_id][key], key
        assert table["round"]["state"] == "betting"
        assert table["round"]["deadline"] is None  # no bet yet: the timer has not started
        assert table["watching"] == 0
        assert table["recent"] == []


def test_the_first_player_seated_starts_the_countdown_and_a_result_arrives(
    sqlite_server: Server,
) -> None:
    server = sqlite_server
    player = server.player()
    with lobby(server) as socket:
        first = {t["id"]: t for t in receive(socket)["tables"]}[1]
        assert first["round"]["deadline"] is None  # nobody seated: the round waits for a player
        assert player.sit(1).status_code == 200
        counting = until(socket, lambda t: t["id"] == 1 and t["round"]["deadline"] is not None)
        assert list(counting["seated"].values()) == [player.name]
        assert counting["round"]["id"] == first["round"]["id"]
        betting = server.settings.betting_seconds
        assert counting["round"]["deadline"] == pytest.approx(server.casino.clock() + betting)
        assert player.bet(1, "banker", 1000).status_code == 201
        seen: list[dict[str, Any]] = []
        settle([player], 1, first["round"]["id"])
        after = until(socket, lambda t: t["id"] == 1 and "rounds" in t, seen)
    for message in seen:
        nothing_hidden(message)
    (row,) = after["rounds"]
    assert row["round_id"] == first["round"]["id"] and row["state"] == "settled"
    stored = player.http.get("/api/tables/1/rounds?limit=1").json()
    assert row == stored[0]  # as the roads' own source gives it
    assert after["round"]["state"] == "betting"
    assert after["round"]["nonce"] == first["round"]["nonce"] + 1


def test_watchers_are_the_table_sockets_open_at_a_table(sqlite_server: Server) -> None:
    server = sqlite_server
    ann, bob = server.player(), server.player()
    with lobby(server) as socket:
        receive(socket)
        with server.ws(2, ann.token), server.ws(2, bob.token):
            two = until(socket, lambda t: t["id"] == 2 and t["watching"] == 2)
            assert two["watching"] == 2
        none = until(socket, lambda t: t["id"] == 2 and t["watching"] == 0)
        assert none["watching"] == 0


def test_a_table_closed_leaves_the_lobby(sqlite_server: Server) -> None:
    server = sqlite_server
    admin = server.player(role="admin")
    with lobby(server) as socket:
        receive(socket)
        assert admin.http.delete("/api/tables/3").status_code == 204
        end = time.monotonic() + 10
        while time.monotonic() < end:
            message = receive(socket)
            if message["type"] == "lobby-changes" and message["closed"]:
                break
        assert message["closed"] == [3]
    with lobby(server) as again:
        assert 3 not in {t["id"] for t in receive(again)["tables"]}


def test_changes_come_at_most_a_few_times_a_second(sqlite_server: Server) -> None:
    """Many bets in a moment make one or two lobby messages, not one a bet."""
    server = sqlite_server
    players = [server.player() for _ in range(4)]
    with lobby(server) as socket:
        receive(socket)
        started = time.monotonic()
        for player in players:
            assert player.sit(2).status_code == 200
            assert player.bet(2, "red", 100).status_code == 201
            assert player.bet(2, "green", 100).status_code == 201
        until(socket, lambda t: t["id"] == 2 and t["round"]["deadline"] is not None)
        changes = 1
        with contextlib.suppress(TimeoutError):
            while True:
                if receive(socket, 1.0)["type"] == "lobby-changes":
                    changes += 1
        elapsed = time.monotonic() - started
    assert changes <= elapsed / feed.LOBBY_INTERVAL + 1


def test_bad_input_gets_a_clear_error_and_changes_nothing(sqlite_server: Server) -> None:
    server = sqlite_server
    with lobby(server) as socket:
        snapshot = receive(socket)
        socket.send("deal")
        error = receive(socket)
        assert error == {"type": "error", "code": "unknown_message", "detail": error["detail"]}
        assert '"ping"' in error["detail"]
        socket.send("ping")
        assert receive(socket) == {"type": "pong"}  # still open, still answering
        with pytest.raises(TimeoutError):  # and nothing changed at any table
            receive(socket, 1.5)
    with lobby(server) as again:
        assert [t["round"] for t in receive(again)["tables"]] == [
            t["round"] for t in snapshot["tables"]
        ]


def test_a_binary_frame_closes_the_socket(sqlite_server: Server) -> None:
    with lobby(sqlite_server) as socket:
        receive(socket)
        assert socket.inbox is not None
        socket.loop.soon(socket.inbox.put_nowait, {"type": "websocket.receive", "bytes": b"\x00"})
        with pytest.raises(SocketClosed) as closed:
            while True:
                receive(socket)
    assert closed.value.code == UNSUPPORTED


def test_a_token_in_the_url_is_refused(sqlite_server: Server) -> None:
    player = sqlite_server.player()
    with pytest.raises(SocketClosed) as refused, lobby(sqlite_server, f"?token={player.token}"):
        pass
    assert refused.value.code == 4401


def test_a_round_in_play_shows_no_card(sqlite_server: Server) -> None:
    """A RedGreen round with a peek: the lobby says "peek" and its deadline, never the
    peeker's cards, while the table's own socket shows the peeker what they peek at."""
    server = sqlite_server
    player = server.player()
    round_id = player.http.get("/api/tables/2").json()["round_id"]
    with lobby(server) as socket:
        receive(socket)
        assert player.sit(2).status_code == 200
        assert player.bet(2, "red", 5000).status_code == 201
        player.http.post("/api/tables/2/deal")
        server.idle()
        seen: list[dict[str, Any]] = []
        state = player.http.get(f"/api/rounds/{round_id}").json()["state"]
        assert state == "peek"  # the highest bettor may peek at RedGreen
        shown = until(socket, lambda t: t["id"] == 2 and t["round"]["state"] == "peek", seen)
        assert shown["round"]["deadline"] == pytest.approx(
            server.casino.clock() + server.settings.peek_seconds
        )
        server.play_out()
        until(socket, lambda t: t["id"] == 2 and "rounds" in t, seen)
    for message in seen:
        nothing_hidden(message)


def test_two_processes_tell_one_lobby_of_each_others_tables(
    postgres: Cluster, tmp_path: pathlib.Path
) -> None:
    """A lobby socket on one process shows a table the other deals: its watchers (the
    table sockets open on the other process) and its round's countdown once a bet starts
    it, both learnt from the notification bus."""
    url = postgres.new_database()
    with two_servers(url, tmp_path) as (bases, _):
        here, there = bases
        table_id = min(t for t, (address, _) in holders(url).items()
                       if address == there and t != 5)  # fmt: skip
        with connect(f"{here.replace('http', 'ws')}/ws/lobby", open_timeout=10) as lobby_ws:
            snapshot = read(lobby_ws)
            assert table_id in {t["id"] for t in snapshot["tables"]}
            name, token = register(there, seat_at=(table_id,))
            url_there = f"{there.replace('http', 'ws')}/ws/tables/{table_id}"
            with connect(f"{url_there}?ticket={ticket_for(there, token)}", open_timeout=10):
                watched = wait_for(
                    lambda: _change(lobby_ws, table_id, lambda t: t["watching"] == 1)
                )
                assert watched["seated"] and name in watched["seated"].values()
                bet = {"bet": GAME_BETS[watched["game"]], "amount_cents": 100}
                placed = httpx.post(f"{here}/api/tables/{table_id}/bets", json=bet, headers={
                    "Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
                assert placed.status_code == 201, placed.text
                counting = wait_for(lambda: _change(
                    lobby_ws, table_id, lambda t: t["round"]["deadline"] is not None))  # fmt: skip
                assert counting["round"]["state"] == "betting"
            left = wait_for(lambda: _change(lobby_ws, table_id, lambda t: t["watching"] == 0))
            assert left["watching"] == 0


GAME_BETS = {"punto-banco": "banker", "redgreen": "red", "redgreen-mini": "red", "lo-ball": "main"}


def _change(socket: Any, table_id: int, wanted: Callable[[dict[str, Any]], bool]) -> Any:
    """The table as the next lobby change tells it, if ``wanted`` holds of it."""
    try:
        message = read(socket, timeout=1.0)
    except TimeoutError:
        return None
    for table in message.get("tables", []) if message["type"] == "lobby-changes" else []:
        if table["id"] == table_id and wanted(table):
            return table
    return None
