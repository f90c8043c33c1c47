"""Request and answer bodies, strictly typed: an amount is a JSON integer of cents, never
a float or a string, and within 64 bits."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from baccara.server.http.api.errors import ErrorOut

__all__ = ["ErrorOut"]  # where the routes have always found it

MAX_CENTS = 2**63 - 1
MAX_ID = 2**63 - 1

TableId = Annotated[int, Path(ge=1, le=MAX_ID, description="A table's id")]
RoundId = Annotated[int, Path(ge=1, le=MAX_ID, description="A round's id")]


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
    penetration: float = Field(0.8, gt=0, le=1)


class TableIn(Strict):
    game: StrictStr
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
    options: dict[str, Any] = Field(default_factory=dict)
    seats: StrictInt | None = Field(None, ge=1, le=100)
    shoe: ShoeIn = Field(default_factory=ShoeIn)


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


class CardsIn(Strict):
    cards: list[StrictStr] = Field(default_factory=list, max_length=64)
    dice: list[StrictInt | StrictStr] = Field(default_factory=list, max_length=3)


class VoidIn(Strict):
    reason: StrictStr = Field(min_length=1, max_length=500)


class State(BaseModel):
    state: str
