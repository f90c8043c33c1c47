"""Several server processes on one PostgreSQL database: who deals which table, and how
every process hears of every table.

* **Leases** (:mod:`baccara.server.cluster.leases`): each process deals the tables nginx
  routes to it (``--upstream``, :mod:`baccara.server.cluster.placement`) and its fair
  share of the others — divided among the live processes — and renews their leases
  every third of a lease period. When a process dies its leases run out and the others
  take its tables over, going on with the rounds where their logs end. A process
  dealing a table nginx routes to another live process gives it back at the end of its
  round, and the other is told to take it at once; one holding more than its share of
  the rest (another has just started) hands over tables that are between bets.
* **Events** fan out with PostgreSQL's LISTEN/NOTIFY (:mod:`baccara.server.cluster.notify`):
  the holder of a table tells the others what it wrote, and each of them follows the
  tables its WebSockets watch in a :class:`~baccara.server.cluster.mirror.Mirror`.
* **Requests** for a table another process deals are forwarded to it
  (:mod:`baccara.server.http.forward`): a load balancer that does not route by table
  works, at the cost of a second hop for most requests; behind nginx hashing on the
  table only a round's actions and a table changing hands are forwarded.

On SQLite, which one process serves, the same leases are kept (one process holds
them all) and there is nothing to fan out.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import logging
import os
import secrets
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any, Generic, Protocol, TypeVar

import httpx
from sqlalchemy import select, text

from baccara.errors import BaccaraError
from baccara.server.cluster import leases, placement
from baccara.server.cluster.hub import Hub
from baccara.server.cluster.leases import Holder
from baccara.server.cluster.placement import Plan, Upstream, misplaced, plan
from baccara.server.db.database import Database
from baccara.server.db.models import Round as RoundRow
from baccara.server.errors import LeaseLost, SingleProcessDatabase
from baccara.server.settings import Settings
from baccara.table import Phase, Table

T = TypeVar("T")
log = logging.getLogger("baccara.server")


def lock_sqlite(database: str | None) -> IO[bytes] | None:
    """Lock ``database``'s ``.lock`` file for this process, or refuse to start: a second
    process on one SQLite file would deal the same tables."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    handle = open(f"{database}.lock", "ab")  # noqa: SIM115 - held open while the server runs
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise SingleProcessDatabase(
            f"another server process is using the SQLite database {database}: SQLite serves"
            " one process; run several on PostgreSQL (DATABASE_URL)"
        ) from None
    return handle


class Held(Protocol):
    """An open table this process deals, as the cluster sees it: its lease's generation
    (the fencing token), its lock, and whether it was closed or handed on."""

    table_id: int
    table: Table
    generation: int
    lock: asyncio.Lock
    closed: bool
    moved: bool
    give_back: bool
    """nginx routes it to another live process: hand it over when its round ends."""


H = TypeVar("H", bound=Held)


class Dealer(Protocol[H]):
    """What the cluster — its leases here, its notifications in
    :mod:`~baccara.server.cluster.notify` — asks of the process it belongs to. The runner
    of the tables dealt here (:class:`~baccara.server.domain.runner.Runner`) implements
    it; the cluster never imports the domain, so either can be built and tested alone."""

    settings: Settings
    db: Database
    hub: Hub
    tables: dict[int, H]
    """The tables this process deals, by id."""

    def clock(self) -> float: ...

    async def bring_up(self, table_id: int, generation: int, *, void_open: bool) -> None:
        """Deal a table whose lease was just taken, from its stored state."""

    async def drop(self, table_id: int, live: H) -> None:
        """Stop dealing a table another process has taken over."""

    async def resync(self, table_id: int) -> None:
        """Send every connection at a table a fresh snapshot."""

    def take_offered(self, table_id: int) -> None:
        """Another process has just handed over a table: take it if nginx routes it here."""

    def offer(self, table_id: int) -> None:
        """Tell the other processes this one has just handed over a table (or opened one
        nginx routes to another): the process it is routed to takes it at once."""


class Cluster(Generic[H]):
    """This process's part in sharing the tables (see the module's docstring)."""

    def __init__(self, casino: Dealer[H]) -> None:
        self.casino = casino
        self.seconds = casino.settings.lease_seconds
        name = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.me = Holder(name[-80:], casino.settings.node_url or "http://127.0.0.1")
        self.place = casino.settings.upstream
        """This process's place in nginx's hashed upstream (``2/3``), or empty."""
        self.upstream = Upstream.parse(self.place) if self.place else None
        self._warned: set[str] = set()
        """What :meth:`_warn` has logged: each problem once."""
        self.shared = not casino.db.sqlite
        """Whether other processes may deal tables of this database (PostgreSQL)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._round_tables: dict[int, int] = {}
        self._addresses: dict[int, tuple[Holder, float]] = {}
        self._client: httpx.AsyncClient | None = None
        self._lock_file: IO[bytes] | None = None
        self._keeper: ThreadPoolExecutor | None = None
        """The leases' own thread. In the shared pool their renewal would queue behind the
        bets of an overloaded process, and its tables' leases run out while it still
        deals them (seen: 503 "table moving" under a load of twice the capacity)."""

    async def _kept(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``work`` on the leases' own thread."""
        if self._keeper is None:
            self._keeper = ThreadPoolExecutor(1, thread_name_prefix="leases")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._keeper, functools.partial(work, *args, **kwargs))

    @property
    def client(self) -> httpx.AsyncClient:
        """The connections to the other processes, for forwarded requests."""
        if self._client is None:
            limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
            self._client = httpx.AsyncClient(timeout=30, limits=limits)
        return self._client

    # --- joining and leaving --------------------------------------------------------------

    def join(self) -> bool:
        """Say this process is alive. Returns whether it is the only one — the whole
        casino is starting, so a round left open for bets is voided, not resumed.

        A process restarted at the address of one that died takes its tables over at
        once. SQLite serves one process: it holds an exclusive lock on a file beside the
        database (the system frees it when the process dies, however it dies), and takes
        over the leases of the process before it at once."""
        if not self.shared:
            self._lock_file = lock_sqlite(self.casino.db.engine.url.database)
        now = self.casino.clock()
        with self.casino.db.write() as session:
            if self.shared and self.casino.settings.node_url:  # an address of its own
                leases.succeed(session, self.me)
            else:
                leases.sole_holder(session, self.me)
            others = leases.live_nodes(session, now, self.seconds, besides=self.me.id)
            leases.heartbeat(session, self.me, now, self.seconds, upstream=self.place)
            return others == 0

    def alone(self) -> bool:
        """Whether no other process serves this casino now (with the database out of
        reach, not known: taken as not alone, so nothing is voided that others could deal)."""
        if not self.shared:
            return True
        try:
            with self.casino.db.read() as session:
                now = self.casino.clock()
                return leases.live_nodes(session, now, self.seconds, besides=self.me.id) == 0
        except Exception:
            return False

    def start(self) -> None:
        self._tasks.append(asyncio.create_task(self._keep()))

    @property
    def keepers(self) -> tuple[asyncio.Task[None], ...]:
        """The lease keeper's task (one, once started): readiness asks whether it runs."""
        return tuple(self._tasks)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        if self._keeper is not None:
            self._keeper.shutdown(wait=False)
            self._keeper = None

    def leave(self, generations: dict[int, int]) -> list[int]:
        """Hand over every table at once (a graceful stop): nobody waits for a lease to run
        out. Tables this process no longer holds are left as they are. Returns the tables
        handed over."""
        handed: dict[int, int] = {}
        try:
            with self.casino.db.write() as session:
                for table_id, generation in generations.items():
                    with contextlib.suppress(LeaseLost):
                        leases.release(session, table_id, self.me, generation, announce=False)
                        handed[table_id] = generation
                leases.forget(session, self.me)
            for table_id, generation in handed.items():  # committed
                leases.handed_over(table_id, generation, self.me)
        finally:
            if self._lock_file is not None:
                self._lock_file.close()  # and with it the lock
                self._lock_file = None
        return list(handed)

    # --- taking and keeping tables ----------------------------------------------------------

    def take(self, table_ids: list[int] | tuple[int, ...]) -> dict[int, int]:
        """Take the leases of as many of ``table_ids`` as nobody holds: table id →
        generation."""
        taken: dict[int, int] = {}
        now = self.casino.clock()
        with self.casino.db.write() as session:
            if self.shared:  # a holder paused mid-write keeps its lease row locked: give up
                session.execute(text("SET LOCAL lock_timeout = '2s'"))  # and try next cycle
            for table_id in table_ids:
                generation = leases.acquire(session, table_id, self.me, now, self.seconds)
                if generation is not None:
                    taken[table_id] = generation
        for table_id, generation in taken.items():  # committed
            leases.acquired(table_id, generation, self.me)
        return taken

    def plan(self, generations: dict[int, int], *, renew: bool) -> tuple[Plan, set[int]]:
        """What this process should take and give back now
        (:func:`~baccara.server.cluster.placement.plan`), and which tables it deals, of
        ``generations`` (table id → the generation it took).

        With ``renew`` (the keeper's look) it first says it is alive and renews those
        leases; the tables it deals are then the ones still its own."""
        now = self.casino.clock()
        held = set(generations)
        with self.casino.db.write() as session:
            if renew:
                leases.heartbeat(session, self.me, now, self.seconds, upstream=self.place)
                held = leases.renew(session, self.me, generations, now + self.seconds)
            unheld = leases.unheld_tables(session, now)
            open_tables = leases.open_tables(session)
            places: list[str] = []
            processes = 1
            if self.shared:
                places = leases.live_upstreams(session, now, self.seconds, besides=self.me.id)
                processes += leases.live_nodes(session, now, self.seconds, besides=self.me.id)
        others = self._read_places(places)
        return plan(open_tables, held, unheld, self.upstream, others, processes), held

    def _read_places(self, places: list[str]) -> list[Upstream]:
        """The other live processes' places in nginx's upstream; each one that disagrees
        with this process's is logged once (a casino misconfigured forwards what nginx
        should have routed, and says nothing else)."""
        others: list[Upstream] = []
        for written in places:
            try:
                others.append(Upstream.parse(written))
            except BaccaraError:
                self._warn(f"another process says its place in nginx's upstream is {written!r},"
                           " which this one cannot read; its tables are shared fairly")  # fmt: skip
        for problem in misplaced(self.upstream, others):
            self._warn(problem)
        return others

    def _warn(self, problem: str) -> None:
        if problem not in self._warned:
            self._warned.add(problem)
            log.warning(problem)

    def routed_elsewhere(self, table_id: int) -> bool:
        """Whether nginx routes ``table_id`` to another live process (which takes it)."""
        if not self.shared:
            return False
        now = self.casino.clock()
        with self.casino.db.read() as session:
            places = leases.live_upstreams(session, now, self.seconds, besides=self.me.id)
        return placement.routed_elsewhere(table_id, self.upstream, self._read_places(places))

    async def _keep(self) -> None:
        """Every third of a lease: renew, notice tables lost, take unheld ones, share."""
        while True:
            await asyncio.sleep(self.seconds / 3)
            try:
                await self.cycle()
            except Exception:
                log.exception("keeping the table leases failed")

    async def cycle(self) -> None:
        casino = self.casino
        dealt = dict(casino.tables)
        generations = {table_id: live.generation for table_id, live in dealt.items()}
        wanted, held = await self._kept(self.plan, generations, renew=True)
        for table_id, live in dealt.items():
            if table_id not in held and not live.closed:  # (not one handed over meanwhile)
                log.warning("table %s: lease lost to another process", table_id)
                await casino.drop(table_id, live)
        if wanted.take:
            await self.bring_up_all(await self._kept(self.take, wanted.take))
        for table_id, live in list(casino.tables.items()):
            give_back = table_id in wanted.give_back
            if give_back and not live.give_back:
                log.info("table %s: nginx routes it to another process; handed over when"
                         " its round ends", table_id)  # fmt: skip
            live.give_back = give_back  # and kept, should that process have stopped
            if give_back:
                await self._hand_over([live], 1)  # at once if it is between bets
        spare = [casino.tables[t] for t in wanted.spare if t in casino.tables]
        await self._hand_over(spare, wanted.spare_count)

    async def bring_up_all(self, taken: dict[int, int], *, void_open: bool = False) -> None:
        """Deal the tables whose leases were just taken; one that cannot be brought up is
        released at once, for this process or another to try again."""
        for table_id, generation in taken.items():
            try:
                await self.casino.bring_up(table_id, generation, void_open=void_open)
            except Exception:
                log.exception("table %s: could not be brought up; its lease is released",
                              table_id)  # fmt: skip
                self.casino.tables.pop(table_id, None)
                with contextlib.suppress(Exception):
                    await self._kept(self._release, table_id, generation)

    async def _hand_over(self, candidates: list[H], count: int) -> None:
        """Release up to ``count`` of ``candidates`` that are between bets, for others to
        deal."""
        for live in candidates:
            if count <= 0:
                return
            async with live.lock:
                round_ = live.table.round
                idle = round_ is None or (round_.phase is Phase.BETTING and not round_.wagers)
                if not idle or live.closed:
                    continue
                await self._kept(self._release, live.table_id, live.generation)
                live.closed = live.moved = True
            if self.casino.tables.get(live.table_id) is live:
                del self.casino.tables[live.table_id]
            count -= 1
            log.info("table %s: handed over", live.table_id)
            self.casino.offer(live.table_id)

    def _release(self, table_id: int, generation: int) -> None:
        with self.casino.db.write() as session:
            leases.release(session, table_id, self.me, generation, announce=False)
        leases.handed_over(table_id, generation, self.me)

    # --- where a table is dealt ---------------------------------------------------------------

    def table_of_round(self, round_id: int) -> int | None:
        """The table a round was played at (remembered: it never changes)."""
        known = self._round_tables.get(round_id)
        if known is None:
            with self.casino.db.read() as session:
                found = session.scalar(select(RoundRow.table_id).where(RoundRow.id == round_id))
            if found is None:
                return None
            if len(self._round_tables) > 100_000:
                self._round_tables.clear()
            known = self._round_tables[round_id] = int(found)
        return known

    def holder_of(self, table_id: int) -> Holder | None:
        """Which process deals the table now (remembered until its lease would run out)."""
        now = self.casino.clock()
        known = self._addresses.get(table_id)
        if known is not None and known[1] > now:
            return known[0]
        with self.casino.db.read() as session:
            found = leases.holder(session, table_id, now)
        if found is not None:
            self._addresses[table_id] = (found, now + self.seconds / 3)
        return found

    def forget_holder(self, table_id: int) -> None:
        self._addresses.pop(table_id, None)
