"""The player's protections: loss limits, reality checks, self-exclusion, and their page."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import Field, StrictBool, StrictInt

from baccara.errors import BaccaraError
from baccara.server.db import store
from baccara.server.db.models import User
from baccara.server.domain import responsible
from baccara.server.errors import AuthError, ConfirmationNeeded
from baccara.server.http.api.answers.protections import (
    ExclusionOut,
    LimitOut,
    PendingLimit,
    ProtectionsOut,
    RealityOut,
)
from baccara.server.http.api.deps import CasinoDep, UserDep
from baccara.server.http.api.errors import BAD_BODY, refusals
from baccara.server.http.api.schemas import State, Strict

router = APIRouter(tags=["protections"])
CHANGES = refusals(AuthError, BaccaraError, *BAD_BODY)
"""What a change of the player's protections may be refused with."""
LIMIT_CHANGES = refusals(AuthError, BaccaraError, ConfirmationNeeded, *BAD_BODY)


class LimitIn(Strict):
    period: Literal["day", "week", "month"]
    loss_limit_cents: StrictInt | None = Field(ge=0, le=10**12)
    confirm: StrictBool = Field(
        default=False, description="Required (true) for a limit of 0.00, which stops all play"
    )


class RealityIn(Strict):
    minutes: StrictInt | None = Field(ge=responsible.REALITY_MINUTES[0],
                                      le=responsible.REALITY_MINUTES[1])  # fmt: skip


class ExclusionIn(Strict):
    days: StrictInt = Field(ge=1, le=responsible.MAX_EXCLUSION_DAYS)


@router.get("/api/me/protections", response_model=ProtectionsOut,
            responses=refusals(AuthError))  # fmt: skip
def my_protections(user: UserDep, casino: CasinoDep) -> dict[str, Any]:
    """The player's limits (and any raise still waiting its day), self-exclusion, reality
    check, time played today and net result."""
    with casino.db.read() as session:
        row = session.get(User, user.id)
        assert row is not None
        return responsible.summary(session, row, store.wallet(session, user.id).id, casino.clock())


@router.put("/api/me/limits", response_model=LimitOut, responses=LIMIT_CHANGES)
def set_limit(body: LimitIn, user: UserDep, casino: CasinoDep) -> LimitOut:
    """A loss limit over a rolling day, week (7 days) or month (30 days). Lowering applies
    at once; raising (or ``null``, no limit) only after 24 hours. Either replaces a raise
    or removal still waiting. A limit of 0.00 needs ``confirm: true``."""
    with casino.db.write() as session:
        change = responsible.set_limit(session, user.id, body.period, body.loss_limit_cents,
                                       casino.clock(), confirm=body.confirm)  # fmt: skip
    limit, cancelled = change.limit, change.cancelled
    return LimitOut(
        period=limit.period, loss_limit_cents=limit.limit_cents, effective_at=limit.effective_at,
        in_force_cents=change.in_force_cents,
        cancelled=None if cancelled is None else PendingLimit(
            loss_limit_cents=cancelled.limit_cents, effective_at=cancelled.effective_at),
    )  # fmt: skip


@router.put("/api/me/reality-check", response_model=RealityOut, responses=CHANGES)
def set_reality_check(body: RealityIn, user: UserDep, casino: CasinoDep) -> RealityOut:
    """Every ``minutes`` of play, a reminder of the time and the result; ``null`` for none."""
    with casino.db.write() as session:
        row = session.get(User, user.id)
        assert row is not None
        row.reality_check_minutes = body.minutes
    return RealityOut(minutes=body.minutes)


@router.post("/api/me/reality-check/continue", response_model=State,
             responses=refusals(AuthError))  # fmt: skip
def continue_playing(user: UserDep, casino: CasinoDep) -> State:
    """The player has seen the reality check and chooses to go on playing."""
    casino.continue_playing(user)
    return State(state="playing")


@router.post("/api/me/self-exclusion", response_model=ExclusionOut, responses=CHANGES)
def self_exclude(body: ExclusionIn, user: UserDep, casino: CasinoDep) -> ExclusionOut:
    """No bet, and no seat, for ``days`` from now. It cannot be lifted early."""
    with casino.db.write() as session:
        until = responsible.exclude(session, user.id, body.days, casino.clock())
    return ExclusionOut(excluded_until=until)
