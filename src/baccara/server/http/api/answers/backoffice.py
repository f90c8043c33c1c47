"""The back office: the audit trail, a wallet adjusted, the operator's report."""

from __future__ import annotations

from pydantic import Field

from baccara.server.http.api.answers import Answer, Json, Seconds


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
