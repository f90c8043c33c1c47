"""The lobby's live feed: every open table's state, over one WebSocket a visitor.

A lobby shows each table's round state and its countdown, the last results, the
players seated and watching, and the limits. Polling ``GET /api/tables`` for it, or a
socket per table, costs a request or a socket per table per visitor; the
:class:`LobbyFeed` instead works out the whole casino's lobby once and sends every
lobby socket the same messages: a snapshot when it opens (``lobby``), then what
changed (``lobby-changes``), at most every :data:`LOBBY_INTERVAL` seconds, however busy
the tables are.

It reads only what everyone sees: a round's phase, its id and nonce, the deadline of
a timer every player sees count down (betting, a peek, a choice, a squeeze), and the results of
rounds that are over, as ``GET /api/tables/{id}/rounds`` gives them to anyone. No card
of a round in play, no peek, no bet and no balance is ever in a lobby message, so the
socket needs no sign-in: signed-in and signed-out visitors get the same bytes. A
player's page may open its socket with a ticket: then, besides, and to that socket
alone, its player's own balance as bets and payouts move it (``balance``, as the table
socket tells it), so the header of a lobby tab is as current as a table's.

What is per process: a round's state is read from the engine of a table dealt here
(under its lock, so only what was committed), and from the database for a table
another process deals, when the notification bus says it changed. "Watching" counts
the table sockets open at a table; each process knows its own, and with several
processes (PostgreSQL) each publishes its counts on the bus when they change and every
:data:`HEARTBEAT` seconds, and adds the others' it heard in the last
:data:`NODE_SILENT` seconds. A process that died is forgotten after that, so for up
to :data:`NODE_SILENT` seconds its sockets are still counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.websockets import WebSocket, WebSocketDisconnect

from baccara.server.clock import Clock
from baccara.server.cluster.hub import Balance, Hub, converse, encode
from baccara.server.cluster.notify import Bus
from baccara.server.db import store
from baccara.server.db.database import Database
from baccara.server.db.models import CasinoTable
from baccara.server.db.models import Round as RoundRow
from baccara.server.domain.types import Live
from baccara.server.domain.views import recent_rounds, table_json
from baccara.server.observe.logs import get_logger
from baccara.table import Round
from baccara.table.round import Phase

log = get_logger()

LOBBY_INTERVAL = 0.5
"""Seconds between two ``lobby-changes`` messages, at least: a lobby of busy tables
changes many times a second, and a person reads it no faster than this."""
LOBBY_ROUNDS = 60
"""Rounds over that the lobby keeps of each table: the miniature big road's last dozen
columns, a streak or two long."""
TABLES_EVERY = 5.0
"""Seconds between two reads of the open tables' list when other processes may open
tables (PostgreSQL); the tables this process deals are known at once."""
HEARTBEAT = 10.0
"""Seconds between two publications of this process's watcher counts, when nothing
changed and some are not zero."""
NODE_SILENT = 3 * HEARTBEAT
"""Seconds after which another process's watcher counts, heard no more, are forgotten."""
QUEUE_LIMIT = 64
"""Lobby messages waiting for one socket before it is closed: it reconnects and gets a
fresh snapshot, which is all it missed."""
BEHIND = 1013
"""The close code of a lobby socket too far behind (WebSocket's "try again later")."""
RESTART = 1012
"""The close code of every lobby socket when the casino stops ("service restart")."""
SIGNED_OUT = 4401
"""The close code of a signed-in lobby socket whose token expired or was revoked."""
TIMED = frozenset({Phase.BETTING, Phase.PEEK, Phase.CHOOSING, Phase.SQUEEZE})
"""The phases whose deadline the lobby shows: timers every player at the table sees
count down. A deal's and a reveal's steps are the table's own pace, not a countdown."""


def round_summary(round_id: int | None, round_: Round | None) -> dict[str, Any] | None:
    """What the lobby shows of a round in play: its id, nonce, phase and, in a timed phase,
    when the timer runs out (``None`` while betting waits for its first bet)."""
    if round_ is None or round_id is None:
        return None
    phase = round_.phase
    return {
        "id": round_id,
        "nonce": round_.nonce,
        "state": phase.value,
        "deadline": round_.deadline() if phase in TIMED else None,
    }


@dataclass(eq=False)
class LobbySocket:
    """One lobby visitor's socket: its own queue, so a slow one holds up nobody."""

    websocket: WebSocket
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(QUEUE_LIMIT))
    closing: int = BEHIND
    user_id: int | None = None
    """The signed-in visitor whose socket it is (opened with a ticket), told their own
    balance as it changes; ``None``: a visitor signed out, told only the tables."""
    told: bool = False
    """Whether a new balance has been pushed to it: then the one read as it opened, which
    may be older, is not sent after it."""

    def push(self, text: str | None) -> None:
        """Queue a message; ``None`` closes the socket after what is queued."""
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:  # too far behind: it reconnects for a fresh snapshot
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(None)


@dataclass
class Remote:
    """A table another process deals, as last read from the database."""

    table: dict[str, Any]
    round: dict[str, Any] | None


class LobbyFeed:
    """The lobby's state, worked out once for every lobby socket (see the module)."""

    def __init__(self, db: Database, hub: Hub, tables: dict[int, Live], bus: Bus[Live],
                 clock: Clock) -> None:  # fmt: skip
        self.db, self.hub, self.tables, self.bus, self.clock = db, hub, tables, bus, clock
        self.sockets: set[LobbySocket] = set()
        self.entries: dict[int, dict[str, Any]] = {}
        """Each open table as the lobby sockets were last told it."""
        self.recent: dict[int, list[dict[str, Any]]] = {}
        """Each table's last rounds over, oldest first, as ``GET …/rounds`` gives them."""
        self.static: dict[int, dict[str, Any]] = {}
        """Each table dealt here as the database describes it (it changes only on reopening)."""
        self.remote: dict[int, Remote] = {}
        """The open tables other processes deal."""
        self.dirty: set[int] = set()
        """Tables dealt elsewhere whose state the bus says changed since it was read."""
        self.others: dict[str, tuple[float, dict[int, int]]] = {}
        """Other processes' watcher counts, by process, with when they were heard."""
        self._published: tuple[float, dict[int, int]] = (-math.inf, {})
        self._listed = -math.inf
        self._updated = -math.inf
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        bus.heard.append(self._heard)
        hub.on_balances.append(self._balances)
        hub.on_revoked.append(self._revoked)

    # --- life ------------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for sock in list(self.sockets):
            sock.closing = RESTART
            sock.push(None)

    async def _run(self) -> None:
        while True:
            if not self.sockets and not self.bus.shared:
                self._wake.clear()
                await self._wake.wait()  # nobody to tell, nobody to publish for
            await asyncio.sleep(LOBBY_INTERVAL)
            try:
                if self.bus.shared:
                    await self._publish_watchers()
                if self.sockets:
                    async with self._lock:
                        await self._update()
            except Exception:  # the next turn reads afresh
                log.exception("the lobby's feed could not be updated")

    # --- a socket ------------------------------------------------------------------------

    async def serve(self, websocket: WebSocket, user_id: int | None = None,
                    balance: Callable[[], Awaitable[int | None]] | None = None,
                    expires: float | None = None) -> None:  # fmt: skip
        """Feed an accepted lobby socket until it closes: the snapshot, then the changes.

        The lobby reads only ``ping`` (answered ``pong``); any other text is answered with
        an error naming what it reads, and changes nothing; a binary frame closes the
        socket (1003). A signed-in visitor's socket (``user_id``) is also told their
        balance after the snapshot, and each new one as a bet moves it; it closes (4401)
        when its token ``expires`` or is revoked, and the page opens it again.

        ``balance()`` is awaited once the socket is among those a revocation closes: it
        reads the balance, or answers ``None`` if the token was revoked while the socket
        opened, which then closes (4401) untold."""
        sock = LobbySocket(websocket, user_id=user_id)
        async with self._lock:
            if not self.sockets:  # nobody watched: what the bus said meanwhile may be stale
                self.dirty.update(self.remote)
            if not self.sockets or time.monotonic() - self._updated >= LOBBY_INTERVAL:
                await self._update()  # else the lobby is fresh: visitors arriving together
                # do not make the others' messages come more often
            sock.push(encode({"type": "lobby", "now": self.clock.now(),
                              "tables": [self._full(tid) for tid in sorted(self.entries)]}))  # fmt: skip
            self.sockets.add(sock)
        self._wake.set()
        expiry = None if expires is None else asyncio.create_task(self._expire(sock, expires))

        def read(text: str) -> None:
            if text == "ping":
                sock.push('{"type":"pong"}')
            else:
                sock.push(encode({
                    "type": "error", "code": "unknown_message",
                    "detail": 'the lobby reads only "ping": it sends the tables\' changes'
                              " by itself",
                }))  # fmt: skip

        try:
            if balance is not None:  # read once it is counted: no revocation goes by unseen
                cents = await balance()
                if cents is None:
                    sock.closing = SIGNED_OUT
                    sock.push(None)
                elif not sock.told:
                    sock.push(Balance(cents).text())
            await converse(websocket, asyncio.create_task(self._send(sock)), read)
        finally:
            self.sockets.discard(sock)
            if expiry is not None:
                expiry.cancel()

    async def _send(self, sock: LobbySocket) -> None:
        while True:
            text = await sock.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await sock.websocket.close(code=sock.closing)
                return
            try:
                await sock.websocket.send_text(text)
            except (WebSocketDisconnect, RuntimeError, OSError):
                return

    # --- a signed-in visitor's own -----------------------------------------------------------

    def _balances(self, balances: dict[int, int]) -> None:
        """New balances (a bet, a bet taken back, a round paid, here or in another process):
        each to the lobby sockets of its own player, and to nobody else."""
        for sock in list(self.sockets):
            if sock.user_id is not None and sock.user_id in balances:
                sock.told = True
                sock.push(Balance(balances[sock.user_id]).text())

    def _revoked(self, user_id: int) -> None:
        """Some token of the user's was revoked: their lobby sockets close (4401) and the
        page opens its socket again with the token it holds, if any is still good."""
        for sock in list(self.sockets):
            if sock.user_id == user_id:
                sock.closing = SIGNED_OUT
                sock.push(None)

    async def _expire(self, sock: LobbySocket, expires: float) -> None:
        with contextlib.suppress(TimeoutError):
            async with self.clock.timeout_at(expires):
                await asyncio.Event().wait()
        sock.closing = SIGNED_OUT
        sock.push(None)

    def _full(self, table_id: int) -> dict[str, Any]:
        return {**self.entries[table_id], "recent": self.recent.get(table_id, [])}

    # --- what changed ----------------------------------------------------------------------

    async def _update(self) -> None:
        """Read every open table's state, and tell the lobby sockets what changed (call
        under ``_lock``)."""
        now = self.clock.now()
        self._updated = time.monotonic()
        if self.bus.shared and (self.clock.monotonic() - self._listed >= TABLES_EVERY):
            await asyncio.to_thread(self._list_remote)
            self._listed = self.clock.monotonic()
        if self.dirty:
            dirty, self.dirty = self.dirty, set()
            await asyncio.to_thread(self._read_remote, dirty)
        watching = self._watching()
        fresh: dict[int, dict[str, Any]] = {}
        for table_id, live in list(self.tables.items()):
            if live.closed:
                continue
            async with live.lock:  # what was committed, not what a transaction is doing
                if live.closed:
                    continue
                summary = round_summary(live.round_id, live.table.round)
                seated = {str(s): name for s, name in sorted(live.table.seats.items())}
            if table_id not in self.static:
                described = await asyncio.to_thread(self._describe, table_id)
                if described is None:
                    continue
                self.static[table_id] = described
            fresh[table_id] = {**self.static[table_id], "seated": seated, "round": summary}
        for table_id, remote in self.remote.items():
            if table_id not in fresh:
                fresh[table_id] = {**remote.table, "round": remote.round}
        for table_id, entry in fresh.items():
            entry["watching"] = watching.get(table_id, 0)
        stale = [tid for tid, entry in fresh.items() if self._rounds_moved(tid, entry)]
        added = await asyncio.to_thread(self._read_rounds, stale) if stale else {}
        changed = [{**entry, **({"rounds": added[tid]} if added.get(tid) else {})}
                   for tid, entry in sorted(fresh.items())
                   if entry != self.entries.get(tid) or added.get(tid)]  # fmt: skip
        closed = sorted(set(self.entries) - set(fresh))
        for table_id in closed:
            self.recent.pop(table_id, None)
            self.static.pop(table_id, None)
        self.entries = fresh
        if not (changed or closed):
            return
        text = encode({"type": "lobby-changes", "now": now, "tables": changed, "closed": closed})
        for sock in list(self.sockets):
            sock.push(text)

    def _rounds_moved(self, table_id: int, entry: dict[str, Any]) -> bool:
        """Whether a round may have ended since the table's last rounds were read: none read
        yet, another round in play, or the one in play over."""
        if table_id not in self.recent:
            return True
        before = self.entries.get(table_id, {}).get("round")
        now = entry["round"]
        if before is None or now is None:
            return bool(before != now)
        over = now["state"] in ("settled", "voided") and before["state"] != now["state"]
        return bool(before["id"] != now["id"] or over)

    def _read_rounds(self, table_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
        """Read the tables' last rounds over; return those new since the last read."""
        added: dict[int, list[dict[str, Any]]] = {}
        with self.db.read() as session:
            for table_id in table_ids:
                rows = recent_rounds(session, table_id, LOBBY_ROUNDS)
                known = self.recent.get(table_id)
                last = known[-1]["nonce"] if known else None
                self.recent[table_id] = rows
                if known is not None:
                    added[table_id] = [r for r in rows if last is None or r["nonce"] > last]
        return added

    def _describe(self, table_id: int) -> dict[str, Any] | None:
        with self.db.read() as session:
            row = session.get(CasinoTable, table_id)
            if row is None or row.status != "open":
                return None
            described = table_json(row, {})
            described.pop("seated")
            return described

    # --- tables other processes deal -------------------------------------------------------

    def _list_remote(self) -> None:
        """Which open tables other processes deal: new ones are read, closed ones go."""
        with self.db.read() as session:
            ids = set(session.scalars(select(CasinoTable.id).where(CasinoTable.status == "open")))
        ids -= set(self.tables)
        for table_id in set(self.remote) - ids:
            del self.remote[table_id]
        self._read_remote(ids - set(self.remote))

    def _read_remote(self, table_ids: set[int]) -> None:
        with self.db.read() as session:
            for table_id in table_ids:
                if table_id in self.tables:  # dealt here now: read from its engine
                    self.remote.pop(table_id, None)
                    continue
                found = _read_table(session, table_id)
                if found is None:
                    self.remote.pop(table_id, None)
                else:
                    self.remote[table_id] = found

    def _heard(self, message: dict[str, Any]) -> None:
        """A notification from another process: a table of theirs changed, closed, or its
        process told its watcher counts."""
        counts = message.get("lw")
        if counts is not None:
            node = str(message.get("n"))
            self.others[node] = (self.clock.monotonic(),
                                 {int(t): int(n) for t, n in counts.items()})  # fmt: skip
        table_id = message.get("t")
        if isinstance(table_id, int) and table_id not in self.tables:
            if message.get("closed"):
                self.remote.pop(table_id, None)
            else:
                self.dirty.add(table_id)

    # --- watchers --------------------------------------------------------------------------

    def _local_watchers(self) -> dict[int, int]:
        return {tid: len(conns) for tid, conns in self.hub.connections.items() if conns}

    def _watching(self) -> dict[int, int]:
        counts = self._local_watchers()
        heard_after = self.clock.monotonic() - NODE_SILENT
        for node, (heard, theirs) in list(self.others.items()):
            if heard < heard_after:
                del self.others[node]
                continue
            for table_id, n in theirs.items():
                counts[table_id] = counts.get(table_id, 0) + n
        return counts

    async def _publish_watchers(self) -> None:
        """Tell the other processes this one's watcher counts, when they changed, and every
        :data:`HEARTBEAT` seconds while some are not zero."""
        counts = self._local_watchers()
        at, told = self._published
        due = self.clock.monotonic() - at >= HEARTBEAT and bool(counts)
        if counts == told and not due:
            return
        self._published = (self.clock.monotonic(), counts)
        self.bus.post({"lw": {str(t): n for t, n in counts.items()}})


def _read_table(session: Session, table_id: int) -> Remote | None:
    """A table as the database holds it: described, seated, and its round in play."""
    row = session.get(CasinoTable, table_id)
    if row is None or row.status != "open":
        return None
    last = session.scalars(select(RoundRow).where(RoundRow.table_id == table_id)
                           .order_by(RoundRow.nonce.desc()).limit(1)).first()  # fmt: skip
    round_ = Round.read(store.load_events(session, last.id)) if last is not None else None
    seated = store.seats_of(session, table_id)
    return Remote(table_json(row, seated), round_summary(last.id if last else None, round_))
