"""Every refusal as a 4xx with a JSON body that says what is wrong: ``{"error", "detail"}``.

Bad input changes nothing: each refusal is raised before anything is committed. A
request whose database connection is lost under it (PostgreSQL restarted or failed
over, its backend terminated) gets a 503 with the same kind of body: the pool checks
each connection before lending it (``pool_pre_ping``), so the client's retry — a bet's
with the same Idempotency-Key — gets a fresh one.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from baccara.errors import BaccaraError, InvalidBet, InvalidCards, InvalidOption, UnknownGame
from baccara.server.cluster.leases import LeaseLost
from baccara.server.cluster.membership import TableMoved
from baccara.server.db.ledger import InsufficientFunds
from baccara.server.db.store import NotFound, UsernameTaken
from baccara.server.domain.accounts import AuthError, InvalidCredentials
from baccara.server.domain.betting import IdempotencyConflict
from baccara.server.domain.casino import Forbidden, TooManyAttempts
from baccara.server.domain.responsible import Excluded, LossLimitReached, RealityCheckDue
from baccara.table import OffStep, RoundError, SeatError

STATUS: tuple[tuple[type[BaccaraError], int, str], ...] = (
    (AuthError, 401, "unauthorized"),
    (TableMoved, 503, "table_moving"),
    (LeaseLost, 503, "table_moving"),
    (TooManyAttempts, 429, "too_many_attempts"),
    (Excluded, 403, "self_excluded"),
    (LossLimitReached, 409, "loss_limit"),
    (RealityCheckDue, 409, "reality_check"),
    (Forbidden, 403, "forbidden"),
    (NotFound, 404, "not_found"),
    (IdempotencyConflict, 409, "idempotency_conflict"),
    (UsernameTaken, 409, "username_taken"),
    (SeatError, 409, "seat"),
    (RoundError, 409, "not_now"),
    (InsufficientFunds, 400, "insufficient_funds"),
    (InvalidCredentials, 400, "invalid_credentials"),
    (OffStep, 400, "bet_step"),
    (InvalidBet, 400, "invalid_bet"),
    (InvalidCards, 400, "invalid_cards"),
    (InvalidOption, 400, "invalid_option"),
    (UnknownGame, 400, "unknown_game"),
    (BaccaraError, 400, "bad_request"),
)
"""The first class an error is an instance of decides its status."""

UNAVAILABLE = (
    "the connection to the database was lost during this request: try again (a bet with"
    " the same Idempotency-Key is placed at most once)"
)
log = logging.getLogger("baccara.server")


def error_body(code: str, detail: str) -> dict[str, str]:
    return {"error": code, "detail": detail}


def install(app: FastAPI) -> None:
    @app.exception_handler(BaccaraError)
    async def refused(request: Request, error: BaccaraError) -> JSONResponse:
        for cls, status, code in STATUS:
            if isinstance(error, cls):
                headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
                if status == 503:  # the table is changing hands between server processes
                    headers = {"Retry-After": "1"}
                return JSONResponse(error_body(code, str(error)), status, headers=headers)
        raise AssertionError("BaccaraError is in STATUS")

    @app.exception_handler(DBAPIError)
    async def unavailable(request: Request, error: DBAPIError) -> JSONResponse:
        if not (error.connection_invalidated or isinstance(error, OperationalError)):
            raise error  # a bug, not the database going away: a 500, with its traceback
        log.warning("%s %s: database unavailable: %s", request.method, request.url.path,
                    str(error.orig).strip())  # fmt: skip
        return JSONResponse(error_body("unavailable", UNAVAILABLE), 503,
                            headers={"Retry-After": "1"})  # fmt: skip

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
            problems.append(f"{where}: {item.get('msg', 'invalid')}")
        return JSONResponse(error_body("invalid_request", "; ".join(problems)), 422)

    @app.exception_handler(StarletteHTTPException)
    async def http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(error_body("http", str(error.detail)), error.status_code,
                            headers=getattr(error, "headers", None))  # fmt: skip
