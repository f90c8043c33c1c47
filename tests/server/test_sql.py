"""Statements run by the driver: compiled once per dialect, all of them at start, and an
insert that leaves a column to a default SQLAlchemy would compute is refused."""

from __future__ import annotations

import pytest
from sqlalchemy import bindparam, insert, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect

from baccara.server.db import (
    ledger,
    store,  # noqa: F401 - statements
)
from baccara.server.db.models import Account, Bet, table
from baccara.server.db.sql import _MADE, Inserts, Statement, prepare


@pytest.mark.parametrize("dialect", [sqlite.dialect(), postgresql.psycopg.dialect()])
def test_prepare_compiles_every_statement_and_every_insert_size(dialect: Dialect) -> None:
    prepare(dialect)
    assert len(_MADE) >= 10
    for made in _MADE:
        if isinstance(made, Inserts):
            assert sorted(made._by_size) == [1, 2, 4, 8, 16, 32, 64]
            assert all(dialect.name in s._by_dialect for s in made._by_size.values())
        elif made.only in (None, dialect.name):
            assert dialect.name in made._by_dialect


def test_an_insert_leaving_a_column_to_its_default_is_refused() -> None:
    bets = table(Bet)  # "status" has a default SQLAlchemy fills in at execution
    without_status = Statement(insert(bets), ("id", "round_id", "table_id", "user_id", "spot",
                                              "amount_cents", "seat", "created_at"),
                               prepared=False)  # fmt: skip
    with pytest.raises(ValueError, match="give 'status'"):
        without_status._compiled(sqlite.dialect())


def test_a_statements_own_values_are_bound_with_the_callers() -> None:
    accounts = table(Account)
    debit = Statement(
        update(accounts)
        .where(accounts.c.id == bindparam("account"),
               accounts.c.balance_cents + bindparam("amount") >= 0)
        .values(balance_cents=accounts.c.balance_cents + bindparam("amount")),
        prepared=False,
    )  # fmt: skip
    compiled = debit._compiled(sqlite.dialect())
    assert compiled.fixed == {"param_1": 0}  # the 0 of "balance + :amount >= 0"
    assert compiled.bind({"account": 7, "amount": -5}) == (-5, 7, -5, 0)


def test_accounts_are_moved_by_one_statement_each_bound_once_by_name() -> None:
    """The ledger's moves name each account's id, amount and floor, however many times
    the statement uses them (the driver takes SQLite's placeholders in order)."""
    compiled = ledger._MOVES[2]._compiled(sqlite.dialect())
    assert compiled.fixed == {}
    params = {"id_0": 3, "amount_0": -5, "floor_0": 0, "id_1": 4, "amount_1": 5,
              "floor_1": ledger.UNGUARDED}  # fmt: skip
    bound = compiled.bind(params)
    assert sorted(set(bound)) == sorted(set(params.values()))
    assert compiled.sql.count("?") == len(bound)
