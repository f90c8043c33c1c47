"""What a player reads of their own: the client seed, the history of their rounds."""

from __future__ import annotations

from baccara.server.http.api.answers import Answer, Json, Seconds


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
