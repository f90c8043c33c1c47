"""What the API shows: tables, a round as one viewer may see it, a player's history, and
what a new WebSocket gets first (:class:`Views`).

A round's cards are only those exposed so far (or, at a live table, what its dealer
dealt, to that dealer); the server seed only once the round is over. Nothing here takes
a table's lock: a round that is over is read from its stored log, the round in play
from the engine — which the casino reads under the table's lock, so that no reader sees
what a transaction has not yet committed.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from baccara.games import game
from baccara.server.cluster.mirror import Mirror
from baccara.server.db import ledger, store
from baccara.server.db.database import Database
from baccara.server.db.models import Bet, CasinoTable, Entry, Payout, RoundEvent, Transfer
from baccara.server.db.models import Round as RoundRow
from baccara.server.domain import dealers
from baccara.server.domain.layout import catalog, layout, table_layout
from baccara.server.domain.types import Caller, Live
from baccara.server.errors import Forbidden, NotFound
from baccara.table import Round, Viewer, view
from baccara.table.events import RoundSettled
from baccara.table.view import visible_cards

HISTORY_LIMIT = 10
"""Rounds in a player's history by default: the last game and the nine before it (AGCO §13.1)."""


def table_json(row: CasinoTable, seated: Mapping[int, str]) -> dict[str, Any]:
    """A table as the lobby lists it: named by its rule set (EZ Baccarat) where it has one,
    with its side bets' ids among its bets."""
    config = store.table_config(row)
    shape = layout(row.game, row.options)
    return {
        "id": row.id,
        "game": row.game,
        "name": shape["name"],
        "mode": row.mode,
        "options": json.loads(row.options),
        "rule_set": shape["rule_set"],
        "sidebets": shape["sidebets"],
        "seats": row.seats,
        "seated": {str(seat): name for seat, name in sorted(seated.items())},
        "min_bet_cents": row.min_bet_cents,
        "max_bet_cents": row.max_bet_cents,
        "bet_step_cents": row.bet_step_cents,
        "bets": shape["bets"],
        "shoe": {"mode": row.shoe, "penetration": row.penetration},
        "squeeze": config.squeezes,
        "timers": {
            "betting_seconds": row.betting_seconds,
            "peek_seconds": row.peek_seconds,
            "choose_seconds": row.choose_seconds,
            "reveal_delay_ms": round(row.reveal_delay * 1000),
            "squeeze_seconds": row.squeeze_seconds,
        },
    }


def cards_json(game_id: str, cards: Mapping[str, str]) -> dict[str, Any]:
    """Exposed cards by hand, as the game's table facts name its hands (Punto Banco
    player/banker, RedGreen red/green); for a tile game (Lo-Ball), the dealer, the
    seats, the exposed tiles and the dice (as numbers)."""
    hands: dict[str, list[str]] = {}
    for position, code in cards.items():
        hands.setdefault(position.split(".")[0], []).append(code)
    named = game(game_id).table.hands
    if named:
        return {hand: hands.get(hand, []) for hand in named}
    return {
        "dealer": hands.get("dealer", []),
        "seats": {k[4:]: v for k, v in hands.items() if k.startswith("seat")},
        "exposed": hands.get("exposed", []),
        "dice": [int(d) for d in hands.get("dice", [])],
    }


def round_json(session: Session, row: RoundRow, round_: Round, viewer: Viewer) -> dict[str, Any]:
    over = round_.phase.over
    result: Any = None
    if isinstance(round_.settled, RoundSettled):  # the procedure's own: plain JSON, as stored
        result = round_.settled.to_dict()["result"]
    elif round_.voided is not None:
        result = {"voided": round_.voided.reason}
    bets = [
        {
            "bet_id": bet.id,
            "username": name,
            "bet": bet.spot,
            "amount_cents": bet.amount_cents,
            "seat": bet.seat,
            "payout_cents": payout.returned_cents if payout is not None else None,
        }
        for bet, name, payout in store.bets_of_round(session, row.id)
    ]
    return {
        "id": row.id,
        "table_id": row.table_id,
        "game": row.game,
        "mode": round_.opened.mode,
        "options": dict(round_.opened.options),
        "nonce": row.nonce,
        "state": round_.phase.value,
        "server_seed_hash": row.server_seed_hash,
        "server_seed": row.server_seed if over else None,
        "client_seed": row.client_seed,
        "deadline": round_.deadline(),
        "cards": cards_json(row.game, visible_cards(round_, viewer)),
        "result": result,
        "bets": bets,
        "events": view(round_, viewer),
    }


STAFF_ROLES = frozenset({"admin", "dealer"})
"""Who may read every round: the back office (its report, voids and audit trail) and the
dealers, whose console names the rounds they dealt."""


def may_read(session: Session, user: Caller, row: RoundRow) -> bool:
    """Whether ``user`` could have seen this round at its table: a round shows its players
    as the table does (seat and username), so it is read by those the table shows them to.

    Anyone signed in may watch an open table (its WebSocket), so a round of an open table
    is anyone's to read; once the table has closed, only those who bet on the round (their
    history links to it) and the staff may."""
    if user.role in STAFF_ROLES:
        return True
    status = session.scalar(select(CasinoTable.status).where(CasinoTable.id == row.table_id))
    if status == "open":
        return True
    mine = select(Bet.id).where(Bet.round_id == row.id, Bet.user_id == user.id).limit(1)
    return session.scalar(mine) is not None


def deals_at(session: Session, user: Caller, table_id: int) -> bool:
    """Whether ``user`` sees a round at ``table_id`` as its dealer does, face-down cards and
    staff names: a dealer an admin assigned to that table (:mod:`dealers`), only at a live
    one. Any other dealer is shown the table as a player is: a dealer of one table must
    not read the cards another dealer has dealt face down."""
    if user.role != "dealer":
        return False
    row = session.get(CasinoTable, table_id)
    return row is not None and row.mode == "live" and dealers.is_assigned(session, user.id, row.id)


def stored_round(session: Session, row: RoundRow) -> Round:
    """A round rebuilt from its stored log, to be read."""
    return Round.read(store.load_events(session, row.id))


class Views:
    """The reads of one database that the casino's routes and WebSockets make. ``source``
    is a table as this process deals it (:class:`~baccara.server.domain.types.Live`) or
    follows it (:class:`~baccara.server.cluster.mirror.Mirror`); its round in play is read
    from it, and the caller holds its lock."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def balance(self, user_id: int) -> int:
        with self.db.read() as session:
            return ledger.balance(session, store.wallet(session, user_id))

    def table_of_round(self, round_id: int) -> int:
        with self.db.read() as session:
            row = session.get(RoundRow, round_id)
            if row is None:
                raise NotFound(f"no round {round_id}")
            return row.table_id

    def tables(self) -> list[dict[str, Any]]:
        """Every open table, with its seats as committed."""
        with self.db.read() as session:
            rows = session.scalars(select(CasinoTable).where(CasinoTable.status == "open")
                                   .order_by(CasinoTable.id))  # fmt: skip
            return [table_json(row, store.seats_of(session, row.id)) for row in rows]

    def table(self, source: Live | Mirror) -> dict[str, Any]:
        """One table and the id of its round in play."""
        return self.stored_table(source.table_id, source.round_id)

    def stored_table(self, table_id: int, round_id: int | None = None) -> dict[str, Any]:
        """One table as stored, with its spots and the pay lines of its rule set and side
        bets (what its page lays out), and ``round_id`` or else its newest round's id
        (``None`` before its first round): a table another process deals, read here."""
        with self.db.read() as session:
            row = session.get(CasinoTable, table_id)
            assert row is not None
            data = table_json(row, store.seats_of(session, table_id))
            shape = layout(row.game, row.options)
            data["spots"], data["pays"] = shape["spots"], shape["pays"]
            if round_id is None:
                round_id = session.scalar(
                    select(RoundRow.id).where(RoundRow.table_id == table_id)
                    .order_by(RoundRow.nonce.desc()).limit(1)
                )  # fmt: skip
        data["round_id"] = round_id
        return data

    def round(self, user: Caller, round_id: int, source: Live | Mirror | None) -> dict[str, Any]:
        """A round as ``user`` may see it: the round in play from ``source``, any other from
        its stored log (refused to whoever could not have seen it, see :func:`may_read`)."""
        with self.db.read() as session:
            row = session.get(RoundRow, round_id)
            if row is None:
                raise NotFound(f"no round {round_id}")
            if not may_read(session, user, row):
                raise Forbidden(f"round {round_id} was played at a table that has closed: only"
                                " its players and the casino's staff may read it")  # fmt: skip
            in_play = source is not None and source.round_id == round_id and source.round
            round_ = source.round if in_play and source else stored_round(session, row)
            assert round_ is not None
            dealing = round_.live and deals_at(session, user, row.table_id)
            viewer = Viewer(user.username, dealer=dealing)
            return round_json(session, row, round_, viewer)

    def deals_at(self, user: Caller, table_id: int) -> bool:
        """Whether ``user``'s socket at ``table_id`` is its dealer's (:func:`deals_at`),
        decided as the socket opens."""
        if user.role != "dealer":
            return False
        with self.db.read() as session:
            return deals_at(session, user, table_id)

    def snapshot(self, user: Caller, source: Live | Mirror) -> dict[str, Any]:
        """What a new WebSocket gets first (call under the table's lock): the table, the round
        in play as this user may see it, their balance."""
        round_id = source.round_id
        return {
            "type": "snapshot",
            "table": self.table(source),
            "round": self.round(user, round_id, source) if round_id is not None else None,
            "balance_cents": self.balance(user.id),
            "you": {"username": user.username, "role": user.role},
        }


def history(session: Session, user_id: int, username: str, limit: int) -> list[dict[str, Any]]:
    """The player's rounds, newest first: wagers, what each returned, the balance before and
    after, and the steps of the game as the player saw them."""
    round_ids = list(
        session.scalars(
            select(Bet.round_id).where(Bet.user_id == user_id, Bet.status == "placed")
            .group_by(Bet.round_id)  # the rounds last bet on, whatever order the tables opened them
            .order_by(func.max(Bet.created_at).desc(), Bet.round_id.desc()).limit(limit)
        )
    )  # fmt: skip
    wallet_id = store.wallet(session, user_id).id
    rounds = []
    for round_id in round_ids:
        row = session.get(RoundRow, round_id)
        assert row is not None
        replayed = stored_round(session, row)
        entries = session.execute(
            select(Entry.amount_cents, Entry.balance_after)
            .join(Transfer, Transfer.id == Entry.transfer_id)
            .where(Transfer.round_id == round_id, Entry.account_id == wallet_id)
            .order_by(Entry.id)
        ).all()  # fmt: skip
        wagers = session.execute(
            select(Bet, Payout).outerjoin(Payout, Payout.bet_id == Bet.id)
            .where(Bet.round_id == round_id, Bet.user_id == user_id, Bet.status == "placed")
            .order_by(Bet.created_at, Bet.id)
        ).all()  # fmt: skip
        rounds.append(
            {
                "round_id": row.id,
                "table_id": row.table_id,
                "game": row.game,
                "nonce": row.nonce,
                "state": replayed.phase.value,
                "opened_at": row.opened_at,
                "ended_at": row.ended_at,
                "wagers": [
                    {
                        "bet_id": bet.id,
                        "bet": bet.spot,
                        "amount_cents": bet.amount_cents,
                        "result": payout.result if payout else None,
                        "payout_cents": payout.returned_cents if payout else None,
                    }
                    for bet, payout in wagers
                ],
                "balance_before_cents": entries[0][1] - entries[0][0] if entries else None,
                "balance_after_cents": entries[-1][1] if replayed.phase.over and entries else None,
                "server_seed_hash": row.server_seed_hash,
                "server_seed": row.server_seed if replayed.phase.over else None,
                "client_seed": row.client_seed,
                "result": dict(replayed.settled.result) if replayed.settled else None,
                "events": view(replayed, Viewer(username)),
            }
        )
    return rounds


def recent_rounds(
    session: Session, table_id: int, limit: int, before: int | None = None
) -> list[dict[str, Any]]:
    """A table's last rounds that are over (those before nonce ``before``, the cursor of
    the next page back), oldest first, with their results: what the Punto Banco roads
    and a table's statistics are drawn from.

    Two statements, whatever the table has played: the page's rows, and the one
    ``round-settled`` event of each, which holds the result — never a round's whole log,
    which grows with its bets."""
    query = select(RoundRow.id, RoundRow.nonce, RoundRow.state).where(
        RoundRow.table_id == table_id, RoundRow.state.in_(("settled", "voided")))  # fmt: skip
    if before is not None:
        query = query.where(RoundRow.nonce < before)
    rows = list(session.execute(query.order_by(RoundRow.nonce.desc()).limit(limit)))
    settled = [row.id for row in rows if row.state == "settled"]
    results: dict[int, Any] = {}
    if settled:
        found = session.execute(select(RoundEvent.round_id, RoundEvent.data).where(
            RoundEvent.round_id.in_(settled), RoundEvent.kind == RoundSettled.kind))  # fmt: skip
        results = {round_id: json.loads(data)["result"] for round_id, data in found}
    page = reversed(rows)
    return [{"round_id": r.id, "nonce": r.nonce, "state": r.state, "result": results.get(r.id)}
            for r in page]  # fmt: skip


def games_json() -> list[dict[str, Any]]:
    """Every game: its name, table facts, rules in brief, and each bet's exact house edge
    under the default rules (from the same ``baccara.exact.analyze`` users can run)."""
    from baccara.games import GAMES

    return [rules_json(game_id) for game_id in GAMES]


def rules_json(game_id: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One game under ``options`` (its defaults without): the game's facts with the spots
    of a table under these options (side bets included), the rules in full (``rules``:
    every option, defaults filled in), each bet's exact house edge, the smallest bet step
    at which every payout is whole cents (``whole_cents_step_cents``), and the rule sets
    and side bets the game's tables may be opened with (``catalog``, or ``None``)."""
    from baccara.exact import analyze
    from baccara.exact.stakes import bet_step
    from baccara.games import game

    spec = game(game_id)
    analysis = analyze(spec.id, **dict(options or {}))
    facts = {**spec.public_facts(), "spots": table_layout(spec.id, options or {})["spots"]}
    return {
        "id": spec.id,
        "name": spec.name,
        "brief": spec.brief,
        "doc": spec.doc,
        "seats": spec.table.seats,
        "seat_required": spec.table.seat_required,
        "peek": spec.table.highest_bettor_may_peek,
        "choose_first_hand": spec.table.highest_bettor_chooses_first_hand,
        **facts,
        "rules": dict(analysis.options),
        "whole_cents_step_cents": bet_step(analysis.bets),
        "bets": [
            {
                "bet": bet.bet,
                "house_edge": float(bet.house_edge),
                "house_edge_exact": f"{bet.house_edge.numerator}/{bet.house_edge.denominator}",
                "outcomes": [{"name": o.name, "pays": float(o.pays),
                              "probability": float(o.probability)} for o in bet.outcomes],
                "published": None if bet.published is None else {
                    "source": bet.published.source,
                    "figures": [f.to_dict() for f in bet.published.figures(bet)],
                },
            }
            for bet in analysis.bets
        ],
        "catalog": catalog(spec.id),
    }  # fmt: skip


def table_rules_json(session: Session, table_id: int) -> dict[str, Any]:
    """A table's own rules and each bet's exact edge under them (a table may deal one deck,
    or charge another commission, than its game's defaults), with the table's facts. A
    table that has closed keeps its rules."""
    row = session.get(CasinoTable, table_id)
    if row is None:
        raise NotFound(f"no table {table_id}")
    options = json.loads(row.options)
    key = json.dumps(options, sort_keys=True)
    defaults = _cached_rules(row.game, "{}")["rules"]
    rules = _cached_rules(row.game, key)
    shape = layout(row.game, key)
    return {
        **rules,
        "table": {
            "id": row.id,
            "name": shape["name"],
            "rule_set": shape["rule_set"],
            "mode": row.mode,
            "status": row.status,
            "options": options,
            "min_bet_cents": row.min_bet_cents,
            "max_bet_cents": row.max_bet_cents,
            "bet_step_cents": row.bet_step_cents,
            "shoe": {"mode": row.shoe, "penetration": row.penetration},
        },
        "changed": [name for name, value in rules["rules"].items() if defaults.get(name) != value],
        "at_min_bet": _at_stake(row.game, key, row.min_bet_cents),
    }


_T = TypeVar("_T")


def _once_per_key(function: Callable[..., _T]) -> Callable[..., _T]:
    """``function`` remembered by its arguments (as :func:`functools.lru_cache`), and
    worked out once for them however many requests ask at the same moment: the others
    wait for the first. An exact analysis of a table's rules takes up to seconds (a
    suited pair's side bet counts the shoe card by card); many players opening a new
    table's rules at once must not each start it again."""
    remembered = functools.lru_cache(maxsize=64)(function)
    locks: dict[tuple[Any, ...], threading.Lock] = {}
    guard = threading.Lock()

    @functools.wraps(function)
    def once(*args: Any) -> _T:
        with guard:
            lock = locks.setdefault(args, threading.Lock())
        with lock:
            return remembered(*args)

    return once


@_once_per_key
def _at_stake(game_id: str, options: str, stake: int) -> dict[str, Any]:
    """Each bet whose edge at ``stake`` cents, every payout rounded down as it is paid,
    is not its exact edge: a table's minimum bet where rounding bites."""
    from baccara.exact import analyze_at_stake

    at = analyze_at_stake(game_id, stake, **json.loads(options))
    return {
        "stake_cents": stake,
        "bets": [
            {
                "bet": bet.bet,
                "house_edge": float(bet.house_edge),
                "house_edge_exact": f"{bet.house_edge.numerator}/{bet.house_edge.denominator}",
                "outcomes": [{"name": o.name, "pays": float(o.pays), "won_cents": o.won_cents}
                             for o in bet.outcomes if o.rounded_off_cents],
            }
            for bet in at.bets
            if bet.rounding_matters
        ],
    }  # fmt: skip


@_once_per_key
def _cached_rules(game_id: str, options: str) -> dict[str, Any]:
    """:func:`rules_json` by the options' JSON: tables share a few sets of rules, and an
    exact analysis is worth keeping (callers copy before they change it)."""
    return rules_json(game_id, json.loads(options))
