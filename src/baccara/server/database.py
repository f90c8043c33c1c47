"""The database connection: SQLite by default, PostgreSQL through ``DATABASE_URL``.

The server brings its database up to date on start (Alembic, migrations in
``server/migrations``). Writes are short transactions; on SQLite, which has one
writer at a time, they also take a process-wide lock, so concurrent requests queue
in Python instead of failing with "database is locked".
"""

from __future__ import annotations

import contextlib
import pathlib
import threading
from collections.abc import Iterator
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from baccara.errors import BaccaraError, shown

MIGRATIONS = pathlib.Path(__file__).resolve().parent / "migrations"

BACKENDS = ("sqlite", "postgresql")


class DatabaseUnavailable(BaccaraError):
    """``DATABASE_URL`` names no database baccara can use, or the database cannot be opened."""


def normalise_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean the psycopg 3 driver here."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def check_url(url: str) -> str:
    """``url`` normalised, if it names an SQLite or PostgreSQL database whose driver is here.

    Checked before anything connects; a refusal never shows the URL, which may hold a
    password.
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    normal = normalise_url(url)
    try:
        parsed = make_url(normal)
    except (ArgumentError, ValueError):
        raise DatabaseUnavailable(
            "DATABASE_URL: not a database URL (sqlite:///FILE or postgresql://USER@HOST/NAME)"
        ) from None
    if parsed.get_backend_name() not in BACKENDS:
        raise DatabaseUnavailable(
            f"DATABASE_URL: baccara keeps its books in SQLite or PostgreSQL,"
            f" not {shown(parsed.get_backend_name())}"
        )
    try:
        parsed.get_dialect().import_dbapi()
    except (NoSuchModuleError, ImportError):
        raise DatabaseUnavailable(f"DATABASE_URL: no driver {shown(parsed.drivername)}") from None
    return normal


def unavailable(error: OperationalError) -> DatabaseUnavailable:
    """A database that could not be opened (not there, not reachable), in one line."""
    reason = str(error.orig).strip().splitlines() or ["no reason given"]
    return DatabaseUnavailable(f"DATABASE_URL: cannot open the database: {reason[0]}")


class Database:
    """An engine, a session factory, and the write discipline for its dialect."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        self.sqlite = self.url.startswith("sqlite")
        options: dict[str, Any] = {}
        if self.sqlite:
            options["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            options.update(pool_size=10, max_overflow=20, pool_pre_ping=True)
        self.engine: Engine = create_engine(self.url, **options)
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "begin", _sqlite_begin)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._write_lock = threading.Lock()

    def migrate(self) -> None:
        """Bring the schema to the newest migration (a new database is created whole)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    @contextlib.contextmanager
    def write(self) -> Iterator[Session]:
        """One write transaction: committed when the block ends, rolled back on an error."""
        lock = self._write_lock if self.sqlite else contextlib.nullcontext()
        with lock, self.sessions() as session, session.begin():
            if self.sqlite:  # take the write lock now, not half-way through
                session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})
            yield session

    @contextlib.contextmanager
    def read(self) -> Iterator[Session]:
        with self.sessions() as session:
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    connection.isolation_level = None  # SQLAlchemy's "begin" event issues BEGIN itself
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
    connection.exec_driver_sql(f"BEGIN {mode}")
