"""The migrations and the models cannot drift apart: pytest-alembic's checks, on SQLite
and on PostgreSQL.

- one head: two migrations written at once on two branches would leave two;
- upgrade: from an empty database through every migration to the newest, as a server
  does on its first start;
- the models match: autogenerating a migration from the fully upgraded database and the
  models of :mod:`baccara.server.db.models` finds nothing to do, so a column added to a
  model without its migration (or the other way round) fails here;
- up and down: each migration upgrades one at a time and downgrades back to nothing.

Alembic's configuration is the server's own (:meth:`baccara.server.db.database.Database.migrate`):
no alembic.ini, the script location the migrations' folder, and the connection handed to
``env.py`` through the configuration's attributes.
"""

from __future__ import annotations

import pathlib
from collections.abc import Iterator

import pytest
from alembic.config import Config
from pytest_alembic.tests import (
    test_model_definitions_match_ddl,
    test_single_head_revision,
    test_up_down_consistency,
    test_upgrade,
)
from sqlalchemy import Connection

from baccara.server.db.database import MIGRATIONS, Database
from tests.server.postgres import Cluster

__all__ = [
    "test_model_definitions_match_ddl",
    "test_single_head_revision",
    "test_up_down_consistency",
    "test_upgrade",
]
"""pytest-alembic's checks, collected here under their own names."""


@pytest.fixture
def alembic_config() -> Config:
    """The configuration the server migrates with."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@pytest.fixture(params=["sqlite", "postgresql"])
def alembic_engine(request: pytest.FixtureRequest, tmp_path: pathlib.Path) -> Iterator[Connection]:
    """An empty database of each kind, on the engine the server would open on it; the
    migrations' ``env.py`` is handed a connection, as the server hands it one."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'casino.db'}"
    else:
        cluster: Cluster = request.getfixturevalue("postgres")
        url = cluster.new_database()
    database = Database(url)
    try:
        with database.engine.connect() as connection:
            yield connection
    finally:
        database.dispose()
