"""``WS /ws/tables/{id}?ticket=…``: a table's events as this user may see them, live.

A socket opened with no ticket is a signed-out visitor's, who watches the table as
everyone sees it (:mod:`~baccara.server.http.api.watching`). A player's socket opens
with a ticket from ``POST /api/ws-ticket``, never with the token itself:
a URL is kept by proxies and logs, and a ticket in one is worth nothing once it has
opened its socket or its 30 seconds are up. A URL carrying ``?token=`` is refused.
The ticket is used up only once the socket is sure to open (the table is open, the
user holds fewer sockets than they may), and the socket closes (4401) when the token
it was asked with expires, as it does when the token is revoked.

On connecting (and on every reconnection) the client first receives a snapshot — the
table, its seats, the round in play as this user may see it, their balance — then
each event as it happens. A client that missed messages reconnects and is caught up
by the snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket
from fastapi.concurrency import run_in_threadpool

from baccara.errors import BaccaraError
from baccara.server.cluster.hub import SOCKETS_PER_USER, Close, Connection
from baccara.server.domain.accounts import Claims
from baccara.server.domain.casino import Casino
from baccara.server.errors import AuthError, NotFound, TooManySockets
from baccara.server.http.api.schemas import TableId
from baccara.server.http.api.watching import refuse_missing, watch
from baccara.server.observe.logs import get_logger

router = APIRouter()
log = get_logger()

UNAUTHORIZED = 4000 + AuthError.status
NOT_FOUND = 4000 + NotFound.status
TOO_MANY = 4000 + TooManySockets.status
"""A socket's refusals as close codes: the application's range (4000-4999), each 4000 plus
the status the same refusal gets over HTTP (4401, 4404, 4429)."""


@router.websocket("/ws/tables/{table_id}")
async def table_events(websocket: WebSocket, table_id: TableId, ticket: str | None = None) -> None:
    casino: Casino = websocket.app.state.casino
    if "token" in websocket.query_params:
        await websocket.close(code=UNAUTHORIZED, reason="no token in a URL: open the socket"
                              " with a ticket from POST /api/ws-ticket")  # fmt: skip
        return
    if ticket is None:  # signed out: a watcher, who sees what everyone sees
        await watch(websocket, casino, table_id)
        return
    try:
        user, read = await casino.accounts.read_ticket(ticket)
    except BaccaraError as error:
        await websocket.close(code=UNAUTHORIZED, reason=str(error)[:120])
        return
    claims = read.claims
    source = await casino.source(table_id)
    if source is None:
        await refuse_missing(websocket, casino, table_id)  # 4404 unknown, 4410 closed
        return
    if not casino.hub.admit(user.id):
        await websocket.accept()  # so that the browser reads the code and the reason
        await websocket.close(code=TOO_MANY, reason=f"{SOCKETS_PER_USER} sockets open at"
                              " once already: close a table's page first")  # fmt: skip
        return
    expiry: asyncio.Task[None] | None = None
    try:
        try:
            await casino.accounts.use_ticket(read)
        except BaccaraError as error:
            await websocket.close(code=UNAUTHORIZED, reason=str(error)[:120])
            return
        await websocket.accept()
        dealing = await run_in_threadpool(casino.views.deals_at, user, table_id)
        connection = Connection(websocket, table_id, user.id, user.username, user.role,
                                dealing, claims.generation, claims.token_id)  # fmt: skip
        async with source.lock:  # the snapshot and the first event cannot cross
            connection.push(await run_in_threadpool(casino.snapshot, user, source))
            casino.hub.add(connection)
        try:  # revoked while the socket opened: the hub's revocation missed it
            await casino.accounts.admit(claims)
        except AuthError as error:
            connection.push(Close(UNAUTHORIZED, str(error)[:120]))
        except Exception:  # the check itself failed (the database lost): the client retries
            log.warning("a socket's token could not be checked again", exc_info=True)
            connection.push(Close(1011, "try again in a moment"))
        expiry = asyncio.create_task(_close_on_expiry(casino, connection, claims))
        await casino.connected(user)
        try:
            await casino.hub.pump(connection)
        finally:
            await casino.disconnected(user)
    finally:
        if expiry is not None:
            expiry.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await expiry
        casino.hub.release(user.id)


async def _close_on_expiry(casino: Casino, connection: Connection, claims: Claims) -> None:
    """Close the socket (4401) when the token it opened with expires, on the casino's
    clock: a socket is worth no more than its token."""
    with contextlib.suppress(TimeoutError):
        async with casino.hub.clock.timeout_at(claims.expires):
            await asyncio.Event().wait()
    connection.push(Close(UNAUTHORIZED, "the token has expired: sign in again"))
