"""The errors baccara raises for input it refuses.

Every refusal is a :class:`BaccaraError`, itself a :class:`ValueError`, so a caller
that only knows "bad value" still catches it, and the CLI can print one clean line
instead of a traceback.
"""

from __future__ import annotations


class BaccaraError(ValueError):
    """Base class for every input baccara refuses."""


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

    def __init__(self, game: str, known: tuple[str, ...]) -> None:
        self.game = game
        super().__init__(f"unknown game {game!r}; choose one of: {', '.join(known)}")


class InvalidCards(BaccaraError):
    """Cards that cannot make the hand or coup asked for (wrong count, unknown rank)."""


class InvalidBet(BaccaraError):
    """A wager the rules refuse: unknown bet, non-positive or non-integer stake."""
