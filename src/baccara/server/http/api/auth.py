"""Registering, signing in, and who am I."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool

from baccara.errors import BaccaraError
from baccara.server.domain.views import HISTORY_LIMIT, history
from baccara.server.errors import (
    AuthError,
    InvalidCredentials,
    InvalidRequest,
    TooManyAttempts,
    UsernameTaken,
)
from baccara.server.http.api.answers.players import ClientSeedOut, HistoryRound
from baccara.server.http.api.deps import CasinoDep, UserDep
from baccara.server.http.api.errors import BAD_BODY, refusals
from baccara.server.http.api.schemas import ClientSeedIn, Credentials, Me, TokenOut

router = APIRouter(tags=["players"])


@router.post("/api/auth/register", status_code=201, response_model=Me,
             responses=refusals(InvalidCredentials, UsernameTaken, *BAD_BODY))  # fmt: skip
async def register(body: Credentials, casino: CasinoDep) -> Me:
    """A new player, with the starting balance in play money."""
    user = await run_in_threadpool(casino.register, body.username, body.password)
    return Me(username=user.username, role=user.role,
              balance_cents=await run_in_threadpool(casino.balance, user.id))  # fmt: skip


@router.post("/api/auth/login", response_model=TokenOut,
             responses=refusals(InvalidCredentials, AuthError, TooManyAttempts, *BAD_BODY))  # fmt: skip
async def login(body: Credentials, casino: CasinoDep, request: Request) -> TokenOut:
    """A bearer token for ``Authorization: Bearer …``. Failed attempts are rate-limited per
    username and per address (429)."""
    address = request.client.host if request.client else ""
    token = await run_in_threadpool(casino.login, body.username, body.password, address)
    return TokenOut(token=token, expires_in=casino.settings.token_hours * 3600)


@router.get("/api/me", response_model=Me, responses=refusals(AuthError))
def me(user: UserDep, casino: CasinoDep) -> Me:
    return Me(username=user.username, role=user.role, balance_cents=casino.balance(user.id))


@router.get("/api/me/history", response_model=list[HistoryRound],
            responses=refusals(AuthError, InvalidRequest))  # fmt: skip
def my_history(
    user: UserDep, casino: CasinoDep, limit: int = Query(HISTORY_LIMIT, ge=1, le=100)
) -> list[dict[str, Any]]:
    """The player's rounds, newest first: wagers, returns, balance before and after, steps."""
    with casino.db.read() as session:
        return history(session, user.id, user.username, limit)


@router.put("/api/me/client-seed", response_model=ClientSeedOut,
            responses=refusals(AuthError, BaccaraError, *BAD_BODY))  # fmt: skip
def set_client_seed(body: ClientSeedIn, user: UserDep, casino: CasinoDep) -> ClientSeedOut:
    """The seed that cuts the shoe when this player is a round's highest bettor."""
    return ClientSeedOut(client_seed=casino.set_client_seed(user, body.client_seed))


@router.get("/api/me/client-seed", response_model=ClientSeedOut, responses=refusals(AuthError))
def get_client_seed(user: UserDep, casino: CasinoDep) -> ClientSeedOut:
    return ClientSeedOut(client_seed=casino.client_seed(user))
