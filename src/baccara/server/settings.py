"""The server's settings: one object, from the command line or the environment (``BACCARA_…``).

``DATABASE_URL`` (no prefix, as hosting platforms name it) chooses the database:
an SQLite file by default, ``postgresql+psycopg://…`` for PostgreSQL.
"""

from __future__ import annotations

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from baccara.table.config import MAX_TIMER, MIN_TIMER

DEFAULT_DATABASE = "sqlite:///baccara.db"

MAX_REVEAL_DELAY_MS = 60_000
MIN_LEASE_SECONDS = 0.5
MAX_LEASE_SECONDS = 300
MAX_STARTING_BALANCE_CENTS = 10**12
"""Play money a new player may start with: at most 10,000,000,000.00."""


class Settings(BaseSettings):
    """Every knob of a casino server; the defaults are the ones ``make run`` uses."""

    model_config = SettingsConfigDict(env_prefix="BACCARA_", frozen=True)

    database_url: str = Field(
        DEFAULT_DATABASE, validation_alias=AliasChoices("DATABASE_URL", "BACCARA_DATABASE_URL")
    )
    betting_seconds: float = Field(15.0, ge=MIN_TIMER, le=MAX_TIMER)
    peek_seconds: float = Field(10.0, ge=MIN_TIMER, le=MAX_TIMER)
    choose_seconds: float = Field(10.0, ge=MIN_TIMER, le=MAX_TIMER)
    reveal_delay_ms: int = Field(600, ge=0, le=MAX_REVEAL_DELAY_MS)
    starting_balance_cents: int = Field(100_000, ge=0, le=MAX_STARTING_BALANCE_CENTS)
    token_hours: float = Field(12.0, gt=0, le=24 * 30)
    default_tables: bool = True
    """Open one table of each game (and a live Punto Banco table) on a new database."""
    bet_lane: bool = True
    """Place well-formed bets without FastAPI's routing (:mod:`baccara.server.http.betlane`):
    the same answers for less processor time; off only to compare the two."""
    node_url: str = Field("", pattern=r"^(https?://[A-Za-z0-9.\-\[\]:]{1,200})?$")
    """Where the other server processes reach this one (``baccara serve`` sets it from
    its host and port); requests for a table another process deals are sent there."""
    lease_seconds: float = Field(10.0, ge=MIN_LEASE_SECONDS, le=MAX_LEASE_SECONDS)
    """How long a table's lease lasts unrenewed: how soon another process takes over the
    tables of one that died."""

    @property
    def reveal_delay(self) -> float:
        return self.reveal_delay_ms / 1000
