"""Is the casino up (liveness), and can this process take bets (readiness)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from baccara.server.domain.readiness import checks
from baccara.server.errors import AuthError
from baccara.server.http.api.answers.health import CheckOut, HealthOut, ReadinessOut
from baccara.server.http.api.deps import CasinoDep, bearer
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
async def ready(
    casino: CasinoDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> JSONResponse:
    """200 when this process can take bets; 503 when it cannot, naming the check that
    failed: the database answers, its migrations are the newest, every table this process
    should deal is up and held, its scheduler, lease keeper and listener run. A load
    balancer sends players only to a ready process. Anyone may ask; an admin's token
    gets the migration revisions and the table ids in the details too."""
    found = await checks(casino)
    admin = await _is_admin(casino, credentials)
    answer = ReadinessOut(ready=all(c.ok for c in found),
                          checks=[CheckOut(name=c.name, ok=c.ok, detail=c.shown(admin))
                                  for c in found])  # fmt: skip
    return JSONResponse(answer.model_dump(), status_code=200 if answer.ready else 503)


async def _is_admin(casino: CasinoDep, credentials: HTTPAuthorizationCredentials | None) -> bool:
    """Whether the probe carries an admin's token. A probe is never refused for its
    token: one that is not an admin's (or cannot be checked now) gets the public answer."""
    if credentials is None:
        return False
    try:
        user = await casino.authenticate(credentials.credentials)
    except (AuthError, SQLAlchemyError):
        return False
    return user.role == "admin"
