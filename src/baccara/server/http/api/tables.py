"""Tables: the lobby, opening and closing tables, seats, bets and "deal"."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from baccara.cards import ShoeMode
from baccara.games import game
from baccara.server.domain.betting import check_key
from baccara.server.http.api.deps import AdminDep, CasinoDep, IdempotencyKey, UserDep
from baccara.server.http.api.schemas import REFUSALS, BetIn, BetOut, SeatIn, State, TableId, TableIn
from baccara.table import Mode, TableConfig
from baccara.table.config import whole_cents_step

router = APIRouter(tags=["tables"], responses=REFUSALS)


@router.get("/api/tables")
def list_tables(casino: CasinoDep) -> list[dict[str, Any]]:
    """Every open table: game, mode, rules, limits, seats and who sits in them."""
    return casino.list_tables()


@router.get("/api/tables/{table_id}")
async def get_table(table_id: TableId, casino: CasinoDep) -> dict[str, Any]:
    """One table, and the id of the round in play."""
    return await casino.table_view(table_id)


@router.get("/api/tables/{table_id}/rounds")
def recent_rounds(
    table_id: TableId, casino: CasinoDep, limit: int = Query(100, ge=1, le=500)
) -> list[dict[str, Any]]:
    """The table's last rounds that are over, oldest first, with their results (the roads)."""
    from baccara.server.domain.views import recent_rounds as read

    casino.live(table_id)
    with casino.db.read() as session:
        return read(session, table_id, limit)


@router.post("/api/tables", status_code=201)
async def create_table(body: TableIn, admin: AdminDep, casino: CasinoDep) -> dict[str, Any]:
    """Open a table (admins). Options are the game's rule options, as ``baccara analyze``
    takes them; timers come from the server's settings. Every stake must be a multiple of
    ``bet_step_cents``, the limits too: by default the game's whole-cents step under these
    options, at which no payout is rounded; an admin may choose a finer one."""
    settings = casino.settings
    step = body.bet_step_cents
    if step is None:  # from the exact analysis of these rules: off the event loop
        game(body.game)  # an unknown game is refused as such, before its step is asked for
        step = await asyncio.to_thread(whole_cents_step, body.game, body.options)
    config = TableConfig(
        body.game,
        min_bet_cents=body.min_bet_cents,
        max_bet_cents=body.max_bet_cents,
        bet_step_cents=step,
        mode=Mode(body.mode),
        options=body.options,
        seats=body.seats,
        shoe=ShoeMode(body.shoe.mode),
        penetration=body.shoe.penetration,
        betting_seconds=settings.betting_seconds,
        peek_seconds=settings.peek_seconds,
        choose_seconds=settings.choose_seconds,
        reveal_delay=settings.reveal_delay,
    )
    table_id = await casino.create_table(config, admin)
    return await casino.table_view(table_id)


@router.delete("/api/tables/{table_id}", status_code=204)
async def close_table(table_id: TableId, admin: AdminDep, casino: CasinoDep) -> Response:
    """Close a table (admins): the round in play is voided and every bet refunded."""
    await casino.close_table(table_id, admin)
    return Response(status_code=204)


@router.post("/api/tables/{table_id}/seat")
async def take_seat(
    table_id: TableId, user: UserDep, casino: CasinoDep, body: SeatIn | None = None
) -> dict[str, int]:
    """Sit at a seat, or the first free one when ``seat`` is omitted."""
    seat = await casino.sit(user, table_id, body.seat if body else None)
    return {"seat": seat}


@router.delete("/api/tables/{table_id}/seat")
async def leave_seat(table_id: TableId, user: UserDep, casino: CasinoDep) -> dict[str, int]:
    return {"seat": await casino.leave(user, table_id)}


@router.post("/api/tables/{table_id}/bets", status_code=201, response_model=BetOut)
async def place_bet(
    table_id: TableId,
    body: BetIn,
    user: UserDep,
    casino: CasinoDep,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Place a bet with a required ``Idempotency-Key``: a retry with the same key places it
    once and answers the same; the same key with a different body is a 409."""
    key = check_key(idempotency_key)
    answer = await casino.place_bet(user, table_id, body.bet, body.amount_cents, key)
    return JSONResponse(answer, status_code=201)  # checked by the casino: not again by FastAPI


@router.delete("/api/tables/{table_id}/bets/{bet_id}")
async def remove_bet(
    table_id: TableId, bet_id: str, user: UserDep, casino: CasinoDep
) -> dict[str, int]:
    """Take a bet back while betting is open."""
    return {"balance_cents": await casino.remove_bet(user, table_id, bet_id)}


@router.post("/api/tables/{table_id}/deal", response_model=State)
async def deal(table_id: TableId, user: UserDep, casino: CasinoDep) -> State:
    """This player is ready; when every seated bettor is, betting closes."""
    return State(state=await casino.request_deal(user, table_id))
