"""A round's public record, and re-dealing it from its revealed seeds to check every card.

The record is what a player keeps (``baccara deal --json``, the server's round
endpoint once a round is over): the game and its rules, the nonce, the server seed
with its commitment, the client seed, and the log. :func:`verify_record` re-deals the
round by the provably-fair protocol (:mod:`baccara.fair`) and compares each card
with the log — what ``baccara verify ROUND.json`` runs, and what a player could do in
ten lines of any language.
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
    """The commitment check and every card of the log against the re-deal."""

    game: str
    nonce: int
    client_seed: str
    hash_matches: bool
    cards: tuple[CardCheck, ...]

    @property
    def ok(self) -> bool:
        return self.hash_matches and bool(self.cards) and all(c.matches for c in self.cards)


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
    """Re-deal ``data`` (a round record) from its seeds and compare each card with its log."""
    if not isinstance(data, Mapping):
        raise InvalidRecord("a round record is a JSON object")
    spec = game(_field(data, "game"))
    options = _field(data, "options") if data.get("options") is not None else {}
    if not isinstance(options, Mapping):
        raise InvalidRecord("options must be an object")
    rules = spec.rules_from_options(**dict(options))
    nonce = check_nonce(_field(data, "nonce"))
    seed_text = _field(data, "server_seed")
    if not isinstance(seed_text, str):
        raise InvalidRecord("server_seed must be 64 hex digits")
    server_seed = parse_server_seed(seed_text)
    client_seed = check_client_seed(_field(data, "client_seed"))
    commitment = _field(data, "server_seed_hash")
    events = _field(data, "events")
    if not isinstance(events, list):
        raise InvalidRecord("events must be a list")
    logged = logged_cards(events)
    seats = dealt_seats(spec, logged)
    procedure = spec.loaded("procedure")
    redealt = dict(procedure.deal(FairRandom(server_seed, client_seed, nonce), seats, rules))
    return Verification(
        game=spec.id,
        nonce=nonce,
        client_seed=client_seed,
        hash_matches=seed_hash(server_seed) == commitment,
        cards=(
            *(CardCheck(p, code, redealt.get(p)) for p, code in logged),
            *(CardCheck(p, "(not in the log)", code) for p, code in redealt.items()
              if p not in dict(logged)),
        ),
    )  # fmt: skip
