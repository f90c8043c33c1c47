"""Which live tables each dealer deals: an admin assigns them, and a dealer acts only there.

A dealer enters the cards, calls no more bets, voids a misdeal and reads the shoe at
the tables an admin has assigned to them, and is refused (403, ``not_assigned``) at
every other: a dealer on the floor works the tables on their roster, not any table of
the casino. Each assignment is recorded in the audit trail with the tables before and
after, and who made it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from baccara.errors import BaccaraError
from baccara.server.db import store
from baccara.server.db.models import CasinoTable, DealerTable, User
from baccara.server.domain import audit
from baccara.server.domain.types import Caller
from baccara.server.errors import NotAssigned

MAX_TABLES = 100
"""Tables in one dealer's assignment: more than any floor gives one dealer."""


def tables_of(session: Session, user_id: int) -> list[int]:
    """The tables a dealer is assigned to, in order."""
    return list(session.scalars(select(DealerTable.table_id).where(
        DealerTable.user_id == user_id).order_by(DealerTable.table_id)))  # fmt: skip


def is_assigned(session: Session, user_id: int, table_id: int) -> bool:
    return session.get(DealerTable, (user_id, table_id)) is not None


def require_assigned(session: Session, user: Caller, table_id: int) -> None:
    """A dealer acting at ``table_id`` must be assigned to it (an admin need not be)."""
    if user.role == "dealer" and not is_assigned(session, user.id, table_id):
        raise NotAssigned(f"you are not assigned to table {table_id}: an admin assigns"
                          " dealers to their tables")  # fmt: skip


def unassign(session: Session, user_id: int) -> list[int]:
    """Take every table from a user who deals no more (their role changed), in the
    caller's transaction: the tables they were assigned to, for the audit trail."""
    before = tables_of(session, user_id)
    session.execute(delete(DealerTable).where(DealerTable.user_id == user_id))
    return before


def roster(session: Session) -> list[dict[str, Any]]:
    """Every dealer and the tables they are assigned to, by name."""
    dealers = session.scalars(select(User).where(User.role == "dealer").order_by(User.username))
    return [{"username": user.username, "tables": tables_of(session, user.id)} for user in dealers]


def assign(
    session: Session, by: Caller, username: str, tables: Sequence[int], reason: str, now: float
) -> list[int]:
    """Make ``tables`` (open live tables) the dealer's whole assignment, in the audit trail.

    Every table is checked before anything changes: one that is not an open live table
    refuses the whole request."""
    user = store.user_named(session, username)
    # two assignments of one dealer at once: one waits for the other, and reads its rows
    session.execute(select(User.id).where(User.id == user.id).with_for_update())
    if user.role != "dealer":
        raise BaccaraError(f"{username} is a {user.role}, not a dealer: only dealers are"
                           " assigned to tables")  # fmt: skip
    wanted = sorted(set(tables))
    if len(wanted) > MAX_TABLES:
        raise BaccaraError(f"tables: at most {MAX_TABLES} for one dealer")
    for table_id in wanted:
        row = session.get(CasinoTable, table_id)
        if row is None or row.status != "open":
            raise BaccaraError(f"tables: no open table {table_id}")
        if row.mode != "live":
            raise BaccaraError(f"tables: table {table_id} is electronic, and the engine deals"
                               " it: only live tables have dealers")  # fmt: skip
    before = tables_of(session, user.id)
    if before == wanted:
        return wanted
    session.execute(delete(DealerTable).where(DealerTable.user_id == user.id,
                                              DealerTable.table_id.not_in(wanted)))  # fmt: skip
    if wanted:  # kept ones, or another assignment's made at once, are left as they are
        dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
        session.execute(dialect.insert(DealerTable).values(
            [{"user_id": user.id, "table_id": t, "assigned_at": now} for t in wanted]
        ).on_conflict_do_nothing())  # fmt: skip
    audit.record(session, by.username, by.role, "dealer-assigned", f"user {username}", reason,
                 now, tables=wanted, before=before)  # fmt: skip
    return wanted
