"""Is the casino up."""

from __future__ import annotations

from fastapi import APIRouter

from baccara.server.http.api.deps import CasinoDep
from baccara.server.http.api.schemas import REFUSALS

router = APIRouter(tags=["health"], responses=REFUSALS)


@router.get("/api/health")
def health(casino: CasinoDep) -> dict[str, object]:
    with casino.db.read() as session:
        session.execute(__import__("sqlalchemy").text("SELECT 1"))
    return {"status": "ok", "tables": len(casino.tables)}
