"""Is the casino up (liveness), and can this process take bets (readiness)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from baccara.server.domain.readiness import checks
from baccara.server.http.api.answers.health import CheckOut, HealthOut, ReadinessOut
from baccara.server.http.api.deps import CasinoDep
from baccara.server.http.api.errors import refusals

router = APIRouter(tags=["health"])

NOT_READY: dict[int | str, dict[str, Any]] = {
    503: {"model": ReadinessOut, "description": "Not ready: the checks say which failed"}
}


@router.get("/api/health", response_model=HealthOut, responses=refusals())
def health(casino: CasinoDep) -> dict[str, object]:
    with casino.db.read() as session:
        session.execute(text("SELECT 1"))
    return {"status": "ok", "tables": len(casino.tables)}


@router.get("/api/ready", response_model=ReadinessOut,
            responses={**refusals(database=False), **NOT_READY})  # fmt: skip
async def ready(casino: CasinoDep) -> JSONResponse:
    """200 when this process can take bets; 503 when it cannot, naming the check that
    failed: the database answers, its migrations are the newest, every table this process
    should deal is up. A load balancer sends players only to a ready process."""
    found = await checks(casino)
    answer = ReadinessOut(ready=all(c.ok for c in found),
                          checks=[CheckOut(name=c.name, ok=c.ok, detail=c.detail) for c in found])  # fmt: skip
    return JSONResponse(answer.model_dump(), status_code=200 if answer.ready else 503)
