"""SQLite's group commit: the transactions of one turn of the loop share one COMMIT, and
each stands or falls alone — a piece that fails changes nothing, whether it ran alone
(in its own transaction) or among others (in its own savepoint)."""

from __future__ import annotations

import asyncio
import pathlib
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from baccara.server.db.database import Database
from baccara.server.db.group_commit import GroupCommit
from baccara.server.db.models import Account, table
from baccara.server.db.sql import Statement

ACCOUNTS = table(Account)


NEW_ACCOUNT = Statement(insert(ACCOUNTS), ("name", "kind", "balance_cents", "user_id"))
"""The same insert, run by the driver as a bet's statements are (not through the session)."""


def _open(name: str, fail: bool = False, by_driver: bool = False) -> Callable[[Session], str]:
    def work(session: Session) -> str:
        if by_driver:
            NEW_ACCOUNT.rows(session, {"name": name, "kind": "house", "balance_cents": 0,
                                       "user_id": None})  # fmt: skip
        else:
            session.connection().execute(
                insert(ACCOUNTS).values(name=name, kind="house", balance_cents=0)
            )
        if fail:
            raise ValueError(f"{name} refused")
        return name

    return work


@pytest.fixture
def database(tmp_path: pathlib.Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'group.db'}")
    db.migrate()
    return db


def _names(database: Database) -> set[str]:
    with database.read() as session:
        return set(session.scalars(select(ACCOUNTS.c.name)))


async def _together(group: GroupCommit[str], works: list[Callable[[Session], str]]) -> list[object]:
    return await asyncio.gather(*(group.run(w) for w in works), return_exceptions=True)


@pytest.mark.parametrize("by_driver", [False, True])
@pytest.mark.parametrize("size", [1, 2, 5])
def test_each_piece_stands_or_falls_alone(database: Database, size: int, by_driver: bool) -> None:
    works = [_open(f"a{i}", fail=i % 2 == 1, by_driver=by_driver) for i in range(size)]
    results = asyncio.run(_together(GroupCommit(database), works))
    for i, result in enumerate(results):
        if i % 2:
            assert isinstance(result, ValueError) and str(result) == f"a{i} refused"
        else:
            assert result == f"a{i}"
    assert _names(database) >= {f"a{i}" for i in range(0, size, 2)}
    assert not _names(database) & {f"a{i}" for i in range(1, size, 2)}


@pytest.mark.parametrize("size", [1, 3])
def test_a_piece_cancelled_before_its_turn_writes_nothing(database: Database, size: int) -> None:
    async def run() -> list[object]:
        group: GroupCommit[str] = GroupCommit(database)
        tasks = [asyncio.ensure_future(group.run(_open(f"c{i}"))) for i in range(size + 1)]
        await asyncio.sleep(0)  # each piece is queued
        tasks[0].cancel()
        return await asyncio.gather(*tasks, return_exceptions=True)

    results = asyncio.run(run())
    assert isinstance(results[0], asyncio.CancelledError)
    assert results[1:] == [f"c{i}" for i in range(1, size + 1)]
    names = _names(database)
    assert "c0" not in names and {f"c{i}" for i in range(1, size + 1)} <= names


@pytest.mark.parametrize("size", [1, 2])
def test_a_failed_commit_fails_every_piece_and_writes_nothing(
    database: Database, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    from sqlalchemy.engine.default import DefaultDialect

    def refuse(self: DefaultDialect, connection: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(DefaultDialect, "do_commit", refuse)  # the COMMIT itself fails
    works = [_open(f"d{i}") for i in range(size)]
    results = asyncio.run(_together(GroupCommit(database), works))
    monkeypatch.undo()
    assert len(results) == size and all(isinstance(r, OSError) for r in results)
    assert not _names(database) & {f"d{i}" for i in range(size)}


def test_a_batch_out_of_time_commits_what_it_ran_and_the_rest_comes_next(
    database: Database,
) -> None:
    """A batch stops once its time is up and commits; the rest runs in the next turns of
    the loop, each piece still standing or falling alone. What was left over has the
    first half of the next batch's time, what arrived in between the second half: here
    the pieces take 0.12 s each against batches of 0.2 s, on a clock given to the group
    commit that only they move (a busy machine cannot change what a batch has time for)."""
    order: list[str] = []
    clock = [0.0]
    stopwatch = SimpleNamespace(now=lambda: clock[0], monotonic=lambda: clock[0])

    def piece(name: str, seconds: float, fail: bool = False) -> Callable[[Session], str]:
        inner = _open(name, fail=fail, by_driver=True)

        def work(session: Session) -> str:
            order.append(name)
            clock[0] += seconds
            return inner(session)

        return work

    async def run() -> list[object]:
        group: GroupCommit[str] = GroupCommit(database, seconds=0.2, clock=stopwatch)
        first = [asyncio.ensure_future(group.run(piece(f"s{i}", 0.12, fail=i == 1)))
                 for i in range(4)]  # fmt: skip
        await asyncio.sleep(0)  # queued together: one batch, which has time for two
        late = asyncio.ensure_future(group.run(piece("late", 0.0)))  # during that batch
        return await asyncio.gather(*first, late, return_exceptions=True)

    results = asyncio.run(run())
    assert results[0] == "s0" and isinstance(results[1], ValueError)
    assert results[2:] == ["s2", "s3", "late"]
    # s2 (left over) has the next batch's first half; late, which arrived meanwhile, goes
    # in its second half, ahead of s3
    assert order == ["s0", "s1", "s2", "late", "s3"]
    assert _names(database) >= {"s0", "s2", "s3", "late"} and "s1" not in _names(database)
