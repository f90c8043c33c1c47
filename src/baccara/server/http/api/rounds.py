"""A round: what it shows, the RedGreen peek, the Mini RedGreen choice."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from baccara.server.domain import play
from baccara.server.errors import (
    AuthError,
    Forbidden,
    InvalidRequest,
    NotFound,
    TableMoved,
    UnreadableBody,
)
from baccara.server.http.api.answers.rounds import PeekOut, RoundOut
from baccara.server.http.api.deps import CasinoDep, UserDep
from baccara.server.http.api.errors import refusals
from baccara.server.http.api.schemas import ChooseIn, RoundId, State
from baccara.table import RoundError

router = APIRouter(tags=["rounds"])

HIGHEST_BETTOR = (AuthError, Forbidden, NotFound, TableMoved, RoundError, InvalidRequest)
"""What the highest bettor's actions may be refused with: another player's, not now."""


@router.get("/api/rounds/{round_id}", response_model=RoundOut,
            responses=refusals(AuthError, Forbidden, NotFound, InvalidRequest))  # fmt: skip
async def get_round(round_id: RoundId, user: UserDep, casino: CasinoDep) -> dict[str, Any]:
    """The round as this user may see it now: only the cards exposed so far, the server
    seed once the round is over, other players as the table shows them (seat and name,
    no bet's client seed). A round of a table that has closed is for its players and the
    staff only (403)."""
    return await casino.round_view(user, round_id)


@router.get(
    "/api/rounds/{round_id}/peek", response_model=PeekOut, responses=refusals(*HIGHEST_BETTOR)
)
async def peek(round_id: RoundId, user: UserDep, casino: CasinoDep) -> dict[str, Any]:
    """RedGreen first version, during the peek: the highest bettor's hand (403 to others)."""
    answer: dict[str, Any] = await casino.on_round(user, round_id, play.peek)
    return answer


@router.post("/api/rounds/{round_id}/peek/done", response_model=State,
             responses=refusals(*HIGHEST_BETTOR))  # fmt: skip
async def end_peek(round_id: RoundId, user: UserDep, casino: CasinoDep) -> State:
    """The highest bettor hands the cards back before the window closes."""
    return State(state=await casino.on_round(user, round_id, play.end_peek))


@router.post("/api/rounds/{round_id}/choose", response_model=State,
             responses=refusals(*HIGHEST_BETTOR, UnreadableBody))  # fmt: skip
async def choose(round_id: RoundId, body: ChooseIn, user: UserDep, casino: CasinoDep) -> State:
    """Mini RedGreen, while choosing: the highest bettor names the hand set first."""
    state = await casino.on_round(
        user, round_id, lambda live, u, r, s, now: play.choose(live, u, r, body.hand, s, now)
    )
    return State(state=state)
