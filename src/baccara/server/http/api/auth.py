"""Registering, signing in, and who am I."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool

from baccara.server.domain.views import HISTORY_LIMIT, history
from baccara.server.http.api.deps import CasinoDep, UserDep
from baccara.server.http.api.schemas import REFUSALS, ClientSeedIn, Credentials, Me, TokenOut

router = APIRouter(tags=["players"], responses=REFUSALS)


@router.post("/api/auth/register", status_code=201, response_model=Me)
async def register(body: Credentials, casino: CasinoDep) -> Me:
    """A new player, with the starting balance in play money."""
    user = await run_in_threadpool(casino.register, body.username, body.password)
    return Me(username=user.username, role=user.role,
              balance_cents=await run_in_threadpool(casino.balance, user.id))  # fmt: skip


@router.post("/api/auth/login", response_model=TokenOut)
async def login(body: Credentials, casino: CasinoDep, request: Request) -> TokenOut:
    """A bearer token for ``Authorization: Bearer …``. Failed attempts are rate-limited per
    username and per address (429)."""
    address = request.client.host if request.client else ""
    token = await run_in_threadpool(casino.login, body.username, body.password, address)
    return TokenOut(token=token, expires_in=casino.settings.token_hours * 3600)


@router.get("/api/me", response_model=Me)
def me(user: UserDep, casino: CasinoDep) -> Me:
    return Me(username=user.username, role=user.role, balance_cents=casino.balance(user.id))


@router.get("/api/me/history")
def my_history(
    user: UserDep, casino: CasinoDep, limit: int = Query(HISTORY_LIMIT, ge=1, le=100)
) -> list[dict[str, object]]:
    """The player's rounds, newest first: wagers, returns, balance before and after, steps."""
    with casino.db.read() as session:
        return history(session, user.id, user.username, limit)


@router.put("/api/me/client-seed")
def set_client_seed(body: ClientSeedIn, user: UserDep, casino: CasinoDep) -> dict[str, str]:
    """The seed that cuts the shoe when this player is a round's highest bettor."""
    return {"client_seed": casino.set_client_seed(user, body.client_seed)}


@router.get("/api/me/client-seed")
def get_client_seed(user: UserDep, casino: CasinoDep) -> dict[str, str | None]:
    return {"client_seed": casino.client_seed(user)}
