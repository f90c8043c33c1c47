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
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from baccara.table.events import BetPlaced, CardDealt, Event, Peeked
from baccara.table.round import Round


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a player by name, a spectator (``player=None``), or the dealer."""

    player: str | None = None
    dealer: bool = False


def sees(round_: Round, viewer: Viewer, event: Event) -> Event | None:
    """``event`` as ``viewer`` may see it now; ``None`` parts are hidden (see :func:`view`):
    a bet always goes without its client seed."""
    if isinstance(event, BetPlaced):
        return dataclasses.replace(event, client_seed=None)
    return event if _whole(round_, viewer, event) else None


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
    face (``"item": None``), a peek by someone else keeps who and which hand, and a bet
    goes without its client seed (see the module's note)."""
    shown: list[dict[str, Any]] = []
    for event in round_.events[since:]:
        data = event.to_dict()
        if isinstance(event, BetPlaced):
            del data["client_seed"]
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
