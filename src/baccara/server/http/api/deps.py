"""What routes share: the casino, the signed-in user, and role checks.

Each is ``async``: FastAPI runs a plain ``def`` dependency in a worker thread, and a
thread hop for a dictionary look-up cost more than everything else on a bet's path.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from baccara.server.domain.casino import Casino
from baccara.server.domain.types import Caller
from baccara.server.errors import Forbidden
from baccara.server.http.observer import USER

bearer = HTTPBearer(auto_error=False, description="The token from POST /api/auth/login")


async def get_casino(request: Request) -> Casino:
    casino: Casino = request.app.state.casino
    return casino


CasinoDep = Annotated[Casino, Depends(get_casino)]


async def current_user(
    request: Request,
    casino: CasinoDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Caller:
    """The user named by a valid ``Authorization: Bearer …`` token (401 otherwise).

    Their id goes in the request's scope, as the bet lane puts it there, so the request's
    log event names them without checking the token a second time."""
    user = await casino.authenticate(credentials.credentials if credentials else None)
    request.scope[USER] = user.id
    return user


UserDep = Annotated[Caller, Depends(current_user)]


async def admin(user: UserDep) -> Caller:
    if user.role != "admin":
        raise Forbidden("only an admin may do this")
    return user


AdminDep = Annotated[Caller, Depends(admin)]

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        description="Chosen by the client, new for each bet (1-64 characters); a retry with"
        " the same key places the bet once and gets the same answer.",
    ),
]
