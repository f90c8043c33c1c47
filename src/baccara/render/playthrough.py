"""A round's event log as plain text, one line per event, as a table would call it.

Used by ``baccara deal`` (a player, or a dealer trainee, watching a whole round) and
by the golden playthroughs under ``tests/playthroughs/``, which pin each game's
procedure and settlement: a change of rules shows up as a diff of this text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from baccara.cards import Card
from baccara.errors import InvalidCards
from baccara.money import format_cents
from baccara.render.text import printable
from baccara.table.events import (
    BetPlaced,
    BetRemoved,
    BettingClosed,
    BettingWindow,
    CardDealt,
    CardExposed,
    ChoiceOffered,
    DealRequested,
    Event,
    HandChosen,
    HandSet,
    Payout,
    Peeked,
    PeekEnded,
    PeekOffered,
    RoundOpened,
    RoundSettled,
    RoundVoided,
    SqueezeEnded,
    SqueezeOffered,
)
from baccara.table.round import Round
from baccara.table.view import Viewer, view

ORDINAL = ("first", "second", "third")

TILE_OR_DIE = re.compile(r"[1-7]-[1-7]|[1-6]", re.ASCII)


def item_text(code: str | None) -> str:
    """``"AD"`` → ``A♦``; tiles and dice as they are; a hidden card as ``??``.

    Anything else — what a tampered round record logs — is quoted, its control
    characters escaped: ``baccara verify`` shows it as it is, and never as a card.
    """
    if code is None:
        return "??"
    if TILE_OR_DIE.fullmatch(code):
        return code
    try:
        card: Card | None = Card.parse(code)
    except InvalidCards:
        card = None
    return str(card) if card is not None and card.code == code else printable(repr(code))


def position_text(position: str) -> str:
    """``player.2`` → ``Player third card``, ``seat3.0`` → ``seat 3 first tile``."""
    owner, index = position.split(".")
    nth = ORDINAL[int(index)] if int(index) < len(ORDINAL) else f"#{int(index) + 1}"
    if owner == "dice":
        return f"die {int(index) + 1}"
    if owner.startswith("seat"):
        return f"seat {owner[4:]} {nth} tile"
    if owner in ("dealer", "exposed"):
        return f"{owner} {nth} tile"
    return f"{owner.capitalize()} {nth} card"


def payout_line(p: Payout) -> str:
    seat = f"seat {p.seat}" if p.seat is not None else "behind"
    commission = f"  commission {format_cents(p.commission)}" if p.commission else ""
    return (
        f"  {p.player:<6} {seat:<8} {p.spot:<12} {p.result:<5} stake {format_cents(p.stake):>8}"
        f"  won {format_cents(p.won):>9}  returned {format_cents(p.returned):>9}{commission}"
    )


def describe(event: Event, shown: dict[str, object] | None = None) -> list[str]:
    """The lines one event reads as; ``shown`` is the event as the viewer may see it."""
    shown = event.to_dict() if shown is None else shown
    if isinstance(event, RoundOpened):
        limits = f"{format_cents(event.min_bet_cents)} to {format_cents(event.max_bet_cents)}"
        seed = f"; server seed hash {event.server_seed_hash}" if event.server_seed_hash else ""
        return [f"round {event.nonce} opens for bets ({event.mode}, {limits} a spot{seed})"]
    if isinstance(event, BettingWindow):
        if event.until is None:
            return ["nobody is seated: the round waits for a player"]
        return [f"place your bets: betting closes at {event.until:.1f}s"]
    if isinstance(event, BetPlaced):
        seat = f"seat {event.seat}" if event.seat is not None else "behind the table"
        return [f"{event.player} ({seat}) bets {format_cents(event.amount_cents)} on {event.spot}"]
    if isinstance(event, BetRemoved):
        return [f"{event.player} takes back bet {event.bet_id}"]
    if isinstance(event, DealRequested):
        return [f"{event.player} is ready"]
    if isinstance(event, BettingClosed):
        seed = f"; client seed {event.client_seed!r}" if event.client_seed else ""
        return [f"no more bets ({event.reason}); highest bettor {event.highest_bettor}{seed}"]
    if isinstance(event, CardDealt) and event.position.startswith("dice."):
        item = shown.get("item")
        rolled = f": {item}" if event.face_up and isinstance(item, str) else " under the cup"
        return [f"{position_text(event.position)} rolled{rolled}"]
    if isinstance(event, CardDealt):
        face = "face up" if event.face_up else "face down"
        item = shown.get("item")
        card = f": {item_text(item if isinstance(item, str) else None)}" if event.face_up else ""
        return [f"{position_text(event.position)} dealt {face}{card}"]
    if isinstance(event, PeekOffered):
        return [f"{event.player} may peek at the {event.hand} hand until {event.until:.1f}s"]
    if isinstance(event, Peeked):
        seen = shown.get("cards")
        cards = " ".join(item_text(str(c)) for c in seen) if isinstance(seen, list) else "??"
        return [f"{event.player} peeks at {event.hand}: {cards}"]
    if isinstance(event, PeekEnded):
        return [f"the peek ends ({event.reason})"]
    if isinstance(event, SqueezeOffered):
        cards = ", ".join(position_text(p) for p in event.positions)
        return [f"{event.player} squeezes {cards} until {event.until:.1f}s"]
    if isinstance(event, SqueezeEnded):
        return [f"the squeeze ends ({event.reason})"]
    if isinstance(event, ChoiceOffered):
        return [f"{event.player} chooses which hand is set first, until {event.until:.1f}s"]
    if isinstance(event, HandChosen):
        return [f"{event.hand} is set first ({event.reason})"]
    if isinstance(event, CardExposed):
        verb = "shows" if event.position.startswith("dice.") else "turned:"
        return [f"{position_text(event.position)} {verb} {item_text(event.item)}"]
    if isinstance(event, HandSet):
        back = " ".join(item_text(c) for c in event.back)
        return [f"{event.hand} set: {item_text(event.front)} | {back} ({event.rule})"]
    if isinstance(event, RoundSettled):
        lines = [f"settled: {event.result.get('call', '')}"]
        lines += [payout_line(p) for p in event.payouts]
        return [*lines, f"  house net {format_cents(event.house_net)}"]
    if isinstance(event, RoundVoided):
        return [f"voided by {event.by}: {event.reason}", *(payout_line(p) for p in event.payouts)]
    return [event.kind]


def log_text(events: Iterable[dict[str, object]], round_: Round, since: int = 0) -> list[str]:
    """Each event of a viewer's log from ``since``, stamped with its time."""
    lines: list[str] = []
    for event, data in zip(round_.events[since:], events, strict=True):
        for i, line in enumerate(describe(event, data)):
            lines.append(f"{event.at:6.1f}s  {line}" if i == 0 else f"         {line}")
    return lines


def sides_text(round_: Round) -> list[str]:
    """RedGreen first version: what each protecting dealer pays, collects and keeps."""
    sides = round_.settled.result.get("sides") if round_.settled is not None else None
    if not sides:
        return []
    lines = ["per side, as the two protecting dealers work it:"]
    for side in ("left", "right"):
        work = sides[side]
        lines.append(
            f"  {side:<5} seats: pays {format_cents(work['paid'])},"
            f" collects {format_cents(work['collected'])},"
            f" commission {format_cents(work['commission'])}"
        )
    return lines


def round_text(round_: Round, title: str, viewer: Viewer | None = None) -> str:
    """The whole round as ``viewer`` (by default a spectator) saw it, and its settlement."""
    shown = view(round_, viewer or Viewer())
    return "\n".join([title, *log_text(shown, round_), *sides_text(round_)]) + "\n"
