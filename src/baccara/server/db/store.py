"""Reading and writing the casino's records: users, tables, rounds, their logs, bets, payouts.

Plain functions on a SQLAlchemy session, called inside one transaction per action,
so a bet, its stake's transfer, its event and its idempotency key are committed
together or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from baccara.cards import ShoeMode
from baccara.errors import BaccaraError
from baccara.server.db import ledger
from baccara.server.db.models import Bet, CasinoTable, Payout, RoundEvent, Seat, User, table
from baccara.server.db.models import (
    Round as RoundRow,
)
from baccara.server.db.sql import Statement
from baccara.server.db.usernames import name_key
from baccara.server.errors import NotFound, UsernameTaken
from baccara.table import Mode, TableConfig
from baccara.table.events import Event, RoundSettled, RoundVoided, event_from_dict


@dataclass(frozen=True)
class Credentials:
    """A new user's name, role and password hash, checked and hashed before any
    transaction: hashing takes tens of milliseconds, too long to hold a write lock
    (``accounts.credentials`` makes them)."""

    username: str
    role: str
    password_hash: str


def check_name_free(session: Session, username: str) -> None:
    """Refuse a new username that is another's without regard to case, or looks like it
    (its key is taken: :func:`~baccara.server.db.usernames.name_key`)."""
    found = session.scalars(
        select(User.username).where(User.name_key == name_key(username))
    ).first()
    if found is None:
        return
    if found.casefold() == username.casefold():
        raise UsernameTaken(f"the username {username!r} is taken")
    raise UsernameTaken(f"the username {username!r} looks like {found!r}, which is taken")


def create_user(session: Session, who: Credentials, balance_cents: int, now: float) -> User:
    """A new user with a wallet; a player's wallet starts with ``balance_cents`` of play money.

    The username's key is unique in the database too: of two sign-ups racing for names
    that are one, the second is refused here, not by a 500."""
    check_name_free(session, who.username)
    user = User(username=who.username, name_key=name_key(who.username),
                password_hash=who.password_hash, role=who.role, created_at=now)  # fmt: skip
    try:
        with session.begin_nested():
            session.add(user)
            session.flush()
    except IntegrityError:
        raise UsernameTaken(f"the username {who.username!r} is taken") from None
    wallet = ledger.account(session, ledger.wallet_name(user.id), "wallet", user.id)
    if balance_cents:
        ledger.transfer(session, f"deposit:{user.id}:starting", "deposit",
                        [(ledger.deposits(session), -balance_cents), (wallet, balance_cents)],
                        now)  # fmt: skip
    return user


def user_named(session: Session, username: str) -> User:
    user = session.scalars(select(User).where(User.username == username)).first()
    if user is None:
        raise NotFound(f"no user {username!r}")
    return user


def wallet(session: Session, user_id: int) -> ledger.Ref:
    return ledger.account(session, ledger.wallet_name(user_id), "wallet", user_id)


def table_config(row: CasinoTable, settings_seats: int | None = None) -> TableConfig:
    return TableConfig(
        row.game,
        min_bet_cents=row.min_bet_cents,
        max_bet_cents=row.max_bet_cents,
        bet_step_cents=row.bet_step_cents,
        mode=Mode(row.mode),
        options=json.loads(row.options),
        seats=row.seats,
        shoe=ShoeMode(row.shoe),
        penetration=row.penetration,
        betting_seconds=row.betting_seconds,
        peek_seconds=row.peek_seconds,
        choose_seconds=row.choose_seconds,
        reveal_delay=row.reveal_delay,
        squeeze=row.squeeze,
        squeeze_seconds=row.squeeze_seconds,
    )


def insert_table(session: Session, config: TableConfig, now: float) -> CasinoTable:
    row = CasinoTable(
        game=config.game,
        mode=config.mode.value,
        options=json.dumps(dict(config.options), sort_keys=True),
        seats=config.seat_count,
        min_bet_cents=config.min_bet_cents,
        max_bet_cents=config.max_bet_cents,
        bet_step_cents=config.bet_step_cents,
        shoe=config.shoe.value,
        penetration=config.penetration,
        betting_seconds=config.betting_seconds,
        peek_seconds=config.peek_seconds,
        choose_seconds=config.choose_seconds,
        reveal_delay=config.reveal_delay,
        squeeze=config.squeeze,
        squeeze_seconds=config.squeeze_seconds,
        status="open",
        shoe_started_nonce=1,
        created_at=now,
    )
    session.add(row)
    session.flush()
    ledger.account(session, ledger.table_name(row.id), "table")
    return row


def seats_of(session: Session, table_id: int) -> dict[int, str]:
    rows = session.execute(
        select(Seat.seat, User.username).join(User, User.id == Seat.user_id)
        .where(Seat.table_id == table_id)
    )  # fmt: skip
    return {seat: name for seat, name in rows}


_NEW_EVENTS = Statement(insert(table(RoundEvent)), ("round_id", "seq", "kind", "data", "at"))
_bets = table(Bet)
_PLACED = Statement(select(_bets.c.id, _bets.c.user_id, _bets.c.amount_cents)
                    .where(_bets.c.round_id == bindparam("round"), _bets.c.status == "placed"))  # fmt: skip
_NEW_PAYOUTS = Statement(insert(table(Payout)), (
    "bet_id", "round_id", "user_id", "result", "won_cents", "returned_cents", "commission_cents",
    "transfer_id"))  # fmt: skip


def save_events(session: Session, round_id: int, events: Iterable[Event]) -> None:
    rows = [{"round_id": round_id, "seq": e.seq, "kind": e.kind, "data": json.dumps(e.to_dict()),
             "at": e.at} for e in events]  # fmt: skip
    _NEW_EVENTS.many(session, rows)


def load_events(session: Session, round_id: int, since: int = 0) -> list[Event]:
    """The round's log, from event ``since`` on."""
    rows = session.scalars(
        select(RoundEvent)
        .where(RoundEvent.round_id == round_id, RoundEvent.seq >= since)
        .order_by(RoundEvent.seq)
    )
    return [event_from_dict(json.loads(row.data)) for row in rows]


def user_ids(session: Session, usernames: Iterable[str]) -> dict[str, int]:
    names = set(usernames)
    if not names:
        return {}
    rows = session.execute(select(User.username, User.id).where(User.username.in_(names)))
    return {name: user_id for name, user_id in rows}


class _Placed(NamedTuple):
    id: str
    user_id: int
    amount_cents: int


def pay(
    session: Session, round_row: RoundRow, outcome: RoundSettled | RoundVoided, now: float
) -> dict[int, int]:
    """Pay every bet of a settled or voided round, once; the new balance of each wallet.

    Each bet gets its own transfer and payout row (the row's key is the bet: a second
    payout is refused by the database); they are written together, a few statements
    for the whole round whatever the number of bets."""
    table_account = ledger.account(session, ledger.table_name(round_row.table_id), "table")
    house = ledger.house(session)
    bets = {row[0]: _Placed(*row) for row in _PLACED.rows(session, {"round": round_row.id})}
    void = isinstance(outcome, RoundVoided)
    moves = []
    wallets: dict[int, ledger.Ref] = {}
    for payout in outcome.payouts:
        bet = bets.get(payout.bet_id)
        if bet is None or bet.amount_cents != payout.stake:
            raise BaccaraError(f"the round's payout of bet {payout.bet_id} matches no bet placed")
        player_wallet = wallets.setdefault(bet.user_id, wallet(session, bet.user_id))
        legs = [(table_account, -payout.stake), (player_wallet, payout.returned),
                (house, payout.stake - payout.returned)]  # fmt: skip
        moves.append(ledger.Move(f"payout:{bet.id}", "void" if void else "payout", legs))
    transfer_ids, after = ledger.transfers(session, moves, now, round_row.id)
    rows = [
        {"bet_id": payout.bet_id, "round_id": round_row.id, "user_id": bets[payout.bet_id].user_id,
         "result": "void" if void else payout.result, "won_cents": payout.won,
         "returned_cents": payout.returned, "commission_cents": payout.commission,
         "transfer_id": transfer_id}
        for payout, transfer_id in zip(outcome.payouts, transfer_ids, strict=True)
    ]  # fmt: skip
    _NEW_PAYOUTS.many(session, rows)
    return {
        user_id: after[ref.id] if ref.id in after else ledger.balance(session, ref)
        for user_id, ref in wallets.items()
    }  # a wallet that only lost is read, as it was


def bets_of_round(session: Session, round_id: int) -> Sequence[tuple[Bet, str, Payout | None]]:
    rows = session.execute(
        select(Bet, User.username, Payout)
        .join(User, User.id == Bet.user_id)
        .outerjoin(Payout, Payout.bet_id == Bet.id)
        .where(Bet.round_id == round_id, Bet.status == "placed")
        .order_by(Bet.created_at, Bet.id)
    )
    return [(bet, name, payout) for bet, name, payout in rows]


def decode(text: str) -> Any:
    return json.loads(text)
