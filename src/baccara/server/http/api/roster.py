"""The floor (admins): which dealer deals which live table, and each dealer's voids."""

from __future__ import annotations

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
from baccara.server.http.api.moments import From, To, period
from baccara.server.http.api.schemas import MAX_ID, Strict

router = APIRouter(tags=["admin"])

DealerName = Annotated[str, Path(min_length=1, max_length=64, description="A dealer's username")]


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

    tables = await run_in_threadpool(write)
    # the dealer's sockets, here and in the other processes, are decided again as they reopen
    casino.hub.reassigned(username, tables)
    await run_in_threadpool(casino.bus.publish, {"a": [[username, tables]]})
    return DealerOut(username=username, tables=tables)


@router.get("/api/admin/voids", response_model=VoidReportOut,
            responses=refusals(AuthError, Forbidden, InvalidRequest))  # fmt: skip
def void_report(
    admin: AdminDep, casino: CasinoDep,
    from_: From = None, to: To = None,
    min_rounds: int = Query(voids.MIN_ROUNDS, ge=1, le=1_000_000,
                            description="Rounds a dealer must have dealt to be compared"),
) -> dict[str, Any]:  # fmt: skip
    """The live tables' rounds over the period: per dealer and per table, how many were
    voided and the stakes refunded; the voided rounds, newest first; and each dealer whose
    void share is more than twice the median of the other dealers' flagged."""
    since, until = period(from_, to, casino.clock())
    with casino.db.read() as session:
        return voids.report(session, since, until, min_rounds)
