"""Moving money: double-entry transfers between accounts, in integer cents.

A transfer's legs sum to zero, its key can be used once (the database's unique
constraint, not a check here), and an account that may not go negative — a wallet,
a table's stakes in play — is debited only if it holds the money, in the same
statement that debits it, so two bets at once cannot both spend the last euro.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from baccara.errors import BaccaraError
from baccara.money import format_cents
from baccara.server.models import Account, Entry, Transfer

HOUSE = "house"
DEPOSITS = "deposits"
GUARDED = ("wallet", "table")
"""Accounts that never go below zero."""


class InsufficientFunds(BaccaraError):
    """A wallet (or a table's stakes) that does not hold the amount asked of it."""


def wallet_name(user_id: int) -> str:
    return f"wallet:{user_id}"


def table_name(table_id: int) -> str:
    return f"table:{table_id}"


def account(session: Session, name: str, kind: str, user_id: int | None = None) -> Account:
    """The account called ``name``, opened at zero the first time it is asked for."""
    found = session.scalars(select(Account).where(Account.name == name)).first()
    if found is not None:
        return found
    created = Account(name=name, kind=kind, user_id=user_id, balance_cents=0)
    session.add(created)
    session.flush()
    return created


def house(session: Session) -> Account:
    return account(session, HOUSE, "house")


def deposits(session: Session) -> Account:
    return account(session, DEPOSITS, "deposits")


def transfer(
    session: Session,
    key: str,
    kind: str,
    legs: Sequence[tuple[Account, int]],
    now: float,
    round_id: int | None = None,
) -> Transfer:
    """Move money: each leg adds its amount to its account; the legs sum to zero."""
    if sum(amount for _, amount in legs) != 0:
        raise BaccaraError(f"transfer {key}: legs sum to {sum(a for _, a in legs)}, not 0")
    moved = Transfer(key=key, kind=kind, round_id=round_id, created_at=now)
    session.add(moved)
    session.flush()  # a second transfer with this key fails here, on the unique constraint
    for acct, amount in legs:
        if amount == 0:
            continue
        statement = (
            update(Account)
            .where(Account.id == acct.id)
            .values(balance_cents=Account.balance_cents + amount)
            .returning(Account.balance_cents)
        )
        if acct.kind in GUARDED and amount < 0:
            statement = statement.where(Account.balance_cents + amount >= 0)
        balance = session.execute(statement).scalar_one_or_none()
        if balance is None:
            held = session.scalar(select(Account.balance_cents).where(Account.id == acct.id))
            raise InsufficientFunds(
                f"the balance is {format_cents(held or 0)}; {format_cents(-amount)} is needed"
            )
        set_committed_value(acct, "balance_cents", balance)  # the row is already updated
        session.add(Entry(transfer_id=moved.id, account_id=acct.id, amount_cents=amount,
                          balance_after=balance))  # fmt: skip
    session.flush()
    return moved
