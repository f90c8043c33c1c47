"""Table leases: which server process deals each table, and the fencing token it holds.

Several ``baccara serve`` processes can run on one PostgreSQL database. Each table is
dealt by exactly one of them at a time — the holder of its lease, a row in
``table_leases``. The holder renews the lease while it lives; when it stops renewing
(it crashed, or was paused), the lease runs out and another process takes it,
raising its ``generation``.

The generation is a fencing token: every transaction that writes a table's state
starts with :func:`fence`, one statement that renews the lease only if this process
holds it *in the generation it took*, and fails otherwise — so a holder that was
paused past its lease, and wakes up believing it still deals, cannot write a card or
a payout of a round another process now deals. On PostgreSQL the statement also
locks the lease's row until the transaction ends, so a takeover waits for a write in
flight and then sees the renewed lease.

Each change of this process's leases — acquired, lost, handed over — is one event of the
log, with the table and the generation; a lease taken or handed over is logged once its
transaction has committed (:func:`acquired`, :func:`handed_over`, which the caller calls). These are plain statements on the caller's
session; the decisions — when to renew,
which tables to take, when to hand one over — are :mod:`baccara.server.cluster.membership`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session
from sqlalchemy.sql import Executable

from baccara.server.db.models import CasinoTable, Node, TableLease, table
from baccara.server.errors import LeaseLost
from baccara.server.observe.logs import get_logger

log = get_logger()
_leases = table(TableLease)
_nodes = table(Node)
_tables = table(CasinoTable)


@dataclass(frozen=True)
class Holder:
    """This server process: its id in the lease rows, and where other processes reach it."""

    id: str
    address: str


def _acquire(insert: Any) -> Executable:
    """Insert the lease, or take it over if it ran out (PostgreSQL's and SQLite's upsert
    are spelled alike but are different classes, hence ``Any``)."""
    return insert.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=[_leases.c.table_id],
        set_={
            "holder": insert.excluded.holder,
            "address": insert.excluded.address,
            "generation": _leases.c.generation + 1,
            "expires_at": insert.excluded.expires_at,
        },
        where=_leases.c.expires_at < bindparam("now"),
    ).returning(_leases.c.generation)


_ACQUIRE = {
    "postgresql": _acquire(postgresql.insert(_leases)),
    "sqlite": _acquire(sqlite.insert(_leases)),
}
_FENCE = (
    update(_leases)
    .where(
        _leases.c.table_id == bindparam("table"),
        _leases.c.holder == bindparam("holder_id"),
        _leases.c.generation == bindparam("gen"),
    )
    .values(expires_at=bindparam("until"))
)


def acquire(session: Session, table_id: int, me: Holder, now: float, seconds: float) -> int | None:
    """Take the table's lease if nobody holds it (or theirs ran out): its new generation,
    or ``None`` if a live process holds it."""
    connection = session.connection()
    statement = _ACQUIRE[connection.dialect.name]
    row = connection.execute(
        statement,
        {"table_id": table_id, "holder": me.id, "address": me.address, "generation": 1,
         "expires_at": now + seconds, "now": now},
    ).first()  # fmt: skip
    if row is None:
        return None
    return int(row[0])  # logged by the caller once committed (:func:`acquired`)


def acquired(table_id: int, generation: int, me: Holder) -> None:
    """Log a lease :func:`acquire` took, once its transaction has committed."""
    log.info("lease acquired", table=table_id, generation=generation, holder=me.id)


def handed_over(table_id: int, generation: int, me: Holder) -> None:
    """Log a lease :func:`release` handed over, once its transaction has committed."""
    log.info("lease handed over", table=table_id, generation=generation, holder=me.id)


def fence(session: Session, table_id: int, me: Holder, generation: int, until: float) -> None:
    """Renew the lease in this transaction if this process still holds it in
    ``generation``; otherwise refuse the whole transaction (:class:`LeaseLost`)."""
    moved = session.connection().execute(
        _FENCE, {"table": table_id, "holder_id": me.id, "gen": generation, "until": until}
    )
    if moved.rowcount != 1:
        log.warning("lease lost", table=table_id, generation=generation, holder=me.id)
        raise LeaseLost(f"table {table_id} is now dealt by another server process; try again")


def renew(session: Session, me: Holder, dealt: dict[int, int], until: float) -> set[int]:
    """Renew the leases of the tables this process deals (table id → the generation it
    took): the ones still its own. Only those: a lease released, or taken for a table not
    brought up, is never kept alive by the process that no longer deals it."""
    connection = session.connection()
    kept = set()
    for table_id, generation in dealt.items():
        moved = connection.execute(
            _FENCE, {"table": table_id, "holder_id": me.id, "gen": generation, "until": until}
        )
        if moved.rowcount == 1:
            kept.add(table_id)
        else:
            log.warning("lease lost", table=table_id, generation=generation, holder=me.id)
    return kept


def release(
    session: Session, table_id: int, me: Holder, generation: int, *, announce: bool = True
) -> None:
    """Hand the table over at once (on shutdown, to share the tables fairly, or when it
    closes): the lease runs out now and names no holder.

    ``announce=False``: the caller logs it (:func:`handed_over`) once the transaction has
    committed; otherwise it is logged here, before the commit."""
    moved = session.connection().execute(
        update(_leases)
        .where(_leases.c.table_id == table_id, _leases.c.holder == me.id,
               _leases.c.generation == generation)
        .values(expires_at=0.0, holder="")
    )  # fmt: skip
    if moved.rowcount != 1:
        raise LeaseLost(f"table {table_id} is now dealt by another server process")
    if announce:
        handed_over(table_id, generation, me)


def holder(session: Session, table_id: int, now: float) -> Holder | None:
    """Who deals the table now, if anyone does."""
    row = session.execute(
        select(_leases.c.holder, _leases.c.address)
        .where(_leases.c.table_id == table_id, _leases.c.expires_at >= now)
    ).first()  # fmt: skip
    return None if row is None else Holder(row.holder, row.address)


def unheld_tables(session: Session, now: float) -> list[int]:
    """Open tables that no live process deals, oldest first."""
    held = select(_leases.c.table_id).where(_leases.c.expires_at >= now)
    return list(
        session.scalars(
            select(_tables.c.id)
            .where(_tables.c.status == "open", _tables.c.id.not_in(held))
            .order_by(_tables.c.id)
        )
    )


def heartbeat(
    session: Session, me: Holder, now: float, seconds: float, *, upstream: str = ""
) -> int:
    """Say this process is alive, and its place in nginx's hashed upstream (``2/3``, or
    empty: see :mod:`~baccara.server.cluster.placement`); how many are alive (itself
    included). Processes not seen for a day are forgotten."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    insert = dialect.insert(_nodes).values(
        id=me.id, address=me.address, seen_at=now, upstream=upstream
    )
    session.execute(
        insert.on_conflict_do_update(index_elements=[_nodes.c.id], set_={"seen_at": now})
    )
    session.execute(delete(_nodes).where(_nodes.c.seen_at < now - 86_400))
    return live_nodes(session, now, seconds)


def forget(session: Session, me: Holder) -> None:
    """This process stops: it no longer counts among the live ones."""
    session.execute(delete(_nodes).where(_nodes.c.id == me.id))


def sole_holder(session: Session, me: Holder) -> None:
    """This process is the only one (it holds the SQLite file's lock): every other
    process's leases are void at once. Generations stay, so fencing still holds."""
    session.execute(update(_leases).where(_leases.c.holder != me.id).values(expires_at=0.0))
    session.execute(delete(_nodes).where(_nodes.c.id != me.id))


def succeed(session: Session, me: Holder) -> None:
    """This process starts at the address of one before it: that one is dead (two live
    processes cannot listen on one address), so its leases are void at once and its
    tables are taken without waiting for them to run out, as a restart should."""
    session.execute(
        update(_leases)
        .where(_leases.c.address == me.address, _leases.c.holder != me.id)
        .values(expires_at=0.0)
    )
    session.execute(delete(_nodes).where(_nodes.c.address == me.address, _nodes.c.id != me.id))


def live_nodes(session: Session, now: float, seconds: float, *, besides: str | None = None) -> int:
    """How many processes were seen within one lease period (not counting ``besides``)."""
    query = select(func.count()).select_from(_nodes).where(_nodes.c.seen_at >= now - seconds)
    if besides is not None:
        query = query.where(_nodes.c.id != besides)
    return int(session.scalar(query) or 0)


def live_upstreams(session: Session, now: float, seconds: float, *, besides: str) -> list[str]:
    """The places in nginx's upstream of the live processes besides ``besides`` that
    said one."""
    return list(
        session.scalars(
            select(_nodes.c.upstream).where(
                _nodes.c.seen_at >= now - seconds, _nodes.c.id != besides, _nodes.c.upstream != ""
            )
        )
    )


def open_tables(session: Session) -> list[int]:
    """Every open table, by id."""
    return list(session.scalars(select(_tables.c.id).where(_tables.c.status == "open")))
