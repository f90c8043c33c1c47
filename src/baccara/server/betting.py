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

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from baccara.errors import BaccaraError
from baccara.fair import check_client_seed
from baccara.server import ledger, protections, store
from baccara.server.models import Account, Bet, IdempotencyKey, User

if TYPE_CHECKING:
    from baccara.server.casino import Caller, Live


class IdempotencyConflict(BaccaraError):
    """The same Idempotency-Key was sent with a different request."""


def check_key(key: object) -> str:
    """An Idempotency-Key: 1 to 64 printable characters, chosen by the client."""
    try:
        return check_client_seed(key)
    except BaccaraError:
        raise BaccaraError(
            "Idempotency-Key: send 1 to 64 printable characters, a new one for each bet"
        ) from None


def _fingerprint(table_id: int, spot: str, amount: int) -> str:
    text = json.dumps({"table": table_id, "bet": spot, "amount_cents": amount}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _replay(found: IdempotencyKey, fingerprint: str) -> tuple[int, dict[str, Any]]:
    if found.request_hash != fingerprint:
        raise IdempotencyConflict(
            "this Idempotency-Key was already used for a different bet; use a new key"
        )
    answer: dict[str, Any] = json.loads(found.response)
    return found.status_code, answer


def place(
    casino: Any, session: Session, live: Live, user: Caller, spot: str, amount: int, key: str,
    now: float,
) -> tuple[int, dict[str, Any]]:  # fmt: skip
    key = check_key(key)
    fingerprint = _fingerprint(live.table_id, spot, amount)
    found = session.get(IdempotencyKey, (user.id, key))
    if found is not None:
        return _replay(found, fingerprint)
    record = IdempotencyKey(user_id=user.id, key=key, request_hash=fingerprint, response="{}",
                            status_code=0)  # fmt: skip
    try:
        with session.begin_nested():
            session.add(record)
            session.flush()
    except IntegrityError:  # the same key, committed by a request that raced this one
        session.expire_all()
        raced = session.get(IdempotencyKey, (user.id, key))
        assert raced is not None
        return _replay(raced, fingerprint)
    table = live.table
    round_ = table.current()
    bet_id = uuid.uuid4().hex
    account = session.get(User, user.id)
    client_seed = account.client_seed if account is not None and account.client_seed else key
    seat = table.seat_of(user.username)
    if seat is None and table.spec.table.seat_required:
        raise BaccaraError(f"take a seat to bet at {table.spec.name}")
    round_.verify_place_bet(bet_id, user.username, seat, spot, amount, client_seed)
    wallet = store.wallet(session, user.id)
    # One bet per player at a time, whichever table: the limits are checked on what is
    # committed, and a concurrent bet at another table waits for this one.
    session.execute(select(Account.id).where(Account.id == wallet.id).with_for_update())
    protections.check_bet(session, user.id, wallet, amount, now)
    ledger.transfer(
        session,
        f"stake:{bet_id}",
        "stake",
        [(wallet, -amount), (ledger.account(session, ledger.table_name(live.table_id), "table"),
                             amount)],
        now,
        live.round_id,
    )  # fmt: skip
    session.add(Bet(id=bet_id, round_id=live.round_id, table_id=live.table_id, user_id=user.id,
                    spot=spot, amount_cents=amount, seat=seat, status="placed",
                    created_at=now))  # fmt: skip
    table.place_bet(bet_id, user.username, spot, amount, now, client_seed)
    answer = {"bet_id": bet_id, "round_id": live.round_id, "balance_cents": wallet.balance_cents}
    record.response = json.dumps(answer)
    record.status_code = 201
    return 201, answer


def remove(session: Session, live: Live, user: Caller, bet_id: str, now: float) -> int:
    """Take a bet back while betting is open; the stake returns to the wallet."""
    round_ = live.table.current()
    round_.verify_remove_bet(bet_id, user.username)
    bet = session.get(Bet, bet_id)
    if bet is None or bet.user_id != user.id or bet.status != "placed":
        raise store.NotFound(f"no bet {bet_id!r} of yours on this round")
    wallet = store.wallet(session, user.id)
    ledger.transfer(
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
    return int(wallet.balance_cents)
