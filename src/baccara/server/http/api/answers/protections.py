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
