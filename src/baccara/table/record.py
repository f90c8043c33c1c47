"""A round's public record, re-dealt from its revealed seeds and settled again.

The record is what a player keeps (``baccara deal --json``, the server's round
endpoint once a round is over): the game and its rules, the nonce, the server seed
with its commitment, the client seed, and the log. :func:`verify_record` re-deals the
round by the provably-fair protocol (:mod:`baccara.fair`) and compares each card
with the log — what a player could do in ten lines of any language — then settles the
round again from those cards and the record's rules and compares the call and every
payout with what the record says was paid (:mod:`baccara.table.resettle`). This is
what ``baccara verify ROUND.json`` runs. A live round has no seeds: its recorded cards
are checked against the rules' dealing order instead, then settled the same way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from baccara.errors import BaccaraError, shown
from baccara.fair import FairRandom, check_client_seed, check_nonce, parse_server_seed, seed_hash
from baccara.games import GameSpec, game
from baccara.table.events import CardDealt
from baccara.table.resettle import (
    InvalidSettlement,
    SettlementCheck,
    check_settlement,
    dealing_problem,
    seats_of,
    wagers_of,
)
from baccara.table.roles import procedure_of
from baccara.table.round import Round
from baccara.table.view import Viewer, view


class InvalidRecord(BaccaraError):
    """A round record that cannot be checked: a field missing or malformed."""


POSITION = re.compile(r"(?:[a-z]{1,8}|seat([1-9][0-9]?))\.[0-9]", re.ASCII)
"""Where a card (tile, die) lies: ``player.2``, ``seat3.0``, ``dice.1``."""
MAX_CODE = 8
"""The longest code a card, tile or die is logged as (``10H``, ``1-2``, ``6``)."""


def round_record(round_: Round, viewer: Viewer | None = None) -> dict[str, Any]:
    """The round as ``viewer`` may see it now; the server seed only once the round is over."""
    closed = round_.closed
    seed = round_.server_seed
    return {
        "game": round_.spec.id,
        "mode": round_.opened.mode,
        "options": dict(round_.opened.options),
        "nonce": round_.nonce,
        "state": round_.phase.value,
        "server_seed_hash": round_.opened.server_seed_hash,
        "server_seed": seed.hex() if seed is not None and round_.phase.over else None,
        "client_seed": closed.client_seed if closed is not None else None,
        "events": view(round_, viewer or Viewer()),
    }


NOT_LOGGED = "(not in the log)"
"""What a card the seeds deal reads as when the log never dealt it."""


@dataclass(frozen=True)
class CardCheck:
    position: str
    logged: str
    dealt: str | None

    @property
    def matches(self) -> bool:
        return self.logged == self.dealt


@dataclass(frozen=True)
class Verification:
    """The commitment check, every card of the log against the re-deal, and the round
    settled again against its record.

    A live round (``client_seed`` ``None``) has no seeds: ``hash_matches`` is ``False``,
    each card is checked against itself, and ``dealing`` says why the recorded cards are
    not what the rules deal (``None`` when they are)."""

    game: str
    nonce: int
    client_seed: str | None
    hash_matches: bool
    cards: tuple[CardCheck, ...]
    settlement: SettlementCheck
    dealing: str | None = None

    @property
    def live(self) -> bool:
        return self.client_seed is None

    @property
    def cards_ok(self) -> bool:
        """A voided round's deal stops where the void came: only the cards it dealt count."""
        if self.live:
            return self.dealing is None
        voided = self.settlement.voided is not None
        return (
            self.hash_matches
            and bool(self.cards)
            and all(c.matches or (voided and c.logged == NOT_LOGGED) for c in self.cards)
        )

    @property
    def ok(self) -> bool:
        return self.cards_ok and self.settlement.ok


def _field(data: Mapping[str, Any], name: str) -> Any:
    if name not in data or data[name] is None:
        raise InvalidRecord(f"the record has no {name!r}; is the round over?")
    return data[name]


def logged_cards(events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """``(position, code)`` of every card-dealt event, in order; refuse a hidden one, and
    one that is no card at a position of a table."""
    cards: list[tuple[str, str]] = []
    for event in events:
        if isinstance(event, Mapping) and event.get("kind") == CardDealt.kind:
            position, item = event.get("position"), event.get("item")
            if item is None:
                raise InvalidRecord("a card in the log is still hidden: the round is not over")
            if not isinstance(position, str) or POSITION.fullmatch(position) is None:
                raise InvalidRecord(f"a card in the log lies at {shown(position)}, no position")
            if not isinstance(item, str) or not 0 < len(item) <= MAX_CODE:
                raise InvalidRecord(f"a card in the log is {shown(item)}, no card, tile or die")
            cards.append((position, item))
    return cards


def dealt_seats(spec: GameSpec, logged: Sequence[tuple[str, str]]) -> list[int]:
    """Lo-Ball: the seats the log deals a hand to; a seat the table lacks is refused."""
    seats: set[int] = set()
    for position, _ in logged:
        match = POSITION.fullmatch(position)
        if match is not None and match[1] is not None:
            seat = int(match[1])
            if seat > spec.table.seats:
                raise InvalidRecord(
                    f"the log deals to seat {seat}; {spec.name} has {spec.table.seats}"
                )
            seats.add(seat)
    return sorted(seats)


def verify_record(data: object) -> Verification:
    """Re-deal ``data`` (a round record) from its seeds, compare each card with its log,
    and settle it again from those cards to compare with what it says was paid."""
    if not isinstance(data, Mapping):
        raise InvalidRecord("a round record is a JSON object")
    spec = game(_field(data, "game"))
    options = _field(data, "options") if data.get("options") is not None else {}
    if not isinstance(options, Mapping):
        raise InvalidRecord("options must be an object")
    rules = spec.rules_from_options(**dict(options))
    nonce = check_nonce(_field(data, "nonce"))
    events = _field(data, "events")
    if not isinstance(events, list):
        raise InvalidRecord("events must be a list")
    logged = logged_cards(events)
    seats = dealt_seats(spec, logged)
    if _is_live(data, events):
        return _verify_live(spec, rules, nonce, logged, events, data)
    seed_text = _field(data, "server_seed")
    if not isinstance(seed_text, str):
        raise InvalidRecord("server_seed must be 64 hex digits")
    server_seed = parse_server_seed(seed_text)
    client_seed = check_client_seed(_field(data, "client_seed"))
    commitment = _field(data, "server_seed_hash")
    procedure = procedure_of(spec)
    redealt = dict(procedure.deal(FairRandom(server_seed, client_seed, nonce), seats, rules))
    return Verification(
        game=spec.id,
        nonce=nonce,
        client_seed=client_seed,
        hash_matches=seed_hash(server_seed) == commitment and _logged_commitment(events)
        in (None, commitment),
        cards=(
            *(CardCheck(p, code, redealt.get(p)) for p, code in logged),
            *(CardCheck(p, NOT_LOGGED, code) for p, code in redealt.items()
              if p not in dict(logged)),
        ),
        settlement=_settlement(spec, rules, redealt, events, data),
    )  # fmt: skip


def _logged_commitment(events: Sequence[Any]) -> object:
    """The seed commitment the round's log published when it opened (``None`` if none)."""
    opened = events[0] if events and isinstance(events[0], Mapping) else {}
    return opened.get("server_seed_hash")


def _is_live(data: Mapping[str, Any], events: Sequence[Any]) -> bool:
    """A round a dealer dealt by hand: live, and no seed, no commitment anywhere.

    The round's own log decides, not the record's summary: its ``round-opened`` event
    says how the round was dealt and carries the seed's commitment. A record whose
    summary says live while its log opened an electronic round, or one that drops an
    electronic round's seeds, is refused — otherwise forged cards could pass as a
    dealer's, which nothing re-deals.
    """
    opened = events[0] if events and isinstance(events[0], Mapping) else {}
    logged_mode = opened.get("mode")
    summary_mode = data.get("mode")
    if logged_mode is not None and summary_mode is not None and logged_mode != summary_mode:
        raise InvalidRecord(
            f"the record says the round was {shown(summary_mode)}, its log opened it as"
            f" {shown(logged_mode)}"
        )
    committed = opened.get("server_seed_hash") is not None
    seeded = data.get("server_seed") is not None or data.get("server_seed_hash") is not None
    mode = logged_mode if logged_mode is not None else summary_mode
    if mode == "live" and not seeded and not committed:
        return True
    if not seeded and (committed or mode == "electronic"):
        raise InvalidRecord(
            "the log opens an electronic round, committed to a server seed; its record"
            " must carry that seed (server_seed and server_seed_hash) to be re-dealt"
        )
    return False


def _verify_live(
    spec: GameSpec,
    rules: object,
    nonce: int,
    logged: Sequence[tuple[str, str]],
    events: Sequence[Any],
    data: Mapping[str, Any],
) -> Verification:
    """A live round: its cards in the order the rules deal them, and settled again."""
    try:
        seats = seats_of(wagers_of(spec, events))
    except InvalidSettlement as error:
        raise InvalidRecord(str(error)) from None
    dealt = dict(logged)
    settlement = _settlement(spec, rules, dealt, events, data)
    procedure = procedure_of(spec)
    return Verification(
        game=spec.id,
        nonce=nonce,
        client_seed=None,
        hash_matches=False,
        cards=tuple(CardCheck(p, code, code) for p, code in logged),
        settlement=settlement,
        dealing=dealing_problem(
            procedure, logged, seats, rules, complete=settlement.voided is None
        ),
    )


def _settlement(
    spec: GameSpec, rules: object, dealt: Mapping[str, str], events: Sequence[Any],
    data: Mapping[str, Any],
) -> SettlementCheck:  # fmt: skip
    try:
        return check_settlement(spec, rules, dealt, events, data)
    except InvalidSettlement as error:
        raise InvalidRecord(str(error)) from None
