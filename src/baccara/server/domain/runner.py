"""The tables this process deals: every table's engine, driven by requests and timers,
committed to the database.

Each table has one :class:`~baccara.table.Table` in memory and one lock. An action
takes the lock, runs the engine (which verifies it and appends events), and commits
in one transaction everything it implies — the bet and its stake's transfer, the
events, a settlement's payouts — then, only after the commit, sends each WebSocket
its own view. If anything fails before the commit, the table is rebuilt from the
database, so memory never holds what the database does not. A scheduler ticks each
table when its engine says a timer is due.

A table is brought up from its stored state when this process takes its lease: a
round whose cards were already fixed is finished from its seed and log; a live round
waiting for cards waits for the dealer again; a round still open for bets is voided and
every bet refunded when the whole casino was down, and goes on when the table is taken
over from a process that died while others ran. A graceful stop of the last process
voids the rounds open for bets and plays out the others before it exits, so the next
start has nothing to recover (see :meth:`Runner.finish_or_void_open_rounds`).

The :class:`Runner` is the :class:`~baccara.server.cluster.membership.Dealer` its
cluster and notification bus ask: they take and hand over its tables through it, and
never import the casino.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from baccara.games import GAMES
from baccara.server.clock import Clock
from baccara.server.cluster import leases
from baccara.server.cluster.hub import Hub, Segment
from baccara.server.cluster.membership import Cluster
from baccara.server.cluster.mirror import Mirror
from baccara.server.cluster.notify import Bus
from baccara.server.db import store
from baccara.server.db.database import Database
from baccara.server.db.group_commit import GroupCommit
from baccara.server.db.models import CasinoTable, Seat, Setting
from baccara.server.db.models import Round as RoundRow
from baccara.server.domain import audit
from baccara.server.domain.scheduler import Scheduler
from baccara.server.domain.types import Caller, Live, Outbox
from baccara.server.domain.views import Views
from baccara.server.errors import LeaseLost, NotFound, RoundInPlay, TableMoved
from baccara.server.settings import Settings
from baccara.table import Mode, Phase, Round, Table, TableConfig
from baccara.table.config import on_step, whole_cents_step
from baccara.table.events import BettingClosed, CardDealt, RoundSettled, RoundVoided, StoodUp

log = logging.getLogger("baccara.server")

DEFAULT_RULE_SETS: tuple[tuple[str, dict[str, Any]], ...] = (("punto-banco", {"variant": "ez"}),)
"""The default tables dealt by a rule set of their game's (with the side bets it brings):
EZ Baccarat, the commission-free game most online casinos deal beside the classic one."""
T = TypeVar("T")
RESTART_VOID = "the casino restarted while betting was open: every bet is refunded"
DEFAULT_TABLES = "default-tables"
"""The setting that says the default tables were made (once in a database's life)."""
SHUTDOWN_VOID = "the casino shut down while betting was open: every bet is refunded"
CLOSE_VOID = "the table was closed while betting was open: every bet is refunded"
BETTING_EVENTS = frozenset(
    {"betting-window", "bet-placed", "bet-removed", "deal-requested", "stood-up"}
)
"""Events that leave a round open for bets: its stored state does not change."""


class Runner:
    """The tables this process deals (see the module's docstring): it brings them up and
    drops them for its :attr:`cluster`, ticks them with its :attr:`scheduler`, and runs
    every action on one in one transaction under its lock (:meth:`act`)."""

    def __init__(
        self,
        settings: Settings,
        db: Database,
        hub: Hub,
        clock: Clock,
        views: Views,
        batches: Callable[[int], None] | None = None,
    ) -> None:
        self.settings = settings
        self.db = db
        self.hub = hub
        self.views = views
        self.time = clock
        self.clock = clock.now
        self.tables: dict[int, Live] = {}
        """The tables this process deals, by id."""
        self.cluster: Cluster[Live] = Cluster(self)
        self.bus: Bus[Live] = Bus(self, self.cluster.me.id)
        self._group: GroupCommit[Any] | None = (
            GroupCommit(db, clock=clock, batches=batches) if db.sqlite else None
        )
        """SQLite's group commit; ``batches`` is told each commit's size (the metrics)."""
        self.scheduler = Scheduler(self.tables, self.tick, clock)
        self._scheduler: asyncio.Task[None] | None = None
        self._stopping = False
        self._leaving = False
        """A graceful stop is handing the leases over: no table offered is taken any more."""
        self._taking: dict[int, asyncio.Task[None]] = {}
        """Tables offered by other processes being taken now (off the bus's listener)."""

    # --- life ------------------------------------------------------------------------------

    async def take_tables(self) -> bool:
        """Join the cluster, take this process's share of the open tables (making the
        default tables on a new database) and bring them up. Returns whether this process
        is the only one: the whole casino is starting."""
        alone = await asyncio.to_thread(self.cluster.join)
        table_ids = await asyncio.to_thread(self.open_table_ids)
        if not table_ids and self.settings.default_tables:
            table_ids = await asyncio.to_thread(self._create_default_tables)
        wanted, _ = await asyncio.to_thread(self.cluster.plan, {}, renew=False)
        taken = await asyncio.to_thread(self.cluster.take, wanted.take)
        # The whole casino is starting: a round left open for bets is voided. A table
        # taken over from a process that died while others ran goes on instead.
        await self.cluster.bring_up_all(taken, void_open=alone)
        return alone

    def start(self) -> None:
        """Run the tables' timers, keep their leases, hear the other processes."""
        self._scheduler = asyncio.create_task(self.scheduler.run())
        self.cluster.start()
        self.bus.start()

    def stopped(self) -> list[str]:
        """What of this process's work has stopped while it should run, in words: the
        scheduler (a process without it takes bets and never closes a round), the keeper
        of the leases, the listener to the other processes. Empty while all run."""
        found: list[str] = []
        if self._scheduler is None:
            found.append("the scheduler is not running")
        elif self._scheduler.done():
            found.append(f"the scheduler {_ended(self._scheduler)}")
        keepers = self.cluster.keepers
        if not keepers:
            found.append("the keeper of the leases is not running")
        found += [f"the keeper of the leases {_ended(task)}" for task in keepers if task.done()]
        listener = self.bus.stopped()
        if listener is not None:
            found.append(listener)
        return found

    async def wind_down(self) -> None:
        """The first half of a graceful stop: the last process of the casino settles or
        voids the rounds in play; one of several hands its tables to the others, who go
        on with them (in :meth:`stop`)."""
        if await asyncio.to_thread(self.cluster.alone):
            await self.finish_or_void_open_rounds()

    async def stop(self) -> None:
        """Stop the timers, let a tick under way finish, and hand every lease over."""
        if self._scheduler is not None:
            self._scheduler.cancel()
            try:
                await self._scheduler
            except asyncio.CancelledError:
                pass
            except Exception:  # it had died (and the readiness check said so)
                log.exception("the scheduler had stopped")
        # A tick under way finishes (a write half done in its thread cannot be cancelled).
        await asyncio.gather(*self.scheduler.ticking.values(), return_exceptions=True)
        await self.cluster.stop()
        self._leaving = True  # a take under way ends, and its table is handed over below
        await asyncio.gather(*self._taking.values(), return_exceptions=True)
        held = {table_id: live.generation for table_id, live in self.tables.items()}
        with contextlib.suppress(Exception):  # a database gone away: the leases run out
            for table_id in await asyncio.to_thread(self.cluster.leave, held):
                self.offer(table_id)  # for the process nginx routes it to, at once
        await self.bus.stop()  # which sends what is posted

    STOP_SECONDS = 30.0
    """How long a graceful stop waits for the rounds whose cards are fixed to play out."""

    async def finish_or_void_open_rounds(self) -> None:
        """Before a graceful stop: open no new round; void and refund each round still open
        for bets; let the scheduler play out and settle each round whose cards are fixed
        (dealing, a peek or a choice on its timer, revealing) — for at most
        :attr:`STOP_SECONDS`, after which the next start finishes it. A live round waiting
        for its dealer's cards waits for them after the restart."""
        self._stopping = True

        def void_if_betting(live: Live) -> Callable[[Session, float], None]:
            def act(session: Session, now: float) -> None:
                round_ = live.table.round
                if round_ is not None and round_.phase is Phase.BETTING:
                    self._void(live, SHUTDOWN_VOID, now)

            return act

        for live in list(self.tables.values()):
            try:
                await self.act(live, void_if_betting(live), reopen=False)
            except Exception:  # the next start voids it instead
                log.exception("table %s: could not void the round open for bets", live.table_id)
        until = self.time.monotonic() + self.STOP_SECONDS
        while self.time.monotonic() < until and any(
            live.deadline() is not None for live in self.tables.values()
        ):
            self.scheduler.wake.set()
            await asyncio.sleep(0.05)

    def open_table_ids(self) -> list[int]:
        with self.db.read() as session:
            return list(session.scalars(select(CasinoTable.id).where(
                CasinoTable.status == "open").order_by(CasinoTable.id)))  # fmt: skip

    def default_configs(self) -> list[TableConfig]:
        """One electronic table of each game in the registry, then a live table for a
        dealer of each game whose table facts ask for one (Punto Banco), then an
        electronic table of each rule set in :data:`DEFAULT_RULE_SETS` (EZ Baccarat, with
        its Dragon 7 and Panda 8), last so the tables before keep their ids. Each takes
        stakes in its rules' whole-cents step (0.20 at Punto Banco, 0.02 at Lo-Ball, a cent
        at EZ Baccarat), so no payout at them is ever rounded, with limits that are
        multiples of it."""
        configs = [self.config(spec.id, 100, 50_000) for spec in GAMES.values()]
        configs += [
            self.config(spec.id, 500, 100_000, mode=Mode.LIVE)
            for spec in GAMES.values()
            if spec.table.default_live_table
        ]
        configs += [
            self.config(game, 100, 50_000, options=dict(options))
            for game, options in DEFAULT_RULE_SETS
        ]
        return configs

    def config(
        self, game: str, low: int, high: int, step: int | None = None, **settings: Any
    ) -> TableConfig:
        """A table of ``game`` with the server's timers. Without a ``step``, the table takes
        stakes in the game's whole-cents step (under the table's rule options), and its
        limits move onto it: the minimum up, the maximum down."""
        if step is None:
            step = whole_cents_step(game, settings.get("options"))
            low, high = on_step(low, step), high - high % step
        return TableConfig(
            game,
            min_bet_cents=low,
            max_bet_cents=high,
            bet_step_cents=step,
            betting_seconds=self.settings.betting_seconds,
            peek_seconds=self.settings.peek_seconds,
            choose_seconds=self.settings.choose_seconds,
            reveal_delay=self.settings.reveal_delay,
            squeeze_seconds=self.settings.squeeze_seconds,
            **settings,
        )

    def _create_default_tables(self) -> list[int]:
        """The default tables, once in the database's life: processes starting together
        on a new database create them once, and tables an operator closed stay closed.
        Their bet steps come from the exact analyses, worked out before the transaction
        (they take a second or two) and only while the tables are still to be made."""
        with self.db.read() as session:
            made = session.get(Setting, DEFAULT_TABLES) is not None
        if made:
            return self.open_table_ids()
        configs = self.default_configs()
        try:
            with self.db.write() as session:
                session.add(Setting(name=DEFAULT_TABLES, value="created"))
                session.flush()
                now = self.clock()
                return [store.insert_table(session, c, now).id for c in configs]
        except IntegrityError:  # another process made them, or they were made long ago
            return self.open_table_ids()

    # --- opening and closing a table ----------------------------------------------------------

    async def open_table(self, config: TableConfig, by: Caller | None = None) -> int:
        """Open a new table (``by`` an operator, recorded in the audit log) and deal it here,
        unless another process takes its lease first."""

        def insert() -> int:
            with self.db.write() as session:
                now = self.clock()
                table_id = store.insert_table(session, config, now).id
                if by is not None:
                    audit.record(session, by.username, by.role, "table-opened",
                                 f"table {table_id}", "", now, game=config.game,
                                 mode=config.mode.value, options=dict(config.options),
                                 limits=[config.min_bet_cents, config.max_bet_cents],
                                 bet_step_cents=config.bet_step_cents)  # fmt: skip
                return table_id

        table_id = await asyncio.to_thread(insert)
        if await asyncio.to_thread(self.cluster.routed_elsewhere, table_id):
            self.offer(table_id)  # nginx's choice takes it, and opens its first round
            if await self._opened_elsewhere(table_id):
                return table_id
        taken = await asyncio.to_thread(self.cluster.take, [table_id])
        await self.cluster.bring_up_all(taken)
        if table_id not in self.tables:  # another process took it first: its first round
            await self._opened_elsewhere(table_id)
        return table_id

    OFFER_SECONDS = 3.0
    """How long a table opened here waits for the process nginx routes it to to open its
    first round, before this one deals it (to give it back at the end of a round)."""

    async def _opened_elsewhere(self, table_id: int) -> bool:
        """Whether another process opened the table's first round within
        :data:`OFFER_SECONDS`."""

        def opened() -> bool:
            with self.db.read() as session:
                found = session.scalar(
                    select(RoundRow.id).where(RoundRow.table_id == table_id).limit(1)
                )
                return found is not None

        loop = asyncio.get_running_loop()  # real time, whatever clock the tables keep
        deadline = loop.time() + self.OFFER_SECONDS
        while loop.time() < deadline:
            if await asyncio.to_thread(opened):
                return True
            await asyncio.sleep(0.02)
        return False

    def take_offered(self, table_id: int) -> None:
        """Deal a table another process has just opened or handed over, if nginx routes
        it here (the others let it be: nginx sends them none of its requests). Taken in
        a task of its own: the bus's listener, which calls this, goes on with the other
        notifications meanwhile."""
        upstream = self.cluster.upstream
        if (
            self._leaving
            or table_id in self.tables
            or table_id in self._taking
            or upstream is None
            or not upstream.routes(table_id)
        ):
            return

        async def take() -> None:
            try:
                taken = await asyncio.to_thread(self.cluster.take, [table_id])
                await self.cluster.bring_up_all(taken)
            except Exception:  # the keeper's next cycle takes it
                log.exception("table %s: could not be taken when offered", table_id)
            finally:
                del self._taking[table_id]

        self._taking[table_id] = asyncio.create_task(take())

    async def close_table(self, table_id: int, by: Caller, reason: str = "") -> None:
        """Close a table. A round still open for bets is voided and every bet refunded, as
        a graceful stop does; an electronic round past betting is played out from its
        seeds and settled, since its cards are fixed (:func:`play_out`); a live table whose
        dealer is dealing a round is refused (:class:`RoundInPlay`): the dealer finishes
        the round, or voids it with a reason, and the table closes after."""
        live = self.live(table_id)

        def close(session: Session, now: float) -> None:
            round_ = live.table.round
            voided = played = None
            if round_ is not None and not round_.phase.over:
                if round_.phase is Phase.BETTING:
                    round_.void(by.username, CLOSE_VOID, now)
                    voided = live.round_id
                elif live.live_mode:
                    raise RoundInPlay(f"table {table_id}: round {live.round_id} is"
                                      f" {round_.phase.value}; its dealer finishes it, or"
                                      " voids it with a reason, before the table closes")  # fmt: skip
                else:
                    play_out(round_, now)
                    played = live.round_id
            audit.record(session, by.username, by.role, "table-closed", f"table {table_id}",
                         reason, now, round_voided=voided, round_played_out=played)  # fmt: skip
            row = session.get(CasinoTable, table_id)
            assert row is not None
            row.status = "closed"
            leases.release(session, table_id, self.cluster.me, live.generation, announce=False)
            live.closed = True  # under the lock: no action after this one

        await self.act(live, close, reopen=False)
        leases.handed_over(table_id, live.generation, self.cluster.me)  # once committed
        if self.tables.get(table_id) is live:
            del self.tables[table_id]
        self.hub.close_table(table_id)
        self.bus.post({"t": table_id, "closed": True})  # after the events of its last round

    # --- bringing a table up, and back after a failure --------------------------------------

    def _load(self, session: Session, table_id: int) -> tuple[Table, RoundRow | None]:
        """The table's engine as the database has it: seats, nonce, live shoe, the last round."""
        row = session.get(CasinoTable, table_id)
        if row is None or row.status != "open":
            raise NotFound(f"no open table {table_id}")
        config = store.table_config(row)
        last = session.scalars(select(RoundRow).where(RoundRow.table_id == table_id)
                               .order_by(RoundRow.nonce.desc()).limit(1)).first()  # fmt: skip
        shoe_dealt: list[str] = []
        if config.mode is Mode.LIVE and config.shoe.value == "continuous":
            # Every card out of the shoe since it was started, in the order dealt: those of
            # a voided round (a misdeal) are out of it too. The round in play is resumed
            # below, taking its own cards out as its log is replayed.
            earlier = session.scalars(select(RoundRow.id).where(
                RoundRow.table_id == table_id, RoundRow.nonce >= row.shoe_started_nonce,
                RoundRow.state.in_(("settled", "voided"))).order_by(RoundRow.nonce))  # fmt: skip
            for round_id in earlier:
                shoe_dealt += [e.item for e in store.load_events(session, round_id)
                               if isinstance(e, CardDealt)]  # fmt: skip
        table = Table(config, nonce=last.nonce if last else 0,
                      seats=store.seats_of(session, table_id), shoe_dealt=shoe_dealt)  # fmt: skip
        if last is not None and last.state not in ("settled", "voided"):
            seed = bytes.fromhex(last.server_seed) if last.server_seed else None
            table.resume(store.load_events(session, last.id), server_seed=seed)
        return table, last

    async def bring_up(self, table_id: int, generation: int, *, void_open: bool) -> None:
        """Deal a table whose lease this process has just taken, from its stored state: a
        round whose cards were fixed is finished; one open for bets is voided
        (``void_open``, the casino was down) or goes on (a takeover)."""

        def load() -> tuple[Table, int | None]:
            with self.db.read() as session:
                table, last = self._load(session, table_id)
                return table, last.id if last else None

        table, round_id = await asyncio.to_thread(load)
        live = Live(table_id, table, generation, round_id=round_id)
        self.tables[table_id] = live
        self.bus.forget(table_id)
        round_ = table.round
        if round_ is not None and round_.phase is Phase.BETTING and void_open:
            await self.act(live, lambda s, now: self._void(live, RESTART_VOID, now))
        elif round_ is None or round_.phase.over:
            await self.act(live, lambda s, now: None)  # opens the next round
        if self.hub.at(table_id):  # watched here while another process dealt it
            await self.resync(table_id)

    async def drop(self, table_id: int, live: Live) -> None:
        """Stop dealing a table another process has taken over; its WebSockets here follow
        it from its log from now on. (Only ``live``: the table may have been taken again
        since, in a new generation.)"""
        live.closed = live.moved = True
        if self.tables.get(table_id) is live:
            del self.tables[table_id]
        self.cluster.forget_holder(table_id)
        if self.hub.at(table_id):
            await self.resync(table_id)

    async def resync(self, table_id: int) -> None:
        """Send every connection at the table a fresh snapshot: after the table changed
        hands, events in between may have reached nobody here."""
        source: Live | Mirror | None = self.tables.get(table_id)
        if source is None:
            source = await asyncio.to_thread(Mirror.load, self.db, table_id)
            self.bus.forget(table_id)  # the old mirror, if any, and its reader with it
            if source is None:
                self.hub.close_table(table_id)
                return
            self.bus.mirrors[table_id] = source
        async with source.lock:
            for connection in self.hub.at(table_id):
                caller = Caller(connection.user_id, connection.username, connection.role)
                connection.push(await asyncio.to_thread(self.views.snapshot, caller, source))

    def _reload(self, live: Live) -> None:
        with self.db.read() as session:
            live.table, last = self._load(session, live.table_id)
            live.round_id = last.id if last else None

    # --- where a table is -----------------------------------------------------------------

    def live(self, table_id: int) -> Live:
        """The table, if this process deals it. A request for a table another process
        deals is forwarded there before it reaches a route (see ``forward``), so finding
        one here means it is changing hands this moment."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        if self.cluster.shared and self._is_open(table_id):
            raise TableMoved(f"table {table_id} is changing hands: try again")
        raise NotFound(f"no open table {table_id}")

    async def source(self, table_id: int) -> Live | Mirror | None:
        """The table as this process deals it or, dealt by another process, follows its
        log (a mirror, loaded on first use); ``None`` if it is not open."""
        live = self.tables.get(table_id)
        if live is not None or not self.cluster.shared:
            return live
        mirror = self.bus.mirrors.get(table_id)
        if mirror is None:
            loaded = await asyncio.to_thread(Mirror.load, self.db, table_id)
            if loaded is not None:
                mirror = self.bus.mirrors.setdefault(table_id, loaded)
        return mirror

    def _is_open(self, table_id: int) -> bool:
        with self.db.read() as session:
            row = session.get(CasinoTable, table_id)
            return row is not None and row.status == "open"

    # --- acting on a table ---------------------------------------------------------------

    async def act(
        self, live: Live, action: Callable[[Session, float], T], *, reopen: bool = True
    ) -> T:
        """Run ``action`` on the table under its lock, commit what it did, then send it.

        When the round is over, the next one opens in the same transaction (``reopen``).
        """
        async with live.lock:
            if live.moved:
                raise TableMoved(f"table {live.table_id} is changing hands: try again")
            if live.closed:
                raise NotFound(f"no open table {live.table_id}")
            before = live.fingerprint()
            try:
                result, outbox = await self._write(
                    lambda session: self._transaction(session, live, action, reopen)
                )
            except LeaseLost:
                live.closed = live.moved = True
                lost = True
            except BaseException:
                if live.fingerprint() != before:  # the engine moved but nothing was committed
                    await asyncio.to_thread(self._reload, live)
                raise
            else:
                lost = False
                if outbox.handed_over:  # committed: stop dealing it before anything else
                    self._handed_over(live)
                if outbox.segments or outbox.balances:  # the other processes, by the tick
                    self.bus.post({
                        "t": live.table_id,
                        "s": [[segment.round_id, segment.since] for segment in outbox.segments],
                        "b": outbox.balances,
                        **({"m": outbox.notes} if outbox.notes else {}),
                    })  # fmt: skip
                self.hub.events(live.table_id, outbox.segments)
                for note in outbox.notes:
                    self.hub.broadcast(live.table_id, note)
        if lost:  # another process deals the table now: nothing here was written
            await self.drop(live.table_id, live)
            raise TableMoved(f"table {live.table_id} is changing hands: try again")
        self.hub.balances(outbox.balances)
        self.scheduler.wake.set()
        return result

    def _handed_over(self, live: Live) -> None:
        """The table's round ended and its lease was released with it (:attr:`Live.give_back`):
        the process nginx routes it to is told to take it now, and this one stops dealing
        it; its sockets here follow it as a mirror once the next round's news comes."""
        live.closed = live.moved = True
        if self.tables.get(live.table_id) is live:
            del self.tables[live.table_id]
        self.cluster.forget_holder(live.table_id)
        leases.handed_over(live.table_id, live.generation, self.cluster.me)
        log.info("table %s: handed over at the end of its round", live.table_id)
        self.offer(live.table_id)

    def offer(self, table_id: int) -> None:
        """Tell the process nginx routes ``table_id`` to that it is free to take."""
        self.bus.post({"t": table_id, "o": 1})

    async def tick(self, live: Live) -> None:
        """The scheduler's action for one table: whatever its timers say is due."""
        await self.act(live, lambda session, now: live.table.tick(now))

    async def _write(self, work: Callable[[Session], T]) -> T:
        """Run a table's transaction: on SQLite in this thread, on PostgreSQL in a worker.

        SQLite is a library writing a local file, one writer at a time: a bet's whole
        transaction takes well under a millisecond, and handing it to a thread and back
        cost as much again (measured: 0.69 against 1.35 ms of processor time a bet), so
        it runs here, committed together with the others of the same moment
        (:class:`~baccara.server.db.group_commit.GroupCommit`). PostgreSQL answers over a
        socket, so its transactions wait in worker threads, each committed alone.
        """
        if self._group is not None:
            result: T = await self._group.run(work)
            return result

        def alone() -> T:
            with self.db.write() as session:
                return work(session)

        return await asyncio.to_thread(alone)

    def _transaction(
        self, session: Session, live: Live, action: Callable[[Session, float], T], reopen: bool
    ) -> tuple[T, Outbox]:
        outbox = Outbox()
        now = self.clock()
        cluster = self.cluster
        if cluster.shared:  # on SQLite this process holds the file's lock: nobody to fence out
            leases.fence(session, live.table_id, cluster.me, live.generation, now + cluster.seconds)
        round_ = live.table.round
        mark = len(round_.events) if round_ is not None else 0
        live.outbox = outbox
        try:
            result = action(session, now)
        finally:
            live.outbox = None
        in_play = round_ is not None and live.table.round is round_
        if in_play and self._stand_up_idle(session, live, now):
            seats = {str(seat): name for seat, name in sorted(live.table.seats.items())}
            outbox.notes.append({"type": "seats", "seats": seats})
        if round_ is not None and live.round_id is not None:
            self._record(session, live, round_, live.round_id, mark, now, outbox)
        over = live.table.round is None or live.table.round.phase.over
        if reopen and over and not self._stopping:
            if live.give_back and cluster.shared:
                leases.release(session, live.table_id, cluster.me, live.generation,
                               announce=False)  # fmt: skip
                outbox.handed_over = True
            else:
                self._open_round(session, live, now, outbox)
        return result, outbox

    def _stand_up_idle(self, session: Session, live: Live, now: float) -> bool:
        """Stand up the players who only hold their seats (``Table.stand_up_idle``), in the
        caller's transaction: their seats' rows go with the round's ``stood-up`` events.

        Whether a player's table page is closed is known from the WebSockets at the table,
        and a process sees only those it serves. Alone, it serves them all. With other
        processes of the casino running, a page may be open in any of them, so none is
        taken to be closed: only the rounds sat out are counted, and a closed page's seat
        is given up one round later than it would be (:data:`~baccara.table.table.SAT_OUT_ROUNDS`)
        rather than a player watching through another process ever being stood up.
        Returns whether anyone was stood up."""
        cluster, hub = self.cluster, self.hub
        alone: list[bool] = []

        def away(player: str) -> float | None:
            if not alone:  # asked only when the table looks at its seats: once a round
                alone.append(not cluster.shared or leases.live_nodes(
                    session, now, cluster.seconds, besides=cluster.me.id) == 0)  # fmt: skip
            return hub.away_since(live.table_id, player) if alone[0] else None

        stood = live.table.stand_up_idle(now, away)
        for event in stood:
            assert isinstance(event, StoodUp)
            found = session.get(Seat, (live.table_id, event.seat))
            if found is not None:
                session.delete(found)
            log.info("table %s: %s stood up from seat %s (%s)", live.table_id, event.player,
                     event.seat, event.reason)  # fmt: skip
        return bool(stood)

    def _record(self, session: Session, live: Live, round_: Round, round_id: int, mark: int,
                now: float, outbox: Outbox) -> None:  # fmt: skip
        """Persist the round's new events and what they settle, in the caller's transaction."""
        new = round_.events[mark:]
        if not new:
            return
        store.save_events(session, round_id, new)
        outbox.segments.append(Segment(round_, round_id, mark))
        if all(e.kind in BETTING_EVENTS for e in new):
            return  # betting goes on: the round's row is as it was
        row = session.get(RoundRow, round_id)
        assert row is not None
        row.state = round_.phase.value
        for event in new:
            if isinstance(event, BettingClosed):
                row.client_seed = event.client_seed
            if isinstance(event, RoundSettled | RoundVoided):
                row.ended_at = now
                outbox.balances.update(store.pay(session, row, event, now))

    def _open_round(self, session: Session, live: Live, now: float, outbox: Outbox) -> None:
        table = live.table
        seed = secrets.token_bytes(32) if table.config.mode is Mode.ELECTRONIC else None
        if table.shoe is not None and table.shoe.cut_card_reached:
            table_row = session.get(CasinoTable, live.table_id)
            assert table_row is not None
            table_row.shoe_started_nonce = table.nonce + 1
        round_ = table.open_round(now, server_seed=seed)
        row = RoundRow(table_id=live.table_id, nonce=round_.nonce, game=table.spec.id,
                       state=round_.phase.value, server_seed=seed.hex() if seed else None,
                       server_seed_hash=round_.opened.server_seed_hash, opened_at=now)  # fmt: skip
        session.add(row)
        session.flush()
        live.round_id = row.id
        store.save_events(session, row.id, round_.events)
        outbox.segments.append(Segment(round_, row.id, 0))

    def _void(self, live: Live, reason: str, now: float, by: str = "table") -> None:
        live.table.current().void(by, reason, now)


PLAY_OUT_STEPS = 1000
"""More steps than any round's procedure takes from betting closed to settled."""


def play_out(round_: Round, now: float) -> None:
    """Settle an electronic round past betting at once, from the cards its seeds deal: each
    step is taken as the round's own timer would take it (the peek and the choice run
    out, Red is set first for a silent chooser), stamped when that timer is due, so the
    log reads as the scheduler would have written it and replays the same."""
    for _ in range(PLAY_OUT_STEPS):
        if round_.phase.over:
            return
        due = round_.deadline()
        assert due is not None, "an electronic round past betting always has a timer"
        round_.tick(max(now, due))
    raise AssertionError(f"round {round_.nonce} did not settle in {PLAY_OUT_STEPS} steps")


def _ended(task: asyncio.Task[None]) -> str:
    """How a task that should run for the process's life ended, in words."""
    if task.cancelled():
        return "was cancelled"
    error = task.exception()
    return f"died: {type(error).__name__}" if error is not None else "returned"
