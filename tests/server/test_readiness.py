"""``GET /api/ready``: whether this process can take bets, as a load balancer asks it.

Each test runs a casino in process, on an SQLite file of its own (or a PostgreSQL
database where the subject is the leases), and reads the answer as a probe would: the
status, and each check by name.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pathlib
import threading
import time
import warnings
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text

with warnings.catch_warnings():  # Starlette's client would rather have httpx2; httpx is fine
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from baccara.server.app import create_app
from baccara.server.db.database import MIGRATIONS
from baccara.server.domain import readiness
from baccara.server.settings import Settings
from tests.server.conftest import settings_for
from tests.server.harness import PASSWORD, Server, in_process
from tests.server.postgres import Cluster

CHECKS = ("database", "migrations", "tables", "tasks")


def _newest() -> str:
    """The newest revision of the migrations, whichever it is now."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def casino_settings(tmp_path: pathlib.Path, **changes: object) -> Settings:
    """Betting stays open until the test closes it, so no timer moves a round under it."""
    return settings_for(f"sqlite:///{tmp_path / 'casino.db'}", betting_seconds=600, **changes)


def ready(client: TestClient | httpx.Client, token: str = "") -> tuple[int, dict[str, bool]]:
    answer = client.get("/api/ready", headers={"Authorization": f"Bearer {token}"} if token else {})
    return answer.status_code, {c["name"]: c["ok"] for c in answer.json()["checks"]}


def details(client: TestClient | httpx.Client, token: str = "") -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return {
        c["name"]: c["detail"] for c in client.get("/api/ready", headers=headers).json()["checks"]
    }


def all_ok(**failed: bool) -> dict[str, bool]:
    return {name: failed.get(name, True) for name in CHECKS}


def admin_token(client: TestClient) -> str:
    client.app.state.casino.register("boss", PASSWORD, "admin")  # type: ignore[attr-defined]
    answer = client.post("/api/auth/login", json={"username": "boss", "password": PASSWORD})
    token: str = answer.json()["token"]
    return token


def test_a_fresh_casino_is_ready(database_url: str) -> None:
    """On SQLite every open table must be up; on PostgreSQL every table whose lease this
    process holds (here all of them: it is alone)."""
    with TestClient(create_app(settings_for(database_url, betting_seconds=600))) as client:
        answer = client.get("/api/ready")
        assert answer.status_code == 200
        assert answer.json()["ready"] is True
        assert ready(client) == (200, all_ok())
        assert client.get("/api/health").json() == {"status": "ok", "tables": 6}


def test_a_database_behind_the_migrations_is_not_ready(tmp_path: pathlib.Path) -> None:
    """The revisions are named to an admin only: the endpoint is public."""
    app = create_app(casino_settings(tmp_path))
    with TestClient(app) as client:
        token = admin_token(client)
        with app.state.casino.db.write() as session:
            session.execute(text("UPDATE alembic_version SET version_num = '0004'"))
        assert ready(client) == (503, all_ok(migrations=False))
        public = details(client)["migrations"]
        assert "0004" not in public and "newest" in public
        named = details(client, token)["migrations"]
        assert "0004" in named and f"this release at {_newest()}" in named


def test_a_table_not_up_is_not_ready(database_url: str) -> None:
    """Its id is named to an admin only; anyone else gets the count."""
    app = create_app(settings_for(database_url, betting_seconds=600))
    with TestClient(app) as client:
        token = admin_token(client)
        live = app.state.casino.tables.pop(3)
        try:
            assert ready(client) == (503, all_ok(tables=False))
            assert details(client)["tables"] == "1 of 6 not up"
            assert details(client, token)["tables"] == "1 of 6 not up: 3"
            assert details(client, "not a token")["tables"] == "1 of 6 not up"
        finally:
            app.state.casino.tables[3] = live


def test_a_database_out_of_reach_is_not_ready(tmp_path: pathlib.Path) -> None:
    """The database's file is replaced by a folder: no connection can open it."""
    app = create_app(casino_settings(tmp_path))
    path = tmp_path / "casino.db"
    aside = tmp_path / "aside.db"
    with TestClient(app) as client:
        engine = app.state.casino.db.engine
        engine.dispose()
        os.rename(path, aside)
        path.mkdir()
        try:
            status, found = ready(client)
        finally:
            path.rmdir()
            os.rename(aside, path)
            engine.dispose()
        assert (status, found) == (
            503, all_ok(database=False, migrations=False, tables=False),
        )  # fmt: skip
        assert app.state.metrics.value("baccara_database_errors_total",
                                       {"kind": "OperationalError"})  # fmt: skip
        assert ready(client)[0] == 200


def test_a_database_that_does_not_answer_holds_one_check_at_most(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check gives up after its timeout; while its query still hangs, the next probe
    starts none of its own (a load balancer asks every few seconds)."""
    app = create_app(casino_settings(tmp_path))
    released = threading.Event()
    entered = threading.Event()

    @contextlib.contextmanager
    def hanging() -> Iterator[None]:
        entered.set()
        released.wait(30)
        raise OSError("gone")
        yield

    with TestClient(app) as client:
        monkeypatch.setattr(readiness, "TIMEOUT", 0.05)
        monkeypatch.setattr(app.state.casino.db, "read", hanging)
        try:
            first = client.get("/api/ready").json()["checks"][0]
            assert entered.is_set()
            second = client.get("/api/ready").json()["checks"][0]
        finally:
            released.set()
        assert (first["ok"], first["detail"]) == (False, "no answer within 0.05 s")
        assert (second["ok"], second["detail"]) == (
            False, "the last check has had no answer yet (over 0.05 s)",
        )  # fmt: skip
        monkeypatch.undo()
        deadline = time.monotonic() + 30
        while client.get("/api/ready").status_code != 200:  # the hung query has ended
            assert time.monotonic() < deadline


@pytest.fixture
def casino(sqlite_url: str) -> Iterator[Server]:
    with in_process(settings_for(sqlite_url, betting_seconds=600)) as server:
        yield server


def test_two_probes_at_once_both_answer_ready(
    casino: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A probe that comes while another's check is still running (a slow database, well
    within the timeout) waits for that check's answer: it is not failed for it."""
    db = casino.casino.db
    plain_read = db.read
    entered, go = threading.Event(), threading.Event()

    @contextlib.contextmanager
    def slow() -> Iterator[Any]:
        entered.set()
        go.wait(5)
        with plain_read() as session:
            yield session

    monkeypatch.setattr(db, "read", slow)
    plain_within, begun = readiness._within, threading.Semaphore(0)

    async def counted(*args: Any) -> readiness.Check:
        begun.release()  # the check's probe has come; it decides at once how to answer
        return await plain_within(*args)

    monkeypatch.setattr(readiness, "_within", counted)
    answers: list[tuple[int, dict[str, bool]]] = []

    def probe() -> None:
        answers.append(ready(casino.client()))

    first = threading.Thread(target=probe)
    first.start()
    try:
        assert entered.wait(5)
        second = threading.Thread(target=probe)
        second.start()
        for _ in range(2 * 3):  # each probe's three checks have begun
            assert begun.acquire(timeout=5)
    finally:
        go.set()
    first.join(10)
    second.join(10)
    assert answers == [(200, all_ok()), (200, all_ok())]


def test_the_checks_run_at_once(casino: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A probe takes one timeout at most, not one per check: the two checks that read
    the database each wait for the other to be under way too, which they are only if
    they run at the same time."""
    db = casino.casino.db
    plain_read = db.read
    both = threading.Barrier(2, timeout=readiness.TIMEOUT / 2)

    @contextlib.contextmanager
    def together() -> Iterator[Any]:
        both.wait()
        with plain_read() as session:
            yield session

    monkeypatch.setattr(db, "read", together)
    assert ready(casino.client()) == (200, all_ok())


def test_a_dead_scheduler_is_not_ready(casino: Server) -> None:
    """A process whose scheduler died would take bets and never close a round."""
    runner = casino.casino.runner
    assert casino.loop is not None

    class Broken(dict[int, Any]):
        def values(self) -> Any:
            raise RuntimeError("the scheduler's bug")

    tables, runner.scheduler.tables = runner.scheduler.tables, Broken()
    try:
        casino.loop.run(_wake(runner.scheduler.wake))
        casino.loop.run(asyncio.wait([runner._scheduler]))
    finally:
        runner.scheduler.tables = tables  # for the test's end, which reads them
    assert ready(casino.client()) == (503, all_ok(tasks=False))
    assert details(casino.client())["tasks"] == "stopped: the scheduler died: RuntimeError"


def test_a_dead_lease_keeper_is_not_ready(casino: Server) -> None:
    cluster = casino.casino.cluster
    assert casino.loop is not None
    casino.loop.run(_cancel(cluster._tasks[0]))
    assert ready(casino.client()) == (503, all_ok(tasks=False))
    assert details(casino.client())["tasks"] == "stopped: the keeper of the leases was cancelled"


async def _wake(event: asyncio.Event) -> None:
    event.set()


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


@pytest.mark.postgres
def test_a_table_dealt_without_its_lease_is_not_ready(postgres: Cluster) -> None:
    """A table this process still deals after another took its lease would answer its
    bets 503 (the table moving): the process is not ready until it has let it go."""
    url = postgres.new_database()
    with in_process(settings_for(url, betting_seconds=600)) as server:
        with server.casino.db.write() as session:
            session.execute(text("UPDATE table_leases SET holder = 'elsewhere', "
                                 "generation = generation + 1 WHERE table_id = 2"))  # fmt: skip
        client = server.client()
        assert ready(client) == (503, all_ok(tables=False))
        assert details(client)["tables"] == "1 dealt here without their lease"
