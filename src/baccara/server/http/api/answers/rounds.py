"""A round as one user may see it, the highest bettor's peek, the dealer's console."""

from __future__ import annotations

from pydantic import Field

from baccara.server.http.api.answers import Answer, Json, Seconds


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
