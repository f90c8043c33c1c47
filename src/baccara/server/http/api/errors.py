"""Every refusal as a 4xx with a JSON body that says what is wrong: ``{"error", "detail"}``,
with ``"params"`` (the figures it names, amounts in cents) when it has any.

Bad input changes nothing: each refusal is raised before anything is committed. A
request whose database connection is lost under it (PostgreSQL restarted or failed
over, its backend terminated) gets a 503 with the same kind of body: the pool checks
each connection before lending it (``pool_pre_ping``), so the client's retry — a bet's
with the same Idempotency-Key — gets a fresh one.

Each route declares, with :func:`refusals`, the error classes it may answer with: its
OpenAPI ``responses`` then list every status it can give, and under each the codes.
"""

from __future__ import annotations

import logging
import math
import re
from collections import defaultdict
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from baccara.errors import BaccaraError
from baccara.server.errors import (
    BodyTooLarge,
    DatabaseLost,
    HTTPRefusal,
    InternalError,
    InvalidRequest,
    UnreadableBody,
    answer_of,
    status_of,
)
from baccara.server.http.guard import SECURED

UNAVAILABLE = (
    "the connection to the database was lost during this request: try again (a bet with"
    " the same Idempotency-Key is placed at most once)"
)
log = logging.getLogger("baccara.server")

ANY_REQUEST: tuple[type[BaccaraError], ...] = (BodyTooLarge,)
"""What any request may be answered: a body over the bound (the Guard's)."""


class ErrorOut(BaseModel):
    """Every refusal: what kind of error (its code), and what is wrong, in words; and, for
    a refusal that names figures (a bet over the table's limit, a balance too short), those
    figures as ``params`` — amounts in integer cents — for a client to word it itself."""

    error: str
    detail: str
    params: dict[str, int | str | None] | None = None


BAD_BODY: tuple[type[BaccaraError], ...] = (InvalidRequest, UnreadableBody)
"""What a route that reads a JSON body may answer when it cannot use it."""


def error_body(
    code: str, detail: str, params: dict[str, int | str | None] | None = None
) -> dict[str, object]:
    """A refusal's JSON body; ``params`` only when the refusal has figures to give."""
    body: dict[str, object] = {"error": code, "detail": detail}
    if params is not None:
        body["params"] = params
    return body


def refusals(*kinds: type[BaccaraError], database: bool = True) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that may refuse with these error classes, with
    :data:`ANY_REQUEST`'s, and with :class:`DatabaseLost` if it reads or writes the database:
    one entry per status, its description naming each code."""
    codes: dict[int, dict[str, str]] = defaultdict(dict)
    for kind in (*kinds, *ANY_REQUEST, *((DatabaseLost,) if database else ())):
        status, code = answer_of(kind)
        codes[status].setdefault(code, _summary(kind))
    return {
        status: {
            "model": ErrorOut,
            "description": "\n".join(f"* `{code}`: {text}" for code, text in found.items()),
        }
        for status, found in sorted(codes.items())
    }


def _summary(kind: type[BaccaraError]) -> str:
    """The first paragraph of the class's docstring, on one line."""
    if kind is BaccaraError:  # every other refusal of bad input: its detail says which
        return "Bad input: the detail says what is wrong."
    first = (kind.__doc__ or kind.__name__).strip().split("\n\n")[0]
    return re.sub(r"\s+", " ", first.replace("``", ""))


def install(app: FastAPI) -> None:
    @app.exception_handler(BaccaraError)
    async def refused(request: Request, error: BaccaraError) -> JSONResponse:
        return refusal(error)

    @app.exception_handler(DBAPIError)
    async def unavailable(request: Request, error: DBAPIError) -> JSONResponse:
        if not (error.connection_invalidated or isinstance(error, OperationalError)):
            raise error  # a bug, not the database going away: a 500, with its traceback
        log.warning("%s %s: database unavailable: %s", request.method, request.url.path,
                    str(error.orig).strip())  # fmt: skip
        return JSONResponse(error_body(DatabaseLost.code, UNAVAILABLE), DatabaseLost.status,
                            headers={"Retry-After": "1"})  # fmt: skip

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            where = ".".join(str(p) for p in item.get("loc", ()) if p != "body")
            problems.append(f"{where}: {item.get('msg', 'invalid')}")
        return JSONResponse(error_body(InvalidRequest.code, "; ".join(problems)),
                            InvalidRequest.status)  # fmt: skip

    @app.exception_handler(Exception)
    async def fault(request: Request, error: Exception) -> JSONResponse:
        """A bug. Starlette's error middleware writes this answer outside every other layer,
        the Guard's too, so it carries the security headers itself."""
        answer = JSONResponse(error_body(InternalError.code, "the casino could not answer this"
                                         " request; the fault is logged"), InternalError.status)  # fmt: skip
        answer.raw_headers.extend(SECURED)
        return answer

    @app.exception_handler(StarletteHTTPException)
    async def http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        return protocol_refusal(error)


def refusal(error: BaccaraError) -> JSONResponse:
    """The answer to a refusal: its status, code, words and figures, and the headers that
    say what to do next (sign in again, or when to try again)."""
    status, code = status_of(error)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:  # a limit that says when it lets the next attempt in
        headers = {"Retry-After": str(max(1, math.ceil(retry_after)))}
    elif status == 503:  # the table is changing hands between server processes
        headers = {"Retry-After": "1"}
    return JSONResponse(error_body(code, str(error), error.params), status, headers=headers)


def protocol_refusal(error: StarletteHTTPException) -> JSONResponse:
    """The protocol's refusals (no route, a body that cannot be read), their status kept."""
    return JSONResponse(error_body(HTTPRefusal.code, str(error.detail)), error.status_code,
                        headers=getattr(error, "headers", None))  # fmt: skip
