"""Money: idempotent bets, balances that cannot go negative, books that always balance, and
a ledger the database itself will not let anyone rewrite."""

from __future__ import annotations

import concurrent.futures

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError

from baccara.server.db.database import Database
from tests.server.books import check_books
from tests.server.harness import Server


def test_a_retry_with_the_same_key_places_the_bet_once(patient_server: Server) -> None:
    ann = patient_server.player()
    first = ann.bet(1, "banker", 1000, key="retry-1")
    again = ann.bet(1, "banker", 1000, key="retry-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert ann.balance() == 100_000 - 1000
    other = ann.bet(1, "player", 1000, key="retry-1")
    assert other.status_code == 409 and other.json()["error"] == "idempotency_conflict"
    assert ann.balance() == 99_000


def test_concurrent_retries_place_one_bet(patient_server: Server) -> None:
    ann = patient_server.player()
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: ann.bet(1, "tie", 500, key="same"), range(8)))
    assert {a.status_code for a in answers} == {201}
    assert len({a.json()["bet_id"] for a in answers}) == 1
    assert ann.balance() == 100_000 - 500
    check_books(patient_server.settings.database_url)


def test_a_bet_needs_an_idempotency_key(sqlite_server: Server) -> None:
    ann = sqlite_server.player()
    missing = ann.http.post("/api/tables/1/bets", json={"bet": "banker", "amount_cents": 100})
    assert missing.status_code == 400 and "Idempotency-Key" in missing.json()["detail"]
    too_long = ann.bet(1, "banker", 100, key="k" * 65)
    assert too_long.status_code == 400


def test_the_balance_never_goes_negative(patient_server: Server) -> None:
    ann = patient_server.player()
    ann.sit(4)
    for spot in ("main", "lo-card"):
        assert ann.bet(4, spot, 50_000).status_code == 201  # the table's maximum, twice
    broke = ann.bet(4, "dice-lo", 100)
    assert broke.status_code == 400 and broke.json()["error"] == "insufficient_funds"
    assert "the balance is 0.00" in broke.json()["detail"]
    assert ann.balance() == 0


def test_concurrent_bets_cannot_spend_the_same_money_twice(patient_server: Server) -> None:
    """Four bets of 400.00 at four tables at once, from 1,000.00: at most two go through."""
    ann = patient_server.player()
    for table_id in (2, 3, 4):
        ann.sit(table_id)
    spots = [(1, "banker"), (2, "red"), (3, "red"), (4, "main")]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda s: ann.bet(s[0], s[1], 40_000), spots))
    assert sorted(a.status_code for a in answers) == [201, 201, 400, 400]
    assert ann.balance() == 100_000 - 2 * 40_000
    check_books(patient_server.settings.database_url)


def test_a_withdrawn_bet_returns_its_stake(patient_server: Server) -> None:
    ann = patient_server.player()
    bet_id = ann.bet(1, "banker", 1500).json()["bet_id"]
    assert ann.balance() == 98_500
    assert ann.http.delete(f"/api/tables/1/bets/{bet_id}").json() == {"balance_cents": 100_000}
    assert ann.http.delete(f"/api/tables/1/bets/{bet_id}").status_code == 400
    check_books(patient_server.settings.database_url)


@pytest.mark.parametrize("table", ["ledger_entries", "transfers", "payouts"])
def test_the_database_refuses_to_rewrite_money(server: Server, table: str) -> None:
    ann = server.player()
    ann.sit(1)
    ann.bet(1, "banker", 1000)
    ann.http.post("/api/tables/1/deal")  # the only seated bettor is ready: dealt and paid
    server.idle()
    column = {"transfers": "kind", "ledger_entries": "amount_cents", "payouts": "won_cents"}[table]
    database = Database(server.settings.database_url)
    try:
        with database.engine.begin() as connection:
            assert connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one() > 0
        for statement in (f"UPDATE {table} SET {column} = {column}", f"DELETE FROM {table}"):
            with pytest.raises(DBAPIError, match="append-only"), database.engine.begin() as c:
                c.execute(text(statement))
    finally:
        database.dispose()


def test_a_bet_cannot_be_paid_twice(server: Server) -> None:
    """The payouts table's key is the bet: a second payout row is refused by the database."""
    ann = server.player()
    ann.sit(1)
    ann.bet(1, "banker", 1000)
    round_id = ann.http.get("/api/tables/1").json()["round_id"]
    ann.http.post("/api/tables/1/deal")
    server.idle()  # dealt and paid
    database = Database(server.settings.database_url)
    try:
        with database.engine.begin() as connection:
            row = connection.execute(text(
                "SELECT bet_id, round_id, user_id, transfer_id FROM payouts WHERE round_id = :r"),
                {"r": round_id}).one()  # fmt: skip
        with pytest.raises(IntegrityError), database.engine.begin() as connection:
            connection.execute(text(
                "INSERT INTO payouts (bet_id, round_id, user_id, result, won_cents, returned_cents,"
                " commission_cents, transfer_id) VALUES (:b, :r, :u, 'win', 1, 1, 0, :t)"),
                {"b": row[0], "r": row[1], "u": row[2], "t": row[3] + 10_000})  # fmt: skip
    finally:
        database.dispose()
    check_books(server.settings.database_url)
