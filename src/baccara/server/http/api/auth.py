"""Registering, signing in and out, a new password, a socket's ticket, who am I — and an
admin giving a user another role, which revokes their tokens like a new password."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import BaseModel, Field, StrictStr

from baccara.errors import BaccaraError
from baccara.server.domain import audit
from baccara.server.domain.accounts import TICKET_SECONDS, Claims, Revocation
from baccara.server.domain.addresses import client_key
from baccara.server.domain.types import Caller
from baccara.server.domain.views import HISTORY_LIMIT, history
from baccara.server.errors import (
    AuthError,
    Forbidden,
    InvalidCredentials,
    InvalidRequest,
    NotFound,
    PasswordsBusy,
    TooManyAttempts,
    TooManyPasswordChecks,
    TooManySignUps,
    UsernameTaken,
)
from baccara.server.http.api.answers.players import ClientSeedOut, HistoryRound
from baccara.server.http.api.deps import AdminDep, CasinoDep, UserDep, bearer
from baccara.server.http.api.errors import BAD_BODY, refusals
from baccara.server.http.api.schemas import (
    ClientSeedIn,
    Credentials,
    Me,
    Strict,
    TokenOut,
    Username,
)
from baccara.server.http.observer import USER

router = APIRouter(tags=["players"])


class PasswordIn(Strict):
    current_password: StrictStr = Field(max_length=256)
    new_password: StrictStr = Field(max_length=256)


class TicketOut(BaseModel):
    ticket: str
    expires_in: float


class RoleIn(Strict):
    role: StrictStr = Field(max_length=10)
    reason: StrictStr = Field(min_length=3, max_length=500)


class RoleOut(BaseModel):
    username: str
    role: str


async def signed_in(
    request: Request,
    casino: CasinoDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> tuple[Caller, Claims]:
    """The signed-in user and what their token says: the routes that act on the token."""
    found = await casino.accounts.signed_in(credentials.credentials if credentials else None)
    request.scope[USER] = found[0].id
    return found


SignedIn = Annotated[tuple[Caller, Claims], Depends(signed_in)]


def client_address(request: Request) -> str:
    """Who is asking, for the per-address limits: the connection's address, or the client
    a trusted proxy names (``--forwarded-allow-ips``)."""
    return request.client.host if request.client else ""


@router.post("/api/auth/register", status_code=201, response_model=Me,
             responses=refusals(InvalidCredentials, UsernameTaken, TooManySignUps,
                                TooManyPasswordChecks, PasswordsBusy, *BAD_BODY))  # fmt: skip
async def register(body: Credentials, casino: CasinoDep, request: Request) -> Me:
    """A new player, with the starting balance in play money. The username is refused if
    another's is the same without regard to case, or looks like it (``b0ss`` beside
    ``boss``), or is one the casino's records use (409). One address makes at most
    ``sign_ups_per_hour`` accounts an hour and ``sign_ups_per_day`` a day (429)."""
    address = client_address(request)
    with casino.accounts.passwords.admit(client_key(address)):
        user = await casino.sign_up(body.username, body.password, address)
    return Me(username=user.username, role=user.role,
              balance_cents=await run_in_threadpool(casino.balance, user.id))  # fmt: skip


@router.post("/api/auth/login", response_model=TokenOut,
             responses=refusals(InvalidCredentials, AuthError, TooManyAttempts,
                                TooManyPasswordChecks, PasswordsBusy, *BAD_BODY))  # fmt: skip
async def login(body: Credentials, casino: CasinoDep, request: Request) -> TokenOut:
    """A bearer token for ``Authorization: Bearer …``; the username without regard to case.
    Failed attempts lock their (username, address) pair and their address for a while,
    and slow the username down (429 with Retry-After); the owner, from an address with no
    failures, is never refused."""
    address = client_address(request)
    with casino.accounts.passwords.admit(client_key(address)):
        token = await casino.sign_in(body.username, body.password, address)
    return TokenOut(token=token, expires_in=casino.settings.token_hours * 3600)


@router.post("/api/auth/logout", status_code=204, response_class=Response,
             responses=refusals(AuthError))  # fmt: skip
async def logout(me: SignedIn, casino: CasinoDep) -> Response:
    """Sign out: this token is refused from now on, and its table sockets close (4401).
    The user's other tokens, on other devices, stay signed in."""
    await casino.revoke(await run_in_threadpool(casino.accounts.sign_out, me[1]))
    return Response(status_code=204)


@router.post("/api/auth/logout-everywhere", status_code=204, response_class=Response,
             responses=refusals(AuthError))  # fmt: skip
async def logout_everywhere(user: UserDep, casino: CasinoDep) -> Response:
    """Sign out on every device: each of the user's tokens is refused, this one too."""
    await casino.revoke(await run_in_threadpool(casino.accounts.sign_out_everywhere, user.id))
    return Response(status_code=204)


@router.put("/api/me/password", response_model=TokenOut,
            responses=refusals(AuthError, Forbidden, InvalidCredentials, TooManyAttempts,
                               TooManyPasswordChecks, PasswordsBusy, *BAD_BODY))  # fmt: skip
async def change_password(
    body: PasswordIn, me: SignedIn, casino: CasinoDep, request: Request
) -> TokenOut:
    """A new password, given the current one (403 if it is wrong). Every token of the
    user's is revoked, on every device; the answer is a new token for this one. A user,
    and an address, have only a few changes checked at once (429)."""
    pool, address = casino.accounts.passwords, client_address(request)
    with pool.admit(client_key(address), f"user:{me[0].id}"):
        token, revocation = await pool.run(casino.accounts.change_password, me[1],
                                           body.current_password, body.new_password, address)  # fmt: skip
    await casino.revoke(revocation)
    return TokenOut(token=token, expires_in=casino.settings.token_hours * 3600)


@router.post("/api/ws-ticket", response_model=TicketOut, responses=refusals(AuthError))
async def ws_ticket(me: SignedIn, casino: CasinoDep) -> TicketOut:
    """A ticket that opens one table socket (``/ws/tables/{id}?ticket=…``) within
    30 seconds: the token itself never goes in a URL. The socket closes when the token
    is revoked."""
    expires_in = min(TICKET_SECONDS, me[1].expires - casino.clock())  # never past the token
    return TicketOut(ticket=casino.accounts.ticket(me[1]), expires_in=expires_in)


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


@router.put("/api/admin/users/{username}/role", response_model=RoleOut, tags=["admin"],
            responses=refusals(AuthError, Forbidden, NotFound, InvalidCredentials, *BAD_BODY))  # fmt: skip
async def change_role(
    username: Username, body: RoleIn, admin: AdminDep, casino: CasinoDep
) -> RoleOut:
    """Give a user another role (admins, not their own), with a reason in the audit trail.
    Every token of the user's is revoked: they sign in again, as what they are now."""
    if username == admin.username:
        raise Forbidden("an admin's own role is changed by another admin")

    def write() -> Revocation | None:
        with casino.db.write() as session:
            revocation, unassigned = casino.accounts.change_role(session, username, body.role)
            changes: dict[str, Any] = {"unassigned_tables": unassigned} if unassigned else {}
            audit.record(session, admin.username, admin.role, "role-changed", f"user {username}",
                         body.reason, casino.clock(), new_role=body.role, **changes)  # fmt: skip
            return revocation

    await casino.revoke(await run_in_threadpool(write))
    return RoleOut(username=username, role=body.role)
