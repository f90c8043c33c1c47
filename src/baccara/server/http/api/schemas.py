"""Request and answer bodies, strictly typed: an amount is a JSON integer of cents, never
a float or a string, and within 64 bits."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

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


class ErrorOut(BaseModel):
    """Every refusal: what kind of error, and what is wrong, in words."""

    error: str
    detail: str


REFUSALS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut, "description": text}
    for code, text in (
        (400, "Bad input: the detail says what is wrong"),
        (401, "No token, or one that is expired or forged"),
        (403, "Not allowed to this user"),
        (404, "No such table, round or user"),
        (409, "Not now: the round's phase, a seat, a limit, a reused Idempotency-Key"),
        (413, "The request body is too large"),
        (422, "The request does not match its schema"),
        (429, "Too many failed sign-ins"),
        (503, "The table is changing hands between server processes: retry (Retry-After)"),
    )
}
"""The error answers every route may give, documented in the OpenAPI schema."""
