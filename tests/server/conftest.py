"""Fixtures for the casino server tests: a database of each kind, a test's clock, and a
casino running in the test's process on that clock."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator

import pytest

from baccara.server.clock import ManualClock
from baccara.server.settings import Settings
from tests.server.harness import Server, fresh_sqlite, in_process
from tests.server.postgres import Cluster, start_cluster

FAST = {"betting_seconds": 1.0, "peek_seconds": 1.0, "choose_seconds": 1.0, "reveal_delay_ms": 0}
"""Short timers, on the test's clock: a test runs one out by advancing the clock that
far (``server.advance(1.0)``); tests close betting by "deal" where they can."""


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: pathlib.Path) -> str:
    """Each test that takes this runs once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        return fresh_sqlite(request.getfixturevalue("migrated_sqlite"), tmp_path)
    cluster: Cluster = request.getfixturevalue("postgres")
    return cluster.new_database()


@pytest.fixture
def sqlite_url(migrated_sqlite: pathlib.Path, tmp_path: pathlib.Path) -> str:
    return fresh_sqlite(migrated_sqlite, tmp_path)


@pytest.fixture
def clock() -> ManualClock:
    """The casino's clock, which stands still until the test moves it."""
    return ManualClock()


def settings_for(url: str, **changes: object) -> Settings:
    return Settings(database_url=url, **{**FAST, **changes})  # type: ignore[arg-type]


@pytest.fixture
def server(database_url: str, clock: ManualClock) -> Iterator[Server]:
    """A casino on SQLite and on PostgreSQL, with the default tables (an electronic table
    of each game: Punto Banco, RedGreen, Mini RedGreen, Lo-Ball, 1 to 4; then the live
    Punto Banco, ``server.live_table()``; then EZ Baccarat, 6)."""
    with in_process(settings_for(database_url), clock) as started:
        yield started


@pytest.fixture
def patient_server(database_url: str, clock: ManualClock) -> Iterator[Server]:
    """The same casino whose betting stays open for ten minutes of its clock: for tests
    that look at balances while a round is open and move the clock on."""
    with in_process(settings_for(database_url, betting_seconds=600), clock) as started:
        yield started


@pytest.fixture
def sqlite_server(sqlite_url: str, clock: ManualClock) -> Iterator[Server]:
    """The same casino on SQLite only, for tests whose subject is not the database."""
    with in_process(settings_for(sqlite_url), clock) as started:
        yield started
