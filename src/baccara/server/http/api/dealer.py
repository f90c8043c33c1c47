"""The live dealer's console: cards as dealt, no more bets, voids, the shoe's edges."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from baccara.errors import BaccaraError, InvalidCards
from baccara.server.domain import play
from baccara.server.errors import (
    AuthError,
    Forbidden,
    InvalidRequest,
    NotAssigned,
    NotFound,
    TableMoved,
    UnreadableBody,
    VoidRefused,
)
from baccara.server.http.api.answers.rounds import NeedsOut, ShoeOut
from baccara.server.http.api.deps import CasinoDep, UserDep
from baccara.server.http.api.errors import refusals
from baccara.server.http.api.schemas import CardsIn, RoundId, State, TableId, VoidIn
from baccara.table import RoundError

router = APIRouter(tags=["dealer"])

DEALERS = (AuthError, Forbidden, NotAssigned, NotFound, TableMoved, InvalidRequest)
"""What every dealer's action may be refused with: not signed in, not a dealer, not
assigned to this table, no such table, the table changing hands, a malformed request."""


@router.post("/api/tables/{table_id}/cards", response_model=NeedsOut,
             responses=refusals(*DEALERS, RoundError, InvalidCards, UnreadableBody))  # fmt: skip
async def enter_cards(
    table_id: TableId, body: CardsIn, user: UserDep, casino: CasinoDep
) -> dict[str, Any]:
    """Cards (Lo-Ball tiles as ``"3-5"``) in dealing order, dice under ``"dice"``; all of
    them are taken or none. Answers what the rules still need."""
    answer: dict[str, Any] = await casino.on_table(
        user, table_id, lambda live, u, s, now: play.enter(live, u, body.cards, body.dice, s, now)
    )
    return answer


@router.get("/api/tables/{table_id}/needs", response_model=NeedsOut,
            responses=refusals(AuthError, Forbidden, NotFound, TableMoved, InvalidRequest))  # fmt: skip
def needs(table_id: TableId, user: UserDep, casino: CasinoDep) -> dict[str, Any]:
    live = casino.live(table_id)
    play.require_staff(user, live, admin_too=True)
    round_ = live.table.round
    return {"state": round_.phase.value if round_ else None, "needs": play.needs(live)}


@router.post("/api/tables/{table_id}/close-betting", response_model=State,
             responses=refusals(*DEALERS, RoundError))  # fmt: skip
async def close_betting(table_id: TableId, user: UserDep, casino: CasinoDep) -> State:
    """ "No more bets", before the timer runs out."""
    return State(state=await casino.on_table(user, table_id, play.close_betting))


@router.post("/api/rounds/{round_id}/void", response_model=State,
             responses=refusals(*DEALERS, RoundError, VoidRefused, BaccaraError,
                                UnreadableBody))  # fmt: skip
async def void(round_id: RoundId, body: VoidIn, user: UserDep, casino: CasinoDep) -> State:
    """Void a misdeal with a reason: every bet is refunded. At a live table its dealer or an
    admin may; at an electronic table only an admin, and only while betting is open (409
    ``void_refused`` after: the seeds fix the cards, and the round is played out)."""
    state = await casino.on_round(
        user, round_id, lambda live, u, r, s, now: play.void(live, u, r, body.reason, s, now)
    )
    return State(state=state)


@router.get("/api/tables/{table_id}/shoe", response_model=ShoeOut,
            responses=refusals(*DEALERS, RoundError, BaccaraError))  # fmt: skip
def shoe(table_id: TableId, user: UserDep, casino: CasinoDep) -> dict[str, Any]:
    """A live continuous shoe: every bet's exact house edge on the cards left."""
    live = casino.live(table_id)
    with casino.db.read() as session:
        return play.shoe(live, user, session)
