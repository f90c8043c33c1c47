"""Whether this process can take bets now: the checks behind ``GET /api/ready``.

Liveness (``/api/health``) says the process answers; readiness says a load balancer may
send it players. Four things must hold:

* ``database``: the database answers a trivial query within :data:`TIMEOUT` seconds;
* ``migrations``: its schema is at the newest migration this code carries (a process
  of a newer release on an older database, or the reverse, must not take bets);
* ``tables``: every table this process should deal is up — on SQLite every open table,
  on PostgreSQL those whose lease it holds — and it deals none whose lease it no longer
  holds (a bet there would be answered 503, the table moving);
* ``tasks``: the scheduler that closes the rounds, the keeper of the leases and the
  listener to the other processes still run (a process whose scheduler died takes bets
  and never closes a round).

Each check is reported by name with its result. They run at once, so a probe takes one
timeout at most, and a probe that comes while another's check is under way waits for
that one's answer instead of starting a second. The detail never holds the database's
address or credentials, and names migration revisions and tables only for an admin
(:attr:`Check.named`): ``/api/ready`` is public.
"""

from __future__ import annotations

import asyncio
import functools
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import select, text

from baccara.server.db.database import MIGRATIONS
from baccara.server.db.models import CasinoTable, TableLease

if TYPE_CHECKING:
    from baccara.server.domain.casino import Casino

TIMEOUT = 2.0
"""Seconds a check may take before it counts as failed."""


@dataclass(frozen=True)
class Check:
    """One check: its name, whether it passed, and why in words — ``detail`` for anyone,
    ``named`` (if not empty) the same with the revisions or tables it is about, for an
    admin."""

    name: str
    ok: bool
    detail: str
    named: str = ""

    def shown(self, admin: bool) -> str:
        """The detail as the caller may read it."""
        return self.named if admin and self.named else self.detail


@functools.cache
@functools.cache
def head_revision() -> str | None:
    """The newest migration this code carries, read from its files once: reading them
    imports every migration, which on a loaded machine took a probe past its timeout."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


@dataclass(frozen=True)
class _Running:
    """A check under way in a worker thread, and when it started (on the loop's clock)."""

    future: asyncio.Future[Check]
    started: float


_WAITING: weakref.WeakKeyDictionary[Casino, dict[str, _Running]] = weakref.WeakKeyDictionary()
"""Each casino's checks under way in a worker thread. A probe that comes while one is
running waits for its answer (for what is left of its timeout); one given up on (a
database that does not answer) is not started again until it has ended, so a probe
every few seconds does not pile up threads waiting on it."""


def _seen(future: asyncio.Future[Check]) -> None:
    """A check given up on may still fail later: its error is read, never left unread."""
    if not future.cancelled():
        future.exception()


async def _within(casino: Casino, work: Callable[[], Check], name: str) -> Check:
    loop = asyncio.get_running_loop()
    waiting = _WAITING.setdefault(casino, {})
    running = waiting.get(name)
    if running is not None and not running.future.done():
        left = TIMEOUT - (loop.time() - running.started)
        if left <= 0:
            return Check(name, False, f"the last check has had no answer yet (over {TIMEOUT:g} s)")
        future = running.future
    else:
        future = loop.run_in_executor(None, work)
        future.add_done_callback(_seen)
        waiting[name] = _Running(future, loop.time())
        left = TIMEOUT
    try:
        return await asyncio.wait_for(asyncio.shield(future), left)
    except TimeoutError:
        return Check(name, False, f"no answer within {TIMEOUT:g} s")
    except Exception as error:  # the database refused or is out of reach
        return Check(name, False, f"failed: {type(error).__name__}")


def _listed(ids: list[int]) -> str:
    return ", ".join(map(str, ids[:10])) + (", …" if len(ids) > 10 else "")


async def checks(casino: Casino) -> list[Check]:
    """Every check, in order, run at once (one that needs the database is failed
    without it)."""

    def reachable() -> Check:
        with casino.db.read() as session:
            session.execute(text("SELECT 1"))
        return Check("database", True, "answers")

    def migrations() -> Check:
        with casino.db.engine.connect() as connection:
            current = MigrationContext.configure(connection).get_current_revision()
        head = head_revision()
        if current == head:
            return Check("migrations", True, "at the newest", f"at the newest, {head}")
        return Check("migrations", False, "the database is not at this release's newest",
                     f"the database is at {current}, this release at {head}")  # fmt: skip

    def tables() -> Check:
        cluster = casino.cluster
        dealt = dict(casino.tables)
        now = casino.clock()
        with casino.db.read() as session:
            query = select(CasinoTable.id).where(CasinoTable.status == "open")
            leased: dict[int, int] = {}
            if cluster.shared:
                rows = session.execute(
                    select(TableLease.table_id, TableLease.generation).where(
                        TableLease.holder == cluster.me.id, TableLease.expires_at >= now
                    )
                )
                leased = {int(table_id): int(generation) for table_id, generation in rows}
                query = query.where(CasinoTable.id.in_(leased))
            expected = set(session.scalars(query))
        missing = sorted(expected - set(dealt))
        unleased = sorted(
            table_id
            for table_id, live in dealt.items()
            if live.moved or (cluster.shared and leased.get(table_id) != live.generation)
        )
        wrong, named = [], []
        if missing:
            wrong.append(f"{len(missing)} of {len(expected)} not up")
            named.append(f"{len(missing)} of {len(expected)} not up: {_listed(missing)}")
        if unleased:
            wrong.append(f"{len(unleased)} dealt here without their lease")
            named.append(f"{len(unleased)} dealt here without their lease: {_listed(unleased)}")
        if wrong:
            return Check("tables", False, "; ".join(wrong), "; ".join(named))
        return Check("tables", True, f"{len(expected)} up")

    def tasks() -> Check:
        stopped = casino.runner.stopped()
        if stopped:
            return Check("tasks", False, "stopped: " + "; ".join(stopped))
        return Check("tasks", True, "running")

    database, *others = await asyncio.gather(
        _within(casino, reachable, "database"),
        _within(casino, migrations, "migrations"),
        _within(casino, tables, "tables"),
    )
    if not database.ok:
        unknown = "not checked: the database does not answer"
        others = [Check(check.name, False, unknown) for check in others]
    return [database, *others, tasks()]
