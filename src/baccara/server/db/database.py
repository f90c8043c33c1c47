"""The database connection: SQLite by default, PostgreSQL through ``DATABASE_URL``.

The server brings its database up to date on start (Alembic, migrations in
``server/db/migrations``). Writes are short transactions; on SQLite, which has one
writer at a time, they also take a process-wide lock, so concurrent requests queue
in Python instead of failing with "database is locked"; the tables' transactions of
one moment share a commit there (:mod:`baccara.server.db.group_commit`).

SQLite runs in write-ahead-log mode with ``synchronous=NORMAL``: a commit is safe
from a crash of the server (the tests kill it), and is flushed to the disk by the
next checkpoint. Checkpoints — the only writes that wait for the disk — run in a
thread of their own every second instead of inside whichever commit filled the
log, so no bet waits on the disk. Where a power cut must not lose the last second,
run on PostgreSQL.
"""

from __future__ import annotations

import contextlib
import logging
import pathlib
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from baccara.errors import shown
from baccara.server.db.sql import DRIVER, Driver
from baccara.server.errors import DatabaseUnavailable

MIGRATIONS = pathlib.Path(__file__).resolve().parent / "migrations"
MIGRATING = 0x62616363
"""The advisory lock PostgreSQL holds while one process upgrades the schema."""
CHECKPOINT_SECONDS = 1.0
IDLE_IN_TRANSACTION_MS = 5000
"""How long PostgreSQL lets a session sit idle inside a transaction (none of ours pauses)."""
log = logging.getLogger("baccara.server")

BACKENDS = ("sqlite", "postgresql")


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
            # A process frozen in the middle of a transaction (stopped, swapped out) would
            # hold its row locks — a table's lease among them — for as long as it sleeps;
            # PostgreSQL ends such a session instead, and the frozen process's write fails.
            options["connect_args"] = {
                "options": f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}"
            }
        # An error's text names its statement, never the values it was run with (an
        # idempotency key, a seed, a password's hash): it reaches the log.
        self.engine: Engine = create_engine(self.url, hide_parameters=True, **options)
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "begin", _sqlite_begin)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._begin = {"sqlite_begin": "IMMEDIATE"} if self.sqlite else {}
        self._write_lock = threading.Lock()
        self._checkpointer: Checkpointer | None = None
        if self.sqlite and self.engine.url.database not in (None, "", ":memory:"):
            self._checkpointer = Checkpointer(str(self.engine.url.database))

    def migrate(self) -> None:
        """Bring the schema to the newest migration (a new database is created whole)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            if not self.sqlite:  # processes starting together upgrade one after another
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATING})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    @contextlib.contextmanager
    def write(self) -> Iterator[Session]:
        """One write transaction: committed when the block ends, rolled back on an error."""
        lock = self._write_lock if self.sqlite else contextlib.nullcontext()
        with lock, self.sessions() as session, session.begin():
            # On SQLite the write lock is taken now, not half-way through.
            connection = session.connection(execution_options=self._begin)
            session.info[DRIVER] = Driver(connection.connection.driver_connection,
                                          connection.dialect)  # fmt: skip
            yield session

    @contextlib.contextmanager
    def read(self) -> Iterator[Session]:
        with self.sessions() as session:
            yield session

    def dispose(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.stop()
        self.engine.dispose()


class Checkpointer:
    """Copies SQLite's write-ahead log into the database file, in a thread of its own."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        connection: sqlite3.Connection | None = None
        try:
            while not self._stop.wait(CHECKPOINT_SECONDS):
                try:
                    if connection is None:
                        connection = sqlite3.connect(self.path, timeout=30)
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:  # a database not created yet, or busy: next time
                    log.debug("checkpoint skipped", exc_info=True)
        finally:
            if connection is not None:
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                connection.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    connection.isolation_level = None  # SQLAlchemy's "begin" event issues BEGIN itself
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # the Checkpointer's thread does it
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
    connection.connection.driver_connection.execute(f"BEGIN {mode}")
