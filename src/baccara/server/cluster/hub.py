"""The WebSocket hub: each connection at a table gets its own view of every event.

What a connection may see is decided here, on the server, by the table engine's view
(:func:`baccara.table.view`): a face-down card reaches nobody until it is exposed,
a peek reaches the peeker alone, a live table's dealer sees what they dealt. Sending
everything and hiding it in the browser would be a leak.

Each connection has its own messages waiting, written in the hub's passes over the
sockets with something to send (:meth:`Hub._flush`) — or, for a socket whose protocol
cannot take the hub's frames, by a sender task of its own — so a slow client never
holds up the table or the other players, and one that has stopped reading is dropped
(:data:`WRITE_PATIENCE`, :data:`QUEUE_LIMIT`). A message is encoded once — its JSON and
its WebSocket frame (:data:`SOCKET_FRAMES`) — not once per connection: every seat but
the dealer's and a peeker's sees the spectator's view, so a table of a hundred costs one
view and one ``json.dumps`` per change, not a hundred.

When messages wait for a connection — a busy table, many bets committed in the same
moment — they are sent together: the new events of one round as one
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
import collections
import contextlib
import functools
import json
import math
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
"""Where a WebSocket's scope keeps its protocol as a :class:`FrameSink`
(:class:`~baccara.server.http.transport.CasinoWebSocket`).

A popular table's change goes to thousands of sockets as the same text. Sent the usual
way, each socket's task woke for it, slept out its interval, and had uvicorn encode and
frame the text again: most of what the process did. The frame a server sends has no
mask and, with no extension (serve.py turns permessage-deflate off), the same bytes on
every socket, so the hub makes it once (:func:`frames`) and, in one pass over the
sockets due (:meth:`Hub._flush`), hands each its bytes; a socket with no sink (one run
in the tests' own process, or with an extension) has a sender task of its own."""


class FrameSink(Protocol):
    """A socket's protocol that writes frames made once for every socket."""

    def takes_frames(self) -> bool:
        """Whether frames made for any socket are right for this one (no extension)."""
        ...

    def write_now(self, data: bytes) -> bool:
        """Write ``data`` (whole frames) now; ``False``, writing nothing, while the
        transport's buffer stands full. Raises :class:`OSError` once the socket closes."""
        ...

    def abort(self) -> None:
        """Drop the connection at once: what is buffered for it is thrown away."""
        ...


QUEUE_LIMIT = 1000
"""Messages waiting for one client before it is dropped (it reconnects and catches up)."""
SEND_TOGETHER = 100
"""The most queued messages one send takes together."""
SEND_INTERVAL = 0.1
"""Seconds between two writes of one socket, at least (see the module's docstring)."""
WRITE_PATIENCE = 10.0
"""Seconds a socket may take nothing, its buffer full, before it is dropped (its
connection aborted: a close frame would only wait behind the rest). A phone on a weak
signal catches up well within it; a client that has stopped reading never does, and
until then it held only its own messages, never the table or the other sockets. Dropped,
it holds no memory either, and a browser that was only slow reconnects to a snapshot."""
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
    pending: collections.deque[Outgoing] = field(default_factory=collections.deque)
    """What waits to be sent, oldest first (at most :data:`QUEUE_LIMIT`)."""

    @property
    def send(self) -> Callable[[Message], Awaitable[None]]:
        """How a message goes out: the server's own ``send`` when the Guard kept it."""
        raw: Callable[[Message], Awaitable[None]] | None = self.websocket.scope.get(SOCKET_SEND)
        return raw or self.websocket.send

    def __post_init__(self) -> None:
        self.viewer = Viewer(self.username, dealer=self.role == "dealer" and self.dealing)
        """Who the socket's table engine view is for: fixed as it opens (a dealer whose
        tables change is reconnected, :meth:`Hub.reassigned`)."""
        scope = getattr(self.websocket, "scope", {})
        self.sink: FrameSink | None = scope.get(SOCKET_FRAMES)
        """Its protocol, where that writes the hub's frames (:data:`SOCKET_FRAMES`)."""
        self.wake: Callable[[Connection], None] | None = None
        """Told of each message pushed, once the hub sends this socket's (:meth:`Hub.start`)."""
        self.ready = asyncio.Event()
        """Set when a message waits: what a socket without a sink's sender waits on."""
        self.sent_at = -math.inf
        """When the socket was last written (the hub clock's ``monotonic``)."""
        self.stalled_since: float | None = None
        """Since when its buffer has stood full with messages waiting (:data:`WRITE_PATIENCE`)."""
        self.closing = False
        """Whether the socket is done with: what is pushed now goes nowhere."""

    def push(self, message: dict[str, Any] | Outgoing) -> None:
        """Queue ``message`` (or its JSON text) for the client; ``None`` closes the
        connection after the rest."""
        if self.closing:
            return
        if isinstance(message, dict):
            message = encode(message)
        if len(self.pending) >= QUEUE_LIMIT:  # too far behind: it reconnects to a snapshot
            self.pending.clear()
            if self.sink is not None:  # not reading: dropped, as a close would wait behind
                self.closing = True  # what it has not read
                self.sink.abort()
                return
            message = None
        self.pending.append(message)
        if self.wake is not None:
            self.wake(self)


def encode(message: dict[str, Any] | list[Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


async def converse(
    socket: WebSocket, sender: asyncio.Task[None] | None, read: Callable[[str], None]
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
        if sender is not None:
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
        self._due: dict[Connection, None] = {}
        """The sockets with a sink and messages waiting, in the order they came."""
        self._flush_at = math.inf
        self._flusher: asyncio.TimerHandle | None = None
        self._closers: set[asyncio.Task[None]] = set()

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
        """Send the connection's messages until it closes or the client goes away."""

        def read(text: str) -> None:
            if text == "ping":
                connection.push({"type": "pong"})
            elif self.talk is not None:
                self.talk.read(connection, text)

        try:
            await converse(connection.websocket, self.start(connection), read)
        finally:
            connection.closing = True
            connection.wake = None
            self._due.pop(connection, None)
            self.remove(connection)
            if self.talk is not None:
                self.talk.gone(connection)

    def start(self, connection: Connection) -> asyncio.Task[None] | None:
        """Begin sending the connection's messages, those already waiting first: in the
        hub's passes if it has a sink, else by a sender task of its own (returned)."""
        sink = connection.sink
        if sink is not None and not sink.takes_frames():  # an extension: its frames are its own
            connection.sink = None
        connection.wake = self._woken
        if connection.sink is None:
            return asyncio.create_task(self._send(connection))
        if connection.pending:
            self._woken(connection)
        return None

    def _woken(self, connection: Connection) -> None:
        if connection.sink is None:
            connection.ready.set()
        elif connection not in self._due:
            self._due[connection] = None
            at_once = _closes(connection.pending[0])  # a close never waits out the interval
            self._flush_by(-math.inf if at_once else connection.sent_at + SEND_INTERVAL)

    def _flush_by(self, when: float) -> None:
        """Have :meth:`_flush` run by ``when`` (the clock's ``monotonic``), or at once."""
        if when >= self._flush_at:
            return
        if self._flusher is not None:
            self._flusher.cancel()
        self._flush_at = when
        delay = max(0.0, when - self.clock.monotonic())
        self._flusher = asyncio.get_running_loop().call_later(delay, self._flush)

    def _flush(self) -> None:
        """One pass over the sockets with messages waiting: each that was last written at
        least :data:`SEND_INTERVAL` ago (or has a close waiting) is written what waits,
        as the frames made once for all who waited for the same; the others are left
        for the next pass, due when the first of them is."""
        self._flusher, self._flush_at = None, math.inf
        now = self.clock.monotonic()
        later = math.inf
        for connection in list(self._due):
            try:
                due = self._write(connection, now)
            except Exception:  # that socket's trouble, never the others'
                log.exception("a socket could not be written", table=connection.table_id)
                due = None
            if due is None:
                self._due.pop(connection, None)
            else:
                later = min(later, due)
        if later < math.inf:
            self._flush_by(later)

    def _write(self, connection: Connection, now: float) -> float | None:
        """Write what waits for ``connection`` if it is due: when to look again, or
        ``None`` once nothing waits (or the socket is done with)."""
        pending, sink = connection.pending, connection.sink
        assert sink is not None
        if not pending or connection.closing:
            return None
        due = connection.sent_at + SEND_INTERVAL
        if due > now and not _closes(pending[0]):
            return due
        waiting = _waiting(pending)
        closing = _closes(waiting[-1])
        sending = tuple(waiting[:-1] if closing else waiting)
        try:
            written = not sending or sink.write_now(frames(sending))
        except OSError:  # the client went away: its reader ends the connection
            connection.closing = True
            return None
        if not written:
            if connection.stalled_since is None:
                connection.stalled_since = now
            elif now - connection.stalled_since >= WRITE_PATIENCE:
                connection.closing = True
                sink.abort()
                log.info("slow socket dropped", table=connection.table_id,
                         seconds=WRITE_PATIENCE)  # fmt: skip
                return None
            return now + SEND_INTERVAL
        connection.stalled_since = None
        connection.sent_at = now
        for _ in waiting:
            pending.popleft()
        if closing:
            connection.closing = True
            closer = asyncio.ensure_future(_close_or_drop(connection, sink, waiting[-1]))
            self._closers.add(closer)
            closer.add_done_callback(self._closers.discard)
            return None
        return now + SEND_INTERVAL if pending else None

    async def _send(self, connection: Connection) -> None:
        """The sender of a socket without a sink: its messages through the framework's
        ``send``, paced and gathered as the passes do."""
        pending, send = connection.pending, connection.send
        monotonic = self.clock.monotonic
        while True:
            while not pending:
                connection.ready.clear()
                await connection.ready.wait()
            wait = connection.sent_at + SEND_INTERVAL - monotonic()
            if wait > 0 and not _closes(pending[0]):
                await asyncio.sleep(wait)  # what else arrives in the meantime goes with it
            connection.sent_at = monotonic()
            waiting = _waiting(pending)
            for _ in waiting:
                pending.popleft()
            closing = _closes(waiting[-1])
            try:
                for text in together(waiting[:-1] if closing else waiting):
                    await send({"type": "websocket.send", "text": text})
            except (WebSocketDisconnect, RuntimeError, OSError):  # the client went away
                connection.closing = True
                return
            if closing:
                connection.closing = True
                await _close(connection, waiting[-1])
                return


def _waiting(pending: collections.deque[Outgoing]) -> list[Outgoing]:
    """What one write takes of ``pending``, from the oldest: up to :data:`SEND_TOGETHER`
    messages, or up to and with the first close."""
    waiting: list[Outgoing] = []
    for message in pending:
        waiting.append(message)
        if _closes(message) or len(waiting) == SEND_TOGETHER:
            break
    return waiting


async def _close_or_drop(connection: Connection, sink: FrameSink, last: Outgoing) -> None:
    """Close a socket the passes write: its close frame waits behind what it has not read,
    so one that takes nothing for :data:`WRITE_PATIENCE` is dropped instead."""
    try:
        await asyncio.wait_for(_close(connection, last), WRITE_PATIENCE)
    except TimeoutError:
        sink.abort()
        log.info("slow socket dropped", table=connection.table_id, seconds=WRITE_PATIENCE)


async def _close(connection: Connection, last: Outgoing) -> None:
    """Close the socket as ``last`` says (``None``: the server's restart code, 1012)."""
    with contextlib.suppress(Exception):
        if isinstance(last, Close):
            await connection.websocket.close(code=last.code, reason=last.reason)
        else:
            await connection.websocket.close(code=1012)


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
