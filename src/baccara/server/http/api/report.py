"""The operator's report (admins): each table's win against what the mathematics says."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from baccara.server.domain import backoffice
from baccara.server.errors import AuthError, Forbidden, InvalidRequest
from baccara.server.http.api.answers.backoffice import ReportOut
from baccara.server.http.api.deps import AdminDep, CasinoDep
from baccara.server.http.api.errors import refusals
from baccara.server.http.api.moments import From, To, period

router = APIRouter(tags=["admin"])


@router.get("/api/admin/report", response_model=ReportOut,
            responses=refusals(AuthError, Forbidden, InvalidRequest))  # fmt: skip
def report(
    admin: AdminDep, casino: CasinoDep,
    from_: From = None, to: To = None,
) -> dict[str, Any]:  # fmt: skip
    """Per table and per game: rounds, handle, actual and theoretical win, σ, z, hold %."""
    since, until = period(from_, to, casino.clock())
    with casino.db.read() as session:
        return backoffice.report(session, since, until)
