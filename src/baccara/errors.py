"""The errors baccara raises for input it refuses.

Every refusal is a :class:`BaccaraError`, itself a :class:`ValueError`, so a caller
that only knows "bad value" still catches it, and the CLI can print one clean line
instead of a traceback. :func:`shown` quotes what was refused, whatever it is, in a
few characters.
"""

from __future__ import annotations

import math
import reprlib
from fractions import Fraction

_SHOWN = reprlib.Repr()
_SHOWN.maxstring = 40
_SHOWN.maxother = 40


def shown(value: object) -> str:
    """``value`` as a refusal quotes it: one short line whatever it is.

    Text is quoted with its control characters escaped and cut to 40 characters;
    an integer too long to print (Python refuses past 4,300 digits) is described.

    >>> shown("abc"), shown("x" * 100)[:12], shown(10**5000)
    ("'abc'", "'xxxxxxxxxxx", 'an integer of about 5,001 digits')
    """
    if isinstance(value, Fraction):
        if max(abs(value.numerator), value.denominator).bit_length() > 128:
            return f"a fraction of about {_digits(value.numerator):,} / {_digits(value.denominator):,} digits"
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"an integer of about {_digits(value):,} digits"
    try:
        return _SHOWN.repr(value)
    except ValueError:  # an integer past the 4,300-digit limit somewhere inside a container
        return f"a {type(value).__name__}"


def _digits(value: int) -> int:
    return int(abs(value).bit_length() * math.log10(2)) + 1


class BaccaraError(ValueError):
    """Base class for every input baccara refuses.

    :attr:`params` holds the figures a refusal names, as numbers (amounts in integer
    cents) and short names, so that a client can word it in its own language; the
    message says the same in plain English, amounts as money."""

    params: dict[str, int | str | None] | None = None


class InvalidOption(BaccaraError):
    """A rule or analysis option is out of range or of the wrong type.

    The option's name is kept so a caller (the CLI, the HTTP API) can point at it.
    """

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        self.message = message
        super().__init__(f"{option}: {message}")


class UnknownGame(BaccaraError):
    """A game id that baccara does not deal."""

    def __init__(self, game: object, known: tuple[str, ...]) -> None:
        self.game = game
        super().__init__(f"unknown game {shown(game)}; choose one of: {', '.join(known)}")


class InvalidCards(BaccaraError):
    """Cards that cannot make the hand or coup asked for (wrong count, unknown rank)."""


class InvalidBet(BaccaraError):
    """A wager the rules refuse: unknown bet, non-positive or non-integer stake."""
