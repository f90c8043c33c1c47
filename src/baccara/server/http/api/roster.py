"""The floor (admins): which dealer deals which live table, and each dealer's voids."""

from __future__ import annotations

import datetime
import math
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from fastapi.concurrency import run_in_threadpool
from pydantic import Field, StrictInt, StrictStr

from baccara.errors import BaccaraError
from baccara.server.domain import dealers, voids
from baccara.server.errors import AuthError, Forbidden, InvalidRequest, NotFound
from baccara.server.http.api.answers.backoffice import DealerOut, VoidReportOut
from baccara.server.http.api.deps import AdminDep, CasinoDep
from baccara.server.http.api.errors import BAD_BODY, refusals
from baccara.server.http.api.schemas import MAX_ID, Strict

router = APIRouter(tags=["admin"])

DealerName = Annotated[str, Path(min_length=1, max_length=64, description="A dealer's username")]

MAX_MOMENT_TEXT = 40
"""The longest ``from`` or ``to`` read: an ISO date-time with its offset is 32 characters."""
LATEST = datetime.datetime(9999, 12, 31, tzinfo=datetime.UTC).timestamp()
"""The last moment a period may name: past it, or before the epoch, is no time a round ended."""


def moment(name: str, text: str | None, default: float) -> float:
    """Seconds since the epoch, or an ISO date or date-time (UTC unless it says otherwise),
    within the calendar: ``nan``, the infinities and years past 9999 are refused."""
    if text is None:
        return default
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = datetime.datetime.fromisoformat(text)
        except ValueError:
            raise BaccaraError(f"{name}: not a date or time: {text!r} (use 2026-11-30 or"
                               " seconds)") from None  # fmt: skip
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.UTC)
        try:
            seconds = when.timestamp()
        except (OverflowError, ValueError):
            seconds = math.nan
    if not 0 <= seconds <= LATEST:  # nan fails this too
        raise BaccaraError(f"{name}: a moment from 1970 to 9999, got {text!r}")
    return seconds


class AssignIn(Strict):
    tables: list[Annotated[StrictInt, Field(ge=1, le=MAX_ID)]] = Field(
        max_length=dealers.MAX_TABLES
    )
    reason: StrictStr = Field("", max_length=500)


@router.get("/api/admin/dealers", response_model=list[DealerOut],
            responses=refusals(AuthError, Forbidden))  # fmt: skip
def roster(admin: AdminDep, casino: CasinoDep) -> list[dict[str, Any]]:
    """Every dealer and the live tables they are assigned to."""
    with casino.db.read() as session:
        return dealers.roster(session)


@router.put("/api/admin/dealers/{username}/tables", response_model=DealerOut,
            responses=refusals(AuthError, Forbidden, NotFound, BaccaraError, *BAD_BODY))  # fmt: skip
async def assign(
    username: DealerName, body: AssignIn, admin: AdminDep, casino: CasinoDep
) -> DealerOut:
    """Assign a dealer to these live tables (all of them: a table left out is unassigned).
    A dealer acts only at their tables; the change goes into the audit trail."""

    def write() -> list[int]:
        with casino.db.write() as session:
            return dealers.assign(session, admin, username, body.tables, body.reason.strip(),
                                  casino.clock())  # fmt: skip

    return DealerOut(username=username, tables=await run_in_threadpool(write))


@router.get("/api/admin/voids", response_model=VoidReportOut,
            responses=refusals(AuthError, Forbidden, BaccaraError, InvalidRequest))  # fmt: skip
def void_report(
    admin: AdminDep, casino: CasinoDep,
    from_: str | None = Query(None, alias="from", max_length=MAX_MOMENT_TEXT,
                              description="Start (ISO date or seconds; default: a day before the end)"),
    to: str | None = Query(None, max_length=MAX_MOMENT_TEXT,
                           description="End, exclusive (default: now)"),
    min_rounds: int = Query(voids.MIN_ROUNDS, ge=1, le=1_000_000,
                            description="Rounds a dealer must have dealt to be compared"),
) -> dict[str, Any]:  # fmt: skip
    """The live tables' rounds over the period: per dealer and per table, how many were
    voided and the stakes refunded; the voided rounds, newest first; and each dealer whose
    void share is more than twice the median of the other dealers' flagged."""
    now = casino.clock()
    until = moment("to", to, now + 1)
    since = moment("from", from_, max(0.0, until - 86_400))
    if since >= until:
        raise BaccaraError("from must be before to")
    with casino.db.read() as session:
        return voids.report(session, since, until, min_rounds)
