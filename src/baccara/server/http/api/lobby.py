"""``WS /ws/lobby``: every open table's state, live, on one socket a visitor.

The lobby's page opens this one socket, whatever the number of tables, and gets a
snapshot of every open table (``lobby``: the table, its seats, its round's state and
countdown, the watchers, its last results), then what changed (``lobby-changes``), a
few times a second at most (see :mod:`baccara.server.domain.lobby`). Nothing in it is
anyone's own, so it opens without a sign-in, for a signed-out visitor as for a player;
a player's page may open it with a ticket from ``POST /api/ws-ticket`` to be told their
own balance too (``balance``, after the snapshot and whenever a bet or a payout moves
it), and nobody else's; a ticket refused closes it (4401), as the table socket does;
it counts against its address's connections like any (the guard rails'
``MAX_CONNECTIONS_PER_ADDRESS``). A URL with ``?token=`` is refused as the table
socket refuses it: a token in a URL is kept by proxies and logs.
"""

from __future__ import annotations

from fastapi import APIRouter, WebSocket
from fastapi.concurrency import run_in_threadpool

from baccara.errors import BaccaraError
from baccara.server.domain.casino import Casino
from baccara.server.errors import AuthError
from baccara.server.http.api.ws import UNAUTHORIZED

router = APIRouter()


@router.websocket("/ws/lobby")
async def lobby_feed(websocket: WebSocket, ticket: str | None = None) -> None:
    casino: Casino = websocket.app.state.casino
    if "token" in websocket.query_params:
        await websocket.close(code=UNAUTHORIZED, reason="no token in a URL: open the lobby"
                              " without one, or with a ticket from POST /api/ws-ticket")  # fmt: skip
        return
    if ticket is None:
        await websocket.accept()
        await casino.lobby.serve(websocket)
        return
    try:
        user, read = await casino.accounts.read_ticket(ticket)
        await casino.accounts.use_ticket(read)
    except BaccaraError as error:
        await websocket.close(code=UNAUTHORIZED, reason=str(error)[:120])
        return
    await websocket.accept()

    async def balance() -> int | None:
        """The player's balance, or ``None`` if their token was revoked as the socket opened
        (asked once the lobby counts the socket, so no revocation goes by unseen)."""
        cents = await run_in_threadpool(casino.balance, user.id)
        try:
            await casino.accounts.admit(read.claims)
        except AuthError:
            return None
        return cents

    await casino.lobby.serve(websocket, user.id, balance, read.claims.expires)
