"""Tables: the lobby, opening and closing tables, seats, bets and "deal"."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import JSONResponse

from baccara.cards import ShoeMode
from baccara.errors import BaccaraError, InvalidBet, InvalidOption, UnknownGame
from baccara.games import game
from baccara.server.domain.betting import check_key
from baccara.server.domain.layout import check_options
from baccara.server.errors import (
    AuthError,
    Excluded,
    Forbidden,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidRequest,
    LossLimitReached,
    NotFound,
    RealityCheckDue,
    RoundInPlay,
    StaffCannotPlay,
    TableMoved,
    UnreadableBody,
)
from baccara.server.http.api.answers.tables import (
    BalanceOut,
    RecentRound,
    SeatOut,
    TableOut,
    TableView,
)
from baccara.server.http.api.deps import AdminDep, CasinoDep, IdempotencyKey, UserDep
from baccara.server.http.api.errors import BAD_BODY, refusals
from baccara.server.http.api.schemas import (
    MAX_ID,
    BetId,
    BetIn,
    BetOut,
    SeatIn,
    State,
    TableId,
    TableIn,
)
from baccara.table import (
    LeavesTooLittle,
    Mode,
    NoMoreBets,
    OffStep,
    OverLimit,
    RoundError,
    SeatError,
    TableConfig,
    TooManyBets,
    UnderLimit,
)
from baccara.table.config import whole_cents_step

router = APIRouter(tags=["tables"])

MAX_ROUNDS_A_PAGE = 500
"""The most rounds one page of a table's history holds (``GET /api/tables/{id}/rounds``).
A page's ``before`` is at most :data:`~baccara.server.http.api.schemas.MAX_ID`, the largest
nonce a round's row holds (a 32-bit integer on PostgreSQL), so one past it is refused by
the route rather than by the database."""

AT_TABLE = (NotFound, TableMoved, InvalidRequest)
"""What any request for one table may be answered: no such table, or not open; the table
changing hands between server processes; a malformed request."""
PLAYING = (AuthError, *AT_TABLE, RoundError, SeatError, Excluded, BaccaraError)
"""What a player's action at a table may be refused with, besides its own refusals."""


@router.get("/api/tables", response_model=list[TableOut], responses=refusals())
def list_tables(casino: CasinoDep) -> list[dict[str, Any]]:
    """Every open table: game, mode, rules, limits, seats and who sits in them."""
    return casino.list_tables()


@router.get("/api/tables/{table_id}", response_model=TableView, responses=refusals(*AT_TABLE))
async def get_table(table_id: TableId, casino: CasinoDep) -> dict[str, Any]:
    """One table, and the id of the round in play."""
    return await casino.table_view(table_id)


@router.get("/api/tables/{table_id}/rounds", response_model=list[RecentRound],
            responses=refusals(*AT_TABLE))  # fmt: skip
def recent_rounds(
    table_id: TableId,
    casino: CasinoDep,
    limit: int = Query(100, ge=1, le=MAX_ROUNDS_A_PAGE),
    before: int | None = Query(None, ge=1, le=MAX_ID),
) -> list[dict[str, Any]]:
    """The table's last rounds that are over, oldest first, with their results (the roads):
    at most ``limit``; ``before`` a nonce, for the page of rounds before it (the first
    round's nonce of a page gives the page before)."""
    from baccara.server.domain.views import recent_rounds as read

    casino.live(table_id)
    with casino.db.read() as session:
        return read(session, table_id, limit, before)


@router.post(
    "/api/tables",
    status_code=201,
    response_model=TableView,
    responses=refusals(AuthError, Forbidden, UnknownGame, InvalidOption, OffStep, BaccaraError,
                       *BAD_BODY),
)  # fmt: skip
async def create_table(body: TableIn, admin: AdminDep, casino: CasinoDep) -> dict[str, Any]:
    """Open a table (admins). Options are the game's rule options, as ``baccara analyze``
    takes them — at Punto Banco also a rule set, ``variant`` (``ez``, ``no-commission``),
    and ``sidebets``, a list of side bet ids (``["dragon-7", "panda-8"]``) or text of them
    joined by ``+``; timers come from the server's settings. Every stake must be a
    multiple of ``bet_step_cents``, the limits too: by default the game's whole-cents step
    under these options (side bets' pays included), at which no payout is rounded; an
    admin may choose a finer one."""
    settings = casino.settings
    game(body.game)  # an unknown game is refused as such, before its options are read
    check_options(body.game, body.options)
    step = body.bet_step_cents
    if step is None:  # from the exact analysis of these rules: off the event loop
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
        squeeze=body.squeeze,
        squeeze_seconds=settings.squeeze_seconds,
    )
    return await casino.create_table(config, admin)


@router.delete("/api/tables/{table_id}", status_code=204, response_class=Response,
               responses=refusals(AuthError, Forbidden, RoundInPlay, *AT_TABLE))  # fmt: skip
async def close_table(table_id: TableId, admin: AdminDep, casino: CasinoDep) -> Response:
    """Close a table (admins). A round still open for bets is voided and every bet
    refunded; an electronic round past betting is played out from its seeds and settled;
    a live table whose dealer is dealing a round is refused (409 ``round_in_play``) until
    the dealer settles or voids it."""
    await casino.close_table(table_id, admin)
    return Response(status_code=204)


@router.post("/api/tables/{table_id}/seat", response_model=SeatOut,
             responses=refusals(*PLAYING, StaffCannotPlay, UnreadableBody))  # fmt: skip
async def take_seat(
    table_id: TableId, user: UserDep, casino: CasinoDep, body: SeatIn | None = None
) -> SeatOut:
    """Sit at a seat, or the first free one when ``seat`` is omitted (players only)."""
    seat = await casino.sit(user, table_id, body.seat if body else None)
    return SeatOut(seat=seat)


@router.delete("/api/tables/{table_id}/seat", response_model=SeatOut,
               responses=refusals(*PLAYING))  # fmt: skip
async def leave_seat(table_id: TableId, user: UserDep, casino: CasinoDep) -> SeatOut:
    return SeatOut(seat=await casino.leave(user, table_id))


@router.post(
    "/api/tables/{table_id}/bets",
    status_code=201,
    response_model=BetOut,
    responses=refusals(*PLAYING, NoMoreBets, StaffCannotPlay, UnreadableBody, InvalidBet,
                       OffStep, TooManyBets, OverLimit, UnderLimit, InsufficientFunds,
                       IdempotencyConflict, LossLimitReached, RealityCheckDue),
)  # fmt: skip
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


@router.delete("/api/tables/{table_id}/bets/{bet_id}", response_model=BalanceOut,
               responses=refusals(*PLAYING, NoMoreBets, LeavesTooLittle))  # fmt: skip
async def remove_bet(
    table_id: TableId, bet_id: BetId, user: UserDep, casino: CasinoDep
) -> BalanceOut:
    """Take a bet back while betting is open."""
    return BalanceOut(balance_cents=await casino.remove_bet(user, table_id, bet_id))


@router.post("/api/tables/{table_id}/deal", response_model=State, responses=refusals(*PLAYING))
async def deal(table_id: TableId, user: UserDep, casino: CasinoDep) -> State:
    """This player is ready; when every seated bettor is, betting closes."""
    return State(state=await casino.request_deal(user, table_id))
