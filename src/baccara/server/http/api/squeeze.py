"""The squeeze: the squeezer turns the cards of their squeeze, one or all that are left."""

from __future__ import annotations

from fastapi import APIRouter

from baccara.server.domain import squeeze
from baccara.server.errors import UnreadableBody
from baccara.server.http.api.deps import CasinoDep, UserDep
from baccara.server.http.api.errors import refusals
from baccara.server.http.api.rounds import HIGHEST_BETTOR
from baccara.server.http.api.schemas import State, TableId, TurnIn

router = APIRouter(tags=["rounds"])

SQUEEZER = HIGHEST_BETTOR
"""What the squeezer's requests may be refused with, as the highest bettor's: another
player's (403), no squeeze now or a card not of it, or turned already (409)."""


@router.post("/api/tables/{table_id}/squeeze/turn", response_model=State,
             responses=refusals(*SQUEEZER, UnreadableBody))  # fmt: skip
async def turn(table_id: TableId, body: TurnIn, user: UserDep, casino: CasinoDep) -> State:
    """During a squeeze, its squeezer turns one of its cards over: everyone sees it."""
    state = await casino.on_table(
        user, table_id, lambda live, u, s, now: squeeze.turn(live, u, body.position, s, now)
    )
    return State(state=state)


@router.post("/api/tables/{table_id}/squeeze/done", response_model=State,
             responses=refusals(*SQUEEZER))  # fmt: skip
async def done(table_id: TableId, user: UserDep, casino: CasinoDep) -> State:
    """During a squeeze, its squeezer turns every card of it still face down."""
    return State(state=await casino.on_table(user, table_id, squeeze.done))
