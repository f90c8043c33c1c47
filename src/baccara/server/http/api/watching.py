"""Watching a table signed out: ``WS /ws/tables/{id}`` opened with no ticket.

The lobby says anyone may look at the tables, and so anyone may: a socket asked for
with no ticket is a **watcher's**. It gets what a spectator sees and nothing more —
the table, its seats, the round in play as the table shows it to everyone (a face-down
card stays face down, the peeking bettor's cards reach the peeker alone), then each
event as the spectator's view of it. A watcher has no balance, no name and no seat:
every action at a table is an HTTP request that needs a sign-in, so the socket is
read-only by what it is. A watcher counts among the table's watchers in the lobby, and
its connection counts against its address's like any other (the guard rails'
``MAX_CONNECTIONS_PER_ADDRESS``), which bounds how many one client may open.

A table that is not open closes the socket with a code that says why:
:data:`UNKNOWN_TABLE` (4404) for a table that never existed, :data:`CLOSED_TABLE` (4410,
as HTTP's 410 Gone) for one that has closed, so the page says which and stops
reconnecting.
"""

from __future__ import annotations

from typing import Any

from fastapi import WebSocket
from fastapi.concurrency import run_in_threadpool

from baccara.server.cluster.hub import Connection
from baccara.server.cluster.mirror import Mirror
from baccara.server.db.database import Database
from baccara.server.db.models import CasinoTable
from baccara.server.domain.casino import Casino
from baccara.server.domain.types import Caller, Live
from baccara.server.errors import NotFound

UNKNOWN_TABLE = 4000 + NotFound.status
"""The close code of a socket asked for a table that does not exist (4404)."""
CLOSED_TABLE = 4410
"""The close code of a socket asked for a table that has closed (4410, HTTP's 410 Gone)."""
WATCHER_ID = 0
"""A watcher's user id in the hub: no account has it, so no balance or private message
is ever sent to a watcher."""
WATCHER = Caller(WATCHER_ID, "", "watcher")
"""Who a watcher is to the views: no one — a name no player has (usernames are never
empty), so each event reaches them as a spectator's view."""


def table_status(db: Database, table_id: int) -> str | None:
    """A table's status as the database holds it (``open``, ``closed``), ``None`` if there
    was never such a table."""
    with db.read() as session:
        row = session.get(CasinoTable, table_id)
        return None if row is None else row.status


async def refuse_missing(websocket: WebSocket, casino: Casino, table_id: int) -> None:
    """Close the socket for a table that is not open: 4410 if it has closed, else 4404."""
    status = await run_in_threadpool(table_status, casino.db, table_id)
    await websocket.accept()  # so that the browser reads the code (refused before, it reads 1006)
    if status is not None and status != "open":
        await websocket.close(code=CLOSED_TABLE, reason=f"table {table_id} is closed")
    else:
        await websocket.close(code=UNKNOWN_TABLE, reason=f"no table {table_id}")


def snapshot(casino: Casino, source: Live | Mirror) -> dict[str, Any]:
    """What a watcher's socket gets first (call under the table's lock): the table and the
    round in play as everyone may see it; no balance, no one's own."""
    round_id = source.round_id
    views = casino.views
    return {
        "type": "snapshot",
        "table": views.table(source),
        "round": views.round(WATCHER, round_id, source) if round_id is not None else None,
        "balance_cents": None,
        "you": None,
    }


async def watch(websocket: WebSocket, casino: Casino, table_id: int) -> None:
    """Serve a watcher's socket at the table until either side closes it."""
    source = await casino.source(table_id)
    if source is None:
        await refuse_missing(websocket, casino, table_id)
        return
    await websocket.accept()
    connection = Connection(websocket, table_id, WATCHER_ID, WATCHER.username, WATCHER.role,
                            dealing=False)  # fmt: skip
    async with source.lock:  # the snapshot and the first event cannot cross
        connection.push(await run_in_threadpool(snapshot, casino, source))
        casino.hub.add(connection)
    await casino.hub.pump(connection)
