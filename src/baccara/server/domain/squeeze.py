"""The squeeze, as the squeezer's requests reach it: one card turned, or all that are left.

Only the player the round named in its ``squeeze-offered`` turns the cards (a 403 for
anyone else, a 409 when no squeeze is in play); the engine refuses a card that is not
of the squeeze or is turned already, and changes nothing. Each turn is a
``card-exposed`` in the round's log, sent to everyone at the table; the bending in
between is not the log's (:mod:`baccara.server.cluster.bends`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from baccara.server.errors import Forbidden
from baccara.table import Phase, Round
from baccara.table.round import RoundError

if TYPE_CHECKING:
    from baccara.server.domain.types import Caller, Live


def squeezing(live: Live, user: Caller) -> Round:
    """The round whose squeeze ``user`` holds now, or the refusal of their request."""
    round_ = live.table.round
    if round_ is None or round_.phase is not Phase.SQUEEZE or round_.squeeze is None:
        raise RoundError("there is no squeeze now")
    if round_.squeeze.player != user.username:
        raise Forbidden("only the squeezer turns the cards of the squeeze")
    return round_


def turn(live: Live, user: Caller, position: str, session: Session, now: float) -> str:
    """The squeezer turns the card at ``position``; the round's phase after it."""
    round_ = squeezing(live, user)
    round_.turn_card(user.username, position, now)
    return round_.phase.value


def done(live: Live, user: Caller, session: Session, now: float) -> str:
    """The squeezer turns every card of the squeeze still face down."""
    round_ = squeezing(live, user)
    round_.end_squeeze(user.username, now)
    return round_.phase.value
