"""The statements of every bet and payout, run by the database driver itself.

They are written in SQLAlchemy Core, from the schema's own tables, like every other
statement here; only who runs them differs. SQLAlchemy's execution of a compiled
statement — its statement cache, its execution context, its result objects — cost
several times what SQLite takes to run the statement (measured on the bet path: about
half of a bet's processor time was SQLAlchemy's, a quarter SQLite's). A
:class:`Statement` is compiled once per dialect into its SQL text and the order of its
parameters, then handed to the driver's cursor, inside the transaction SQLAlchemy began
— savepoints, commits and rollbacks stay SQLAlchemy's.

What SQLAlchemy would have done on the way is not done: no type conversion of
parameters or results (every column these statements touch is an integer, a float or
text, which both drivers take and give as they are) and no column defaults (an insert
names every column it fills; a missing one is a ``KeyError``, never a silent null).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, bindparam, insert
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session
from sqlalchemy.sql.expression import Executable

DRIVER = "baccara.driver"
"""Where a write session keeps its driver connection (see :func:`driver`)."""

Row = tuple[Any, ...]
_MADE: list[Statement | Inserts] = []
"""Every statement made here, for :func:`prepare`."""


@dataclass(frozen=True)
class Driver:
    """A session's connection as the driver has it, and the dialect it speaks."""

    connection: Any
    dialect: Dialect


def driver(session: Session) -> Driver:
    """The driver connection of ``session``'s transaction.

    :meth:`~baccara.server.db.database.Database.write` puts it in the session's ``info`` when
    the transaction begins; any other session asks SQLAlchemy for it. Since these
    statements do not go through the session, a savepoint must be on the database before
    they run: SQLAlchemy emits ``SAVEPOINT`` only when the session next asks for its
    connection, so ``session.begin_nested()`` is followed by ``session.connection()``
    (as the group commit does)."""
    found: Driver | None = session.info.get(DRIVER)
    if found is not None:
        return found
    connection = session.connection()
    return Driver(connection.connection.driver_connection, connection.dialect)


@dataclass(frozen=True)
class _Compiled:
    sql: str
    order: tuple[str, ...] | None
    """The parameters' names in the order of their placeholders (a positional driver,
    SQLite's), or ``None`` where the driver takes them by name (psycopg's)."""
    fixed: Mapping[str, Any]
    """The statement's own values (the ``0`` of ``balance + :amount >= 0``)."""

    def bind(self, params: Mapping[str, Any]) -> Sequence[Any] | Mapping[str, Any]:
        if self.fixed:
            params = {**self.fixed, **params}
        return params if self.order is None else tuple(params[name] for name in self.order)


class Statement:
    """A Core statement compiled once per dialect, run on the driver's cursor."""

    def __init__(
        self,
        statement: Executable,
        columns: Iterable[str] | None = None,
        only: str | None = None,
        *,
        prepared: bool = True,
    ) -> None:
        """``columns``: for an insert, the columns each row gives (all it fills); ``only``:
        the one dialect a statement written in its terms (an upsert) is for; ``prepared``:
        whether :func:`prepare` compiles it (not a statement another one makes and
        prepares)."""
        self.statement = statement
        self.columns = list(columns) if columns is not None else None
        self.only = only
        self._by_dialect: dict[str, _Compiled] = {}
        if prepared:
            _MADE.append(self)

    def _compiled(self, dialect: Dialect) -> _Compiled:
        found = self._by_dialect.get(dialect.name)
        if found is None:
            compiled = self.statement.compile(  # type: ignore[attr-defined]
                dialect=dialect, column_keys=self.columns
            )
            fixed = {}
            for bind, name in compiled.bind_names.items():
                if bind.required:
                    continue  # the caller's
                if bind.value is None or bind.callable is not None:  # a column's default
                    raise ValueError(f"{self.statement}: give {name!r} (no defaults here)")
                fixed[name] = bind.value
            order = tuple(compiled.positiontup) if compiled.positional else None
            found = self._by_dialect[dialect.name] = _Compiled(str(compiled), order, fixed)
        return found

    def rows(self, session: Session, params: Mapping[str, Any]) -> list[Row]:
        """Execute once; every row it returns (none for a statement that returns none)."""
        connection = driver(session)
        compiled = self._compiled(connection.dialect)
        cursor = connection.connection.cursor()
        try:
            cursor.execute(compiled.sql, compiled.bind(params))
            return cursor.fetchall() if cursor.description is not None else []
        finally:
            cursor.close()

    def first(self, session: Session, params: Mapping[str, Any]) -> Row | None:
        """The first row, or ``None``."""
        found = self.rows(session, params)
        return found[0] if found else None

    def scalar(self, session: Session, params: Mapping[str, Any]) -> Any:
        """The first column of the first row, or ``None`` if there is no row."""
        row = self.first(session, params)
        return None if row is None else row[0]

    def many(self, session: Session, rows: Sequence[Mapping[str, Any]]) -> None:
        """Execute once per row (nothing is returned)."""
        if not rows:
            return
        connection = driver(session)
        compiled = self._compiled(connection.dialect)
        cursor = connection.connection.cursor()
        try:
            cursor.executemany(compiled.sql, [compiled.bind(row) for row in rows])
        finally:
            cursor.close()


class Inserts:
    """Rows inserted many at a time — ``INSERT … VALUES (…), (…) … RETURNING`` — a
    statement for up to :attr:`CHUNK` rows: a round's payouts are a few statements, not
    one per bet. The rows come back in no particular order (as the databases promise),
    so what a caller matches them by is among the columns returned.

    Each size of statement is compiled once; sizes are powers of two (50 rows go as 32,
    16 and 2), so a process compiles a handful, early, rather than one for every number
    of bets a round may have — each in the middle of some round's settlement."""

    CHUNK = 64
    """The largest statement's rows: a power of two."""

    def __init__(self, table: Table, columns: Sequence[str], returning: Sequence[str]) -> None:
        self.table = table
        self.columns = tuple(columns)
        self.returning = tuple(returning)
        self._by_size: dict[int, Statement] = {}
        _MADE.append(self)

    def sizes(self) -> list[int]:
        """The sizes of statement it uses: the powers of two up to :attr:`CHUNK`."""
        return [1 << n for n in range(self.CHUNK.bit_length())]

    def _statement(self, size: int) -> Statement:
        found = self._by_size.get(size)
        if found is None:
            rows: list[dict[str, Any]] = [
                {name: bindparam(f"{name}_{i}") for name in self.columns} for i in range(size)
            ]
            returned = [self.table.c[name] for name in self.returning]
            found = self._by_size[size] = Statement(
                insert(self.table).values(rows).returning(*returned), prepared=False
            )
        return found

    def rows(self, session: Session, rows: Sequence[Mapping[str, Any]]) -> list[Row]:
        """Insert ``rows``; the columns :attr:`returning` of each, in any order."""
        out: list[Row] = []
        start = 0
        while start < len(rows):
            size = min(self.CHUNK, 1 << (len(rows) - start).bit_length() - 1)
            chunk = rows[start : start + size]
            params = {f"{name}_{i}": row[name] for i, row in enumerate(chunk)
                      for name in self.columns}  # fmt: skip
            out += self._statement(size).rows(session, params)
            start += size
        return out


def prepare(dialect: Dialect) -> None:
    """Compile every statement made so far for ``dialect``: the server does at start what
    its first bets and first settlements would otherwise each do in their turn."""
    for made in list(_MADE):
        if isinstance(made, Inserts):
            for size in made.sizes():
                made._statement(size)._compiled(dialect)
        elif made.only in (None, dialect.name):
            made._compiled(dialect)
