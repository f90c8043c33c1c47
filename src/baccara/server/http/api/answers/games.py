"""A game and a table's rules: the table facts, the rules in full, each bet's exact edge."""

from __future__ import annotations

from pydantic import Field, JsonValue

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


class PayLine(Answer):
    """A line of a side bet's or a rule set's pays: when its condition holds, it pays."""

    when: dict[str, list[JsonValue]] = Field(
        description="Each term the coup must meet, and every value it accepts (docs/table.md)"
    )
    pays: str = Field(description="What it pays to 1, exactly: '40', '0.54', '1/3'; '0' a push")
    condition: str = Field(
        description="Its condition in words, as the bet's analysis names the outcome: 'Banker"
        " wins, Banker total 7, Banker 3 cards'"
    )
    text: str = Field(description="The line in words: '40 to 1: Banker wins, Banker total 7, …'")


class SideBetOut(Answer):
    """A side bet: its id at the table, its name on the felt, and its pay lines, the first
    that holds paying (none: the bet loses)."""

    id: str
    name: str
    description: str
    lines: list[PayLine]


class RuleSetOut(Answer):
    """How a table's Banker, Player and Tie bets pay (EZ Baccarat, No-Commission): the
    commission on a Banker win, the Tie's pay (null: the table's own), the lines that
    change a Banker or Player win's pay, and the side bets it offers by default."""

    id: str
    name: str
    description: str
    commission: str
    tie_pays: str | None
    banker: list[PayLine]
    player: list[PayLine]
    sidebets: list[str]


class Catalog(Answer):
    """The rule sets and side bets a table of the game may be opened with."""

    rule_sets: list[RuleSetOut]
    sidebets: list[SideBetOut]


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
    catalog: Catalog | None = Field(
        description="The rule sets and side bets its tables may be opened with (Punto Banco's)"
    )


class ShoeSetting(Answer):
    mode: str
    penetration: float


class RuleSetName(Answer):
    id: str
    name: str


class TableFacts(Answer):
    id: int
    name: str
    rule_set: RuleSetName | None
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
