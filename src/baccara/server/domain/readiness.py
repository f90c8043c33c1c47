"""Whether this process can take bets now: the checks behind ``GET /api/ready``.

Liveness (``/api/health``) says the process answers; readiness says a load balancer may
send it players. Three things must hold:

* ``database``: the database answers a trivial query within :data:`TIMEOUT` seconds;
* ``migrations``: its schema is at the newest migration this code carries (a process
  of a newer release on an older database, or the reverse, must not take bets);
* ``tables``: every table this process should deal is up — on SQLite every open table,
  on PostgreSQL those whose lease it holds.

Each check is reported by name with its result, and none waits on another longer than
the timeout; the detail never holds the database's address or credentials.
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
    """One check: its name, whether it passed, and why in words."""

    name: str
    ok: bool
    detail: str


@functools.cache
def head_revision() -> str | None:
    """The newest migration this code carries (read from its files once)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


_WAITING: weakref.WeakKeyDictionary[Casino, dict[str, asyncio.Future[Check]]] = (
    weakref.WeakKeyDictionary()
)
"""Each casino's checks still running in a worker thread after their answer was given up
on (a database that does not answer): a probe every few seconds must not pile up threads
waiting on it, so a check is not started again until the last one has ended."""


def _seen(future: asyncio.Future[Check]) -> None:
    """A check given up on may still fail later: its error is read, never left unread."""
    if not future.cancelled():
        future.exception()


async def _within(casino: Casino, work: Callable[[], Check], name: str) -> Check:
    waiting = _WAITING.setdefault(casino, {})
    running = waiting.get(name)
    if running is not None and not running.done():
        return Check(name, False, f"the last check has had no answer yet (over {TIMEOUT:g} s)")
    future = waiting[name] = asyncio.get_running_loop().run_in_executor(None, work)
    future.add_done_callback(_seen)
    try:
        return await asyncio.wait_for(asyncio.shield(future), TIMEOUT)
    except TimeoutError:
        return Check(name, False, f"no answer within {TIMEOUT:g} s")
    except Exception as error:  # the database refused or is out of reach
        return Check(name, False, f"failed: {type(error).__name__}")


async def checks(casino: Casino) -> list[Check]:
    """Every check, in order (one that needs the database is failed without it)."""

    def reachable() -> Check:
        with casino.db.read() as session:
            session.execute(text("SELECT 1"))
        return Check("database", True, "answers")

    def migrations() -> Check:
        with casino.db.engine.connect() as connection:
            current = MigrationContext.configure(connection).get_current_revision()
        head = head_revision()
        if current == head:
            return Check("migrations", True, f"at the newest, {head}")
        return Check("migrations", False, f"the database is at {current}, this release at {head}")

    def tables() -> Check:
        cluster = casino.cluster
        with casino.db.read() as session:
            query = select(CasinoTable.id).where(CasinoTable.status == "open")
            if cluster.shared:
                query = query.join(TableLease, TableLease.table_id == CasinoTable.id).where(
                    TableLease.holder == cluster.me.id, TableLease.expires_at >= casino.clock()
                )
            expected = set(session.scalars(query))
        missing = sorted(expected - set(casino.tables))
        if missing:
            listed = ", ".join(map(str, missing[:10])) + (", …" if len(missing) > 10 else "")
            return Check("tables", False, f"{len(missing)} of {len(expected)} not up: {listed}")
        return Check("tables", True, f"{len(expected)} up")

    database = await _within(casino, reachable, "database")
    if not database.ok:
        unknown = "not checked: the database does not answer"
        return [database, Check("migrations", False, unknown), Check("tables", False, unknown)]
    return [
        database,
        await _within(casino, migrations, "migrations"),
        await _within(casino, tables, "tables"),
    ]
