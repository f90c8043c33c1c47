"""The player's protections, as UKGC and Ontario's AGCO expect: loss limits, self-exclusion,
reality checks.

Each is enforced by the server inside the bet's own transaction (after taking a lock
on the player's wallet row, so two bets at once at two tables cannot both slip
through a limit) — hiding a button in a browser is not enough.

* A **loss limit** caps the net loss over a rolling day, week or month: stakes placed
  (those still at risk count in full) less what came back. Lowering a limit, or
  setting one, applies at once and cancels any raise or removal still waiting; raising
  or removing one only after 24 hours. A limit of 0.00 (no play at all) must be
  confirmed, since undoing it waits those 24 hours.
* **Self-exclusion** refuses every bet (and every seat) until it ends; it cannot be
  lifted early, only made longer. History stays readable.
* A **reality check** every N minutes of play tells the player how long the session
  has lasted and its net result, and no bet is taken until they choose to continue.

A **play session** is counted from play itself, in the bet's transaction: it starts with
a player's first bet and goes on while bets keep coming; :data:`IDLE_GAP` without one
ends it, and the next bet starts another. Opening or closing a table's page changes
nothing, so a player betting through the API alone is reminded on time, and one who
reconnects is not given a fresh session. The session is in the database, so every
process of the casino sees the same one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from baccara.errors import BaccaraError
from baccara.money import money_text
from baccara.server.db.ledger import Ref
from baccara.server.db.models import (
    Account,
    Entry,
    LossLimit,
    PlaySession,
    SelfExclusion,
    Transfer,
    User,
    table,
)
from baccara.server.db.sql import Statement
from baccara.server.errors import (
    ConfirmationNeeded,
    Excluded,
    LossLimitReached,
    RealityCheckDue,
)

_limits = table(LossLimit)
_accounts = table(Account)
_users = table(User)
_exclusions = table(SelfExclusion)
_sessions = table(PlaySession)
_newest = _sessions.alias("newest")

# Statements on the path of every bet, built once (see ledger).
_EXCLUDED_UNTIL = select(func.max(_exclusions.c.ends_at)).where(
    _exclusions.c.user_id == bindparam("user"), _exclusions.c.starts_at <= bindparam("now")
)
_later = _limits.alias("later")
_CANCELLED = (
    select(_later.c.id)
    .where(_later.c.user_id == _limits.c.user_id, _later.c.period == _limits.c.period,
           _later.c.id > _limits.c.id, _later.c.set_at < _limits.c.effective_at)
    .exists()
)  # fmt: skip
"""A limit row replaced while it still waited (see :func:`set_limit`): it never applies.
The one definition of a cancelled limit, used by the bet's statements and the player's page
alike (:func:`_limit_rows`)."""
_LIMITS = (
    select(_limits.c.period, _limits.c.limit_cents)
    .where(_limits.c.user_id == bindparam("user"), _limits.c.effective_at <= bindparam("now"),
           ~_CANCELLED)
    .order_by(_limits.c.effective_at, _limits.c.id)
)  # fmt: skip
_NEWEST_SESSION = (
    select(_newest.c.id).where(_newest.c.user_id == bindparam("user"))
    .order_by(_newest.c.started_at.desc(), _newest.c.id.desc()).limit(1)
)  # fmt: skip
_PLAYER_AT_BET = Statement(select(
    _users.c.client_seed,
    _users.c.reality_check_minutes,
    _EXCLUDED_UNTIL.scalar_subquery().label("excluded_until"),
    select(func.count()).select_from(_limits)
    .where(_limits.c.user_id == bindparam("user"), _limits.c.effective_at <= bindparam("now"),
           ~_CANCELLED)
    .scalar_subquery().label("limits"),
    _sessions.c.id, _sessions.c.acknowledged_at, _sessions.c.last_play_at,
).select_from(_users.outerjoin(_sessions, _sessions.c.id == _NEWEST_SESSION.scalar_subquery()))
 .where(_users.c.id == bindparam("user")))  # fmt: skip


class PlayerAtBet(NamedTuple):
    """What a bet needs to know of its player, read in one statement."""

    client_seed: str | None
    reality_check_minutes: int | None
    excluded_until: float | None
    """The end of the self-exclusion that ends last, if any has begun."""
    limits: int
    """How many loss-limit rows have taken effect and were not cancelled while they waited
    (none: no limit to check)."""
    session_id: int | None
    """Their newest play session, over or not (``None``: they never bet)."""
    acknowledged_at: float | None
    last_play_at: float | None

    def playing(self, now: float) -> bool:
        """Whether their newest session is still going on at ``now``."""
        return self.last_play_at is not None and now - self.last_play_at < IDLE_GAP


def player_at_bet(session: Session, user_id: int, now: float) -> PlayerAtBet:
    row = _PLAYER_AT_BET.first(session, {"user": user_id, "now": now})
    assert row is not None, f"no user {user_id}"  # the caller was authenticated as them
    return PlayerAtBet(*row)


_LOCK_WALLET = (
    select(_accounts.c.id).where(_accounts.c.id == bindparam("account")).with_for_update()
)

DAY = 86_400.0
PERIODS: dict[str, float] = {"day": DAY, "week": 7 * DAY, "month": 30 * DAY}
RAISE_DELAY = DAY
"""A raised (or removed) limit waits this long before it applies."""
PLAY_KINDS = ("stake", "withdraw", "payout", "void")
"""The transfers that make up a player's result at the tables (not deposits or credits)."""
MAX_EXCLUSION_DAYS = 3650
REALITY_MINUTES = (5, 600)
IDLE_GAP = 30 * 60.0
"""Seconds without a bet that end a play session: the next bet starts a new one."""
PLAY_STEP = 5.0
"""A session's latest bet is written again only once this many seconds have passed since
the one recorded: a player's bets on several spots of a round cost one write, not one
each, and the time played is at most this much short."""


@dataclass(frozen=True)
class Limit:
    period: str
    limit_cents: int | None
    effective_at: float


def _limit_rows(session: Session, user_id: int, period: str) -> list[LossLimit]:
    """The period's limits as set, less those a later change replaced while they still
    waited, in the order they apply."""
    return list(session.scalars(
        select(LossLimit)
        .where(LossLimit.user_id == user_id, LossLimit.period == period, ~_CANCELLED)
        .order_by(LossLimit.effective_at, LossLimit.id)))  # fmt: skip


def limit_in_force(session: Session, user_id: int, period: str, now: float) -> int | None:
    """The limit that applies now: the newest row already in effect (``None``: no limit)."""
    current: int | None = None
    for row in _limit_rows(session, user_id, period):
        if row.effective_at <= now:
            current = row.limit_cents
    return current


def pending(session: Session, user_id: int, period: str, now: float) -> Limit | None:
    """A raise waiting for its day, if any."""
    waiting = [r for r in _limit_rows(session, user_id, period) if r.effective_at > now]
    if not waiting:
        return None
    last = waiting[-1]
    return Limit(period, last.limit_cents, last.effective_at)


@dataclass(frozen=True)
class LimitChange:
    """What a change of limit did: the limit set and when it applies, the one in force
    from now on, and the waiting change it cancelled, if any."""

    limit: Limit
    in_force_cents: int | None
    cancelled: Limit | None


def set_limit(
    session: Session, user_id: int, period: str, cents: int | None, now: float,
    confirm: bool = False,
) -> LimitChange:  # fmt: skip
    """Set the period's limit: at once if it is no looser than the one in force, else in 24 h.

    Whichever it is, it replaces a raise or a removal still waiting: the player's latest
    choice is the one that will apply, so 10.00, then 500.00 (waiting its day), then
    1.00 leaves 1.00 and nothing waiting — the 500.00 never comes. The rows are
    append-only, the record of every choice: a row set while an earlier one still waited
    is what cancels it (:data:`_CANCELLED`). A 0.00 limit stops all play, and lifting
    it waits 24 hours: it is taken only with ``confirm``.
    """
    if period not in PERIODS:
        raise BaccaraError(f"period: day, week or month, not {period!r}")
    if cents is not None and (isinstance(cents, bool) or not isinstance(cents, int) or cents < 0
                              or cents > 10**12):  # fmt: skip
        raise BaccaraError("loss_limit_cents: a whole number of cents from 0, or null for none")
    if cents == 0 and confirm is not True:
        raise ConfirmationNeeded(
            "a loss limit of 0.00 stops all play, and lifting it waits 24 hours:"
            " send confirm: true to set it"
        )
    current = limit_in_force(session, user_id, period, now)
    cancelled = pending(session, user_id, period, now)
    looser = current is not None and (cents is None or cents > current)
    effective = now + RAISE_DELAY if looser else now
    session.add(LossLimit(user_id=user_id, period=period, limit_cents=cents, set_at=now,
                          effective_at=effective))  # fmt: skip
    session.flush()
    return LimitChange(Limit(period, cents, effective), current if looser else cents, cancelled)


def net_loss(session: Session, wallet_id: int, since: float) -> int:
    """What the tables took from this wallet since ``since``: stakes (at risk or not) less returns."""
    moved = session.scalar(
        select(func.coalesce(func.sum(Entry.amount_cents), 0))
        .join(Transfer, Transfer.id == Entry.transfer_id)
        .where(Entry.account_id == wallet_id, Transfer.created_at >= since,
               Transfer.kind.in_(PLAY_KINDS))
    )  # fmt: skip
    return -int(moved or 0)


def excluded_until(session: Session, user_id: int, now: float) -> float | None:
    ends = session.connection().execute(_EXCLUDED_UNTIL, {"user": user_id, "now": now}).scalar()
    return float(ends) if ends is not None and ends > now else None


def exclude(session: Session, user_id: int, days: int, now: float) -> float:
    """Exclude the player from now for ``days``; an exclusion only ever grows longer."""
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_EXCLUSION_DAYS:
        raise BaccaraError(f"days: 1 to {MAX_EXCLUSION_DAYS}")
    session.add(SelfExclusion(user_id=user_id, starts_at=now, ends_at=now + days * DAY))
    session.flush()
    until = excluded_until(session, user_id, now)
    assert until is not None
    return until


def open_session(session: Session, user_id: int, now: float) -> PlaySession | None:
    """The player's session going on at ``now``: their newest, unless :data:`IDLE_GAP` has
    passed since its last bet."""
    newest = session.scalars(select(PlaySession).where(PlaySession.user_id == user_id)
        .order_by(PlaySession.started_at.desc(), PlaySession.id.desc()).limit(1)).first()  # fmt: skip
    if newest is None or now - newest.last_play_at >= IDLE_GAP:
        return None
    return newest


def next_reality_check(session: Session, user: User, now: float) -> float | None:
    """When the player's reality check falls (or fell) due in the session going on, if
    it does before the session ends."""
    if not user.reality_check_minutes:
        return None
    playing = open_session(session, user.id, now)
    if playing is None:
        return None
    due = playing.acknowledged_at + user.reality_check_minutes * 60
    return due if due < playing.last_play_at + IDLE_GAP else None


def reality_check_due(session: Session, user: User, now: float) -> float | None:
    """When the reality check fell due, if it has and is not yet answered."""
    due = next_reality_check(session, user, now)
    return due if due is not None and due <= now else None


def continue_playing(session: Session, user_id: int, now: float) -> None:
    """The player has seen the reality check and goes on: the next is N minutes away."""
    playing = open_session(session, user_id, now)
    if playing is not None:
        playing.acknowledged_at = now


_SESSION_NOW = Statement(
    select(_sessions.c.id, _sessions.c.last_play_at).where(_sessions.c.id == _NEWEST_SESSION
                                                           .scalar_subquery())
)  # fmt: skip
_PLAYED = Statement(
    update(_sessions).where(_sessions.c.id == bindparam("session"),
                            _sessions.c.last_play_at < bindparam("now"))
    .values(last_play_at=bindparam("now"))
)  # fmt: skip
_SESSIONS_OVER = Statement(
    update(_sessions).where(_sessions.c.user_id == bindparam("user"), _sessions.c.ended_at.is_(None))
    .values(ended_at=_sessions.c.last_play_at)
)  # fmt: skip
_NEW_SESSION = Statement(insert(_sessions), ("user_id", "started_at", "ended_at",
                                             "acknowledged_at", "last_play_at"))  # fmt: skip


def record_play(
    session: Session, user_id: int, wallet: Ref, now: float, player: PlayerAtBet
) -> None:
    """A bet is play: it carries the player's session on, or starts one.

    Run in the bet's transaction, after :func:`check_bet`: a bet refused is no play.
    Starting a session first locks the player's wallet row (as a limit's check does),
    so two first bets at once, at two tables of two processes, start one session, not
    two.
    """
    if player.session_id is not None and player.playing(now):
        assert player.last_play_at is not None
        if now - player.last_play_at >= PLAY_STEP:
            _PLAYED.rows(session, {"session": player.session_id, "now": now})
        return
    session.connection().execute(_LOCK_WALLET, {"account": wallet.id})
    newest = _SESSION_NOW.first(session, {"user": user_id})
    if newest is not None and now - newest[1] < IDLE_GAP:  # begun while this bet waited
        _PLAYED.rows(session, {"session": newest[0], "now": now})
        return
    _SESSIONS_OVER.rows(session, {"user": user_id})
    _NEW_SESSION.rows(session, {"user_id": user_id, "started_at": now, "ended_at": None,
                                "acknowledged_at": now, "last_play_at": now})  # fmt: skip


def check_bet(
    session: Session, user_id: int, wallet: Ref, amount: int, now: float, player: PlayerAtBet
) -> None:
    """Refuse a bet the player's protections forbid, saying why and what room is left.

    ``player`` is what :func:`player_at_bet` read: a player with no limit costs nothing
    more; one with limits first locks their wallet row, so that their bets at other
    tables wait and the loss counted is all committed.
    """
    connection = session.connection()
    until = player.excluded_until
    if until is not None and until > now:
        raise Excluded(f"you have excluded yourself from play until {_when(float(until))}")
    reality_minutes = player.reality_check_minutes
    if reality_minutes and player.playing(now):
        assert player.acknowledged_at is not None
        if player.acknowledged_at + reality_minutes * 60 <= now:
            raise RealityCheckDue("reality check: see how long you have played, then choose to"
                                  " continue (POST /api/me/reality-check/continue)")  # fmt: skip
    if not player.limits:
        return
    rows = connection.execute(_LIMITS, {"user": user_id, "now": now}).all()
    in_force = {row.period: row.limit_cents for row in rows}  # the newest row wins
    if not any(limit is not None for limit in in_force.values()):
        return
    connection.execute(_LOCK_WALLET, {"account": wallet.id})
    for period, length in PERIODS.items():
        limit = in_force.get(period)
        if limit is None:
            continue
        room = limit - net_loss(session, wallet.id, now - length)
        if amount > room:
            raise LossLimitReached(
                f"your {period} loss limit is {money_text(limit)}: this bet could take you past"
                f" it; {money_text(max(room, 0))} of room is left",
                params={"period": period, "limit_cents": limit, "room_cents": max(room, 0)},
            )


def _when(at: float) -> str:
    import datetime

    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def summary(session: Session, user: User, wallet_id: int, now: float) -> dict[str, Any]:
    """The player's page: limits (and any raise waiting), exclusion, reality check, today."""
    start_of_day = now - now % DAY
    played = 0.0  # each session from its first bet to its latest
    for row in session.scalars(select(PlaySession).where(
            PlaySession.user_id == user.id, PlaySession.last_play_at > start_of_day)):  # fmt: skip
        played += max(min(row.last_play_at, now) - max(row.started_at, start_of_day), 0.0)
    limits = {}
    for period, length in PERIODS.items():
        waiting = pending(session, user.id, period, now)
        in_force = limit_in_force(session, user.id, period, now)
        loss = net_loss(session, wallet_id, now - length)
        limits[period] = {
            "loss_limit_cents": in_force,
            "net_loss_cents": loss,
            "room_cents": None if in_force is None else max(in_force - loss, 0),
            "pending": None if waiting is None else {"loss_limit_cents": waiting.limit_cents,
                                                     "effective_at": waiting.effective_at},
        }  # fmt: skip
    playing = open_session(session, user.id, now)
    return {
        "limits": limits,
        "self_excluded_until": excluded_until(session, user.id, now),
        "reality_check_minutes": user.reality_check_minutes,
        "reality_check_due": reality_check_due(session, user, now) is not None,
        "session": None if playing is None else {
            "started_at": playing.started_at,
            "minutes": int((now - playing.started_at) // 60),
            "time_played_seconds": int(now - playing.started_at),
            "net_cents": -net_loss(session, wallet_id, playing.started_at),
            "last_bet_at": playing.last_play_at,
            "ends_at": playing.last_play_at + IDLE_GAP,
            "reality_check_at": next_reality_check(session, user, now),
        },
        "time_played_today_seconds": round(max(played, 0.0)),
        "net_today_cents": -net_loss(session, wallet_id, start_of_day),
    }  # fmt: skip
