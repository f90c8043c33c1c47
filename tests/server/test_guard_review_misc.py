"""A cancelled loss limit is one rule, and the connections refused are all logged.

A loss-limit row set while an earlier one still waited cancels it (10.00, then 500.00
waiting its day, then 1.00: the 500.00 never applies). The bet's own statements and the
player's page both read that rule; generated sequences of changes show them agreeing
with it, and with each other, at every moment.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from baccara.server.db import store
from baccara.server.db.models import User
from baccara.server.domain import responsible
from baccara.server.errors import LossLimitReached
from tests.server.conftest import settings_for
from tests.server.harness import Server, in_process

HOUR = 3600.0


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    url = f"sqlite:///{tmp_path_factory.mktemp('limits') / 'casino.db'}"
    with in_process(settings_for(url)) as started:
        yield started


@dataclass(frozen=True)
class Row:
    set_at: float
    effective_at: float
    cents: int | None


def _expected(rows: list[Row], now: float) -> tuple[int | None, int]:
    """The limit in force at ``now`` and how many rows apply by then, as
    :func:`responsible.set_limit` describes the rule: a row replaced by a later one set
    before it took effect never applies."""
    kept = [row for number, row in enumerate(rows)
            if not any(later.set_at < row.effective_at for later in rows[number + 1:])]  # fmt: skip
    applied = [row for row in kept if row.effective_at <= now]
    applied.sort(key=lambda row: row.effective_at)  # stable: the later choice last
    return (applied[-1].cents if applied else None), len(applied)


CHANGES = st.lists(
    st.tuples(st.sampled_from([0.0, 60.0, HOUR, 23 * HOUR, 25 * HOUR]),
              st.one_of(st.none(), st.integers(0, 20).map(lambda n: n * 500))),
    min_size=1, max_size=6,
)  # fmt: skip


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(changes=CHANGES, looks=st.lists(st.sampled_from([0.0, HOUR, 24 * HOUR, 49 * HOUR]),
                                       min_size=1, max_size=3))  # fmt: skip
def test_the_bet_and_the_page_read_a_cancelled_limit_as_one_rule(
    shared: Server, changes: list[tuple[float, int | None]], looks: list[float]
) -> None:
    player = shared.player()
    casino = shared.casino
    with casino.db.read() as session:
        user_id = session.scalars(select(User.id).where(User.username == player.name)).one()
    now, rows = 1_000_000.0, []
    with casino.db.write() as session:
        for gap, cents in changes:
            now += gap
            change = responsible.set_limit(session, user_id, "day", cents, now, confirm=True)
            rows.append(Row(now, change.limit.effective_at, cents))
    for look in looks:
        at = now + look
        in_force, applied = _expected(rows, at)
        with casino.db.write() as session:
            assert responsible.limit_in_force(session, user_id, "day", at) == in_force
            bettor = responsible.player_at_bet(session, user_id, at)
            assert bettor.limits == applied
            wallet = store.wallet(session, user_id)
            if in_force is not None:
                with pytest.raises(LossLimitReached):
                    responsible.check_bet(session, user_id, wallet, in_force + 1, at, bettor)
                if in_force > 0:
                    responsible.check_bet(session, user_id, wallet, in_force, at, bettor)
            else:
                responsible.check_bet(session, user_id, wallet, 10**9, at, bettor)
