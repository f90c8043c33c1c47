"""``WS /ws/tables/{id}?token=…``: a table's events as this user may see them, live.

On connecting (and on every reconnection) the client first receives a snapshot — the
table, its seats, the round in play as this user may see it, their balance — then
each event as it happens. A client that missed messages reconnects and is caught up
by the snapshot.
"""

from __future__ import annotations

from fastapi import APIRouter, WebSocket
from fastapi.concurrency import run_in_threadpool

from baccara.errors import BaccaraError
from baccara.server.cluster.hub import Connection
from baccara.server.domain.casino import Casino
from baccara.server.errors import AuthError, NotFound
from baccara.server.http.api.schemas import TableId

router = APIRouter()

UNAUTHORIZED = 4000 + AuthError.status
NOT_FOUND = 4000 + NotFound.status
"""A socket's refusals as close codes: the application's range (4000-4999), each 4000 plus
the status the same refusal gets over HTTP (4401, 4404)."""


@router.websocket("/ws/tables/{table_id}")
async def table_events(websocket: WebSocket, table_id: TableId, token: str | None = None) -> None:
    casino: Casino = websocket.app.state.casino
    try:
        user = await casino.authenticate(token)
    except BaccaraError as error:
        await websocket.close(code=UNAUTHORIZED, reason=str(error)[:120])
        return
    source = await casino.source(table_id)
    if source is None:
        await websocket.close(code=NOT_FOUND, reason=f"no open table {table_id}")
        return
    await websocket.accept()
    connection = Connection(websocket, table_id, user.id, user.username, user.role,
                            source.live_mode)  # fmt: skip
    async with source.lock:  # the snapshot and the first event cannot cross
        connection.push(await run_in_threadpool(casino.snapshot, user, source))
        casino.hub.add(connection)
    await casino.connected(user)
    try:
        await casino.hub.pump(connection)
    finally:
        await casino.disconnected(user)
