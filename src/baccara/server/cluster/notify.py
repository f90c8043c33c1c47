"""The notification bus: how every process hears of every table, with PostgreSQL's
LISTEN/NOTIFY — nothing else to run.

The holder of a table tells, once the transaction that wrote them has committed,
which events of which round are new, the balances that changed and any message for the
table (:meth:`Bus.post`). What is posted goes out every :data:`NOTIFY_SECONDS`, as few
notifications as it fits in (a JSON list of messages, :data:`NOTIFY_LIMIT` each): every
notifying commit takes PostgreSQL's one lock of the notification queue, which all the
processes' commits share, so a notification in each bet's transaction capped the whole
casino's bets at what that lock lets through, and cost each bet a round trip. Now a
process notifies at most a hundred times a second however many bets it takes. A user's
tokens revoked, a squeeze's bends and a dealer's tables changed go at once
(:meth:`Bus.publish`).

A process that dies between a commit and its next notification has told nobody of that
commit's events: the processes that follow the table read them with the next
notification of the table, which its next holder sends as it deals on (a mirror reads
from where it stands, the rest of its round before a newer one).

The notifications are a list of messages since this form; a process of an earlier
version reads only single messages, so a casino is upgraded by stopping every process
of the earlier version before the new ones take bets (as a schema migration needs).
Each other process listens, keeps a :class:`~baccara.server.cluster.mirror.Mirror` of
the tables its WebSockets watch, reads the new events from the database and sends
each connection its own view, as the holder does (and closes the sockets of a revoked
token). After a lost connection it catches up with a fresh snapshot of
every table it follows, since notifications sent meanwhile reached nobody.

On SQLite, which one process serves, there is nobody to tell: nothing is sent and
nothing listens.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic

from sqlalchemy import func, select

from baccara.server.cluster.membership import Dealer, H
from baccara.server.cluster.mirror import Mirror

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

log = logging.getLogger("baccara.server")
CHANNEL = "baccara_tables"
NOTIFY_LIMIT = 7000
"""Bytes of one notification's payload (PostgreSQL's limit is 8000): longer ones are split."""
NOTIFY_SECONDS = 0.01
"""How long what is posted waits for more to go with it (see the module's docstring)."""
PAYLOAD_LIMIT = 7999
"""Bytes PostgreSQL takes in one notification's payload (it refuses 8000 or more): a
message longer even after :func:`_split` could never be sent, and is dropped (logged)
rather than hold up every message after it."""
POSTED_LIMIT = 100_000
"""Messages kept while the database cannot be told them; past it the oldest go (whoever
follows those tables catches up on their next notification, or on reconnecting)."""


class Bus(Generic[H]):
    """This process's end of the notifications (see the module's docstring): it tells the
    other processes what its tables did, and follows theirs in :attr:`mirrors`."""

    def __init__(self, dealer: Dealer[H], me: str) -> None:
        self.dealer = dealer
        """The tables' runner this bus tells of and follows for (it deals them here)."""
        self.me = me
        """This process's holder id: its own notifications come back to it, and are skipped."""
        self.shared = not dealer.db.sqlite
        """Whether other processes may deal tables of this database (PostgreSQL)."""
        self.mirrors: dict[int, Mirror] = {}
        """The tables dealt elsewhere that this process's WebSockets follow, by id."""
        self.heard: list[Callable[[dict[str, Any]], None]] = []
        """Called with each notification from another process, before it is acted on: the
        lobby's feed learns from it which tables dealt elsewhere changed."""
        self._listener: asyncio.Task[None] | None = None
        self._posted: list[str] = []
        """What :meth:`post` queued, in order, each a JSON message (:func:`_split`)."""
        self._sender: asyncio.Task[None] | None = None
        self._sending = asyncio.Lock()
        self._stopped = False
        """Once stopped, nothing more is posted: the database is about to be closed."""

    def start(self) -> None:
        if self.shared:
            self._listener = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        """Send what is posted, then stop listening."""
        self._stopped = True
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
            self._sender = None
        with contextlib.suppress(Exception):  # a database gone: they follow by catching up
            await self._send_posted()
        readers = [m.reader for m in self.mirrors.values() if m.reader is not None]
        tasks = [self._listener] if self._listener is not None else []
        for task in [*tasks, *readers]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._listener = None

    def forget(self, table_id: int) -> None:
        """Stop following a table (it is dealt here now, closed, or to be loaded afresh):
        its mirror goes, and the reader of its notifications with it, so no reader of a
        mirror given up pushes its stale events after a fresh snapshot."""
        mirror = self.mirrors.pop(table_id, None)
        if mirror is not None and mirror.reader is not None:
            mirror.reader.cancel()

    def stopped(self) -> str | None:
        """Why the listener is not running when it should (it died), or ``None``."""
        task = self._listener
        if not self.shared or task is None or not task.done():
            return None
        if task.cancelled():
            return "the listener to the other processes was cancelled"
        return f"the listener to the other processes died: {type(task.exception()).__name__}"

    # --- telling the other processes ---------------------------------------------------------

    def announce(self, session: Session, message: dict[str, Any]) -> None:
        """Tell the other processes, when this transaction commits (nothing on SQLite)."""
        if self.shared:
            _notify(session, _pack(_split({"n": self.me, **message})))

    def post(self, message: dict[str, Any]) -> None:
        """Tell the other processes what has committed, with what else is posted within
        :data:`NOTIFY_SECONDS` (call in the event loop; nothing on SQLite)."""
        if not self.shared or self._stopped:
            return
        for part in _split({"n": self.me, **message}):
            size = len(part.encode())
            if size > PAYLOAD_LIMIT:
                log.error("a table notification of %d bytes cannot be sent", size)
            else:
                self._posted.append(part)
        if len(self._posted) > POSTED_LIMIT:
            del self._posted[: len(self._posted) - POSTED_LIMIT]
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_soon())

    async def _send_soon(self) -> None:
        while self._posted:
            await asyncio.sleep(NOTIFY_SECONDS)
            try:
                await self._send_posted()
            except Exception:  # kept, and tried again
                log.warning("table notifications could not be sent; again", exc_info=True)
                await asyncio.sleep(1.0)

    async def _send_posted(self) -> None:
        """Send everything posted, in order, in one transaction (one after another). What
        was not sent goes back before what was posted meanwhile. Cancelled while its
        thread sends, it waits for the thread: only the thread's outcome says whether the
        messages went (a stop's own send must neither lose nor repeat them)."""
        async with self._sending:
            posted, self._posted = self._posted, []
            if not posted:
                return
            sending = asyncio.ensure_future(asyncio.to_thread(self._send, _pack(posted)))
            try:
                await asyncio.shield(sending)
            except asyncio.CancelledError:
                await asyncio.wait([sending])
                if sending.exception() is not None:
                    self._posted[:0] = posted
                raise
            except Exception:
                self._posted[:0] = posted
                raise

    def _send(self, payloads: list[str]) -> None:
        with self.dealer.db.write() as session:
            _notify(session, payloads)

    def publish(self, message: dict[str, Any]) -> None:
        """Tell the other processes now, outside any transaction of this process's."""
        if not self.shared:
            return
        with self.dealer.db.write() as session:
            self.announce(session, message)

    # --- hearing them --------------------------------------------------------------------------

    async def _listen(self) -> None:
        """Follow the other processes' notifications; after a lost connection, catch up."""
        import psycopg

        url = self.dealer.db.engine.url.set(drivername="postgresql")
        dsn = url.render_as_string(hide_password=False)
        while True:
            conn: psycopg.AsyncConnection[Any] | None = None
            try:
                conn = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
                await conn.execute(f"LISTEN {CHANNEL}")
                await self._catch_up_all()
                async for note in conn.notifies():
                    try:
                        heard = json.loads(note.payload)
                    except ValueError:
                        log.exception("a table notification could not be read")
                        continue
                    for message in heard if isinstance(heard, list) else [heard]:
                        try:
                            await self._heard(message)
                        except Exception:
                            log.exception("a table notification could not be handled")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("listening for table events failed; again in a second", exc_info=True)
                await asyncio.sleep(1.0)
            finally:
                if conn is not None:
                    await asyncio.shield(conn.close())

    async def _heard(self, message: dict[str, Any]) -> None:
        if message.get("n") == self.me:
            return
        for listener in self.heard:
            try:
                listener(message)
            except Exception:
                log.exception("a listener of the table notifications failed")
        hub = self.dealer.hub
        balances = message.get("b")
        if balances:
            hub.balances({int(u): b for u, b in balances.items()})
        for user_id, note in message.get("u", {}).items():
            hub.to_users(None, {int(user_id): note})
        for user_id, generation, token_id in message.get("r", ()):  # tokens revoked there
            hub.revoke(int(user_id), generation, token_id)
        for username, tables in message.get("a", ()):  # a dealer's tables changed there
            hub.reassigned(username, tables)
        table_id = message.get("t")
        if table_id is None:
            return
        if message.get("closed"):
            self.forget(table_id)
            hub.close_table(table_id)
            return
        if message.get("o"):  # opened or handed over there: nginx's choice deals it
            self.dealer.take_offered(table_id)
        if message.get("s") and hub.at(table_id) and table_id not in self.dealer.tables:
            mirror = self.mirrors.get(table_id)
            if mirror is None:  # first news since connections came or the table moved
                await self.dealer.resync(table_id)
            else:
                mirror.notified += message["s"]
                if mirror.reader is None or mirror.reader.done():
                    mirror.reader = asyncio.create_task(self._read_notified(mirror))
        for note in message.get("m", ()):
            hub.broadcast(table_id, note, but=message.get("x"))  # a bend: not to its squeezer

    async def _read_notified(self, mirror: Mirror) -> None:
        """Read a followed table's notified events into its mirror and send them on.

        Each table has its own reader, and a reader takes every notification waiting
        for its table in one read: a busy table costs one read per turn, not one per
        notification, and no table's reads wait behind another's (they queued, one
        notification after another, into tens of seconds under load)."""
        while mirror.notified:
            notified, mirror.notified = mirror.notified, []
            try:
                async with mirror.lock:
                    segments = await asyncio.to_thread(mirror.follow, self.dealer.db, notified)
                    self.dealer.hub.events(mirror.table_id, segments)
            except Exception:  # the next notification reads from where the mirror stands
                log.exception("a followed table's events could not be read")

    async def _catch_up_all(self) -> None:
        """After (re)connecting: every mirrored table's events missed meanwhile."""
        for table_id in list(self.mirrors):
            await self.dealer.resync(table_id)


def _split(message: dict[str, Any]) -> list[str]:
    """The message as notification payloads under PostgreSQL's size limit: balances and
    private notes, which grow with the players, go in further parts if need be."""
    text = json.dumps(message, separators=(",", ":"))
    if len(text) <= NOTIFY_LIMIT:
        return [text]
    parts = []
    head = {k: v for k, v in message.items() if k not in ("b", "u")}
    parts.append(json.dumps(head, separators=(",", ":")))
    for key in ("b", "u"):
        chunk: dict[str, Any] = {}
        for user_id, value in message.get(key, {}).items():
            chunk[str(user_id)] = value
            if len(json.dumps(chunk)) > NOTIFY_LIMIT - 200:
                parts.append(json.dumps({"n": message["n"], key: chunk}, separators=(",", ":")))
                chunk = {}
        if chunk:
            parts.append(json.dumps({"n": message["n"], key: chunk}, separators=(",", ":")))
    return parts


def _pack(parts: list[str]) -> list[str]:
    """Messages (JSON objects, each under :data:`NOTIFY_LIMIT`: :func:`_split`) in as few
    payloads as they fit in, in order: a JSON list of them each, or an object alone."""
    payloads: list[str] = []
    batch: list[str] = []
    size = 2
    for part in parts:
        if batch and size + len(part) + 1 > NOTIFY_LIMIT:
            payloads.append(_listed(batch))
            batch, size = [], 2
        batch.append(part)
        size += len(part) + 1
    if batch:
        payloads.append(_listed(batch))
    return payloads


def _listed(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else "[" + ",".join(parts) + "]"


def _notify(session: Session, payloads: list[str]) -> None:
    """Notify each payload in ``session``'s transaction: delivered if it commits."""
    for payload in payloads:
        session.execute(select(func.pg_notify(CHANNEL, payload)))
