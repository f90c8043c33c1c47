"""The operator's report (admins): each table's win against what the mathematics says."""

from __future__ import annotations

import datetime
from typing import Any

from fastapi import APIRouter, Query

from baccara.errors import BaccaraError
from baccara.server.domain import backoffice
from baccara.server.errors import AuthError, Forbidden, InvalidRequest
from baccara.server.http.api.answers.backoffice import ReportOut
from baccara.server.http.api.deps import AdminDep, CasinoDep
from baccara.server.http.api.errors import refusals

router = APIRouter(tags=["admin"])


LATEST = datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=datetime.UTC).timestamp()
"""The last moment a report may name (the calendar's last day): seconds past it, or before
the epoch, or not a number at all (``nan``, ``inf``) are no time a round was played."""
MAX_MOMENT_TEXT = 40
"""The longest ``from`` or ``to`` read: an ISO date-time with its offset is 32 characters."""


def _moment(name: str, text: str | None, default: float) -> float:
    """Seconds since the epoch, or an ISO date or date-time (UTC unless it says otherwise)."""
    if text is None:
        return default
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        if not 0 <= seconds <= LATEST:  # nan and the infinities fail this too
            raise InvalidRequest(f"query.{name}: seconds since the epoch, from 0 to {LATEST:.0f},"
                                 f" got {text!r}")  # fmt: skip
        return seconds
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise BaccaraError(f"not a date or time: {text!r} (use 2026-11-30 or seconds)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    try:
        seconds = moment.timestamp()
    except (OverflowError, ValueError):  # a date whose offset takes it past the calendar
        seconds = -1.0
    if not 0 <= seconds <= LATEST:
        raise InvalidRequest(f"query.{name}: a moment from 1970 to 9999, got {text!r}")
    return seconds


@router.get("/api/admin/report", response_model=ReportOut,
            responses=refusals(AuthError, Forbidden, BaccaraError, InvalidRequest))  # fmt: skip
def report(
    admin: AdminDep, casino: CasinoDep,
    from_: str | None = Query(None, alias="from", max_length=MAX_MOMENT_TEXT,
                              description="Start (ISO date or seconds)"),
    to: str | None = Query(None, max_length=MAX_MOMENT_TEXT,
                           description="End, exclusive (default: now)"),
) -> dict[str, Any]:  # fmt: skip
    """Per table and per game: rounds, handle, actual and theoretical win, σ, z, hold %."""
    now = casino.clock()
    until = _moment("to", to, now + 1)
    since = _moment("from", from_, max(0.0, until - 86_400))
    if since >= until:
        raise BaccaraError("from must be before to")
    with casino.db.read() as session:
        return backoffice.report(session, since, until)
