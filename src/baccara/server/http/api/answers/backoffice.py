"""The back office: the audit trail, a wallet adjusted, the operator's report, the voids
per dealer, the dealers' tables."""

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


class DealerTableVoids(Answer):
    table_id: int
    rounds: int
    voided: int
    voided_stakes_cents: int
    void_share: float


class DealerVoids(Answer):
    """A dealer's rounds over the period, voided and not, and whether they are flagged."""

    dealer: str
    role: str
    rounds: int
    voided: int
    voided_stakes_cents: int
    void_share: float
    peer_median_share: float | None
    flagged: bool
    tables: list[DealerTableVoids]


class TableVoids(Answer):
    table_id: int
    game: str
    rounds: int
    voided: int
    voided_stakes_cents: int
    void_share: float


class VoidedRound(Answer):
    round_id: int
    table_id: int
    nonce: int
    ended_at: Seconds
    dealer: str | None
    voided_by: str | None
    reason: str
    stakes_cents: int


class VoidReportOut(Answer):
    from_: Seconds = Field(alias="from")
    to: Seconds
    min_rounds: int
    min_voids: int
    flag_ratio: int
    dealers: list[DealerVoids]
    tables: list[TableVoids]
    voided_rounds: list[VoidedRound]
    more_voided_rounds: int


class DealerOut(Answer):
    """A dealer and the live tables an admin has assigned them to."""

    username: str
    tables: list[int]
