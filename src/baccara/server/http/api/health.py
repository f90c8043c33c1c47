"""Is the casino up (liveness), and can this process take bets (readiness)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import text

from baccara.server.domain.readiness import checks
from baccara.server.http.api.deps import CasinoDep
from baccara.server.http.api.schemas import REFUSALS

router = APIRouter(tags=["health"], responses=REFUSALS)


class Health(BaseModel):
    status: str
    tables: int


class CheckOut(BaseModel):
    name: str
    ok: bool
    detail: str


class Readiness(BaseModel):
    """Whether this process can take bets, and each check behind the answer."""

    ready: bool
    checks: list[CheckOut]


@router.get("/api/health", response_model=Health)
def health(casino: CasinoDep) -> dict[str, object]:
    with casino.db.read() as session:
        session.execute(text("SELECT 1"))
    return {"status": "ok", "tables": len(casino.tables)}


@router.get(
    "/api/ready",
    response_model=Readiness,
    responses={503: {"model": Readiness, "description": "Not ready: a check failed"}},
)
async def ready(casino: CasinoDep) -> JSONResponse:
    """200 when this process can take bets; 503 when it cannot, naming the check that
    failed: the database answers, its migrations are the newest, every table this process
    should deal is up. A load balancer sends players only to a ready process."""
    found = await checks(casino)
    answer = Readiness(ready=all(c.ok for c in found),
                       checks=[CheckOut(name=c.name, ok=c.ok, detail=c.detail) for c in found])  # fmt: skip
    return JSONResponse(answer.model_dump(), status_code=200 if answer.ready else 503)
