"""The lobby and a table: its limits, seats, timers; a seat taken, a bet taken back."""

from __future__ import annotations

from pydantic import Field

from baccara.server.http.api.answers import Answer, Json
from baccara.server.http.api.answers.games import (
    RuleSetName,
    RuleSetOut,
    ShoeSetting,
    SideBetOut,
    Spot,
)


class Timers(Answer):
    betting_seconds: float
    peek_seconds: float
    choose_seconds: float
    reveal_delay_ms: int
    squeeze_seconds: float


class TableOut(Answer):
    """A table of the lobby: game, mode, rules, limits, seats and who sits in them."""

    id: int
    game: str
    name: str = Field(
        description="Its rule set's name (EZ Baccarat) where it has one, else its game's"
    )
    mode: str
    options: Json
    rule_set: RuleSetName | None = Field(
        description="The rule set its Banker, Player and Tie bets pay by (Punto Banco's tables)"
    )
    sidebets: list[str] = Field(description="The ids of the side bets it offers")
    seats: int
    seated: dict[str, str] = Field(description="Username by seat number")
    min_bet_cents: int
    max_bet_cents: int
    bet_step_cents: int
    bets: list[str]
    shoe: ShoeSetting
    squeeze: bool = Field(
        description="Whether the highest bettor squeezes cards at this table: Mini RedGreen's"
        " hand set second, a Punto Banco table's hands when it deals for the squeeze"
    )
    timers: Timers


class TablePays(Answer):
    """What the table's rule set and side bets pay, line by line."""

    rule_set: RuleSetOut | None
    sidebets: list[SideBetOut]


class TableView(TableOut):
    """One table, its layout and pays, and the id of the round in play."""

    spots: list[Spot] = Field(description="Its bet spots: a row of side bets above the game's")
    pays: TablePays
    round_id: int | None


class RecentRound(Answer):
    round_id: int
    nonce: int
    state: str
    result: Json | None


class SeatOut(Answer):
    seat: int


class BalanceOut(Answer):
    balance_cents: int
