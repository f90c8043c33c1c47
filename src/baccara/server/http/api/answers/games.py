"""A game and a table's rules: the table facts, the rules in full, each bet's exact edge."""

from __future__ import annotations

from pydantic import Field

from baccara.server.http.api.answers import Answer, Json


class HandName(Answer):
    hand: str
    name: str


class Spot(Answer):
    bet: str
    name: str
    row: int


class OutcomeOut(Answer):
    name: str
    pays: float
    probability: float


class Figure(Answer):
    """A published figure beside the exact one."""

    name: str
    published: str
    exact: str
    agrees: bool


class Published(Answer):
    source: str
    figures: list[Figure]


class BetEdge(Answer):
    bet: str
    house_edge: float
    house_edge_exact: str = Field(description="The exact edge as a fraction, 'p/q'")
    outcomes: list[OutcomeOut]
    published: Published | None


class GameOut(Answer):
    """A game: its table facts, its rules in full, and each bet's exact house edge."""

    id: str
    name: str
    brief: str
    doc: str
    seats: int
    seat_required: bool
    peek: bool
    choose_first_hand: bool
    tagline: str
    dealers: int
    equipment: str
    piece: str
    dice: bool
    felt: str
    hands: list[HandName]
    seats_per_side: int | None
    spots: list[Spot]
    commission_on: list[str]
    roads: bool
    option_labels: dict[str, str]
    rules: Json
    whole_cents_step_cents: int
    bets: list[BetEdge]


class ShoeSetting(Answer):
    mode: str
    penetration: float


class TableFacts(Answer):
    id: int
    mode: str
    status: str
    options: Json
    min_bet_cents: int
    max_bet_cents: int
    bet_step_cents: int
    shoe: ShoeSetting


class StakeOutcome(Answer):
    name: str
    pays: float
    won_cents: int


class StakeEdge(Answer):
    bet: str
    house_edge: float
    house_edge_exact: str
    outcomes: list[StakeOutcome]


class AtStake(Answer):
    """Each bet whose edge at the stake, every payout rounded down, is not its exact edge."""

    stake_cents: int
    bets: list[StakeEdge]


class TableRulesOut(GameOut):
    """A table's own rules: the game under the table's options, and the table's facts."""

    table: TableFacts
    changed: list[str]
    at_min_bet: AtStake
