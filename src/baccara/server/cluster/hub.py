"""The WebSocket hub: each connection at a table gets its own view of every event.

What a connection may see is decided here, on the server, by the table engine's view
(:func:`baccara.table.view`): a face-down card reaches nobody until it is exposed,
a peek reaches the peeker alone, a live table's dealer sees what they dealt. Sending
everything and hiding it in the browser would be a leak.

Each connection has a queue and its own sender, so a slow client never holds up the
table or the other players, and one that has stopped reading is dropped
(:data:`~baccara.server.http.transport.WRITE_PATIENCE`). A message is encoded once — its
JSON and its WebSocket frame (:data:`SOCKET_FRAMES`) — not once per connection: every
seat but the dealer's and a peeker's sees the spectator's view, so a table of a hundred
costs one view and one ``json.dumps`` per change, not a hundred.

When messages wait in a connection's queue — a busy table, many bets committed in the
same moment — its sender sends them together: the new events of one round as one
``events`` message (the events in order, exactly as the separate messages held them)
and, of several balances, the newest. A socket is written at most every
:data:`SEND_INTERVAL`: a message for a socket written less than that ago waits for the
rest of the interval, and goes with whatever else arrived meanwhile. A quiet table's
messages go as they come; a busy table's bets reach each player a few at a time, ten
times a second — as a person watches chips land — and each write of a socket, a
system call on both sides, is shared by several. Either way a client gets every
event, in order, once.

The hub also closes what must not stay open: the sockets of a token just revoked
(:meth:`Hub.revoke`, 4401), a user's socket past :data:`SOCKETS_PER_USER`
(:meth:`Hub.admit`, 4429), and a socket that sends a binary frame, which the casino
never reads (1003).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.frames import Frame, Opcode

from baccara.server.clock import SYSTEM, Clock
from baccara.server.observe.logs import get_logger
from baccara.table import Round, Viewer, sees_more, view
from baccara.table.events import Peeked

log = get_logger()

SOCKET_SEND = "baccara.socket_send"
"""Where a WebSocket's scope keeps the server's own ``send``, as it reaches the Guard.

The hub sends a table's messages — most of what a busy casino sends — with it: through
the framework's layers (each wraps ``send`` to watch HTTP answers, which a WebSocket
message is not) every message cost as much again. The socket is accepted, refused and
closed through the framework as usual."""

SOCKET_FRAMES = "baccara.socket_frames"
"""Where a WebSocket's scope keeps its protocol's writer of frames made once for every
socket (:meth:`~baccara.server.http.transport.CasinoWebSocket.write_frames`).

A popular table's change goes to thousands of sockets as the same text; made into a
WebSocket frame by each socket's protocol, that text was encoded and framed thousands of
times, most of what the process did. The frame a server sends has no mask and, with no
extension (serve.py turns permessage-deflate off), the same bytes on every socket: the
hub makes it once (:func:`frames`) and each socket's protocol writes those bytes, or
says it cannot (an extension was negotiated) and the text goes the framework's way."""
FrameWriter = Callable[[bytes], Awaitable[bool]]

QUEUE_LIMIT = 1000
"""Messages waiting for one client before it is dropped (it reconnects and catches up)."""
SEND_TOGETHER = 100
"""The most queued messages one send takes together."""
SEND_INTERVAL = 0.1
"""Seconds between two writes of one socket, at least (see the module's docstring)."""
SOCKETS_PER_USER = 8
"""Table sockets one user may hold open in one process, at every table together: a page
each for a few tables, and a reload's new socket while the old one closes."""
UNSUPPORTED = 1003
"""The close code of a socket that sent a binary frame (WebSocket's "unsupported data")."""
LEFT_KEPT = 10_000
"""Closed pages whose time the hub remembers; past it the older half is forgotten, and
reads as closed since the process started — which it is."""


@dataclass(frozen=True)
class Events:
    """New events of one round as a viewer sees them: the inside of the JSON list, encoded
    once and shared by every connection that sees the same."""

    table_id: int
    round_id: int
    body: str

    def text(self) -> str:
        return (f'{{"type":"events","table_id":{self.table_id},"round_id":{self.round_id},'
                f'"events":[{self.body}]}}')  # fmt: skip


@dataclass(frozen=True)
class Balance:
    """A user's new balance: only the newest of several waiting is worth sending."""

    cents: int

    def text(self) -> str:
        return f'{{"type":"balance","balance_cents":{self.cents}}}'


@dataclass(frozen=True)
class Close:
    """Close the connection, after what was queued before, with this code and reason."""

    code: int
    reason: str


Outgoing = str | Events | Balance | Close | None
"""A queued message: encoded text, events or a balance to send (together with others
waiting), or a :class:`Close` (``None``: the server's restart code, 1012) to close the
connection."""


def together(waiting: list[Outgoing]) -> list[str]:
    """The texts to send for ``waiting`` (no ``None`` in it): each round's events that
    follow one another (balances between them aside) as one message, and the newest
    balance in place of the older ones.

    Joined once for every socket that waited for the very same messages: a popular
    table's spectators are sent one shared :class:`Events` per change and most of them
    gather the same few at a time, so a table of thousands joins them a few times, not
    once a socket."""
    return list(_together_once(tuple(waiting)))


def frame(text: str) -> bytes:
    """The frame a server sends ``text`` in: final, unmasked, no extension.

    >>> frame("hi")
    b'\\x81\\x02hi'
    """
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


@functools.lru_cache(maxsize=256)
def frames(waiting: tuple[Outgoing, ...]) -> bytes:
    """The frames of :func:`together`'s texts for ``waiting``, one after the other: one
    write of the socket, made once for every socket that waited for the same."""
    return b"".join(frame(text) for text in _together_once(waiting))


@functools.lru_cache(maxsize=256)
def _together_once(waiting: tuple[Outgoing, ...]) -> tuple[str, ...]:
    out: list[Events | Balance | str] = []
    for message in waiting:
        assert message is not None and not isinstance(message, Close)
        if isinstance(message, Balance):
            out = [m for m in out if not isinstance(m, Balance)]
        elif isinstance(message, Events):
            last = next((i for i in range(len(out) - 1, -1, -1)
                         if not isinstance(out[i], Balance)), None)  # fmt: skip
            before = out[last] if last is not None else None
            if (isinstance(before, Events) and before.round_id == message.round_id
                    and before.table_id == message.table_id):  # fmt: skip
                assert last is not None
                out[last] = Events(message.table_id, message.round_id,
                                   f"{before.body},{message.body}")  # fmt: skip
                continue
        out.append(message)
    return tuple(m if isinstance(m, str) else m.text() for m in out)


@dataclass(eq=False)
class Connection:
    websocket: WebSocket
    table_id: int
    user_id: int
    username: str
    role: str
    dealing: bool
    """Whether the socket is its table's dealer's, decided as it opens: a dealer assigned
    to this live table sees its face-down cards and the staff's names; any other dealer
    is shown what a player is."""
    generation: int = 0
    """The token generation of the token the socket opened with."""
    token_id: str = ""
    """That token's id: the socket closes when the token is revoked (:meth:`Hub.revoke`)."""
    queue: asyncio.Queue[Outgoing] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))

    @property
    def send(self) -> Callable[[Message], Awaitable[None]]:
        """How a message goes out: the server's own ``send`` when the Guard kept it."""
        raw: Callable[[Message], Awaitable[None]] | None = self.websocket.scope.get(SOCKET_SEND)
        return raw or self.websocket.send

    @property
    def frames(self) -> FrameWriter | None:
        """The protocol's writer of ready frames, where it has one (:data:`SOCKET_FRAMES`)."""
        writer: FrameWriter | None = self.websocket.scope.get(SOCKET_FRAMES)
        return writer

    def __post_init__(self) -> None:
        self.viewer = Viewer(self.username, dealer=self.role == "dealer" and self.dealing)
        """Who the socket's table engine view is for: fixed as it opens (a dealer whose
        tables change is reconnected, :meth:`Hub.reassigned`)."""

    def push(self, message: dict[str, Any] | Outgoing) -> None:
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


def encode(message: dict[str, Any] | list[Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


async def converse(
    socket: WebSocket, sender: asyncio.Task[None], read: Callable[[str], None]
) -> None:
    """Read a socket's text messages into ``read`` while ``sender`` writes to it, until
    the client goes away; then stop the sender. A binary frame, which nothing the
    casino serves reads, closes the socket (1003). Table and lobby sockets both end so,
    and the caller forgets its socket after this returns."""
    binary = False
    try:
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                binary = True
                break
            read(text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
    if binary:
        with contextlib.suppress(Exception):
            await socket.close(code=UNSUPPORTED, reason="text messages only")


class Talk(Protocol):
    """What reads a table socket's messages besides its pings: the squeeze's bends
    (:class:`~baccara.server.cluster.bends.Bends`)."""

    def read(self, connection: Connection, text: str) -> bool: ...

    def gone(self, connection: Connection) -> None: ...


@dataclass(frozen=True)
class Segment:
    """New events of one round: ``round_.events[since:]``."""

    round_: Round
    round_id: int
    since: int


class Hub:
    def __init__(self, clock: Clock = SYSTEM) -> None:
        self.clock = clock
        """Paces each socket's sends (its ``monotonic``)."""
        self.connections: dict[int, set[Connection]] = {}
        """Each table's connections."""
        self.users: dict[int, set[Connection]] = {}
        """Each user's connections, at every table: a new balance goes straight to them."""
        self.listeners: list[Callable[[int, Sequence[Segment]], None]] = []
        """Called with each batch of a table's new events before the sockets get theirs:
        the casino's log and metrics read what was committed here."""
        self.held: dict[int, int] = {}
        """Each user's sockets, from their admission (:meth:`admit`) to their end."""
        self.on_balances: list[Callable[[dict[int, int]], None]] = []
        """Called with each batch of new balances (:meth:`balances`): the lobby's feed
        tells the signed-in lobby sockets of theirs."""
        self.on_revoked: list[Callable[[int], None]] = []
        """Called with the user whose tokens were revoked (:meth:`revoke`): the accounts
        forget what they knew of them."""
        self.left: dict[tuple[int, str], float] = {}
        """When each user's last connection at a table closed, by (table, username): the
        table stands up a seated player whose page stays closed (:meth:`away_since`)."""
        self.started = clock.now()
        """Before it, nothing is known of anyone's pages (this process was not running)."""
        self.talk: Talk | None = None
        """What a table socket's other messages go to (the squeeze's bends)."""

    def add(self, connection: Connection) -> None:
        self.connections.setdefault(connection.table_id, set()).add(connection)
        self.users.setdefault(connection.user_id, set()).add(connection)
        self.left.pop((connection.table_id, connection.username), None)

    def remove(self, connection: Connection) -> None:
        at_table = self.connections.get(connection.table_id, set())
        at_table.discard(connection)
        if not any(c.username == connection.username for c in at_table):
            if len(self.left) >= LEFT_KEPT:  # the oldest read as closed since the start
                for key, _ in sorted(self.left.items(), key=lambda item: item[1])[: LEFT_KEPT // 2]:
                    del self.left[key]
            self.left[(connection.table_id, connection.username)] = self.clock.now()
        mine = self.users.get(connection.user_id)
        if mine is not None:
            mine.discard(connection)
            if not mine:
                del self.users[connection.user_id]

    def at(self, table_id: int) -> list[Connection]:
        return list(self.connections.get(table_id, ()))

    def admit(self, user_id: int) -> bool:
        """Count a new socket of the user's, unless they hold :data:`SOCKETS_PER_USER`
        already (``False``); every admitted one is :meth:`release` d when it ends. Counted
        before the socket is accepted, so sockets opened all at once cannot all pass."""
        held = self.held.get(user_id, 0)
        if held >= SOCKETS_PER_USER:
            return False
        self.held[user_id] = held + 1
        return True

    def release(self, user_id: int) -> None:
        held = self.held.get(user_id, 0) - 1
        if held > 0:
            self.held[user_id] = held
        else:
            self.held.pop(user_id, None)

    def revoke(self, user_id: int, generation: int | None = None,
               token_id: str | None = None) -> None:  # fmt: skip
        """Close (4401) the user's sockets opened with a token issued before ``generation``
        or with the token ``token_id``, and tell :attr:`on_revoked`."""
        for listener in self.on_revoked:
            listener(user_id)
        for connection in list(self.users.get(user_id, ())):
            if (generation is not None and connection.generation < generation) or (
                token_id is not None and connection.token_id == token_id
            ):
                connection.push(Close(4401, "signed out: sign in again"))

    def reassigned(self, username: str, tables: Sequence[int]) -> None:
        """Close (1012) the dealer's sockets here that an admin's new assignment (``tables``)
        makes their table's dealer's or no longer: each reopens, and is decided again
        (:attr:`Connection.dealing`), so a dealer taken off a table reads its face-down
        cards no more."""
        dealt = set(tables)
        for connections in self.users.values():
            for connection in list(connections):
                if (
                    connection.username == username
                    and connection.role == "dealer"
                    and (connection.dealing != (connection.table_id in dealt))
                ):
                    connection.push(Close(1012, "your tables changed: reconnecting"))

    def away_since(self, table_id: int, username: str) -> float | None:
        """Since when ``username`` has had no connection at the table here, ``None`` while
        one is open. Of a page closed before this process started, or long ago, all it
        knows is that it has been closed since the start: a round whose betting closed
        before then (one finished after a restart) is never taken to have gone by with
        the page closed."""
        if any(c.username == username for c in self.connections.get(table_id, ())):
            return None
        return self.left.get((table_id, username), self.started)

    def events(self, table_id: int, segments: Sequence[Segment]) -> None:
        """Queue each connection's own view of the new events (call under the table lock)."""
        for listener in self.listeners:
            try:
                listener(table_id, segments)
            except Exception:  # what was committed stands, and goes out to the sockets
                log.exception("a listener of the table's events failed", table=table_id)
        connections = self.at(table_id)
        for segment in segments:
            round_, since = segment.round_, segment.since
            if since >= len(round_.events):
                continue
            # Who sees more than a spectator is read off the segment once (its peekers, a
            # live table's dealer), not asked of each of a popular table's thousands.
            more = _who_sees_more(round_, since, connections)
            public = (
                self._events(table_id, segment, Viewer()) if len(more) < len(connections) else None
            )
            for connection in connections:
                if connection in more:
                    connection.push(self._events(table_id, segment, connection.viewer))
                else:
                    assert public is not None
                    connection.push(public)

    @staticmethod
    def _events(table_id: int, segment: Segment, viewer: Viewer) -> Events:
        shown = view(segment.round_, viewer, segment.since)
        return Events(table_id, segment.round_id, encode(shown)[1:-1])

    def balances(self, balances: dict[int, int]) -> None:
        """Each user's new balance, to every connection of theirs."""
        for listener in self.on_balances:
            try:
                listener(balances)
            except Exception:  # the table sockets get theirs whatever a listener did
                log.exception("a listener of the balances failed")
        for user_id, cents in balances.items():
            for connection in list(self.users.get(user_id, ())):
                connection.push(Balance(cents))

    def to_users(self, table_id: int | None, messages: dict[int, dict[str, Any]]) -> None:
        """Private messages (a new balance) to each user's connections, at one table or all."""
        for user_id, message in messages.items():
            for connection in list(self.users.get(user_id, ())):
                if table_id is None or connection.table_id == table_id:
                    connection.push(message)

    def broadcast(self, table_id: int, message: dict[str, Any], but: str | None = None) -> None:
        """``message`` to everyone at the table (``but`` the sockets of that user)."""
        text = encode(message)
        for connection in self.at(table_id):
            if but is None or connection.username != but:
                connection.push(text)

    def close_table(self, table_id: int) -> None:
        for connection in self.at(table_id):
            connection.push({"type": "table-closed", "table_id": table_id})
            connection.push(None)

    async def pump(self, connection: Connection) -> None:
        """Send the connection's queue until it closes or the client goes away."""

        def read(text: str) -> None:
            if text == "ping":
                connection.push({"type": "pong"})
            elif self.talk is not None:
                self.talk.read(connection, text)

        try:
            await converse(connection.websocket, asyncio.create_task(self._send(connection)), read)
        finally:
            self.remove(connection)
            if self.talk is not None:
                self.talk.gone(connection)

    async def _send(self, connection: Connection) -> None:
        queue, send, write = connection.queue, connection.send, connection.frames
        monotonic = self.clock.monotonic
        sent_at = -SEND_INTERVAL
        while True:
            waiting = [await queue.get()]
            wait = sent_at + SEND_INTERVAL - monotonic()
            if wait > 0 and not _closes(waiting[-1]):
                await asyncio.sleep(wait)  # what else arrives in the meantime goes with it
            sent_at = monotonic()
            while not _closes(waiting[-1]) and len(waiting) < SEND_TOGETHER and not queue.empty():
                waiting.append(queue.get_nowait())
            last = waiting[-1]
            closing = _closes(last)
            sending = tuple(waiting[:-1] if closing else waiting)
            try:
                if sending and (write is None or not await write(frames(sending))):
                    for text in together(list(sending)):
                        await send({"type": "websocket.send", "text": text})
            except (WebSocketDisconnect, RuntimeError, OSError):  # the client went away
                return
            if closing:
                with contextlib.suppress(Exception):
                    if isinstance(last, Close):
                        await connection.websocket.close(code=last.code, reason=last.reason)
                    else:
                        await connection.websocket.close(code=1012)
                return


def _who_sees_more(round_: Round, since: int, connections: list[Connection]) -> set[Connection]:
    """The connections whose viewer :func:`~baccara.table.sees_more` of ``events[since:]``:
    the same answer, found for the segment's few peekers and a live table's dealers."""
    peekers = {event.player for event in round_.events[since:] if isinstance(event, Peeked)}
    if not peekers and not round_.live:
        return set()
    return {c for c in connections
            if (c.viewer.player in peekers or (c.viewer.dealer and round_.live))
            and sees_more(round_, c.viewer, since)}  # fmt: skip


def _closes(message: Outgoing) -> bool:
    return message is None or isinstance(message, Close)
