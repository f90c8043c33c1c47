"""SQLite's group commit: the write transactions of one turn of the event loop share
one COMMIT.

SQLite has one writer at a time and its COMMIT is the one statement that writes the
log, so the server runs its tables' transactions in the event loop's own thread and
commits those that arrive together at once (see :class:`GroupCommit`). PostgreSQL
answers over a socket: there each transaction waits in a worker thread and commits
alone, and nothing here is used.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

from sqlalchemy.orm import Session

from baccara.server.clock import SYSTEM, Clock
from baccara.server.db.database import Database
from baccara.server.observe.logs import get_logger

BATCH_SECONDS = 0.004
"""How long one group-commit batch may run before it commits and lets the loop answer."""
T = TypeVar("T")

log = get_logger()


class GroupCommit(Generic[T]):
    """Write transactions of one event loop, committed together: SQLite's group commit.

    Each piece of work runs in a SAVEPOINT of a transaction it shares with whatever else
    was queued in the same turn of the loop, and one COMMIT ends them all. Work that
    fails is rolled back to its savepoint alone and gets its exception; if the COMMIT
    fails, every piece gets that error and nothing was written. Nothing waits to fill a
    batch: under light load a batch is one piece, in a transaction of its own (no
    savepoint); under heavy load the commit — the one statement that writes the log — is
    shared by as many as arrived together.

    A batch is also bounded in time (:data:`BATCH_SECONDS`): the loop runs nothing else
    while it is written, so twenty tables settling in the same moment, each paying every
    bet of its round, would hold every bet that arrives meanwhile for tens of
    milliseconds. Once a batch has taken its time, it commits what it ran and the rest
    waits for the next turn of the loop — so the answers of the batch go out, and the
    sockets are read, between two parts. The next batch gives what was left over the
    first half of its time (at least one piece, oldest first) and what arrived in
    between the rest: a bet at a table whose round is settled is not held by the
    settlements of nineteen others (a bet at a table still settling waits for its
    table, whose lock it needs), and what was left over is never starved by a stream of
    new arrivals. What a batch has no time for is left over, for the next, in the order
    it came. (Pieces of one table never wait here together: each holds its table's lock
    while it waits.)
    """

    def __init__(
        self,
        database: Database,
        seconds: float = BATCH_SECONDS,
        clock: Clock = SYSTEM,
        batches: Callable[[int], None] | None = None,
    ) -> None:
        self.database = database
        self.clock = clock
        self.seconds = seconds
        self.batches = batches
        """Told how many pieces each committed batch carried (the metrics' histogram)."""
        self._pending: list[tuple[Callable[[Session], T], asyncio.Future[T]]] = []
        self._left: list[tuple[Callable[[Session], T], asyncio.Future[T]]] = []
        """What the last batch had no time for."""
        self._scheduled = False

    async def run(self, work: Callable[[Session], T]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._pending.append((work, future))
        self._schedule()
        return await future

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        left = [(w, f) for w, f in self._left if not f.done()]
        arrived = [(w, f) for w, f in self._pending if not f.done()]
        self._left, self._pending = [], []  # (a piece whose caller was cancelled is skipped)
        if not left and len(arrived) == 1:  # alone: its own transaction, no savepoint
            work, future = arrived[0]
            try:
                with self.database.write() as session:
                    answer = work(session)
            except Exception as error:  # rolled back
                future.set_exception(error)
            else:
                future.set_result(answer)
                self._committed(1)
            return
        if not left and not arrived:
            return
        outcomes: list[tuple[asyncio.Future[T], T | None, Exception | None]] = []
        start = self.clock.monotonic()
        ran: list[int] = []
        try:
            with self.database.write() as session:
                for pieces, share in ((left, 0.5), (arrived, 1.0)):
                    count = 0
                    for work, future in pieces:
                        if outcomes and self.clock.monotonic() - start > share * self.seconds:
                            break  # the rest in the next turn (below)
                        count += 1
                        try:
                            with session.begin_nested():
                                session.connection()  # the SAVEPOINT, before any statement
                                outcomes.append((future, work(session), None))
                        except Exception as error:  # handed to its caller
                            outcomes.append((future, None, error))
                    ran.append(count)
        except Exception as error:  # the commit failed: nothing was written
            for _, future in left + arrived:  # (what had no turn yet too: no retry loop)
                if not future.done():
                    future.set_exception(error)
            return
        for future, result, failure in outcomes:
            if future.done():  # its caller was cancelled; what it did is committed
                continue
            if failure is not None:
                future.set_exception(failure)
            else:
                future.set_result(result)  # type: ignore[arg-type]
        self._defer(left[ran[0] :] + arrived[ran[1] :])
        self._committed(len(outcomes))

    def _committed(self, pieces: int) -> None:
        """Tell :attr:`batches` of a committed batch, once its pieces have their answers:
        a failure there is logged, never the batch's (each waiter holds its table's lock
        until it has its answer)."""
        if self.batches is None:
            return
        try:
            self.batches(pieces)
        except Exception:
            log.exception("a batch could not be counted", pieces=pieces)

    def _defer(self, rest: list[tuple[Callable[[Session], T], asyncio.Future[T]]]) -> None:
        """The pieces a batch had no time for, for the next (see the class docstring)."""
        if rest:
            self._left = rest
            self._schedule()
