"""Moving money: double-entry transfers between accounts, in integer cents.

A transfer's legs sum to zero, its key can be used once (the database's unique
constraint, not a check here), and an account that may not go negative — a wallet,
a table's stakes in play — is debited only if it holds the money, in the same
statement that debits it, so two bets at once cannot both spend the last euro.

Transfers are on the path of every bet and every payout, so they are written with
plain SQL statements (SQLAlchemy Core), and an account's id and kind — which never
change once it is opened — are remembered after the first look-up.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.orm import Session

from baccara.errors import BaccaraError
from baccara.money import format_cents
from baccara.server.models import Account, Entry, Transfer, table

HOUSE = "house"
DEPOSITS = "deposits"
GUARDED = ("wallet", "table")
"""Accounts that never go below zero."""

_accounts = table(Account)
_transfers = table(Transfer)
_entries = table(Entry)


class InsufficientFunds(BaccaraError):
    """A wallet (or a table's stakes) that does not hold the amount asked of it."""


@dataclass(frozen=True)
class Ref:
    """An account, by its id and kind."""

    id: int
    kind: str


_known: weakref.WeakKeyDictionary[Engine, dict[str, Ref]] = weakref.WeakKeyDictionary()
"""Accounts already looked up, per database and by name (their id and kind never change)."""


def wallet_name(user_id: int) -> str:
    return f"wallet:{user_id}"


def table_name(table_id: int) -> str:
    return f"table:{table_id}"


def account(session: Session, name: str, kind: str, user_id: int | None = None) -> Ref:
    """The account called ``name``, opened at zero the first time it is asked for."""
    remembered = _known.setdefault(session.get_bind(), {})  # type: ignore[arg-type]
    known = remembered.get(name)
    if known is not None:
        return known
    connection = session.connection()
    row = connection.execute(select(_accounts.c.id, _accounts.c.kind)
                             .where(_accounts.c.name == name)).first()  # fmt: skip
    if row is None:
        created = connection.execute(
            insert(_accounts).values(name=name, kind=kind, user_id=user_id, balance_cents=0)
            .returning(_accounts.c.id)
        ).scalar_one()  # fmt: skip
        return Ref(created, kind)  # remembered once its transaction has surely committed
    found = Ref(row.id, row.kind)
    remembered[name] = found
    return found


def house(session: Session) -> Ref:
    return account(session, HOUSE, "house")


def deposits(session: Session) -> Ref:
    return account(session, DEPOSITS, "deposits")


def balance(session: Session, ref: Ref) -> int:
    found = (
        session.connection()
        .execute(select(_accounts.c.balance_cents).where(_accounts.c.id == ref.id))
        .scalar_one()
    )
    return int(found)


def transfer(
    session: Session,
    key: str,
    kind: str,
    legs: Sequence[tuple[Ref, int]],
    now: float,
    round_id: int | None = None,
) -> tuple[int, dict[int, int]]:
    """Move money: each leg adds its amount to its account; the legs sum to zero.

    Returns the transfer's id and each account's balance after it.
    """
    if sum(amount for _, amount in legs) != 0:
        raise BaccaraError(f"transfer {key}: legs sum to {sum(a for _, a in legs)}, not 0")
    connection = session.connection()
    # A second transfer with this key fails here, on the unique constraint.
    moved = connection.execute(
        insert(_transfers).values(key=key, kind=kind, round_id=round_id, created_at=now)
        .returning(_transfers.c.id)
    ).scalar_one()  # fmt: skip
    balances: dict[int, int] = {}
    for ref, amount in legs:
        if amount == 0:
            continue
        statement = (
            update(_accounts)
            .where(_accounts.c.id == ref.id)
            .values(balance_cents=_accounts.c.balance_cents + amount)
            .returning(_accounts.c.balance_cents)
        )
        if ref.kind in GUARDED and amount < 0:
            statement = statement.where(_accounts.c.balance_cents + amount >= 0)
        after = connection.execute(statement).scalar_one_or_none()
        if after is None:
            held = balance(session, ref)
            raise InsufficientFunds(
                f"the balance is {format_cents(held)}; {format_cents(-amount)} is needed"
            )
        balances[ref.id] = int(after)
        connection.execute(insert(_entries).values(transfer_id=moved, account_id=ref.id,
                                                   amount_cents=amount, balance_after=after))  # fmt: skip
    return int(moved), balances
