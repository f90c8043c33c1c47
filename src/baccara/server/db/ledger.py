"""Moving money: double-entry transfers between accounts, in integer cents.

A transfer's legs sum to zero, its key can be used once (the database's unique
constraint, not a check here), and an account that may not go negative — a wallet,
a table's stakes in play — is debited only if it holds the money, in the same
statement that debits it, so two bets at once cannot both spend the last euro.

Transfers are on the path of every bet and every payout, so they are written with
plain SQL statements (SQLAlchemy Core) compiled once and run by the driver
(:mod:`baccara.server.db.sql`), and an account's id and kind — which never change once it
is opened — are remembered after the first look-up.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from sqlalchemy import BigInteger, Engine, Integer, bindparam, case, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from baccara.errors import BaccaraError
from baccara.money import money_text
from baccara.server.db.models import Account, Entry, Transfer, table
from baccara.server.db.sql import Inserts, Statement
from baccara.server.errors import InsufficientFunds

HOUSE = "house"
DEPOSITS = "deposits"
GUARDED = ("wallet", "table")
"""Accounts that never go below zero."""

_accounts = table(Account)
_transfers = table(Transfer)
_entries = table(Entry)

_NEW_TRANSFERS = Inserts(_transfers, ("key", "kind", "round_id", "created_at"), ("key", "id"))
UNGUARDED = -(2**62)
"""The floor of an account that may go below zero (the house, the deposits, a credit)."""
MOVE_CHUNK = 64
"""The most accounts one statement moves: a power of two."""


def _moving(size: int) -> Statement:
    """``size`` accounts moved in one ``UPDATE``: each ``id_i`` by ``amount_i``, as long
    as it stays at ``floor_i`` or above (0 for a guarded account's debit, so it is
    debited only if it holds the money, in the statement that debits it); each account
    moved returns its balance after. An account refused returns nothing."""
    ids = [bindparam(f"id_{i}", type_=Integer) for i in range(size)]

    def each(name: str) -> Any:
        return case(*[(_accounts.c.id == ids[i], bindparam(f"{name}_{i}", type_=BigInteger))
                      for i in range(size)])  # fmt: skip

    after = _accounts.c.balance_cents + each("amount")
    return Statement(
        update(_accounts)
        .where(_accounts.c.id.in_(ids), after >= each("floor"))
        .values(balance_cents=after)
        .returning(_accounts.c.id, _accounts.c.balance_cents)
    )


_MOVES = {1 << n: _moving(1 << n) for n in range(MOVE_CHUNK.bit_length())}
"""One statement for each size, powers of two (three accounts go as 2 and 1)."""
_NEW_ENTRIES = Statement(
    insert(_entries), ("transfer_id", "account_id", "amount_cents", "balance_after")
)
_BALANCE = Statement(
    select(_accounts.c.balance_cents).where(_accounts.c.id == bindparam("account"))
)


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
    """The account called ``name``, opened at zero the first time it is asked for.

    Two transactions may ask for a new account at once (the first sign-ups of a new
    casino on PostgreSQL both open the deposits): the one whose insert the unique name
    refuses reads the other's, instead of failing."""
    remembered = _known.setdefault(session.get_bind(), {})  # type: ignore[arg-type]
    known = remembered.get(name)
    if known is not None:
        return known
    connection = session.connection()
    lookup = select(_accounts.c.id, _accounts.c.kind).where(_accounts.c.name == name)
    row = connection.execute(lookup).first()
    if row is None:
        try:
            with connection.begin_nested():
                created = connection.execute(
                    insert(_accounts).values(name=name, kind=kind, user_id=user_id,
                                             balance_cents=0).returning(_accounts.c.id)
                ).scalar_one()  # fmt: skip
        except IntegrityError:
            row = connection.execute(lookup).first()
            if row is None:
                raise
        else:
            return Ref(created, kind)  # remembered once its transaction has surely committed
    found = Ref(row.id, row.kind)
    remembered[name] = found
    return found


def house(session: Session) -> Ref:
    return account(session, HOUSE, "house")


def deposits(session: Session) -> Ref:
    return account(session, DEPOSITS, "deposits")


def balance(session: Session, ref: Ref) -> int:
    return int(_BALANCE.scalar(session, {"account": ref.id}))


@dataclass(frozen=True)
class Move:
    """One transfer of a batch: its unique key, its kind, and its legs (summing to zero)."""

    key: str
    kind: str
    legs: Sequence[tuple[Ref, int]]


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
    ids, balances = transfers(session, [Move(key, kind, legs)], now, round_id)
    return ids[0], balances


def transfers(
    session: Session, moves: Sequence[Move], now: float, round_id: int | None = None
) -> tuple[list[int], dict[int, int]]:
    """Several transfers at once, exactly as if made one after another — the same rows,
    the same balance after each entry, the same refusal if a guarded account would go
    below zero at any step — in few statements, not one per leg: the transfers together,
    every account touched moved by one ``UPDATE`` (:func:`_move`), and the entries
    together. A round's settlement pays every bet this way.

    Returns each transfer's id, in order, and each account's balance after the last.
    """
    for move in moves:
        if sum(amount for _, amount in move.legs) != 0:
            total = sum(a for _, a in move.legs)
            raise BaccaraError(f"transfer {move.key}: legs sum to {total}, not 0")
    if not moves:
        return [], {}
    # A second transfer with one of these keys fails here, on the unique constraint.
    made: dict[str, int] = dict(_NEW_TRANSFERS.rows(session, [
        {"key": m.key, "kind": m.kind, "round_id": round_id, "created_at": now} for m in moves
    ]))  # fmt: skip
    ids = [made[move.key] for move in moves]
    net: dict[Ref, int] = {}
    for move in moves:
        for ref, amount in move.legs:
            if amount:
                net[ref] = net.get(ref, 0) + amount
    running: dict[int, int] = {}
    moving = [(ref, amount) for ref, amount in net.items() if amount]
    for ref, amount in net.items():
        if not amount:  # in and out again: the balance before is as it is now
            running[ref.id] = balance(session, ref)
    after = _move(session, moving)
    for ref, amount in moving:
        if ref.id not in after:
            _refuse(balance(session, ref), -amount)
        running[ref.id] = after[ref.id] - amount  # the balance before the batch
    entries = []
    for transfer_id, move in zip(ids, moves, strict=True):
        for ref, amount in move.legs:
            if not amount:
                continue
            running[ref.id] += amount
            if ref.kind in GUARDED and running[ref.id] < 0:  # a step the batch's net hides
                _refuse(running[ref.id] - amount, -amount)
            entries.append({"transfer_id": transfer_id, "account_id": ref.id,
                            "amount_cents": amount, "balance_after": running[ref.id]})  # fmt: skip
    _NEW_ENTRIES.many(session, entries)
    return ids, running


def _move(session: Session, moving: Sequence[tuple[Ref, int]]) -> dict[int, int]:
    """Add each amount to its account, a guarded account's debit only if it holds the
    money, in as few statements as :data:`MOVE_CHUNK` allows; each account moved, by id,
    with its balance after (one refused is missing, the others are moved)."""
    after: dict[int, int] = {}
    start = 0
    while start < len(moving):
        size = min(MOVE_CHUNK, 1 << (len(moving) - start).bit_length() - 1)
        params: dict[str, int] = {}
        for i, (ref, amount) in enumerate(moving[start : start + size]):
            params[f"id_{i}"] = ref.id
            params[f"amount_{i}"] = amount
            params[f"floor_{i}"] = 0 if ref.kind in GUARDED and amount < 0 else UNGUARDED
        after.update((int(i), int(b)) for i, b in _MOVES[size].rows(session, params))
        start += size
    return after


def _refuse(held: int, needed: int) -> NoReturn:
    raise InsufficientFunds(
        f"the balance is {money_text(held)}; {money_text(needed)} is needed",
        params={"balance_cents": held, "needed_cents": needed},
    )
