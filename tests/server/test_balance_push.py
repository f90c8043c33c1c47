"""A player's new balance reaches every socket of theirs the moment a bet is taken or
taken back, at every table, in a signed-in lobby and on every process — and nobody
else's socket.

The header of each of a player's tabs shows their balance: without this, a second tab
showed the bet on the table but the balance from before it until the round paid.
"""

from __future__ import annotations

import pathlib
import uuid
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.harness import (
    InProcessSocket,
    Server,
    Socket,
    SocketClosed,
    drain,
    receive,
    ticket_for,
    wait_for,
)
from tests.server.postgres import Cluster
from tests.server.test_faults import register
from tests.server.test_scaleout import holders, two_servers


def balances(messages: list[dict[str, Any]]) -> list[int]:
    return [m["balance_cents"] for m in messages if m["type"] == "balance"]


def placed(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for m in messages if m["type"] == "events" for e in m["events"]
            if e["kind"] == "bet-placed"]  # fmt: skip


def test_a_bet_and_its_take_back_tell_every_socket_of_the_player_alone(server: Server) -> None:
    """Ann has two tabs at table 1 and one at table 2; Bob watches table 1. Ann's bet
    and her taking it back each reach all three of her sockets with her balance to the
    cent; Bob sees her bet on the table but never a balance (his or hers); a retried
    bet, which moves no money, tells nothing."""
    ann, bob = server.player(), server.player()
    start = ann.balance()
    with (
        server.ws(1, ann.token) as first,
        server.ws(1, ann.token) as second,
        server.ws(2, ann.token) as elsewhere,
        server.ws(1, bob.token) as bobs,
    ):
        sockets: list[Socket] = [first, second, elsewhere]
        for socket in [*sockets, bobs]:
            assert receive(socket)["type"] == "snapshot"
        key = uuid.uuid4().hex
        answer = ann.bet(1, "banker", 1260, key=key)
        assert answer.status_code == 201, answer.text
        assert answer.json()["balance_cents"] == start - 1260
        for socket in sockets:
            assert balances(drain(socket)) == [start - 1260]
        seen = drain(bobs)
        assert [e["player"] for e in placed(seen)] == [ann.name]
        assert balances(seen) == []

        assert ann.bet(1, "banker", 1260, key=key).status_code == 201  # a retry: placed once
        for socket in [*sockets, bobs]:
            assert balances(drain(socket)) == []

        bet_id = answer.json()["bet_id"]
        back = ann.http.delete(f"/api/tables/1/bets/{bet_id}")
        assert back.status_code == 200 and back.json() == {"balance_cents": start}
        for socket in sockets:
            assert balances(drain(socket)) == [start]
        assert balances(drain(bobs)) == []

        assert bob.bet(1, "player", 500).status_code == 201  # Bob's own bet: his alone
        assert balances(drain(bobs)) == [bob.balance()]
        for socket in sockets:
            assert balances(drain(socket)) == []
    assert ann.balance() == start


def test_the_balance_after_settlement_follows_the_stake_on_every_socket(server: Server) -> None:
    """After the stake's balance, the payout's: each of the player's sockets ends on the
    balance the wallet holds once the round is settled."""
    ann = server.player()
    start = ann.balance()
    with server.ws(1, ann.token) as first, server.ws(1, ann.token) as second:
        for socket in (first, second):
            assert receive(socket)["type"] == "snapshot"
        assert ann.bet(1, "player", 1000).status_code == 201
        for socket in (first, second):
            assert balances(drain(socket)) == [start - 1000]
        server.advance(1.0)  # the betting timer runs out: the round is dealt
        server.play_out()
        settled = ann.balance()
        for socket in (first, second):
            assert balances(drain(socket))[-1:] == [settled]


def test_a_bet_on_one_process_tells_the_players_socket_on_the_other(
    postgres: Cluster, tmp_path: pathlib.Path
) -> None:
    """The player bets through the process that deals the table; their tab connected to
    the other process gets the new balance over the bus, and a watcher there gets none."""
    url = postgres.new_database()
    with two_servers(url, tmp_path) as (bases, _):
        table = min(t for t, (address, _) in holders(url).items() if address == bases[0])
        _, token = register(bases[0], seat_at=())
        _, other = register(bases[1], seat_at=())
        with httpx.Client(base_url=bases[0], headers={"Authorization": f"Bearer {token}"}) as me:
            start = me.get("/api/me").json()["balance_cents"]
            spot = {"punto-banco": "banker", "redgreen": "red", "redgreen-mini": "red",
                    "lo-ball": "main"}[me.get(f"/api/tables/{table}").json()["game"]]  # fmt: skip
            assert me.post(f"/api/tables/{table}/seat", json={}).status_code == 200
            far = f"ws://{bases[1][7:]}/ws/tables/{table}"
            with (
                connect(f"{far}?ticket={ticket_for(bases[1], token)}") as mine,
                connect(f"{far}?ticket={ticket_for(bases[1], other)}") as theirs,
            ):
                assert receive(mine)["type"] == receive(theirs)["type"] == "snapshot"
                answer = me.post(f"/api/tables/{table}/bets",
                                 json={"bet": spot, "amount_cents": 700},
                                 headers={"Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
                assert answer.status_code == 201, answer.text
                told = wait_for(lambda: balances([receive(mine)]), timeout=20, every=0)
                assert told == [start - 700]
                events = wait_for(lambda: placed([receive(theirs)]), timeout=20, every=0)
                assert events[0]["amount_cents"] == 700
                assert balances(drain(theirs)) == []


def test_a_signed_in_lobby_socket_is_told_its_players_balance_alone(server: Server) -> None:
    """Ann's lobby tab, opened with a ticket, gets her balance after the lobby's snapshot
    and each new one as she bets and takes the bet back; Bob's signed-in lobby and a
    signed-out visitor's get none of hers; a ticket refused closes the socket (4401)."""
    assert server.loop is not None
    ann, bob = server.player(), server.player()
    start = ann.balance()

    def lobby(query: str = "") -> InProcessSocket:
        assert server.loop is not None
        return InProcessSocket(server.loop, server.app, f"/ws/lobby{query}")

    with (
        lobby(f"?ticket={server.ticket(ann.token)}") as anns,
        lobby(f"?ticket={server.ticket(bob.token)}") as bobs,
        lobby() as visitor,
    ):
        assert receive(anns)["type"] == "lobby"
        assert receive(anns) == {"type": "balance", "balance_cents": start}
        assert receive(bobs)["type"] == "lobby"
        assert receive(bobs) == {"type": "balance", "balance_cents": bob.balance()}
        assert receive(visitor)["type"] == "lobby"
        answer = ann.bet(1, "banker", 1000)
        assert answer.status_code == 201, answer.text
        assert balances(drain(anns)) == [start - 1000]
        back = ann.http.delete(f"/api/tables/1/bets/{answer.json()['bet_id']}")
        assert back.status_code == 200
        assert balances(drain(anns)) == [start]
        assert balances(drain(bobs)) == [] and balances(drain(visitor)) == []
    with pytest.raises(SocketClosed) as refused, lobby("?ticket=forged.ticket") as forged:
        receive(forged)
    assert refused.value.code == 4401


def test_signing_out_closes_the_signed_in_lobby_socket(server: Server) -> None:
    ann = server.player()
    assert server.loop is not None
    path = f"/ws/lobby?ticket={server.ticket(ann.token)}"
    with InProcessSocket(server.loop, server.app, path) as socket:
        assert receive(socket)["type"] == "lobby"
        assert receive(socket)["type"] == "balance"
        assert ann.http.post("/api/auth/logout").status_code in (200, 204)
        with pytest.raises(SocketClosed) as closed:
            while True:
                receive(socket)
    assert closed.value.code == 4401
