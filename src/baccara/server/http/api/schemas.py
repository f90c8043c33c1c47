"""Request and answer bodies, strictly typed: an amount is a JSON integer of cents, never
a float or a string, and within 64 bits.

Every parameter a client sends is bounded here or beside its route: integers within the
database's columns (an id within 32 bits, the ids' columns on PostgreSQL; an amount within
64), since a value past them overflows the driver or the database, a 500; numbers finite,
text no longer than any value the casino keeps. Anything else is a 422 in the casino's
error shape before a route runs."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from baccara.server.http.api.errors import ErrorOut

__all__ = ["ErrorOut"]  # where the routes have always found it

MAX_CENTS = 2**63 - 1
MAX_ID = 2**31 - 1
"""The largest id a row has: ids are PostgreSQL ``integer`` columns (SQLite's hold more)."""

TableId = Annotated[int, Path(ge=1, le=MAX_ID, description="A table's id")]
RoundId = Annotated[int, Path(ge=1, le=MAX_ID, description="A round's id")]
MAX_NAME = 64
"""The longest username, bet id or game id a request may name (as registration allows)."""
Username = Annotated[str, Path(min_length=1, max_length=MAX_NAME, description="A username")]
BetId = Annotated[str, Path(min_length=1, max_length=MAX_NAME, description="A bet's id")]
MAX_OPTIONS = 32
"""Rule options a new table may set: every game has fewer."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(Strict):
    username: StrictStr = Field(max_length=64)
    password: StrictStr = Field(max_length=256)


class TokenOut(BaseModel):
    token: str
    expires_in: float


class Me(BaseModel):
    username: str
    role: str
    balance_cents: int


class ClientSeedIn(Strict):
    client_seed: StrictStr = Field(min_length=1, max_length=64)


class ShoeIn(Strict):
    mode: Literal["reshuffle", "continuous"] = "reshuffle"
    penetration: float = Field(0.8, gt=0, le=1, allow_inf_nan=False)


class TableIn(Strict):
    game: StrictStr = Field(max_length=MAX_NAME)
    min_bet_cents: StrictInt = Field(ge=1, le=MAX_CENTS)
    max_bet_cents: StrictInt = Field(ge=1, le=MAX_CENTS)
    bet_step_cents: StrictInt | None = Field(
        None,
        ge=1,
        le=MAX_CENTS,
        description="Every stake is a multiple of it; by default the game's whole-cents step"
        " under the table's options (0.20 at Punto Banco), at which no payout is rounded",
    )
    mode: Literal["electronic", "live"] = "electronic"
    options: dict[Annotated[str, Field(max_length=MAX_NAME)], Any] = Field(
        default_factory=dict, max_length=MAX_OPTIONS
    )
    seats: StrictInt | None = Field(None, ge=1, le=100)
    shoe: ShoeIn = Field(default_factory=ShoeIn)
    squeeze: StrictBool = Field(
        False,
        description="Punto Banco, electronic tables: deal the hands face down for the highest"
        " bettor on each to squeeze",
    )


class SeatIn(Strict):
    seat: StrictInt | None = Field(None, ge=1, le=100)


class BetIn(Strict):
    bet: StrictStr = Field(max_length=32)
    amount_cents: StrictInt = Field(ge=1, le=MAX_CENTS)


class BetOut(BaseModel):
    bet_id: str
    round_id: int
    balance_cents: int


class ChooseIn(Strict):
    hand: Literal["red", "green"]


class TurnIn(Strict):
    position: StrictStr = Field(
        max_length=16, description='A card of the squeeze, as its events name it: "player.0"'
    )


MAX_DIE = 1_000
"""A die's number as a dealer may type it: the game refuses a face past 6 in its own words."""


class CardsIn(Strict):
    cards: list[Annotated[StrictStr, Field(max_length=8)]] = Field(
        default_factory=list, max_length=64
    )
    dice: list[
        Annotated[StrictInt, Field(ge=-MAX_DIE, le=MAX_DIE)]
        | Annotated[StrictStr, Field(max_length=8)]
    ] = Field(default_factory=list, max_length=3)


class VoidIn(Strict):
    reason: StrictStr = Field(min_length=1, max_length=500)


class State(BaseModel):
    state: str
