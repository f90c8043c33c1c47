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

from baccara.errors import BaccaraError
from baccara.server.errors import status_of

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
        status, code = status_of(error)
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        if status == 503:  # the table is changing hands between server processes
            headers = {"Retry-After": "1"}
        return JSONResponse(error_body(code, str(error)), status, headers=headers)

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
