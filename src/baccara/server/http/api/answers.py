"""What each route answers, as the response models its OpenAPI schema documents.

Each model lists the keys of the answer in the order the casino writes them, so an
answer serialised through it is the same bytes as the dictionary it was built from: a
key it did not name would be refused (``extra="forbid"``, a 500 a test sees at once),
never silently dropped. What is the game's own — a round's result and events, a
game's rule options, a tile game's seats — is typed as plain JSON values
(:data:`~pydantic.JsonValue`), which keep each value as it is.

A moment is seconds since the epoch as the casino's clock gave it (:data:`Seconds`):
a number, written as the clock wrote it.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, JsonValue

Seconds = Annotated[float | int, Field(description="Seconds since the epoch (UTC)")]
"""A moment: kept an integer if the clock gave one, so nothing is rewritten."""
Json = dict[str, JsonValue]


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


# players


class ClientSeedOut(Answer):
    client_seed: str | None


class WagerOut(Answer):
    bet_id: str
    bet: str
    amount_cents: int
    result: str | None
    payout_cents: int | None


class HistoryRound(Answer):
    """One round of the player's history: wagers, returns, balance before and after."""

    round_id: int
    table_id: int
    game: str
    nonce: int
    state: str
    opened_at: Seconds
    ended_at: Seconds | None
    wagers: list[WagerOut]
    balance_before_cents: int | None
    balance_after_cents: int | None
    server_seed_hash: str | None
    server_seed: str | None
    client_seed: str | None
    result: Json | None
    events: list[Json]


# games and their rules


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


# tables


class Timers(Answer):
    betting_seconds: float
    peek_seconds: float
    choose_seconds: float
    reveal_delay_ms: int


class TableOut(Answer):
    """A table of the lobby: game, mode, rules, limits, seats and who sits in them."""

    id: int
    game: str
    name: str
    mode: str
    options: Json
    seats: int
    seated: dict[str, str] = Field(description="Username by seat number")
    min_bet_cents: int
    max_bet_cents: int
    bet_step_cents: int
    bets: list[str]
    shoe: ShoeSetting
    timers: Timers


class TableView(TableOut):
    """One table, and the id of the round in play."""

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


# rounds and the dealer's console


class RoundBet(Answer):
    bet_id: str
    username: str
    bet: str
    amount_cents: int
    seat: int | None
    payout_cents: int | None


class RoundOut(Answer):
    """A round as one user may see it: the cards exposed so far, the seed once it is over."""

    id: int
    table_id: int
    game: str
    mode: str
    options: Json
    nonce: int
    state: str
    server_seed_hash: str | None
    server_seed: str | None
    client_seed: str | None
    deadline: Seconds | None
    cards: Json = Field(description="Exposed cards by hand, as the game names its hands")
    result: Json | None
    bets: list[RoundBet]
    events: list[Json]


class PeekOut(Answer):
    hand: str
    cards: list[str]


class Need(Answer):
    position: str
    kind: str


class NeedsOut(Answer):
    """The round's phase and what the rules still need dealt."""

    state: str | None
    needs: list[Need]


class ShoeEdge(Answer):
    bet: str
    house_edge: float
    house_edge_exact: str


class ShoeOut(Answer):
    """A continuous shoe: what is left in it and every bet's exact edge on those cards."""

    cards_left: int
    cards_dealt: int
    cut_card_reached: bool
    bets: list[ShoeEdge]


# protections


class PendingLimit(Answer):
    loss_limit_cents: int | None
    effective_at: Seconds


class LimitState(Answer):
    loss_limit_cents: int | None
    net_loss_cents: int
    room_cents: int | None
    pending: PendingLimit | None


class PlaySessionOut(Answer):
    started_at: Seconds
    minutes: float
    net_cents: int


class ProtectionsOut(Answer):
    limits: dict[str, LimitState] = Field(description="By period: day, week, month")
    self_excluded_until: Seconds | None
    reality_check_minutes: int | None
    reality_check_due: bool
    session: PlaySessionOut | None
    time_played_today_seconds: int
    net_today_cents: int


class LimitOut(Answer):
    period: str
    loss_limit_cents: int | None
    effective_at: Seconds


class RealityOut(Answer):
    minutes: int | None


class ExclusionOut(Answer):
    excluded_until: Seconds


# the back office


class AuditEntryOut(Answer):
    id: int
    at: Seconds
    actor: str
    role: str
    action: str
    target: str
    reason: str
    details: Json


class WalletOut(Answer):
    username: str
    balance_cents: int


class Tally(Answer):
    rounds: int
    handle_cents: int
    actual_win_cents: int
    theoretical_win_cents: int
    theoretical_win_exact: str
    sd_cents: int
    z: float
    hold_pct: float | None
    flagged: bool


class TableKey(Answer):
    table_id: int
    game: str
    mode: str
    options: Json


class GameKey(Answer):
    game: str


class TableTally(Tally, TableKey):
    """A table's figures: its keys first, then the tally (fields follow the bases' order)."""


class GameTally(Tally, GameKey):
    pass


class ReportOut(Answer):
    from_: Seconds = Field(alias="from")
    to: Seconds
    flag_sigmas: int
    tables: list[TableTally]
    games: list[GameTally]
    casino: Tally


# the operators' checks


class HealthOut(Answer):
    """The process answers (liveness): its tables dealt here."""

    status: str
    tables: int


class CheckOut(Answer):
    """One readiness check: its name, whether it passed, and why in words."""

    name: str
    ok: bool
    detail: str


class ReadinessOut(Answer):
    """Whether this process can take bets, and each check behind the answer."""

    ready: bool
    checks: list[CheckOut]
