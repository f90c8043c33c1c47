"""What every game's bet enum shares: reading a bet id a player or a client sent."""

from __future__ import annotations

import enum
from typing import TypeVar

from baccara.errors import InvalidBet, shown

B = TypeVar("B", bound=enum.Enum)


def parse_bet(bets: type[B], text: str, game: str) -> B:
    """The member of ``bets`` whose id is ``text``; refuse anything else, listing the bets."""
    try:
        return bets(text)
    except ValueError:
        known = ", ".join(str(b.value) for b in bets)
        raise InvalidBet(f"unknown bet {shown(text)} for {game}; bets are: {known}") from None
