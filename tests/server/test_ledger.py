"""The ledger's batch of transfers against the plain rule: legs applied one by one.

A round's settlement writes all its payouts with :func:`ledger.transfers`, a few
statements whatever the number of bets. These tests hold it to a model written
from the rule itself — every leg, in order, adds to its account; a wallet or a
table's stakes may never go below zero at any step, or nothing happens — over
generated batches, on both databases.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, update

from baccara.server.db import ledger
from baccara.server.db.database import Database
from baccara.server.db.models import Account, Entry, Transfer
from baccara.server.db.sql import Inserts
from baccara.server.errors import InsufficientFunds
from tests.server.postgres import Cluster

KINDS = ("wallet", "wallet", "table", "house", "deposits")
"""The accounts of the tests: two wallets, a table, the house, deposits."""


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Database]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('ledger')}/ledger.db"
    else:
        cluster: Cluster = request.getfixturevalue("postgres")
        url = cluster.new_database()
    database = Database(url)
    database.migrate()
    with database.write() as session:
        for number, kind in enumerate(KINDS):
            ledger.account(session, f"test:{number}", kind)
    yield database
    database.dispose()


def model(
    balances: list[int], moves: list[list[tuple[int, int]]]
) -> tuple[list[int], list[list[int]]] | None:
    """Balances after, and the balance after each leg, as the rule says; None if refused."""
    now = list(balances)
    afters = []
    for legs in moves:
        step = []
        for account, amount in legs:
            if amount == 0:
                continue
            now[account] += amount
            if KINDS[account] in ledger.GUARDED and now[account] < 0:
                return None
            step.append(now[account])
        afters.append(step)
    return now, afters


@st.composite
def batches(draw: st.DrawFn) -> tuple[list[int], list[list[tuple[int, int]]]]:
    balances = [draw(st.integers(0, 2_000)) for _ in KINDS]
    moves = []
    for _ in range(draw(st.integers(1, 6))):
        legs = [
            (draw(st.integers(0, len(KINDS) - 1)), draw(st.integers(-1_500, 1_500)))
            for _ in range(draw(st.integers(1, 3)))
        ]
        balancing = draw(st.integers(0, len(KINDS) - 1))
        legs.append((balancing, -sum(amount for _, amount in legs)))
        moves.append(legs)
    return balances, moves


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(batch=batches())
def test_a_batch_is_the_transfers_one_after_another(
    database: Database, batch: tuple[list[int], list[list[tuple[int, int]]]]
) -> None:
    balances, moves = batch
    expected = model(balances, moves)
    with database.sessions() as session, session.begin():
        refs = [ledger.account(session, f"test:{n}", kind) for n, kind in enumerate(KINDS)]
        for ref, cents in zip(refs, balances, strict=True):
            session.execute(update(Account).where(Account.id == ref.id).values(balance_cents=cents))
        batch_moves = [
            ledger.Move(f"t{i}", "adjust", [(refs[a], amount) for a, amount in legs])
            for i, legs in enumerate(moves)
        ]
        nested = session.begin_nested()
        if expected is None:
            with pytest.raises(InsufficientFunds):
                ledger.transfers(session, batch_moves, 0.0)
            nested.rollback()
            return
        ids, after = ledger.transfers(session, batch_moves, 0.0)
        final, afters = expected
        now = [ledger.balance(session, ref) for ref in refs]
        assert now == final
        assert after == {ref.id: final[n] for n, ref in enumerate(refs) if ref.id in after}
        touched = {refs[a].id for legs in moves for a, amount in legs if amount}
        assert set(after) == touched
        for transfer_id, legs, step in zip(ids, moves, afters, strict=True):
            rows = session.execute(
                select(Entry.account_id, Entry.amount_cents, Entry.balance_after)
                .where(Entry.transfer_id == transfer_id).order_by(Entry.id)
            ).all()  # fmt: skip
            legs_written = [(refs[a].id, amount) for a, amount in legs if amount]
            assert [(r.account_id, r.amount_cents) for r in rows] == legs_written
            assert [r.balance_after for r in rows] == step
        keys = session.scalars(
            select(Transfer.key).where(Transfer.id.in_(ids)).order_by(Transfer.id)
        )
        assert list(keys) == [m.key for m in batch_moves]
        session.rollback()


def test_a_transfer_whose_legs_do_not_sum_to_zero_is_refused(database: Database) -> None:
    with database.sessions() as session, session.begin():
        wallet = ledger.account(session, "test:0", "wallet")
        house = ledger.account(session, "test:3", "house")
        with pytest.raises(ledger.BaccaraError, match="legs sum to 5, not 0"):
            ledger.transfers(
                session, [ledger.Move("x", "adjust", [(wallet, 10), (house, -5)])], 0.0
            )
        session.rollback()


def test_a_batch_larger_than_one_statement_gives_each_transfer_its_own_id(
    database: Database,
) -> None:
    """A round with hundreds of bets: its transfers go in by the hundred
    (:class:`~baccara.server.db.sql.Inserts`), returned in no promised order; each must still
    get its own id, in the order of the moves."""
    count = 2 * Inserts.CHUNK + 7
    with database.write() as session:
        wallet = ledger.account(session, "test:0", "wallet")
        house = ledger.account(session, "test:3", "house")
        moves = [ledger.Move(f"big{i}", "adjust", [(house, -(i + 1)), (wallet, i + 1)])
                 for i in range(count)]  # fmt: skip
        before = ledger.balance(session, wallet)
        ids, after = ledger.transfers(session, moves, 0.0)
        found = select(Transfer.id, Transfer.key).where(Transfer.id.in_(ids))
        keys = {transfer_id: key for transfer_id, key in session.execute(found)}
        assert [keys[i] for i in ids] == [m.key for m in moves]
        assert len(set(ids)) == count
        credited = session.execute(
            select(Entry.transfer_id, Entry.amount_cents).where(
                Entry.transfer_id.in_(ids), Entry.account_id == wallet.id
            )
        ).all()
        assert sorted(credited) == sorted((ids[i], i + 1) for i in range(count))
        assert after[wallet.id] == before + count * (count + 1) // 2
        session.rollback()
