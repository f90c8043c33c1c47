"""Integer cents and the one rounding rule (down, in the house's favour; RULES-NOTES)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from baccara.errors import InvalidBet, InvalidOption
from baccara.money import (
    MAX_BANKROLL_CENTS,
    MAX_STAKE_CENTS,
    BetResult,
    format_cents,
    parse_amount,
    payout,
    settle,
    validate_stake,
)


@pytest.mark.parametrize(
    ("stake", "odds", "expected"),
    [
        (25, Fraction(19, 20), 23),  # 23.75 rounds down
        (100, Fraction(19, 20), 95),
        (5, Fraction(3, 2), 7),  # 7.5 rounds down
        (1, Fraction(19, 20), 0),
        (1000, Fraction(8), 8000),
    ],
)
def test_payout_rounds_down_to_the_cent(stake: int, odds: Fraction, expected: int) -> None:
    assert payout(stake, odds) == expected


def test_settlement_conserves_money() -> None:
    for result in BetResult:
        s = settle(2500, result, Fraction(19, 20))
        assert s.returned - s.stake == s.won
    assert settle(2500, BetResult.WIN, Fraction(19, 20)).returned == 4875
    assert settle(2500, BetResult.PUSH, Fraction(19, 20)).returned == 2500
    assert settle(2500, BetResult.LOSE, Fraction(19, 20)).returned == 0


def test_bonus_paid_on_a_losing_hand() -> None:
    """Lo-Ball's Play-bonus: the wager loses but 2:1 is paid on it, net +1 unit."""
    s = settle(1000, BetResult.LOSE, Fraction(1), bonus=Fraction(2))
    assert s.won == 1000 and s.returned == 2000


@pytest.mark.parametrize("stake", [0, -5, 2.5, "100", None, True, MAX_STAKE_CENTS + 1])
def test_bad_stakes_are_refused(stake: object) -> None:
    with pytest.raises(InvalidBet):
        validate_stake(stake)


def test_amount_parsing() -> None:
    assert parse_amount("12.50") == 1250
    assert parse_amount("3") == 300
    assert parse_amount("1e2") == 10_000
    assert parse_amount(str(MAX_STAKE_CENTS / 100)) == MAX_STAKE_CENTS
    for bad in ["12.505", "abc", "nan", "inf", "", "0", "-5", "1e999999999", "1000000.01"]:
        with pytest.raises(InvalidOption):
            parse_amount(bad, "stake")
    assert format_cents(-1250) == "-12.50"


def test_an_amount_is_refused_as_typed() -> None:
    """``100.0001`` is not echoed back as the fraction it was read as (issue 15)."""
    with pytest.raises(
        InvalidOption, match=r"stake: must be between 0\.01 and 1000000\.00, got -5$"
    ):
        parse_amount("-5", "stake")
    with pytest.raises(InvalidOption, match=r"at most 2 decimal places, got '100\.0001'$"):
        parse_amount("100.0001", "stake")


def test_the_largest_bankroll_fits_the_session_kernels() -> None:
    """The worst session — largest stake, largest pay, longest night — stays inside int64."""
    from baccara.games.paytable import MAX_PAY
    from baccara.sim.sessions import INT64_LIMIT, MAX_HANDS

    assert MAX_BANKROLL_CENTS + MAX_HANDS * MAX_STAKE_CENTS * MAX_PAY < INT64_LIMIT
