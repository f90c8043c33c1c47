"""A round settled again from its cards and its rules, against what its record says was paid.

``baccara verify`` re-deals a round from its seeds (:mod:`baccara.table.record`); this
settles it again with the game's own procedure — the code that paid it, so the rules
are written once — and compares the call and every bet's result, winnings, return and
commission with the record's settlement event, and, in a server's record, with the
result and the ledger's payout of each bet. A voided round is checked for what a void
pays: every bet back in full.

A live round, dealt by hand from a real shoe, has no seeds: its recorded cards are
checked against the order the rules deal them in (:func:`dealing_problem`), and settled
the same way.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, TypeAlias

from baccara.errors import BaccaraError, InvalidCards, shown
from baccara.games import GameSpec
from baccara.money import BetResult, validate_stake
from baccara.table.events import (
    BetPlaced,
    BetRemoved,
    BettingClosed,
    HandChosen,
    Payout,
    RoundSettled,
    RoundVoided,
)
from baccara.table.procedures.base import Item, Procedure, Wager
from baccara.table.roles import procedure_of
from baccara.table.round import side_totals
from baccara.table.shoe import LiveShoe


class InvalidSettlement(BaccaraError):
    """A record whose bets or settlement cannot be read: a field missing or malformed."""


Json: TypeAlias = "bool | int | float | str | list[Json] | dict[str, Json] | None"
"""A value as a record holds it."""


class Missing(enum.Enum):
    """What a record lacks: shown as ``(none)`` where a value was expected."""

    MISSING = "(none)"

    def __repr__(self) -> str:
        return self.value


MISSING: Final = Missing.MISSING

Value: TypeAlias = "Json | Missing"
"""A value the record holds, or :data:`MISSING`; and what the settlement gives, or
:data:`MISSING` where it gives nothing (a payout for a bet that is not in the log)."""

PAID = tuple(f.name for f in fields(Payout) if f.name != "bet_id")
"""What the record says of each bet: player, seat, spot, stake, result, won, returned,
commission."""
LEDGERS = ("bets", "wagers")
"""A server's record: ``bets`` (GET /api/rounds/{id}) or ``wagers`` (a player's history),
each bet's stake and what the ledger paid it (``payout_cents``: stake plus winnings)."""


@dataclass(frozen=True)
class Difference:
    """One thing the record says that the settlement, done again, does not."""

    what: str
    """``the call``, ``bet b2 (ann, seat 1, player)``, ``the house net``…"""
    field: str
    recorded: Value
    recomputed: Value


@dataclass(frozen=True)
class SettlementCheck:
    """The round settled again: how many bets, and every way the record differs."""

    bets: int
    voided: str | None
    """The reason a voided round gives; ``None`` for a settled round."""
    differences: tuple[Difference, ...]
    refused: str | None = None
    """Why the cards could not be settled at all (a live round's impossible cards)."""

    @property
    def ok(self) -> bool:
        return self.refused is None and not self.differences


def _text(value: object, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidSettlement(f"a bet in the log has {shown(value)} for its {name}")
    return value


def wagers_of(spec: GameSpec, events: Sequence[Any]) -> list[Wager]:
    """The bets standing when betting closed, in the order placed: what the round settled."""
    wagers: dict[str, Wager] = {}
    for event in events:
        kind = event.get("kind") if isinstance(event, Mapping) else None
        if kind == BettingClosed.kind:
            break
        if kind == BetRemoved.kind:
            wagers.pop(str(event.get("bet_id")), None)
        elif kind == BetPlaced.kind:
            bet_id = _text(event.get("bet_id"), "bet id")
            seat = event.get("seat")
            try:
                spot = str(spec.parse_bet(_text(event.get("spot"), "spot")).value)
                if seat is not None or spec.table.seat_required:
                    spec.table.verify_seat(seat)
                amount = validate_stake(event.get("amount_cents"))
            except BaccaraError as error:
                raise InvalidSettlement(f"bet {shown(bet_id)} in the log: {error}") from None
            player = _text(event.get("player"), "player")
            wagers[bet_id] = Wager(bet_id, player, seat, spot, amount)
    return list(wagers.values())


def seats_of(wagers: Sequence[Wager]) -> list[int]:
    """The seats dealt a hand (Lo-Ball): every seat with a bet, in seat order."""
    return sorted({w.seat for w in wagers if w.seat})


def dealing_problem(
    procedure: Procedure,
    logged: Sequence[tuple[str, str]],
    seats: Sequence[int],
    rules: object,
    *,
    complete: bool = True,
) -> str | None:
    """Why a live round's recorded cards are not what a dealer could have dealt — a card
    where the rules want another position, a code that is no card, more copies than the
    shoe holds, a card too many or too few — or ``None`` when they are. A round voided
    before its deal was ``complete`` may stop at any card."""
    shoe = LiveShoe(getattr(rules, "decks", None))
    dealt: dict[str, str] = {}
    try:
        for position, code in logged:
            wanted = procedure.needs(dealt, seats)
            if not wanted:
                return f"{position} holds {code!r}, but the rules deal no more cards"
            if position != wanted[0]:
                return f"{position} holds {code!r}, but the rules deal {wanted[0]} next"
            kind = procedure.item(position)
            if kind.parse(code) != code:
                return f"{position} holds {code!r}, which is no {kind.value} code"
            if kind is not Item.DIE:
                shoe.take(code)
            dealt[position] = code
        left = procedure.needs(dealt, seats)
    except InvalidCards as error:
        return str(error)
    if left and complete:
        return f"the rules deal {left[0]} too, which is not in the log"
    return None


def check_settlement(
    spec: GameSpec,
    rules: object,
    dealt: Mapping[str, str],
    events: Sequence[Any],
    record: Mapping[str, Any],
) -> SettlementCheck:
    """Settle the round again from ``dealt`` (position → code, in dealing order) and its
    bets, under ``rules``, and compare with the record's settlement."""
    wagers = wagers_of(spec, events)
    end = _settlement_event(events)
    if end.get("kind") == RoundVoided.kind:
        refunds = [
            Payout(w.bet_id, w.player, w.seat, w.spot, w.amount, BetResult.PUSH.value, 0,
                   w.amount, 0)
            for w in wagers
        ]  # fmt: skip
        differences = [*_payouts(end, refunds), *_ledger(record, refunds)]
        return SettlementCheck(len(wagers), str(end.get("reason")), tuple(differences))
    procedure = procedure_of(spec)
    seats = seats_of(wagers)
    hands, wanted = _seats_in(dealt), _seats_in(procedure.opening(seats))
    if hands != wanted:  # Lo-Ball deals a hand to each seat with a bet, and only to those
        refused = f"the cards are dealt to seats {hands}, the bets are on seats {wanted}"
        return SettlementCheck(len(wagers), None, (), refused=refused)
    try:
        result, payouts = procedure.settle(dealt, wagers, seats, rules)
    except BaccaraError as error:  # a live round's cards the rules would not have dealt
        return SettlementCheck(len(wagers), None, (), refused=str(error))
    if chosen := [e.get("hand") for e in events if _kind(e) == HandChosen.kind]:
        result["first_hand"] = chosen[-1]  # the hand set first, as the round's log says
    if spec.table.seats_per_side is not None:
        result["sides"] = side_totals(spec.table, payouts)
    house = sum(w.amount for w in wagers) - sum(p.returned for p in payouts)
    differences = [
        *_results("the call", end.get("result"), result),
        *_payouts(end, payouts),
        *_same("the house net", "house_net", end.get("house_net", MISSING), house),
        *_ledger(record, payouts),
    ]
    if record.get("result") is not None:  # a server's record repeats the call
        differences += _results("the record's result", record["result"], result)
    return SettlementCheck(len(wagers), None, tuple(differences))


def _seats_in(positions: Iterable[str]) -> list[int]:
    return sorted({int(p[4:].split(".")[0]) for p in positions if p.startswith("seat")})


def _kind(event: object) -> object:
    return event.get("kind") if isinstance(event, Mapping) else None


def _settlement_event(events: Sequence[Any]) -> Mapping[str, Any]:
    ends: list[Mapping[str, Any]] = [
        e for e in events if _kind(e) in (RoundSettled.kind, RoundVoided.kind)
    ]
    if len(ends) != 1:
        raise InvalidSettlement(
            "the log has no settlement (round-settled or round-voided); is the round over?"
            if not ends
            else f"the log settles the round {len(ends)} times"
        )
    return ends[0]


def _same(what: str, field: str, recorded: Value, recomputed: Value) -> Iterator[Difference]:
    """A difference unless the two are the same JSON value, of the same type (``true`` is
    not ``1``, ``1000.0`` is not ``1000``)."""
    if isinstance(recorded, Mapping) and isinstance(recomputed, Mapping):
        for key in (*recomputed, *(k for k in recorded if k not in recomputed)):
            yield from _same(what, f"{field}.{key}" if field else str(key),
                             recorded.get(key, MISSING), recomputed.get(key, MISSING))  # fmt: skip
    elif (
        isinstance(recorded, list)
        and isinstance(recomputed, list)
        and len(recorded) == len(recomputed)
    ):
        for index, (mine, theirs) in enumerate(zip(recorded, recomputed, strict=True)):
            yield from _same(what, f"{field}[{index}]", mine, theirs)
    elif type(recorded) is not type(recomputed) or recorded != recomputed:
        yield Difference(what, field, recorded, recomputed)


def _plain(value: object) -> Json:
    """A recomputed value as JSON holds it: tuples are lists."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, str | int | float):
        return value
    raise TypeError(f"a settlement holds JSON values, not {type(value).__name__}")


def _results(what: str, recorded: Value, result: Mapping[str, object]) -> Iterator[Difference]:
    if not isinstance(recorded, Mapping):
        yield Difference(what, "result", recorded, _plain(result))
        return
    yield from _same(what, "", recorded, _plain(result))


def bet_label(payout: Payout) -> str:
    """``bet b2 (ann, seat 1, player)``: which bet, as a player or a dealer knows it."""
    seat = f"seat {payout.seat}" if payout.seat is not None else "behind"
    return f"bet {payout.bet_id} ({payout.player}, {seat}, {payout.spot})"


def _by_bet(entries: Any, where: str) -> tuple[dict[str, Mapping[str, Any]], list[Difference]]:
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
        raise InvalidSettlement(f"{where} must be a list of objects, one a bet")
    found: dict[str, Mapping[str, Any]] = {}
    differences = []
    for entry in entries:
        bet_id = entry.get("bet_id")
        key = bet_id if isinstance(bet_id, str) else shown(bet_id)
        if key in found:
            differences.append(Difference(f"bet {key}", f"entries in {where}", 2, 1))
        found[key] = entry
    return found, differences


def _payouts(end: Mapping[str, Any], payouts: Sequence[Payout]) -> Iterator[Difference]:
    """Every bet's payout in the settlement event against the one settled again."""
    recorded, differences = _by_bet(end.get("payouts"), f"the {end.get('kind')} event's payouts")
    yield from differences
    for payout in payouts:
        entry = recorded.pop(payout.bet_id, None)
        if entry is None:
            yield Difference(bet_label(payout), "returned", MISSING, payout.returned)
            continue
        for name in PAID:
            yield from _same(bet_label(payout), name, entry.get(name, MISSING),
                             getattr(payout, name))  # fmt: skip
    for bet_id, entry in recorded.items():
        yield Difference(f"bet {bet_id} (no such bet in the log)", "returned",
                         entry.get("returned", MISSING), MISSING)  # fmt: skip


def _ledger(record: Mapping[str, Any], payouts: Sequence[Payout]) -> Iterator[Difference]:
    """A server's record: each bet's stake, spot, result and the ledger's payout."""
    settled = {p.bet_id: p for p in payouts}
    for key in LEDGERS:
        if record.get(key) is None:
            continue
        entries, differences = _by_bet(record[key], key)
        yield from differences
        for bet_id, entry in entries.items():
            payout = settled.get(bet_id)
            if payout is None:
                yield Difference(f"bet {bet_id} (no such bet in the log)", f"{key}.payout_cents",
                                 entry.get("payout_cents", MISSING), MISSING)  # fmt: skip
                continue
            expected: dict[str, Json] = {"bet": payout.spot, "amount_cents": payout.stake,
                        "payout_cents": payout.returned, "result": payout.result}  # fmt: skip
            for name, value in expected.items():
                if name in entry or name != "result":
                    yield from _same(bet_label(payout), f"{key}.{name}",
                                     entry.get(name, MISSING), value)  # fmt: skip
