"""Full rounds of every game through the HTTP API and the WebSocket, on SQLite and PostgreSQL.

Each round: several players sit and bet, ask to deal, the round settles, and each
player's balance equals their balance before it, less their stakes, plus what the
round record says each bet returned; the books balance after every round.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.books import check_books
from tests.server.harness import Player, Server, SocketClosed, receive

GAMES = {1: "punto-banco", 2: "redgreen", 3: "redgreen-mini", 4: "lo-ball"}
BETS = {
    "punto-banco": [("banker", 1000), ("player", 2500), ("tie", 500), ("player-pair", 200)],
    "redgreen": [("red", 1500), ("green", 1000), ("bonus", 300)],
    "redgreen-mini": [("green", 1500), ("red", 1000), ("bonus", 300)],
    "lo-ball": [("main", 1000), ("lo-card", 500), ("hi-card", 500), ("dice-lo", 700)],
}


def settle(players: list[Player], table_id: int, round_id: int) -> dict[str, Any]:
    """Everyone asks to deal; peek, choose and squeeze as the highest bettor; the round
    settles."""
    server = players[0].server
    for player in players:
        player.http.post(f"/api/tables/{table_id}/deal")
    for _ in range(4):  # dealt, then at most a peek, or a choice and a squeeze
        server.idle()
        data: dict[str, Any] = players[0].http.get(f"/api/rounds/{round_id}").json()
        if data["state"] == "settled":
            return data
        assert data["state"] in ("peek", "choosing", "squeeze"), data["state"]
        for player in players:
            if data["state"] == "peek":
                player.http.post(f"/api/rounds/{round_id}/peek/done")
            elif data["state"] == "squeeze":
                player.http.post(f"/api/tables/{table_id}/squeeze/done")
            else:
                player.http.post(f"/api/rounds/{round_id}/choose", json={"hand": "green"})
    raise AssertionError(f"round {round_id} did not settle")


@pytest.mark.parametrize("table_id", sorted(GAMES))
def test_a_full_round_with_several_players(server: Server, table_id: int) -> None:
    game = GAMES[table_id]
    players = [server.player() for _ in range(3)]
    before = {p.name: p.balance() for p in players}
    round_id = players[0].http.get(f"/api/tables/{table_id}").json()["round_id"]
    staked = {p.name: 0 for p in players}
    for player, (bet, cents) in zip(players * 2, BETS[game] * 2, strict=False):
        if (
            player.http.get(f"/api/tables/{table_id}").json()["seated"].get(str(player.name))
            is None
        ):
            player.sit(table_id)
        answer = player.bet(table_id, bet, cents)
        assert answer.status_code == 201, answer.text
        assert answer.json()["round_id"] == round_id
        staked[player.name] += cents
    settled = settle(players, table_id, round_id)
    assert settled["game"] == game and settled["server_seed"] is not None
    returned = {p.name: 0 for p in players}
    for bet in settled["bets"]:
        assert bet["payout_cents"] is not None and bet["payout_cents"] >= 0
        returned[bet["username"]] += bet["payout_cents"]
    for player in players:
        assert player.balance() == before[player.name] - staked[player.name] + returned[player.name]
    check_books(server.settings.database_url)
    assert players[0].http.get(f"/api/tables/{table_id}").json()["round_id"] != round_id


def test_the_round_record_verifies_and_hides_nothing_it_should_show(server: Server) -> None:
    from baccara.table.record import verify_record

    ann = server.player()
    ann.sit(2)
    round_id = ann.http.get("/api/tables/2").json()["round_id"]
    ann.bet(2, "red", 1000)
    during = ann.http.get(f"/api/rounds/{round_id}").json()
    assert during["server_seed"] is None and len(during["server_seed_hash"]) == 64
    settled = settle([ann], 2, round_id)
    assert len(settled["cards"]["red"]) == 3 and len(settled["cards"]["green"]) == 3
    assert settled["result"]["red"]["rule"] and settled["result"]["winner"] in (
        "red",
        "green",
        "push",
    )
    assert verify_record(settled).ok


def test_the_peek_is_the_highest_bettors_alone(server: Server) -> None:
    """RedGreen first version: the peek endpoint answers the highest bettor and 403s
    everyone else; the other player's WebSocket never carries the peeked cards."""
    high, low = server.player(), server.player()
    high.sit(2)
    low.sit(2)
    round_id = high.http.get("/api/tables/2").json()["round_id"]
    with server.ws(2, low.token) as socket:
        assert receive(socket)["type"] == "snapshot"
        low.bet(2, "red", 500)
        high.bet(2, "green", 5000)
        assert high.http.get(f"/api/rounds/{round_id}/peek").status_code == 409  # not yet
        low.http.post("/api/tables/2/deal")
        high.http.post("/api/tables/2/deal")
        server.idle()
        assert high.http.get(f"/api/rounds/{round_id}").json()["state"] == "peek"
        refused = low.http.get(f"/api/rounds/{round_id}/peek")
        assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
        peek = high.http.get(f"/api/rounds/{round_id}/peek")
        assert peek.status_code == 200 and peek.json()["hand"] == "green"
        cards = peek.json()["cards"]
        assert len(cards) == 3
        assert low.http.get(f"/api/rounds/{round_id}").json()["cards"]["green"] == []
        high.http.post(f"/api/rounds/{round_id}/peek/done")
        seen: list[dict[str, Any]] = []
        while not any(e["kind"] == "round-settled" for e in seen):
            message = receive(socket)
            seen += message.get("events", [])
    peeked = next(e for e in seen if e["kind"] == "peeked")
    assert peeked["player"] == high.name and peeked["cards"] is None
    hidden = [e for e in seen if e["kind"] == "card-dealt"]
    assert len(hidden) == 6 and all(e["item"] is None for e in hidden)


def test_the_mini_choice_is_the_highest_bettors_alone(server: Server) -> None:
    high, low = server.player(), server.player()
    high.sit(3)
    low.sit(3)
    round_id = high.http.get("/api/tables/3").json()["round_id"]
    high.bet(3, "red", 3000)
    low.bet(3, "green", 1000)
    high.http.post("/api/tables/3/deal")
    low.http.post("/api/tables/3/deal")
    server.idle()
    assert high.http.get(f"/api/rounds/{round_id}").json()["state"] == "choosing"
    refused = low.http.post(f"/api/rounds/{round_id}/choose", json={"hand": "green"})
    assert refused.status_code == 403
    bad = high.http.post(f"/api/rounds/{round_id}/choose", json={"hand": "blue"})
    assert bad.status_code == 422
    assert (
        high.http.post(f"/api/rounds/{round_id}/choose", json={"hand": "green"}).status_code == 200
    )
    server.idle()  # then Red, the hand set second, is the highest bettor's to squeeze
    assert high.http.get(f"/api/rounds/{round_id}").json()["state"] == "squeeze"
    assert low.http.post("/api/tables/3/squeeze/done").status_code == 403
    assert high.http.post("/api/tables/3/squeeze/done").status_code == 200
    server.idle()
    settled = high.http.get(f"/api/rounds/{round_id}").json()
    assert settled["state"] == "settled"
    assert settled["result"]["first_hand"] == "green"


def test_each_socket_sees_the_others_bets_and_its_own_balance(server: Server) -> None:
    ann, bob = server.player(), server.player()
    ann.sit(1)
    with server.ws(1, bob.token) as socket:
        snapshot = receive(socket)
        assert snapshot["type"] == "snapshot" and snapshot["balance_cents"] == bob.balance()
        assert snapshot["table"]["game"] == "punto-banco"
        assert snapshot["table"]["seated"] == {"1": ann.name}
        ann.bet(1, "tie", 700)
        message = receive(socket)
        placed = message["events"][0]
        assert (placed["kind"], placed["player"], placed["amount_cents"]) == (
            "bet-placed", ann.name, 700)  # fmt: skip
        bob.sit(1)
        assert receive(socket) == {"type": "seats", "seats": {"1": ann.name, "2": bob.name}}
        bob.bet(1, "banker", 1000)
        assert receive(socket)["events"][0]["player"] == bob.name


def test_a_socket_without_a_valid_token_is_refused(sqlite_server: Server) -> None:
    for token in ("", "forged.token", "x" * 300):
        with pytest.raises(SocketClosed) as refused, sqlite_server.ws(1, token) as ws:
            receive(ws, timeout=5)
        assert refused.value.code == 4401  # closed before it was accepted: unauthorized


def test_games_list_each_bets_exact_edge(sqlite_server: Server) -> None:
    """The rules pages' figures are baccara.analyze's, exact fraction and all."""
    from baccara import analyze

    games = sqlite_server.client().get("/api/games").json()
    assert [g["id"] for g in games] == ["punto-banco", "redgreen", "redgreen-mini", "lo-ball"]
    for game in games:
        for bet in game["bets"]:
            edge = analyze(game["id"]).bet(bet["bet"]).house_edge
            assert bet["house_edge_exact"] == f"{edge.numerator}/{edge.denominator}"


def test_a_tables_rules_are_its_own_with_their_exact_edges(sqlite_server: Server) -> None:
    """A one-deck table's rules page has the one-deck edges, and says what differs."""
    from baccara import analyze

    admin = sqlite_server.player(role="admin")
    made = admin.http.post("/api/tables", json={
        "game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 10_000,
        "options": {"decks": 1, "commission": 4}})  # fmt: skip
    table_id = made.json()["id"]
    anyone = sqlite_server.client()
    rules = anyone.get(f"/api/tables/{table_id}/rules").json()
    assert rules["id"] == "punto-banco" and rules["table"]["id"] == table_id
    assert rules["rules"] == {"decks": 1, "commission": 4, "tie_pays": 8, "pair_pays": 11,
                              "variant": "classic", "sidebets": []}  # fmt: skip
    assert rules["changed"] == ["decks", "commission"]
    for bet in rules["bets"]:
        edge = analyze("punto-banco", decks=1, commission=4).bet(bet["bet"]).house_edge
        assert bet["house_edge_exact"] == f"{edge.numerator}/{edge.denominator}"
    assert admin.http.delete(f"/api/tables/{table_id}").status_code == 204
    closed = anyone.get(f"/api/tables/{table_id}/rules").json()  # a closed table keeps them
    assert closed["table"]["status"] == "closed" and closed["bets"] == rules["bets"]
    assert anyone.get("/api/tables/1/rules").json()["changed"] == []
    assert anyone.get("/api/tables/9999/rules").status_code == 404


def test_the_default_tables_are_one_of_each_game_and_a_live_punto_banco(
    sqlite_server: Server,
) -> None:
    """Read from the registry: an electronic table per game in its order, then a live
    table of each game whose table facts ask for one, then EZ Baccarat."""
    tables = sqlite_server.client().get("/api/tables").json()
    assert [(t["id"], t["game"], t["mode"], t["min_bet_cents"], t["max_bet_cents"])
            for t in tables] == [
        (1, "punto-banco", "electronic", 100, 50_000),
        (2, "redgreen", "electronic", 100, 50_000),
        (3, "redgreen-mini", "electronic", 100, 50_000),
        (4, "lo-ball", "electronic", 100, 50_000),
        (5, "punto-banco", "live", 500, 100_000),
        (6, "punto-banco", "electronic", 100, 50_000),
    ]  # fmt: skip
    assert tables[-1]["options"] == {"variant": "ez"}


def test_a_rounds_cards_are_grouped_by_the_hands_of_its_game() -> None:
    """Punto Banco's and RedGreen's hands as their table facts name them, in that order
    even before a card is dealt; Lo-Ball's dealer, seats, exposed tiles and dice."""
    from baccara.server.domain.views import cards_json

    punto = cards_json("punto-banco", {"player.0": "9S", "banker.0": "2H", "player.1": "KD"})
    assert json.dumps(punto) == '{"player": ["9S", "KD"], "banker": ["2H"]}'
    for game in ("redgreen", "redgreen-mini"):
        assert json.dumps(cards_json(game, {"green.0": "AS"})) == '{"red": [], "green": ["AS"]}'
    lo_ball = cards_json(
        "lo-ball",
        {"dealer.0": "1-2", "seat3.0": "4-5", "seat3.1": "1-1", "exposed.0": "6-6", "dice.0": "3"},
    )
    assert json.dumps(lo_ball) == (
        '{"dealer": ["1-2"], "seats": {"3": ["4-5", "1-1"]}, "exposed": ["6-6"], "dice": [3]}'
    )


def test_a_tables_recent_rounds_give_the_roads_their_results(sqlite_server: Server) -> None:
    ann = sqlite_server.player()
    ann.sit(1)
    ids = []
    for _ in range(3):
        ids.append(ann.http.get("/api/tables/1").json()["round_id"])
        ann.bet(1, "player", 100)
        ann.http.post("/api/tables/1/deal")
        sqlite_server.idle()  # dealt and settled: the next round is open
    rounds = ann.http.get("/api/tables/1/rounds", params={"limit": 2}).json()
    assert [r["round_id"] for r in rounds] == ids[1:]
    assert all(r["result"]["winner"] in ("player", "banker", "tie") for r in rounds)
