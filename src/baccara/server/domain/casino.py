"""The casino: the façade the routes call, which wires its parts and hands each call to
the one that does the work.

* :mod:`~baccara.server.domain.runner` — the tables this process deals: bringing them
  up, every action on one in one transaction under its lock, the scheduler's ticks, and
  the cluster that shares the tables among the processes;
* :mod:`~baccara.server.domain.views` — what the API and the WebSockets read;
* :mod:`~baccara.server.domain.accounts` — users, passwords and tokens;
* :mod:`~baccara.server.domain.sessions` — reality checks told to the players connected;
* :mod:`~baccara.server.domain.betting` and :mod:`~baccara.server.domain.play` — what a
  bet, a peek, a choice or a dealer's card does to a table, run through the runner.

What stays here is each action a user asks of a table, said as the work it hands the
runner, and the order things start and stop in.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from baccara.fair import check_client_seed
from baccara.server.clock import SYSTEM, Clock, WallClock
from baccara.server.cluster.bends import Bends
from baccara.server.cluster.hub import Hub
from baccara.server.cluster.mirror import Mirror
from baccara.server.db.database import Database
from baccara.server.db.models import Seat, User
from baccara.server.db.sql import prepare
from baccara.server.domain import betting, responsible
from baccara.server.domain.accounts import Accounts, Revocation
from baccara.server.domain.lobby import LobbyFeed
from baccara.server.domain.runner import Runner
from baccara.server.domain.sessions import PlaySessions
from baccara.server.domain.types import Caller, Live
from baccara.server.domain.views import Views
from baccara.server.errors import Excluded, TableMoved
from baccara.server.observe.metrics import Metrics
from baccara.server.settings import Settings
from baccara.table import Round, TableConfig

T = TypeVar("T")


class Casino:
    """The façade the routes call: it wires the parts (the runner of the tables, with its
    cluster, group commit and scheduler; the hub; the views; the accounts; the play
    sessions) and says each action on a table as the work the runner does in one
    transaction under the table's lock (:meth:`Runner.act`)."""

    def __init__(self, settings: Settings, clock: Clock | Callable[[], float] = SYSTEM) -> None:
        self.settings = settings
        self.time: Clock = WallClock(clock) if callable(clock) else clock
        """The one clock of the casino, its scheduler, its group commit and its hub."""
        self.clock = self.time.now
        self.db = Database(settings.database_url)
        self.hub = Hub(self.time)
        self.views = Views(self.db)
        self.metrics = Metrics()
        """The casino's figures, in a registry of its own (``GET /metrics``)."""
        self.runner = Runner(settings, self.db, self.hub, self.time, self.views,
                             batches=self.metrics.batch_size.observe)  # fmt: skip
        self.tables: dict[int, Live] = self.runner.tables
        """The tables this process deals, by id."""
        self.cluster = self.runner.cluster
        self.bus = self.runner.bus
        self.scheduler = self.runner.scheduler
        self.accounts = Accounts(self.db, settings, self.clock)
        self.hub.on_revoked.append(self.accounts.forget)
        self.sessions = PlaySessions(self.db, self.hub, self.time)
        self.lobby = LobbyFeed(self.db, self.hub, self.tables, self.bus, self.time)
        """The lobby's one socket a visitor: every table's state and changes."""
        self.hub.talk = Bends(
            self.hub, self._round_of, self.bus.publish if self.bus.shared else None
        )
        """The squeeze's bends, relayed to everyone at the table."""
        self._checker: asyncio.Task[None] | None = None

    # --- life ------------------------------------------------------------------------------

    async def start(self) -> None:
        await asyncio.to_thread(self.db.migrate)
        prepare(self.db.engine.dialect)  # the bets' and payouts' statements, compiled now
        await asyncio.to_thread(self.accounts.load_tokens)
        await self.runner.take_tables()
        self.runner.start()
        self.lobby.start()
        self._checker = asyncio.create_task(self.sessions.reality_checks())

    async def stop(self) -> None:
        """A graceful stop. The last process of the casino settles or voids the rounds in
        play; one of several hands its tables to the others, who go on with them."""
        await self.runner.wind_down()
        await self.lobby.stop()
        if self._checker is not None:
            self._checker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checker
        await self.runner.stop()
        self.accounts.passwords.close()
        self.db.dispose()

    # --- reality checks (the work is the PlaySessions'; the sessions come from bets) -------

    async def connected(self, user: Caller) -> None:
        await self.sessions.connected(user)

    async def disconnected(self, user: Caller) -> None:
        await self.sessions.disconnected(user)

    def continue_playing(self, user: Caller) -> None:
        self.sessions.continue_playing(user)

    # --- users (the work is the Accounts') -------------------------------------------------

    def register(self, username: str, password: str, role: str = "player") -> Caller:
        return self.accounts.register(username, password, role)

    async def sign_up(self, username: str, password: str, address: str) -> Caller:
        return await self.accounts.sign_up(username, password, address)

    async def sign_in(self, username: str, password: str, address: str = "") -> str:
        return await self.accounts.sign_in(username, password, address)

    async def authenticate(self, token: str | None) -> Caller:
        return await self.accounts.authenticate(token)

    async def revoke(self, revocation: Revocation | None) -> None:
        """After tokens were revoked: close their sockets, here and in the other processes,
        whose accounts forget what they knew of the user (``None``: nothing was)."""
        if revocation is None:
            return
        r = revocation
        self.hub.revoke(r.user_id, r.generation, r.token_id)
        await asyncio.to_thread(self.bus.publish, {"r": [[r.user_id, r.generation, r.token_id]]})

    def balance(self, user_id: int) -> int:
        return self.views.balance(user_id)

    # --- tables (where they are: the Runner's) ---------------------------------------------

    def live(self, table_id: int) -> Live:
        """The table, if this process deals it (see :meth:`Runner.live`)."""
        return self.runner.live(table_id)

    async def source(self, table_id: int) -> Live | Mirror | None:
        """The table as this process deals it or follows it (see :meth:`Runner.source`)."""
        return await self.runner.source(table_id)

    async def close_table(self, table_id: int, by: Caller, reason: str = "") -> None:
        """Close a table: a round open for bets is voided, an electronic one past betting
        played out (see :meth:`Runner.close_table`)."""
        await self.runner.close_table(table_id, by, reason)

    async def sit(self, user: Caller, table_id: int, seat: int | None) -> int:
        live = self.live(table_id)

        def sit(session: Session, now: float) -> int:
            betting.verify_player(user)
            chosen = live.table.verify_sit(user.username, seat, now)
            until = responsible.excluded_until(session, user.id, now)
            if until is not None:
                raise Excluded("you have excluded yourself from play")
            session.add(Seat(table_id=table_id, seat=chosen, user_id=user.id))
            session.flush()
            live.table.sit(user.username, chosen, now)
            return chosen

        chosen = await self.runner.act(live, sit)
        await self.tell_table(table_id, {"type": "seats", "seats": self.seats(table_id)})
        return chosen

    async def leave(self, user: Caller, table_id: int) -> int:
        live = self.live(table_id)

        def leave(session: Session, now: float) -> int:
            seat = live.table.leave(user.username)
            found = session.get(Seat, (table_id, seat))
            if found is not None:
                session.delete(found)
            return seat

        seat = await self.runner.act(live, leave)
        await self.tell_table(table_id, {"type": "seats", "seats": self.seats(table_id)})
        return seat

    async def tell_table(self, table_id: int, message: dict[str, Any]) -> None:
        """A message for everyone watching the table, here and in the other processes."""
        self.hub.broadcast(table_id, message)
        self.bus.post({"t": table_id, "m": [message]})

    async def tell_users(self, messages: dict[int, dict[str, Any]]) -> None:
        """Private messages (a new balance), wherever each user is connected."""
        self.hub.to_users(None, messages)
        self.bus.post({"u": messages})

    def _round_of(self, table_id: int) -> tuple[int, Round] | None:
        """The table's round in play and its id, as this process deals or follows it."""
        live = self.tables.get(table_id)
        source = live if live is not None else self.bus.mirrors.get(table_id)
        if source is None or source.round_id is None:
            return None
        round_ = source.table.round if isinstance(source, Live) else source.round
        return None if round_ is None else (source.round_id, round_)

    def seats(self, table_id: int) -> dict[str, str]:
        return {str(seat): name for seat, name in sorted(self.live(table_id).table.seats.items())}

    # --- betting -------------------------------------------------------------------------

    async def place_bet(
        self, user: Caller, table_id: int, spot: str, amount: int, key: str
    ) -> dict[str, Any]:
        """Place a bet once per idempotency key: the bet, its round, the balance it left."""
        live = self.live(table_id)
        return await self.runner.act(
            live, lambda s, now: betting.place(s, live, user, spot, amount, key, now)
        )

    async def remove_bet(self, user: Caller, table_id: int, bet_id: str) -> int:
        live = self.live(table_id)
        return await self.runner.act(
            live, lambda s, now: betting.remove(s, live, user, bet_id, now)
        )

    async def request_deal(self, user: Caller, table_id: int) -> str:
        live = self.live(table_id)

        def deal(session: Session, now: float) -> str:
            live.table.request_deal(user.username, now)
            return live.table.current().phase.value

        return await self.runner.act(live, deal)

    # --- the rest of the round ----------------------------------------------------------

    async def on_round(self, user: Caller, round_id: int, act: Callable[..., T]) -> T:
        """Run ``act(live, user, round_id, session, now)`` on the table that plays ``round_id``."""
        live = self.live(self.table_of_round(round_id))
        return await self.runner.act(live, lambda s, now: act(live, user, round_id, s, now))

    async def on_table(self, user: Caller, table_id: int, act: Callable[..., T]) -> T:
        """Run ``act(live, user, session, now)`` on a table."""
        live = self.live(table_id)
        return await self.runner.act(live, lambda s, now: act(live, user, s, now))

    def set_client_seed(self, user: Caller, seed: str) -> str:
        with self.db.write() as session:
            row = session.get(User, user.id)
            assert row is not None
            row.client_seed = check_client_seed(seed)
            return row.client_seed

    def client_seed(self, user: Caller) -> str | None:
        with self.db.read() as session:
            row = session.get(User, user.id)
            return row.client_seed if row else None

    # --- what the API reads (the work is the Views') ----------------------------------------

    def table_of_round(self, round_id: int) -> int:
        return self.views.table_of_round(round_id)

    async def round_view(self, user: Caller, round_id: int) -> dict[str, Any]:
        """A round as ``user`` may see it now — as committed: the round in play is read under
        its table's lock, so no reader sees what a transaction has not yet committed."""
        table_id = await asyncio.to_thread(self.views.table_of_round, round_id)
        live = self.tables.get(table_id)
        if live is None:
            return await asyncio.to_thread(self.views.round, user, round_id, None)
        async with live.lock:
            return await asyncio.to_thread(self.views.round, user, round_id, live)

    def list_tables(self) -> list[dict[str, Any]]:
        """Every open table, with its seats as committed."""
        return self.views.tables()

    async def table_view(self, table_id: int) -> dict[str, Any]:
        """One table and the round in play, read under its lock (see :meth:`round_view`)."""
        live = self.live(table_id)
        async with live.lock:
            return await asyncio.to_thread(self.views.table, live)

    async def create_table(self, config: TableConfig, by: Caller | None = None) -> dict[str, Any]:
        """Open a table: the table and its first round. Opened here for the process nginx
        routes it to (see :meth:`Runner.open_table`), it is read as stored."""
        table_id = await self.runner.open_table(config, by)
        if table_id in self.runner.tables:
            return await self.table_view(table_id)
        view = await asyncio.to_thread(self.views.stored_table, table_id)
        if view["round_id"] is None:  # the other process has yet to open its first round
            raise TableMoved(f"table {table_id} is opened and changing hands: read it again")
        return view

    def snapshot(self, user: Caller, source: Live | Mirror) -> dict[str, Any]:
        """What a new WebSocket gets first (call under the table's lock): the table, the round
        in play as this user may see it, their balance. ``source`` is the table as this
        process deals it, or follows it."""
        return self.views.snapshot(user, source)
