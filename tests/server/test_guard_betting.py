"""Betting windows through the API, on the test's clock: one player cannot cut a round's
betting short for everyone else, repeat a "deal" or a peek into the round's log, or
swell a round with bets.

The attack this answers: a seated player who bet 1.00 and called "deal" as each round
opened closed betting before anyone else could bet — a victim placed 2 of 50 bets.
Now betting stays open for the table's minimum window (5 s from the first bet) unless
everyone at the table is ready, and once the victim has a bet the round waits for them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from baccara.server.clock import ManualClock
from baccara.table.config import MAX_BETS_PER_PLAYER, MIN_BETTING_SECONDS
from tests.server.conftest import settings_for
from tests.server.harness import Player, Server, in_process

PUNTO_BANCO, REDGREEN = 1, 2
"""The default electronic tables: Punto Banco in steps of 0.20, RedGreen."""


@pytest.fixture
def casino(sqlite_url: str, clock: ManualClock) -> Iterator[Server]:
    """A casino whose betting timer is the server's default, 15 s: longer than the window."""
    with in_process(settings_for(sqlite_url, betting_seconds=15.0), clock) as started:
        yield started


def _round_id(player: Player, table_id: int) -> int:
    return int(player.http.get(f"/api/tables/{table_id}").json()["round_id"])


def _events(player: Player, round_id: int, kind: str) -> list[dict[str, Any]]:
    events = player.http.get(f"/api/rounds/{round_id}").json()["events"]
    return [event for event in events if event["kind"] == kind]


def _deal(player: Player, table_id: int) -> str:
    answer = player.http.post(f"/api/tables/{table_id}/deal")
    assert answer.status_code == 200, answer.text
    return str(answer.json()["state"])


def test_a_players_deal_as_the_round_opens_leaves_the_victim_the_whole_window(
    casino: Server,
) -> None:
    mallory, victim = casino.player(), casino.player()
    assert mallory.sit(PUNTO_BANCO).status_code == 200
    assert victim.sit(PUNTO_BANCO).status_code == 200
    for _ in range(5):
        round_id = _round_id(mallory, PUNTO_BANCO)
        assert mallory.bet(PUNTO_BANCO, "banker", 100).status_code == 201
        assert _deal(mallory, PUNTO_BANCO) == "betting"
        answers = []
        for _ in range(5):  # 4.5 s of the 5 s window, a bet every 0.9 s
            casino.advance(0.9)
            answers.append(victim.bet(PUNTO_BANCO, "player", 100).status_code)
        assert answers == [201] * 5
        assert _deal(victim, PUNTO_BANCO) != "betting"  # everyone is ready: dealt now
        casino.play_out()
        record = victim.http.get(f"/api/rounds/{round_id}").json()
        assert record["state"] == "settled"
        assert len(_events(victim, round_id, "bet-placed")) == 6


def test_the_window_then_closes_betting_when_only_the_ready_have_bets(casino: Server) -> None:
    mallory, idle = casino.player(), casino.player()
    mallory.sit(PUNTO_BANCO)
    idle.sit(PUNTO_BANCO)
    round_id = _round_id(mallory, PUNTO_BANCO)
    assert mallory.bet(PUNTO_BANCO, "banker", 100).status_code == 201
    assert _deal(mallory, PUNTO_BANCO) == "betting"
    casino.advance(MIN_BETTING_SECONDS - 0.1)
    assert mallory.http.get(f"/api/rounds/{round_id}").json()["state"] == "betting"
    casino.advance(0.1)
    (closed,) = _events(mallory, round_id, "betting-closed")
    assert closed["reason"] == "all-ready"
    assert closed["at"] - _events(mallory, round_id, "bet-placed")[0]["at"] == pytest.approx(
        MIN_BETTING_SECONDS
    )


def test_a_player_alone_at_the_table_is_dealt_at_once(casino: Server) -> None:
    ann = casino.player()
    ann.sit(PUNTO_BANCO)
    assert ann.bet(PUNTO_BANCO, "banker", 100).status_code == 201
    assert _deal(ann, PUNTO_BANCO) != "betting"


def test_a_second_deal_from_the_same_player_changes_nothing(casino: Server) -> None:
    ann, bob = casino.player(), casino.player()
    ann.sit(PUNTO_BANCO)
    bob.sit(PUNTO_BANCO)
    round_id = _round_id(ann, PUNTO_BANCO)
    ann.bet(PUNTO_BANCO, "banker", 100)
    bob.bet(PUNTO_BANCO, "player", 100)
    for _ in range(5):
        assert _deal(ann, PUNTO_BANCO) == "betting"
        casino.advance(1.0)  # past the window too: still only bob can close it now
    requested = _events(bob, round_id, "deal-requested")
    assert [event["player"] for event in requested] == [ann.name]
    assert _deal(bob, PUNTO_BANCO) != "betting"
    assert len(_events(bob, round_id, "deal-requested")) == 2


def test_a_second_peek_logs_nothing_and_shows_the_same_cards(casino: Server) -> None:
    ann = casino.player()
    ann.sit(REDGREEN)
    round_id = _round_id(ann, REDGREEN)
    assert ann.bet(REDGREEN, "red", 1000).status_code == 201
    assert _deal(ann, REDGREEN) == "peek"
    first = ann.http.get(f"/api/rounds/{round_id}/peek")
    again = ann.http.get(f"/api/rounds/{round_id}/peek")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() and len(first.json()["cards"]) == 3
    assert len(_events(ann, round_id, "peeked")) == 1
    assert ann.http.post(f"/api/rounds/{round_id}/peek/done").status_code == 200


def test_a_player_places_at_most_twenty_bets_a_round(casino: Server) -> None:
    ann, bob = casino.player(), casino.player()
    ann.sit(PUNTO_BANCO)
    keys = [uuid.uuid4().hex for _ in range(MAX_BETS_PER_PLAYER)]
    for key in keys:
        assert ann.bet(PUNTO_BANCO, "banker", 100, key).status_code == 201
    balance = ann.balance()
    refused = ann.bet(PUNTO_BANCO, "player", 100)
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"] == "too_many_bets"
    assert "at most 20 bets a player in one round" in refused.json()["detail"]
    assert ann.balance() == balance
    assert ann.bet(PUNTO_BANCO, "banker", 100, keys[0]).status_code == 201  # a retry: answered
    assert ann.balance() == balance
    assert bob.bet(PUNTO_BANCO, "banker", 100).status_code == 201  # the cap is each player's


def test_thousands_of_one_cent_add_ons_cannot_swell_a_round(casino: Server) -> None:
    """A table an admin opens to take any cent: the twenty-first chip is refused."""
    admin = casino.player(role="admin")
    made = admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 100,
                                                "max_bet_cents": 100_000, "bet_step_cents": 1})  # fmt: skip
    assert made.status_code == 201, made.text
    table_id = int(made.json()["id"])
    ann = casino.player()
    ann.sit(table_id)
    round_id = _round_id(ann, table_id)
    assert ann.bet(table_id, "banker", 100).status_code == 201
    answers = [ann.bet(table_id, "banker", 1).status_code for _ in range(40)]
    assert answers == [201] * (MAX_BETS_PER_PLAYER - 1) + [400] * (40 - MAX_BETS_PER_PLAYER + 1)
    assert len(_events(ann, round_id, "bet-placed")) == MAX_BETS_PER_PLAYER


def test_an_add_on_below_the_tables_step_is_refused(casino: Server) -> None:
    ann = casino.player()
    ann.sit(PUNTO_BANCO)
    assert ann.bet(PUNTO_BANCO, "banker", 100).status_code == 201
    refused = ann.bet(PUNTO_BANCO, "banker", 1)
    assert refused.status_code == 400 and refused.json()["error"] == "bet_step"


def test_a_bet_that_waited_for_the_table_past_its_timer_is_refused(casino: Server) -> None:
    """Under load the tick that closes betting queues for the table behind the requests
    already there. A bet or a take-back served after the countdown ran out is refused
    "no more bets" and moves nothing, and the round is dealt with the bets it had."""
    early, late = casino.player(), casino.player()
    early.sit(PUNTO_BANCO)
    late.sit(PUNTO_BANCO)
    round_id = _round_id(early, PUNTO_BANCO)
    placed = early.bet(PUNTO_BANCO, "banker", 100)
    assert placed.status_code == 201, placed.text
    before = early.balance(), late.balance()
    live = casino.casino.live(PUNTO_BANCO)
    loop, clock = casino.loop, casino.clock
    assert loop is not None and clock is not None
    loop.run(live.lock.acquire())  # the table busy, as with a queue of bets ahead
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        bet = pool.submit(late.bet, PUNTO_BANCO, "player", 100)
        take_back = pool.submit(
            early.http.delete, f"/api/tables/{PUNTO_BANCO}/bets/{placed.json()['bet_id']}"
        )
        waiting = loop.run(_waiters_at(live.lock, 2))
        assert waiting == 2
        clock.advance(15.0)  # the timer runs out while both wait: its tick queues behind
        loop.soon(live.lock.release)
        answers = [bet.result(30), take_back.result(30)]
    for answer in answers:
        assert answer.status_code == 409, answer.text
        assert answer.json()["error"] == "no_more_bets"
    casino.play_out()
    record = early.http.get(f"/api/rounds/{round_id}").json()
    assert record["state"] == "settled"
    assert [event["player"] for event in _events(early, round_id, "bet-placed")] == [early.name]
    assert late.balance() == before[1]
    returned = {"banker": 195, "tie": 100, "player": 0}[record["result"]["winner"]]
    assert early.balance() == before[0] + returned  # the bet stood: it was not taken back


async def _waiters_at(lock: asyncio.Lock, count: int) -> int:
    """How many requests wait for ``lock``, once ``count`` do (or after 10 s of waiting)."""
    for _ in range(1000):
        waiting = len(lock._waiters or ())
        if waiting >= count:
            return waiting
        await asyncio.sleep(0.01)
    return len(lock._waiters or ())
