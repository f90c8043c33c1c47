"""The casino's database: users, the double-entry ledger, tables, rounds and their logs, bets.

Money is integer cents in a double-entry ledger. Every movement is a *transfer* of
two or more *entries* that sum to zero; an entry is never updated or deleted (the
database refuses, by trigger). Each account keeps its balance beside the entries,
changed in the same transaction, and a wallet's may never go below zero (a CHECK
constraint). What protects money is a constraint, not a convention: one transfer per
key (a bet's stake, its payout, its refund), one payout per bet, one bet per
idempotency key.
"""

from __future__ import annotations

from typing import cast

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


def table(model: type[Base]) -> Table:
    """A model's table, for plain SQL statements on the hot paths (bets, payouts)."""
    return cast(Table, model.__table__)


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(32), unique=True)
    name_key: Mapped[str | None] = mapped_column(String(80), nullable=True)
    """The username without case or look-alikes (:func:`~baccara.server.db.usernames.name_key`),
    unique: ``BOSS`` and ``b0ss`` cannot sign up beside ``boss``. Every user has one; the
    column allows none only so that SQLite adds it without copying the table every wallet
    points at."""
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(10))
    client_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    reality_check_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    token_generation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Every token carries the generation it was issued in; signing out everywhere, a new
    password or a new role moves it on, and the older tokens are refused."""

    __table_args__ = (
        CheckConstraint("role IN ('admin', 'dealer', 'player')", name="role_known"),
        Index("users_by_name_key", "name_key", unique=True),
    )


class Account(Base):
    """A place money can be: a player's wallet, the house, the deposits made, a table's
    stakes in play. ``balance_cents`` is the sum of the account's entries."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    kind: Mapped[str] = mapped_column(String(10))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), unique=True, nullable=True)
    balance_cents: Mapped[int] = mapped_column(BigInteger, default=0)

    __table_args__ = (
        CheckConstraint("kind IN ('wallet', 'house', 'deposits', 'table')", name="kind_known"),
        CheckConstraint(
            "kind NOT IN ('wallet', 'table') OR balance_cents >= 0", name="never_negative"
        ),
    )


class Transfer(Base):
    """One movement of money; ``key`` says what it is for and can happen once."""

    __tablename__ = "transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(120), unique=True)
    kind: Mapped[str] = mapped_column(String(20))
    round_id: Mapped[int | None] = mapped_column(ForeignKey("rounds.id"), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class Entry(Base):
    """One leg of a transfer; the legs of a transfer sum to zero. Immutable."""

    __tablename__ = "ledger_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transfer_id: Mapped[int] = mapped_column(ForeignKey("transfers.id"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    balance_after: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (Index("entries_by_account", "account_id", "id"),)


class CasinoTable(Base):
    __tablename__ = "casino_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    mode: Mapped[str] = mapped_column(String(10))
    options: Mapped[str] = mapped_column(Text)  # JSON
    seats: Mapped[int] = mapped_column(Integer)
    min_bet_cents: Mapped[int] = mapped_column(BigInteger)
    max_bet_cents: Mapped[int] = mapped_column(BigInteger)
    bet_step_cents: Mapped[int] = mapped_column(BigInteger, server_default="1")
    """Every stake is a multiple of it; tables opened before it existed take any cent (1)."""
    shoe: Mapped[str] = mapped_column(String(12))
    penetration: Mapped[float] = mapped_column(Float)
    betting_seconds: Mapped[float] = mapped_column(Float)
    peek_seconds: Mapped[float] = mapped_column(Float)
    choose_seconds: Mapped[float] = mapped_column(Float)
    reveal_delay: Mapped[float] = mapped_column(Float)
    squeeze: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """Punto Banco: the hands are dealt for the highest bettors to squeeze."""
    squeeze_seconds: Mapped[float] = mapped_column(Float, server_default="20")
    status: Mapped[str] = mapped_column(String(8), default="open")
    shoe_started_nonce: Mapped[int] = mapped_column(Integer, default=1)
    """A continuous live shoe holds the cards of the rounds from this nonce on."""
    created_at: Mapped[float] = mapped_column(Float)


class TableLease(Base):
    """Which server process deals a table, until when, and in which generation.

    One process holds a table's lease at a time; it renews it while it lives, and any
    process may take over a lease that has run out, raising ``generation``. Every write
    of the table's state first checks, in its own transaction, that this process still
    holds the lease in the generation it took (the fencing token): a process that was
    paused past its lease cannot write a round another is now dealing."""

    __tablename__ = "table_leases"

    table_id: Mapped[int] = mapped_column(ForeignKey("casino_tables.id"), primary_key=True)
    holder: Mapped[str] = mapped_column(String(80))
    address: Mapped[str] = mapped_column(String(200))
    """Where the holder answers: requests for the table that reach another process go there."""
    generation: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[float] = mapped_column(Float)


class Node(Base):
    """A running server process, seen at its last heartbeat: each deals the tables nginx
    routes to it, and the rest are shared fairly among the live ones."""

    __tablename__ = "nodes"

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    address: Mapped[str] = mapped_column(String(200))
    seen_at: Mapped[float] = mapped_column(Float)
    upstream: Mapped[str] = mapped_column(String(8), default="", server_default="")
    """Its place in nginx's hashed upstream (``2/3``), or empty: the tables nginx routes to
    it are its own (:mod:`baccara.server.cluster.placement`)."""


class Seat(Base):
    __tablename__ = "seats"

    table_id: Mapped[int] = mapped_column(ForeignKey("casino_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))

    __table_args__ = (UniqueConstraint("table_id", "user_id", name="one_seat_a_player"),)


class DealerTable(Base):
    """A live table a dealer is assigned to by an admin: a dealer deals, calls no more bets,
    voids and reads the shoe only at the tables assigned to them."""

    __tablename__ = "dealer_tables"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("casino_tables.id"), primary_key=True)
    assigned_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("dealers_by_table", "table_id"),)


class Round(Base):
    __tablename__ = "rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("casino_tables.id"))
    nonce: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(20))
    state: Mapped[str] = mapped_column(String(10))
    server_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    server_seed_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    client_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    opened_at: Mapped[float] = mapped_column(Float)
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (
        UniqueConstraint("table_id", "nonce", name="one_round_a_nonce"),
        Index("rounds_by_table", "table_id", "id"),
    )


class RoundEvent(Base):
    """The round's log, event by event: enough to replay it."""

    __tablename__ = "round_events"

    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    data: Mapped[str] = mapped_column(Text)  # JSON of Event.to_dict()
    at: Mapped[float] = mapped_column(Float)


class Bet(Base):
    __tablename__ = "bets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    table_id: Mapped[int] = mapped_column(ForeignKey("casino_tables.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    spot: Mapped[str] = mapped_column(String(20))
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    status: Mapped[str] = mapped_column(String(10), default="placed")
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint("amount_cents > 0", name="stake_positive"),
        CheckConstraint("status IN ('placed', 'withdrawn')", name="status_known"),
        Index("bets_by_round", "round_id"),
        Index("bets_by_user", "user_id", "round_id"),
    )


class IdempotencyKey(Base):
    """A client's ``Idempotency-Key``: the same key answers the same, once."""

    __tablename__ = "idempotency_keys"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    response: Mapped[str] = mapped_column(Text)  # JSON
    status_code: Mapped[int] = mapped_column(Integer)


class Payout(Base):
    """What a bet returned. The primary key on ``bet_id`` makes a second payout impossible."""

    __tablename__ = "payouts"

    bet_id: Mapped[str] = mapped_column(ForeignKey("bets.id"), primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    result: Mapped[str] = mapped_column(String(10))
    won_cents: Mapped[int] = mapped_column(BigInteger)
    returned_cents: Mapped[int] = mapped_column(BigInteger)
    commission_cents: Mapped[int] = mapped_column(BigInteger)
    transfer_id: Mapped[int] = mapped_column(ForeignKey("transfers.id"), unique=True)

    __table_args__ = (CheckConstraint("returned_cents >= 0", name="returned_not_negative"),)


class Setting(Base):
    """Server-wide values kept in the database, such as the token signing key, so every
    server process shares them and they survive restarts."""

    __tablename__ = "settings"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class AuditEntry(Base):
    """Every admin and dealer action, who did it and why. Append-only (database triggers)."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[float] = mapped_column(Float)
    actor: Mapped[str] = mapped_column(String(32))
    role: Mapped[str] = mapped_column(String(10))
    action: Mapped[str] = mapped_column(String(40))
    target: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str] = mapped_column(Text)
    details: Mapped[str] = mapped_column(Text)  # JSON

    __table_args__ = (Index("audit_by_time", "at"),)


class LossLimit(Base):
    """A player's loss limit for a rolling period, from ``effective_at`` on. Rows are never
    changed: the newest row in effect is the limit; a raise only takes effect a day later."""

    __tablename__ = "loss_limits"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    period: Mapped[str] = mapped_column(String(5))
    limit_cents: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    set_at: Mapped[float] = mapped_column(Float)
    effective_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint("period IN ('day', 'week', 'month')", name="period_known"),
        CheckConstraint("limit_cents IS NULL OR limit_cents >= 0", name="limit_not_negative"),
        Index("limits_by_user", "user_id", "period", "effective_at"),
    )


class SelfExclusion(Base):
    """A player's self-exclusion: no bet from ``starts_at`` to ``ends_at``; never shortened."""

    __tablename__ = "self_exclusions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    starts_at: Mapped[float] = mapped_column(Float)
    ends_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("exclusions_by_user", "user_id", "ends_at"),)


class PlaySession(Base):
    """A stretch of play: from a player's first bet to their last one before an idle gap
    (see :mod:`~baccara.server.domain.responsible`), whatever their connections did."""

    __tablename__ = "play_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    started_at: Mapped[float] = mapped_column(Float)
    """The session's first bet."""
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Its last bet, once a bet after the idle gap has begun the next session (until then
    ``None``: ``last_play_at`` says whether it is still going on)."""
    acknowledged_at: Mapped[float] = mapped_column(Float)
    """When the player last answered a reality check (or the session's start)."""
    last_play_at: Mapped[float] = mapped_column(Float, server_default="0")
    """Its latest bet so far."""

    __table_args__ = (Index("sessions_by_user", "user_id", "started_at"),)


class LoginFailure(Base):
    """A failed sign-in, kept for a while to rate-limit guessing (per username and address,
    per address, and per username: :mod:`~baccara.server.domain.attempts`). ``username``
    is the name's key, so ``BOSS`` and ``boss`` count as one."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(64))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        Index("failures_by_username", "username", "at"),
        Index("failures_by_address", "address", "at"),
    )


class SignUp(Base):
    """A sign-up through the API, kept a day to limit the accounts one address makes
    (:mod:`~baccara.server.domain.attempts`); in the database, so the count holds across
    restarts and processes."""

    __tablename__ = "sign_ups"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)
    refused: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    """Refused for its name (taken, a look-alike, reserved): counted apart, so asking
    which names exist is limited too, without costing a newcomer their sign-ups."""

    __table_args__ = (Index("sign_ups_by_address", "address", "at"),)


class SignIn(Base):
    """The latest successful sign-in of a username (its key) from an address, kept a while:
    an address its owner signs in from is not made to wait while others guess the password
    (:mod:`~baccara.server.domain.attempts`)."""

    __tablename__ = "sign_ins"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(64))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("sign_ins_by_username", "username", "address"),)


class RevokedToken(Base):
    """A token signed out before it expired, kept until it would have: it is refused."""

    __tablename__ = "revoked_tokens"

    token_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    expires: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("revoked_by_user", "user_id", "expires"),)


class UsedTicket(Base):
    """A WebSocket ticket that has opened a socket, kept until it expires: a ticket opens
    one socket, whichever process it reaches."""

    __tablename__ = "used_tickets"

    nonce: Mapped[str] = mapped_column(String(32), primary_key=True)
    expires: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("used_tickets_by_expiry", "expires"),)


class Preference(Base):
    """A player's own settings for the web casino (sound on or off, its volume, the language
    of the pages), kept so that they follow the player to another browser. A row appears on
    the first change; a player without one has the defaults."""

    __tablename__ = "preferences"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    sound: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    volume: Mapped[int] = mapped_column(Integer, default=60, server_default="60")
    language: Mapped[str | None] = mapped_column(String(16), nullable=True)

    __table_args__ = (CheckConstraint("volume >= 0 AND volume <= 100", name="volume_in_range"),)
