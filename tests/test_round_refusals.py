"""The round's refusals that name amounts: each says them as money and gives them as numbers.

A person reads "the total on Banker would be 10,100.00", never "1010000 cents"; a client
reads the same figures from the error's ``params``, every amount in integer cents, and
words them itself. Whatever the refusal, nothing changes.
"""

from __future__ import annotations

import re

import pytest

from baccara.errors import BaccaraError, InvalidBet, InvalidOption
from baccara.money import format_cents, money_text
from baccara.randomness import SeededRandom
from baccara.render.stakes import won_text
from baccara.sim.sessions import SessionPlan
from baccara.table import (
    LeavesTooLittle,
    OffStep,
    OverLimit,
    Round,
    Table,
    TableConfig,
    TooManyBets,
    UnderLimit,
)

RAW_CENTS = re.compile(r"\d+ cents")


def _table(game: str = "punto-banco", **settings: object) -> tuple[Table, Round]:
    config = TableConfig(game, min_bet_cents=500, max_bet_cents=1_000_000, **settings)  # type: ignore[arg-type]
    table = Table(config)
    return table, table.open_round(0.0, source=SeededRandom(1))


def _refused(kind: type[BaccaraError], action: object, *args: object) -> BaccaraError:
    with pytest.raises(kind) as caught:
        action(*args)  # type: ignore[operator]
    assert not RAW_CENTS.search(str(caught.value)), str(caught.value)
    return caught.value


def test_money_reads_with_thousands_separators() -> None:
    assert money_text(101_000_000) == "1,010,000.00" and money_text(-5) == "-0.05"
    assert format_cents(101_000_000) == "1010000.00"  # the plain form files and options keep


def test_a_total_over_the_maximum_is_named_in_money_by_the_spot_s_name() -> None:
    table, round_ = _table()
    table.place_bet("a", "ann", "banker-pair", 1_000_000, 1.0)
    error = _refused(OverLimit, table.place_bet, "b", "ann", "banker-pair", 20_000, 2.0)
    assert str(error) == (
        "the total on Banker Pair would be 10,200.00; this table takes 5.00 to 10,000.00 a spot"
    )
    assert error.params == {"spot": "banker-pair", "total_cents": 1_020_000, "min_cents": 500,
                            "max_cents": 1_000_000}  # fmt: skip
    assert isinstance(error, InvalidBet) and round_.totals("ann") == {"banker-pair": 1_000_000}


def test_a_total_under_the_minimum_is_its_own_refusal() -> None:
    table, round_ = _table()
    error = _refused(UnderLimit, table.place_bet, "a", "ann", "tie", 200, 1.0)
    assert str(error) == "the total on Tie would be 2.00; this table takes 5.00 to 10,000.00 a spot"
    assert error.params is not None and error.params["total_cents"] == 200
    assert round_.totals("ann") == {} and not round_.can_place_bet("a", "ann", None, "tie", 200)


def test_taking_back_a_bet_names_what_would_be_left_and_the_minimum() -> None:
    table, round_ = _table()
    table.place_bet("a", "ann", "player", 500, 1.0)
    table.place_bet("b", "ann", "player", 300, 2.0)
    error = _refused(LeavesTooLittle, round_.remove_bet, "a", "ann", 3.0)
    assert str(error) == "that would leave 3.00 on Player, under the table minimum of 5.00"
    assert error.params == {"spot": "player", "left_cents": 300, "min_cents": 500}
    assert round_.totals("ann") == {"player": 800}


def test_a_stake_off_the_step_names_the_step_and_the_stakes_on_either_side() -> None:
    table, _ = _table(bet_step_cents=20)
    error = _refused(OffStep, table.place_bet, "a", "ann", "banker", 123_450, 1.0)
    assert str(error) == (
        "a stake of 1,234.50 is not a multiple of this table's bet step, 0.20: bet 1,234.40"
        " or 1,234.60"
    )
    assert error.params == {"amount_cents": 123_450, "step_cents": 20, "lower_cents": 123_440,
                            "higher_cents": 123_460}  # fmt: skip


def test_a_redgreen_spot_and_the_bet_cap_give_their_figures() -> None:
    table, round_ = _table("redgreen", max_bets_per_player=1)
    table.sit("ann", 1)
    error = _refused(UnderLimit, table.place_bet, "a", "ann", "bonus", 100, 1.0)
    assert str(error).startswith("the total on Bonus would be 1.00;")
    table.place_bet("b", "ann", "red", 500, 1.0)
    cap = _refused(TooManyBets, table.place_bet, "c", "ann", "green", 500, 2.0)
    assert cap.params == {"cap": 1} and round_.totals("ann") == {"red": 500}


def test_the_text_outputs_write_big_amounts_with_separators() -> None:
    with pytest.raises(InvalidOption) as short:
        SessionPlan(stake=250_000, bankroll=199_999, hands=10, sessions=10)
    assert str(short.value) == "bankroll: 1,999.99 does not cover one stake of 2,500.00"
    assert (won_text(123_456_789), won_text(-250_000), won_text(0)) == (
        "+1,234,567.89", "-2,500.00", "0.00"
    )  # fmt: skip
