"""Placing and taking back bets: the stake moves in the same transaction as the bet.

A bet is placed once per ``Idempotency-Key``: a retry with the same key and the same
request is answered exactly as the first time, the same key with a different request
is refused (409). The key is a primary key in the database, so two requests racing
with one key cannot both place a bet.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from baccara.errors import BaccaraError
from baccara.fair import check_client_seed
from baccara.server.db import ledger, store
from baccara.server.db.models import Bet, Entry, IdempotencyKey, Transfer, table
from baccara.server.db.sql import Statement, driver
from baccara.server.domain import responsible
from baccara.server.errors import IdempotencyConflict, NotFound, StaffCannotPlay

if TYPE_CHECKING:
    from baccara.server.domain.types import Caller, Live


def check_key(key: object) -> str:
    """An Idempotency-Key: 1 to 64 printable characters, chosen by the client."""
    try:
        return check_client_seed(key)
    except BaccaraError:
        raise BaccaraError(
            "Idempotency-Key: send 1 to 64 printable characters, a new one for each bet"
        ) from None


def seed_of_key(key: str) -> str:
    """The client seed of a player who chose none: drawn from their bet's Idempotency-Key,
    which they did choose, so the cut is still theirs. It is the key's SHA-256, never the
    key: the round's client seed is published, and a key is the player's own to retry with.

    >>> seed_of_key("k-1")
    '7c35c5a1785d20704e44d5de4beb81c1'
    """
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def _fingerprint(table_id: int, spot: str, amount: int) -> str:
    text = json.dumps({"table": table_id, "bet": spot, "amount_cents": amount}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _replay(session: Session, found: Any, fingerprint: str, wallet: ledger.Ref) -> dict[str, Any]:
    """The first answer again: the bet, its round, and the balance its stake left."""
    if found.request_hash != fingerprint:
        raise IdempotencyConflict(
            "this Idempotency-Key was already used for a different bet; use a new key"
        )
    answer: dict[str, Any] = json.loads(found.response)
    stake = f"stake:{answer['bet_id']}"
    answer["balance_cents"] = (
        session.connection()
        .execute(_BALANCE_LEFT, {"transfer": stake, "account": wallet.id})
        .scalar_one()
    )
    return answer


_keys = table(IdempotencyKey)
_bets = table(Bet)
_entries = table(Entry)
_transfers = table(Transfer)

# The hot path's statements, run by the driver (see ledger).
_CLAIM = {
    name: Statement(dialect.insert(_keys).on_conflict_do_nothing().returning(_keys.c.user_id),
                    ("user_id", "key", "request_hash", "response", "status_code"), only=name)
    for name, dialect in (("postgresql", postgresql), ("sqlite", sqlite))
}  # fmt: skip
_THIS_KEY = (_keys.c.user_id == bindparam("user"), _keys.c.key == bindparam("k"))
_CLAIMED = select(_keys.c.request_hash, _keys.c.response).where(*_THIS_KEY)
_BALANCE_LEFT = (
    select(_entries.c.balance_after)
    .join(_transfers, _transfers.c.id == _entries.c.transfer_id)
    .where(_transfers.c.key == bindparam("transfer"), _entries.c.account_id == bindparam("account"))
)
_NEW_BET = Statement(insert(_bets), ("id", "round_id", "table_id", "user_id", "spot",
                                     "amount_cents", "seat", "status", "created_at"))  # fmt: skip


def _claim(session: Session, user_id: int, key: str, fingerprint: str, answer: str) -> bool:
    """Take the key for this request, with its answer, in one statement; False if it was
    already taken (by an earlier request, or one committed while this one waited). If the
    bet is then refused, the transaction and the claim are rolled back together."""
    claimed = _CLAIM[driver(session).dialect.name].first(
        session,
        {"user_id": user_id, "key": key, "request_hash": fingerprint, "response": answer,
         "status_code": 201},
    )  # fmt: skip
    return claimed is not None


def verify_player(user: Caller) -> None:
    """Refuse a seat or a bet to staff: the one check every way of sitting or betting runs.

    A dealer keys in the cards and voids rounds, an admin credits wallets: either at play
    could win with the other hand, so only a user whose role is ``player`` plays.
    """
    if user.role != "player":
        raise StaffCannotPlay(f"a {user.role} deals and runs the tables; only players sit and bet")


def place(
    session: Session, live: Live, user: Caller, spot: str, amount: int, key: str, now: float
) -> dict[str, Any]:
    """Take a bet, its stake, its event and its key in the caller's one transaction."""
    verify_player(user)
    key = check_key(key)
    fingerprint = _fingerprint(live.table_id, spot, amount)
    wallet = store.wallet(session, user.id)
    bet_id = uuid.uuid4().hex
    answer = {"bet_id": bet_id, "round_id": live.round_id}
    if not _claim(session, user.id, key, fingerprint, json.dumps(answer)):
        found = session.connection().execute(_CLAIMED, {"user": user.id, "k": key}).one()
        return _replay(session, found, fingerprint, wallet)
    table = live.table
    round_ = table.current()
    player = responsible.player_at_bet(session, user.id, now)
    client_seed = player.client_seed or seed_of_key(key)
    seat = table.seat_of(user.username)
    if seat is None and table.spec.table.seat_required:
        raise BaccaraError(f"take a seat to bet at {table.spec.name}")
    round_.verify_in_time(now)
    round_.verify_place_bet(bet_id, user.username, seat, spot, amount, client_seed)
    responsible.check_bet(session, user.id, wallet, amount, now, player)
    responsible.record_play(session, user.id, wallet, now, player)
    _, balances = ledger.transfer(
        session,
        f"stake:{bet_id}",
        "stake",
        [(wallet, -amount), (ledger.account(session, ledger.table_name(live.table_id), "table"),
                             amount)],
        now,
        live.round_id,
    )  # fmt: skip
    _NEW_BET.rows(session, {"id": bet_id, "round_id": live.round_id, "table_id": live.table_id,
                            "user_id": user.id, "spot": spot, "amount_cents": amount,
                            "seat": seat, "status": "placed", "created_at": now})  # fmt: skip
    table.place_bet(bet_id, user.username, spot, amount, now, client_seed)
    _tell_balance(live, user, balances[wallet.id])
    return {**answer, "balance_cents": balances[wallet.id]}


def remove(session: Session, live: Live, user: Caller, bet_id: str, now: float) -> int:
    """Take a bet back while betting is open; the stake returns to the wallet."""
    round_ = live.table.current()
    round_.verify_in_time(now)
    round_.verify_remove_bet(bet_id, user.username)
    bet = session.get(Bet, bet_id)
    if bet is None or bet.user_id != user.id or bet.status != "placed":
        raise NotFound(f"no bet {bet_id!r} of yours on this round")
    wallet = store.wallet(session, user.id)
    _, balances = ledger.transfer(
        session,
        f"withdraw:{bet_id}",
        "withdraw",
        [(ledger.account(session, ledger.table_name(live.table_id), "table"), -bet.amount_cents),
         (wallet, bet.amount_cents)],
        now,
        live.round_id,
    )  # fmt: skip
    bet.status = "withdrawn"
    round_.remove_bet(bet_id, user.username, now)
    _tell_balance(live, user, balances[wallet.id])
    return balances[wallet.id]


def _tell_balance(live: Live, user: Caller, cents: int) -> None:
    """The player's new balance goes, once the bet's transaction commits, to every socket
    of theirs — their other tabs and tables, here and in the other processes — so each
    shows what the stake left, not the balance before it. A replayed bet moved nothing
    and tells nothing."""
    if live.outbox is not None:
        live.outbox.balances[user.id] = cents
