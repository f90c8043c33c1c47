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


def _moment(text: str | None, default: float) -> float:
    """Seconds since the epoch, or an ISO date or date-time (UTC unless it says otherwise)."""
    if text is None:
        return default
    try:
        return float(text)
    except ValueError:
        pass
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise BaccaraError(f"not a date or time: {text!r} (use 2026-11-30 or seconds)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.timestamp()


@router.get("/api/admin/report", response_model=ReportOut,
            responses=refusals(AuthError, Forbidden, BaccaraError, InvalidRequest))  # fmt: skip
def report(
    admin: AdminDep, casino: CasinoDep,
    from_: str | None = Query(None, alias="from", description="Start (ISO date or seconds)"),
    to: str | None = Query(None, description="End, exclusive (default: now)"),
) -> dict[str, Any]:  # fmt: skip
    """Per table and per game: rounds, handle, actual and theoretical win, σ, z, hold %."""
    now = casino.clock()
    until = _moment(to, now + 1)
    since = _moment(from_, until - 86_400)
    if since >= until:
        raise BaccaraError("from must be before to")
    with casino.db.read() as session:
        return backoffice.report(session, since, until)
