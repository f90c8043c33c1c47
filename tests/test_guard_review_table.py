"""A voided round counts for nobody at the table's watch on idle seats.

A round a member of staff voids was played by nobody: it must neither add to a seated
player's rounds sat out nor leave the count of rounds nobody played going on from the
settlement before it, which stood up everyone seated — those who bet on the voided
round included — as soon as the next round opened.
"""

from __future__ import annotations

import pytest

from baccara.table import Phase, Table, TableConfig
from baccara.table.config import Mode
from baccara.table.events import StoodUp
from baccara.table.round import RoundError
from baccara.table.table import IDLE_ROUND_SECONDS, SAT_OUT_ROUNDS
from baccara.table.view import Viewer, sees, view


def live_table() -> Table:
    table = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=10_000,
                              mode=Mode.LIVE))  # fmt: skip
    table.sit("ann", now=0.0)
    table.sit("bob", now=0.0)
    return table


def test_a_voided_round_restarts_the_count_of_rounds_nobody_played() -> None:
    table = live_table()
    round_ = table.open_round(0.0)
    table.place_bet("b1", "ann", "banker", 1000, now=1.0)
    round_.void("dealer", "misdeal", 200.0)
    assert round_.phase is Phase.VOIDED
    assert table.stand_up_idle(200.0) == []  # the void taken in: nobody stood up
    table.open_round(200.0)
    assert table.stand_up_idle(201.0) == []  # not three minutes sat out since the sitting
    assert table.seats == {1: "ann", 2: "bob"}
    assert [s.sat_out for s in table.sittings.values()] == [0, 0]
    assert table.stand_up_idle(200.0 + IDLE_ROUND_SECONDS) == []  # one round nobody played
    assert [s.sat_out for s in table.sittings.values()] == [1, 1]
    stood = table.stand_up_idle(200.0 + SAT_OUT_ROUNDS * IDLE_ROUND_SECONDS)
    assert [(e.player, e.reason) for e in stood if isinstance(e, StoodUp)] == [
        ("ann", "sat-out"), ("bob", "sat-out")]  # fmt: skip
    assert table.seats == {}


def test_a_voided_round_is_taken_in_once() -> None:
    table = live_table()
    round_ = table.open_round(0.0)
    round_.void("dealer", "misdeal", 30.0)
    assert table.stand_up_idle(30.0) == []
    assert table.stand_up_idle(500.0) == []  # still the voided round: nothing to count
    assert [s.sat_out for s in table.sittings.values()] == [0, 0]


def test_the_round_logs_a_stand_up_only_of_a_player_without_a_bet_in_play() -> None:
    table = live_table()
    round_ = table.open_round(0.0)
    table.place_bet("b1", "ann", "banker", 1000, now=1.0)
    assert not round_.can_stand_up("ann", 1, "sat-out")
    with pytest.raises(RoundError, match="has bets on this round"):
        round_.stand_up("ann", 1, "sat-out", 2.0)
    for bad in (("", 2, "away"), ("table", 2, "away"), ("bob", 0, "away"), ("bob", 2, "")):
        assert not round_.can_stand_up(*bad)
    events = round_.stand_up("bob", 2, "away", 3.0)
    assert [(e.kind, e.by, e.player, e.seat) for e in events if isinstance(e, StoodUp)] == [
        ("stood-up", "table", "bob", 2)]  # fmt: skip
    assert round_.events[-1] is events[0] and round_.phase is Phase.BETTING


def test_an_event_and_the_log_are_redacted_by_one_rule() -> None:
    """:func:`sees` (one event, as the hub sends it) and :func:`view` (the log, as a round
    record shows it) take the same things out: the client seed and a staff member's name."""
    table = live_table()
    round_ = table.open_round(0.0)
    table.place_bet("b1", "ann", "banker", 1000, now=1.0, client_seed="ann's own seed")
    round_.close_betting("lee", 2.0)
    round_.enter_card("lee", "9S", 3.0)
    for viewer in (Viewer("bob"), Viewer(None), Viewer("lee"), Viewer("bob", dealer=True)):
        one_by_one = [seen.to_dict() for e in round_.events if (seen := sees(round_, viewer, e))]
        for data in one_by_one:
            if data["kind"] == "bet-placed":
                assert data.pop("client_seed") is None
        assert one_by_one == view(round_, viewer)
    assert {e["by"] for e in view(round_, Viewer("bob"))} == {"table", "ann", "staff"}
    assert {e["by"] for e in view(round_, Viewer("lee"))} == {"table", "ann", "lee"}
