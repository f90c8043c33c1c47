"""Money: integer minor units (cents) and the one rounding rule.

Every amount is an ``int`` number of cents. A payout is ``stake × odds`` where the
odds are an exact :class:`~fractions.Fraction` "to 1" (19/20 for a Banker win less
5 % commission, 3/2 for a Lo-Ball Win-bonus). When that product is not a whole
number of cents it is rounded **down**, in the house's favour: 19:20 on a 25-cent
bet pays 23 cents, not 23.75. The rule is shown to players and applied nowhere else.

>>> payout(25, Fraction(19, 20))
23
>>> settle(1000, BetResult.WIN, Fraction(19, 20))
Settlement(stake=1000, result=<BetResult.WIN: 'win'>, won=950, returned=1950)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction

from baccara.errors import InvalidBet, InvalidOption, shown
from baccara.options import read_number, typed

__all__ = [
    "MAX_BANKROLL_CENTS",
    "MAX_STAKE_CENTS",
    "BetResult",
    "Fraction",
    "Settlement",
    "format_cents",
    "money_text",
    "parse_amount",
    "payout",
    "settle",
    "validate_stake",
]

MAX_STAKE_CENTS = 100_000_000
"""No single wager above one million in major units; tables set their own, lower limits."""

MAX_BANKROLL_CENTS = 100_000_000_000_000
"""No bankroll above one trillion in major units.

What the session kernels can hold: a bankroll moves in 64-bit cents, and the worst
night — the largest stake, at the largest pay any bet allows (10,000 to 1), every
hand of the longest session (10^6) — adds at most 10^18 cents to it, so the bankroll
stays below 2^63 ≈ 9.2 × 10^18 with room to spare.
"""


class BetResult(enum.Enum):
    """How a wager ends. Lo-Ball's Play-bonus is a loss that is still paid."""

    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


@dataclass(frozen=True, slots=True)
class Settlement:
    """What happened to one wager, in cents.

    ``won`` is the net gain (negative for a loss), ``returned`` what goes back to the
    player, stake included. ``returned - stake == won`` always.
    """

    stake: int
    result: BetResult
    won: int
    returned: int


def validate_stake(stake: object, maximum: int = MAX_STAKE_CENTS) -> int:
    """Accept a stake of whole cents in ``1..maximum``; refuse anything else by name."""
    if isinstance(stake, bool) or not isinstance(stake, int):
        raise InvalidBet(f"stake must be a whole number of cents, got {shown(stake)}")
    if stake <= 0:
        raise InvalidBet(f"stake must be positive, got {stake} cents")
    if stake > maximum:
        raise InvalidBet(
            f"a stake of {money_text(stake)} is over the maximum of {money_text(maximum)}"
        )
    return stake


def payout(stake: int, odds: Fraction) -> int:
    """Winnings on ``stake`` cents at ``odds`` to 1, rounded down to the cent."""
    return (stake * odds.numerator) // odds.denominator


def settle(
    stake: int, result: BetResult, odds: Fraction, bonus: Fraction = Fraction(0)
) -> Settlement:
    """Settle a wager that wins at ``odds``, pushes, or loses.

    ``bonus`` is paid on top of the result at its own odds (rounded down the same
    way); only Lo-Ball's Play-bonus, paid on a losing hand, uses it.
    """
    validate_stake(stake)
    extra = payout(stake, bonus)
    if result is BetResult.WIN:
        won = payout(stake, odds) + extra
    elif result is BetResult.PUSH:
        won = extra
    else:
        won = extra - stake
    return Settlement(stake=stake, result=result, won=won, returned=stake + won)


def parse_amount(
    text: object, name: str = "amount", maximum: int = MAX_STAKE_CENTS, *, minimum: int = 1
) -> int:
    """Read an amount in major units (``"12.50"``) as cents, from ``minimum`` (0.01) to ``maximum`` cents.

    Fractions of a cent are refused, and so is an amount the session kernels could not
    hold: :data:`MAX_STAKE_CENTS` for a stake, :data:`MAX_BANKROLL_CENTS` for a bankroll.

    >>> parse_amount("12.5")
    1250
    >>> parse_amount("92233720368547758.07", "bankroll", MAX_BANKROLL_CENTS)
    Traceback (most recent call last):
    ...
    baccara.errors.InvalidOption: bankroll: must be between 0.01 and 1000000000000.00, got 92233720368547758.07
    """
    amount = read_number(name, text, kind="an amount", places=2)
    if not minimum <= amount * 100 <= maximum:
        raise InvalidOption(
            name,
            f"must be between {format_cents(minimum)} and {format_cents(maximum)},"
            f" got {typed(text, amount)}",
        )
    return int(amount * 100)


def format_cents(cents: int, *, grouped: bool = False) -> str:
    """``1250`` → ``"12.50"``; ``grouped``, with thousands separators, as a person reads
    money: ``123456789`` → ``"1,234,567.89"``.

    >>> format_cents(123456789), format_cents(-123456789, grouped=True), format_cents(5)
    ('1234567.89', '-1,234,567.89', '0.05')
    """
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole:,}.{part:02d}" if grouped else f"{sign}{whole}.{part:02d}"


def money_text(cents: int) -> str:
    """Cents as money in words a person reads: ``"1,234.50"`` (:func:`format_cents`, grouped).

    >>> money_text(50_100), money_text(100_000_000)
    ('501.00', '1,000,000.00')
    """
    return format_cents(cents, grouped=True)
