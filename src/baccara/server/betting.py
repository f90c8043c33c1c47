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

from sqlalchemy import insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from baccara.errors import BaccaraError
from baccara.fair import check_client_seed
from baccara.server import ledger, protections, store
from baccara.server.models import Bet, IdempotencyKey, User, table

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


def _replay(
    request_hash: str, response: str, status_code: int, fingerprint: str
) -> tuple[int, dict[str, Any]]:
    if request_hash != fingerprint:
        raise IdempotencyConflict(
            "this Idempotency-Key was already used for a different bet; use a new key"
        )
    answer: dict[str, Any] = json.loads(response)
    return status_code, answer


_keys = table(IdempotencyKey)
_users = table(User)
_bets = table(Bet)


def _claim(session: Session, user_id: int, key: str, fingerprint: str) -> bool:
    """Take the key for this request, in one statement; False if it was already taken
    (by an earlier request, or one committed while this one waited)."""
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    claimed = session.connection().execute(
        insert(_keys).values(user_id=user_id, key=key, request_hash=fingerprint, response="{}",
                             status_code=0)
        .on_conflict_do_nothing().returning(_keys.c.user_id)
    ).first()  # fmt: skip
    return claimed is not None


def place(
    casino: Any, session: Session, live: Live, user: Caller, spot: str, amount: int, key: str,
    now: float,
) -> tuple[int, dict[str, Any]]:  # fmt: skip
    """Take a bet, its stake, its event and its key in the caller's one transaction."""
    key = check_key(key)
    fingerprint = _fingerprint(live.table_id, spot, amount)
    connection = session.connection()
    if not _claim(session, user.id, key, fingerprint):
        found = connection.execute(select(_keys.c.request_hash, _keys.c.response,
                                          _keys.c.status_code)
                                   .where(_keys.c.user_id == user.id, _keys.c.key == key)).one()  # fmt: skip
        return _replay(found.request_hash, found.response, found.status_code, fingerprint)
    table = live.table
    round_ = table.current()
    bet_id = uuid.uuid4().hex
    player = connection.execute(select(_users.c.client_seed, _users.c.reality_check_minutes)
                                .where(_users.c.id == user.id)).one()  # fmt: skip
    client_seed = player.client_seed or key
    seat = table.seat_of(user.username)
    if seat is None and table.spec.table.seat_required:
        raise BaccaraError(f"take a seat to bet at {table.spec.name}")
    round_.verify_place_bet(bet_id, user.username, seat, spot, amount, client_seed)
    wallet = store.wallet(session, user.id)
    protections.check_bet(session, user.id, wallet, amount, now, player.reality_check_minutes)
    _, balances = ledger.transfer(
        session,
        f"stake:{bet_id}",
        "stake",
        [(wallet, -amount), (ledger.account(session, ledger.table_name(live.table_id), "table"),
                             amount)],
        now,
        live.round_id,
    )  # fmt: skip
    connection.execute(insert(_bets).values(id=bet_id, round_id=live.round_id,
                                            table_id=live.table_id, user_id=user.id, spot=spot,
                                            amount_cents=amount, seat=seat, status="placed",
                                            created_at=now))  # fmt: skip
    table.place_bet(bet_id, user.username, spot, amount, now, client_seed)
    answer = {"bet_id": bet_id, "round_id": live.round_id, "balance_cents": balances[wallet.id]}
    connection.execute(update(_keys).where(_keys.c.user_id == user.id, _keys.c.key == key)
                       .values(response=json.dumps(answer), status_code=201))  # fmt: skip
    return 201, answer


def remove(session: Session, live: Live, user: Caller, bet_id: str, now: float) -> int:
    """Take a bet back while betting is open; the stake returns to the wallet."""
    round_ = live.table.current()
    round_.verify_remove_bet(bet_id, user.username)
    bet = session.get(Bet, bet_id)
    if bet is None or bet.user_id != user.id or bet.status != "placed":
        raise store.NotFound(f"no bet {bet_id!r} of yours on this round")
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
    return balances[wallet.id]
