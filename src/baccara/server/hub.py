"""The WebSocket hub: each connection at a table gets its own view of every event.

What a connection may see is decided here, on the server, by the table engine's view
(:func:`baccara.table.view`): a face-down card reaches nobody until it is exposed,
a peek reaches the peeker alone, a live table's dealer sees what they dealt. Sending
everything and hiding it in the browser would be a leak.

Each connection has a queue and its own sender, so a slow client never holds up the
table or the other players. A message is encoded once, not once per connection: every
seat but the dealer's and a peeker's sees the spectator's view, so a table of a hundred
costs one view and one ``json.dumps`` per change, not a hundred.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from baccara.table import Round, Viewer, sees_more, view

QUEUE_LIMIT = 1000
"""Messages waiting for one client before it is dropped (it reconnects and catches up)."""


@dataclass(eq=False)
class Connection:
    websocket: WebSocket
    table_id: int
    user_id: int
    username: str
    role: str
    live_table: bool
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))

    @property
    def viewer(self) -> Viewer:
        return Viewer(self.username, dealer=self.role == "dealer" and self.live_table)

    def push(self, message: dict[str, Any] | str | None) -> None:
        """Queue ``message`` (or its JSON text) for the client; ``None`` closes the
        connection after the rest."""
        if isinstance(message, dict):
            message = encode(message)
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:  # too far behind: close it; the client reconnects
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(None)


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


@dataclass(frozen=True)
class Segment:
    """New events of one round: ``round_.events[since:]``."""

    round_: Round
    round_id: int
    since: int


class Hub:
    def __init__(self) -> None:
        self.connections: dict[int, set[Connection]] = {}
        """Each table's connections."""
        self.users: dict[int, set[Connection]] = {}
        """Each user's connections, at every table: a new balance goes straight to them."""

    def add(self, connection: Connection) -> None:
        self.connections.setdefault(connection.table_id, set()).add(connection)
        self.users.setdefault(connection.user_id, set()).add(connection)

    def remove(self, connection: Connection) -> None:
        self.connections.get(connection.table_id, set()).discard(connection)
        mine = self.users.get(connection.user_id)
        if mine is not None:
            mine.discard(connection)
            if not mine:
                del self.users[connection.user_id]

    def at(self, table_id: int) -> list[Connection]:
        return list(self.connections.get(table_id, ()))

    def events(self, table_id: int, segments: Iterable[Segment]) -> None:
        """Queue each connection's own view of the new events (call under the table lock)."""
        connections = self.at(table_id)
        for segment in segments:
            round_, since = segment.round_, segment.since
            if since >= len(round_.events):
                continue
            public: str | None = None
            for connection in connections:
                viewer = connection.viewer
                if sees_more(round_, viewer, since):
                    connection.push(self._events(table_id, segment, viewer))
                else:
                    public = public or self._events(table_id, segment, Viewer())
                    connection.push(public)

    @staticmethod
    def _events(table_id: int, segment: Segment, viewer: Viewer) -> str:
        shown = view(segment.round_, viewer, segment.since)
        return encode({"type": "events", "table_id": table_id,
                       "round_id": segment.round_id, "events": shown})  # fmt: skip

    def to_users(self, table_id: int | None, messages: dict[int, dict[str, Any]]) -> None:
        """Private messages (a new balance) to each user's connections, at one table or all."""
        for user_id, message in messages.items():
            for connection in list(self.users.get(user_id, ())):
                if table_id is None or connection.table_id == table_id:
                    connection.push(message)

    def broadcast(self, table_id: int, message: dict[str, Any]) -> None:
        text = encode(message)
        for connection in self.at(table_id):
            connection.push(text)

    def close_table(self, table_id: int) -> None:
        for connection in self.at(table_id):
            connection.push({"type": "table-closed", "table_id": table_id})
            connection.push(None)

    async def pump(self, connection: Connection) -> None:
        """Send the connection's queue until it closes or the client goes away."""
        socket = connection.websocket
        sender = asyncio.create_task(self._send(connection))
        try:
            while True:
                message = await socket.receive_text()
                if message == "ping":
                    connection.push({"type": "pong"})
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.remove(connection)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    async def _send(self, connection: Connection) -> None:
        while True:
            message = await connection.queue.get()
            if message is None:
                with contextlib.suppress(Exception):
                    await connection.websocket.close(code=1012)
                return
            try:
                await connection.websocket.send_text(message)
            except (WebSocketDisconnect, RuntimeError):
                return
