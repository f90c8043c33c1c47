"""The casino's books, read straight from its database: do they balance?"""

from __future__ import annotations

from sqlalchemy import func, select

from baccara.server.database import Database
from baccara.server.models import Account, Entry, Payout, Transfer


def check_books(url: str) -> dict[str, int]:
    """Players + house + stakes in play = deposits, to the cent; every account's balance is
    the sum of its entries; every transfer's legs sum to zero; no bet is paid twice."""
    database = Database(url)
    try:
        with database.read() as session:
            if not database.sqlite:  # one snapshot for every query below, as SQLite's reads have
                session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            totals = {
                kind: int(
                    session.scalar(
                        select(func.coalesce(func.sum(Account.balance_cents), 0)).where(
                            Account.kind == kind
                        )
                    )
                    or 0
                )
                for kind in ("wallet", "house", "table", "deposits")
            }
            assert totals["wallet"] + totals["house"] + totals["table"] == -totals["deposits"], (
                totals
            )
            for account in session.scalars(select(Account)):
                summed = session.scalar(select(func.coalesce(func.sum(Entry.amount_cents), 0))
                                        .where(Entry.account_id == account.id))  # fmt: skip
                assert summed == account.balance_cents, account.name
                if account.kind in ("wallet", "table"):
                    assert account.balance_cents >= 0, account.name
            unbalanced = session.execute(
                select(Transfer.key).join(Entry, Entry.transfer_id == Transfer.id)
                .group_by(Transfer.key).having(func.sum(Entry.amount_cents) != 0)
            ).all()  # fmt: skip
            assert not unbalanced, unbalanced
            payouts = session.scalar(select(func.count(Payout.bet_id))) or 0
            distinct = session.scalar(select(func.count(func.distinct(Payout.bet_id)))) or 0
            assert payouts == distinct
            return totals
    finally:
        database.dispose()
