"""What each person at a table may see of a round, card by card.

The rule is per card, not per event type: a card dealt face down is visible to
nobody until it is exposed — except to the highest bettor who peeks at the hand
they backed (RedGreen's first version), and to a live table's dealer, who dealt it.
The server sends each connection only its own view; nothing is hidden in a browser.

A bet's own client seed never leaves the log, for anyone: it is the player's chosen
seed (or one drawn from their bet's idempotency key), and only the one that cut the
shoe is the round's — published by ``betting-closed`` and the round record, which is
all a verifier re-deals from. Every other bet's seed would only tell one player
another's, before the round, and none is needed to check it.

Players appear as the table shows them, by their names; the casino's staff do not: what
a dealer or an admin did (no more bets, a card, a void) is ``by`` :data:`STAFF` to all
but a live table's dealer, so no player learns the name a member of staff signs in with.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from baccara.table.events import TABLE, BetPlaced, CardDealt, Event, Peeked
from baccara.table.round import Round

STAFF = "staff"
"""``by`` of what a dealer or an admin did, as the players see it."""


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a player by name, a spectator (``player=None``), or the dealer."""

    player: str | None = None
    dealer: bool = False


def sees(round_: Round, viewer: Viewer, event: Event) -> Event | None:
    """``event`` as ``viewer`` may see it now, or ``None`` while it is hidden from them
    (see :func:`view`), redacted as :func:`redacted` says."""
    if not _whole(round_, viewer, event):
        return None
    return redacted(round_, viewer, event)


def redacted(round_: Round, viewer: Viewer, event: Event, players: set[str] | None = None) -> Event:
    """``event`` with what ``viewer`` may not read of it taken out: a bet's client seed,
    and the name of a member of staff (``by`` :data:`STAFF`). The one rule :func:`sees`
    and :func:`view` both apply; ``players`` is :func:`players_of` the round, when the
    caller has it already."""
    if isinstance(event, BetPlaced):
        event = dataclasses.replace(event, client_seed=None)
    if _by_staff(round_, viewer, event, players):
        event = dataclasses.replace(event, by=STAFF)
    return event


def _by_staff(round_: Round, viewer: Viewer, event: Event, players: set[str] | None) -> bool:
    """Whether ``event`` was done by a member of staff whose name ``viewer`` is not shown:
    not the table, not a player of the round (the one named in the event first), not the
    viewer themselves."""
    if event.by == TABLE or getattr(event, "player", None) == event.by:
        return False
    if (viewer.dealer and round_.live) or event.by == viewer.player:
        return False
    return event.by not in (players if players is not None else players_of(round_))


def players_of(round_: Round) -> set[str]:
    """Everyone the round's log names as a player: bettors, whoever was offered a peek or
    a choice."""
    return {name for e in round_.events if isinstance(name := getattr(e, "player", None), str)}


def _whole(round_: Round, viewer: Viewer, event: Event) -> bool:
    if viewer.dealer and round_.live:
        return True
    if isinstance(event, CardDealt):
        return event.face_up or round_.exposed(event.position)
    if isinstance(event, Peeked):
        return viewer.player == event.player
    return True


def sees_more(round_: Round, viewer: Viewer, since: int = 0) -> bool:
    """Whether ``viewer`` sees more of ``events[since:]`` than a spectator does.

    Only a live table's dealer and a peeker at their own peek do; everyone else is
    sent the spectator's view, so a server computes and encodes it once per table."""
    if viewer.dealer and round_.live:
        return True
    return viewer.player is not None and any(
        isinstance(event, Peeked) and event.player == viewer.player
        for event in round_.events[since:]
    )


def view(round_: Round, viewer: Viewer, since: int = 0) -> list[dict[str, Any]]:
    """The log from ``since`` as ``viewer`` may see it: a hidden card keeps its place and
    face (``"item": None``), a peek by someone else keeps who and which hand, a bet goes
    without its client seed, and staff act as :data:`STAFF` (see the module's note)."""
    shown: list[dict[str, Any]] = []
    players: set[str] | None = None  # read from the log only for an event by someone else
    for event in round_.events[since:]:
        if players is None and event.by != TABLE and getattr(event, "player", None) != event.by:
            players = players_of(round_)
        data = redacted(round_, viewer, event, players).to_dict()
        if isinstance(event, BetPlaced):
            del data["client_seed"]  # not sent as null: there is none to send
        elif not _whole(round_, viewer, event):
            if isinstance(event, CardDealt):
                data["item"] = None
            elif isinstance(event, Peeked):
                data["cards"] = None
        shown.append(data)
    return shown


def visible_cards(round_: Round, viewer: Viewer) -> dict[str, str]:
    """Position → code of every card ``viewer`` may see now (the peek excepted)."""
    if viewer.dealer and round_.live:
        return dict(round_.dealt)
    return {p: code for p, code in round_.dealt.items() if round_.exposed(p)}
