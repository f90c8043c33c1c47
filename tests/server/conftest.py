"""Fixtures for the casino server tests: a database of each kind, and a running server."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator

import pytest

from baccara.server.settings import Settings
from tests.server.harness import Server, running
from tests.server.postgres import Cluster, start_cluster

FAST = {"betting_seconds": 1.0, "peek_seconds": 1.0, "choose_seconds": 1.0, "reveal_delay_ms": 0}
"""Short timers: tests close betting by "deal" and end peeks themselves where they can."""


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
        return f"sqlite:///{tmp_path / 'casino.db'}"
    cluster: Cluster = request.getfixturevalue("postgres")
    return cluster.new_database()


@pytest.fixture
def sqlite_url(tmp_path: pathlib.Path) -> str:
    return f"sqlite:///{tmp_path / 'casino.db'}"


def settings_for(url: str, **changes: object) -> Settings:
    return Settings(database_url=url, **{**FAST, **changes})  # type: ignore[arg-type]


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    """A casino on SQLite and on PostgreSQL, with the default tables (1-4 electronic Punto
    Banco, RedGreen, Mini RedGreen, Lo-Ball; 5 live Punto Banco)."""
    with running(settings_for(database_url)) as started:
        yield started


@pytest.fixture
def patient_server(database_url: str) -> Iterator[Server]:
    """The same casino whose betting stays open until a test deals: for tests that look at
    balances while a round is open, which a one-second timer could settle under them."""
    with running(settings_for(database_url, betting_seconds=600)) as started:
        yield started


@pytest.fixture
def sqlite_server(sqlite_url: str) -> Iterator[Server]:
    """The same casino on SQLite only, for tests whose subject is not the database."""
    with running(settings_for(sqlite_url)) as started:
        yield started
