"""Nobody can grief a table: a player the table stood up does not take the seat back at once.

On a one-seat table a squatter who was stood up sat again the moment the ``stood-up``
event reached them, so an honest player asking for the seat every 250 ms never got it.
The table makes a player it stood up wait :data:`STOOD_UP_SECONDS` before sitting there
again (:meth:`Table.verify_sit`); others may take the seat meanwhile, and a player who
left on their own waits for nothing.
"""

from __future__ import annotations

import pytest

from baccara.table import Table, TableConfig
from baccara.table.config import Mode
from baccara.table.events import StoodUp
from baccara.table.table import IDLE_ROUND_SECONDS, SAT_OUT_ROUNDS, STOOD_UP_SECONDS, SeatError


def squatted_table() -> tuple[Table, float]:
    """A live table whose one player never bet, stood up for the rounds they sat out; and
    when."""
    table = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=10_000,
                              mode=Mode.LIVE))  # fmt: skip
    table.sit("squat3", now=0.0)
    table.open_round(0.0)
    stood_at = SAT_OUT_ROUNDS * IDLE_ROUND_SECONDS
    stood = table.stand_up_idle(stood_at)
    assert [(e.player, e.reason) for e in stood if isinstance(e, StoodUp)] == [
        ("squat3", "sat-out")]  # fmt: skip
    assert table.seats == {}
    return table, stood_at


def test_a_stood_up_player_may_not_sit_again_at_once() -> None:
    table, stood_at = squatted_table()
    with pytest.raises(SeatError, match=r"stood squat3 up: sit here again in 60 s"):
        table.sit("squat3", now=stood_at)
    with pytest.raises(SeatError, match=r"in 1 s"):
        table.sit("squat3", 1, now=stood_at + STOOD_UP_SECONDS - 0.5)
    assert table.seats == {}  # each refusal changed nothing
    assert not table.can_sit("squat3")  # with no time given, the wait is not over


def test_the_seat_goes_to_someone_else_meanwhile() -> None:
    table, stood_at = squatted_table()
    assert table.sit("honest", now=stood_at + 0.25) == 1
    assert table.seats == {1: "honest"}


def test_after_the_wait_the_player_sits_again_and_is_forgotten() -> None:
    table, stood_at = squatted_table()
    assert table.sit("squat3", now=stood_at + STOOD_UP_SECONDS) == 1
    assert "squat3" not in table.stood_up
    table.leave("squat3")
    assert table.sit("squat3", now=stood_at + STOOD_UP_SECONDS + 1) == 1  # left: no wait


def test_a_player_who_left_on_their_own_sits_again_at_once() -> None:
    table = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=10_000))
    table.sit("ann", now=0.0)
    table.leave("ann")
    assert table.sit("ann", now=0.0) == 1


def test_the_waits_over_are_forgotten_when_anyone_sits() -> None:
    table, stood_at = squatted_table()
    table.sit("later", now=stood_at + STOOD_UP_SECONDS)
    assert table.stood_up == {}
