"""The player's protections: limits, exclusion, reality check, time and result today."""

from __future__ import annotations

from pydantic import Field

from baccara.server.http.api.answers import Answer, Seconds


class PendingLimit(Answer):
    loss_limit_cents: int | None
    effective_at: Seconds


class LimitState(Answer):
    loss_limit_cents: int | None
    net_loss_cents: int
    room_cents: int | None
    pending: PendingLimit | None


class PlaySessionOut(Answer):
    """The session going on: from the player's first bet, until IDLE_GAP without one."""

    started_at: Seconds
    minutes: int = Field(description="Whole minutes since the session's first bet")
    time_played_seconds: int = Field(
        description="Whole seconds since the session's first bet, on the casino's clock:"
        " a page counts the session's time on from it, whatever its own clock says"
    )
    net_cents: int
    last_bet_at: Seconds
    ends_at: Seconds = Field(description="When the session ends if no other bet comes")
    reality_check_at: Seconds | None = Field(
        description="When the next reality check falls (or fell) due in this session"
    )


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
    effective_at: Seconds = Field(description="When the limit set applies")
    in_force_cents: int | None = Field(
        description="The limit that applies from now until then (null: none)"
    )
    cancelled: PendingLimit | None = Field(
        description="The raise or removal that was waiting, which this change cancelled"
    )


class RealityOut(Answer):
    minutes: int | None


class ExclusionOut(Answer):
    excluded_until: Seconds
