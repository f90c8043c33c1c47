"""The casino's books, read straight from its database: do they balance?"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import func, select

from baccara.server.db.database import Database
from baccara.server.db.models import Account, Bet, CasinoTable, Entry, Payout, Round, Transfer, User


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


@dataclass(frozen=True)
class Acknowledged:
    """A bet the server answered 201 for: what the player was told."""

    bet_id: str
    round_id: int
    table_id: int
    username: str
    amount_cents: int


OVER = ("settled", "voided")


def check_rounds(
    url: str, acknowledged: Iterable[Acknowledged], *, complete: bool = False
) -> dict[str, int]:
    """After faults, once play has stopped and the rounds in flight are over: every bet the
    server acknowledged is recorded, as acknowledged, on its round; every round but each
    open table's newest is settled or voided, and that newest holds no bet; every bet is
    paid exactly once (a voided round's bets get their stakes back); each wallet is its
    deposits − its stakes + what its bets returned; and :func:`check_books`. With
    ``complete`` (clients that retried every bet until answered) the acknowledged bets are
    all the bets there are. Returns counts of what was checked."""
    database = Database(url)
    try:
        with database.read() as session:
            bets = {b.id: b for b in session.scalars(select(Bet))}
            users = {id_: name for id_, name in session.execute(select(User.id, User.username))}
            rounds = {r.id: r for r in session.scalars(select(Round))}
            payouts = {p.bet_id: p for p in session.scalars(select(Payout))}
            open_tables = set(
                session.scalars(select(CasinoTable.id).where(CasinoTable.status == "open"))
            )
            deposits = dict(
                session.execute(
                    select(Account.user_id, func.sum(Entry.amount_cents))
                    .join(Entry, Entry.account_id == Account.id)
                    .join(Transfer, Transfer.id == Entry.transfer_id)
                    .where(Account.kind == "wallet", Transfer.kind == "deposit")
                    .group_by(Account.user_id)
                ).all()
            )
            wallets = dict(
                session.execute(
                    select(Account.user_id, Account.balance_cents).where(Account.kind == "wallet")
                ).all()
            )
        acknowledged = list(acknowledged)
        for ack in acknowledged:
            bet = bets.get(ack.bet_id)
            assert bet is not None, f"acknowledged bet {ack} is not in the database"
            assert (bet.round_id, bet.table_id, users[bet.user_id], bet.amount_cents) == (
                ack.round_id, ack.table_id, ack.username, ack.amount_cents,
            ), ack  # fmt: skip
            assert bet.status == "placed", ack
        if complete:
            placed = {b.id for b in bets.values() if b.status == "placed"}
            assert placed == {ack.bet_id for ack in acknowledged}
            assert len(acknowledged) == len(placed)  # and none acknowledged twice
        newest = {r.table_id: r.id for r in sorted(rounds.values(), key=lambda r: r.nonce)}
        for row in rounds.values():
            if row.state not in OVER:
                assert row.table_id in open_tables and newest[row.table_id] == row.id, (
                    f"round {row.id} of table {row.table_id} is left {row.state}"
                )
        expected = dict.fromkeys(wallets, 0)
        for user_id, deposited in deposits.items():
            expected[user_id] += int(deposited)
        for bet in bets.values():
            if bet.status != "placed":
                continue
            row = rounds[bet.round_id]
            assert row.state in OVER, f"bet {bet.id} is on round {row.id}, still {row.state}"
            paid = payouts.get(bet.id)
            assert paid is not None, f"bet {bet.id} of {row.state} round {row.id} was not paid"
            assert paid.round_id == bet.round_id and paid.user_id == bet.user_id, bet.id
            if row.state == "voided":
                assert (paid.result, paid.returned_cents) == ("void", bet.amount_cents), bet.id
            expected[bet.user_id] += paid.returned_cents - bet.amount_cents
        assert wallets == expected, {u: (wallets[u], expected[u]) for u in wallets
                                     if wallets[u] != expected[u]}  # fmt: skip
        totals = check_books(url)
        return {
            **totals,
            "acknowledged": len(acknowledged),
            "bets": sum(b.status == "placed" for b in bets.values()),
            "rounds": len(rounds),
            "voided": sum(r.state == "voided" for r in rounds.values()),
        }
    finally:
        database.dispose()
