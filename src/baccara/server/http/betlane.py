"""The bet's own lane: ``POST /api/tables/{id}/bets`` placed without FastAPI's machinery.

A bet is nearly every request a busy casino answers, and FastAPI's general machinery —
the layers around every request (its error and telemetry handlers, its body limit, the
casino's Guard and forwarder), matching the path against every route, solving the
dependencies, building the request — cost more processor time than placing the bet
itself. The lane stands in front of all of it (:class:`CasinoApp`) and answers the one
request that matters with the very functions the route calls, in the same order: the
token checked by ``Casino.authenticate``, the body by the ``BetIn`` model, the key by
``check_key``, the bet placed by ``Casino.place_bet``, the answer the route's
``JSONResponse`` with the headers the Guard adds (:data:`~.guard.SECURED`).

What the layers it passes by would have done, it does or leaves to them: it reads only
a body whose declared length is within the Guard's bound (:data:`~.guard.MAX_BODY`),
and only a bet for a table this process deals (any other is the forwarder's).

It places only a request exactly as the route expects it: whenever anything is not (no
or malformed token, a body or key the models refuse), it hands the request, as it came,
to the FastAPI route, which answers it — the same error, in the same words, documented
in ``/docs``. A bet the casino refuses is answered here, with the route's own refusal
(:func:`~.api.errors.refusal`): tried again by the route a moment later, a bet refused
"no more bets" could find the next round open and be placed on it. A database
connection lost under a bet is the route's to try again: the transaction was rolled
back, and a bet committed before the error is answered again by its Idempotency-Key.
A test sends every kind of request through both lanes and compares the answers byte
for byte.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from fastapi import FastAPI
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from baccara.errors import BaccaraError
from baccara.server.domain.betting import check_key
from baccara.server.http.api.errors import refusal
from baccara.server.http.api.schemas import BetIn
from baccara.server.http.guard import MAX_BODY, SECURED, read_body, replaying
from baccara.server.http.observer import BET_ROUTE, ROUTE, USER, Observer

if TYPE_CHECKING:
    from baccara.server.domain.casino import Casino
    from baccara.server.domain.types import Caller
    from baccara.server.observe.metrics import Metrics

BET_PATH = re.compile(r"/api/tables/([1-9][0-9]{0,8})/bets")
"""A bet's path, with a table id the route accepts (larger ones go to the route)."""


class BetLane:
    """ASGI app: place a well-formed bet directly, hand anything else to ``app`` (see the
    module's docstring)."""

    def __init__(self, app: ASGIApp, casino: Casino) -> None:
        self.app = app
        self.casino = casino
        self.placed = 0
        """Bets this lane placed (refusals it answered, and the rest the route answered,
        are not counted)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = (
            BET_PATH.fullmatch(scope["path"])
            if scope["type"] == "http" and scope["method"] == "POST"
            else None
        )
        headers = _headers(scope) if found is not None else None
        table_id = int(found.group(1)) if found is not None else 0
        if headers is None or table_id not in self.casino.tables:
            await self.app(scope, receive, send)
            return
        body = await read_body(receive)
        placed = await self._place(headers, table_id, body)
        if placed is None:
            await self.app(scope, replaying(body, receive), send)
            return
        answer, user = placed
        scope.update({ROUTE: BET_ROUTE, USER: user.id, "path_params": {"table_id": table_id}})
        await send({"type": "http.response.start", "status": answer.status_code,
                    "headers": [*answer.raw_headers, *SECURED]})  # fmt: skip
        await send({"type": "http.response.body", "body": answer.body})

    async def _place(
        self, headers: dict[bytes, str], table_id: int, body: bytes
    ) -> tuple[JSONResponse, Caller] | None:
        """The route's answer to a bet that is in order, and who placed it; or ``None`` to
        let the route answer."""
        scheme, _, token = headers.get(b"authorization", "").partition(" ")
        key = headers.get(b"idempotency-key")
        json_body = headers.get(b"content-type", "").strip().lower() == "application/json"
        if scheme.lower() != "bearer" or not token or key is None or not json_body:
            return None
        try:
            user: Caller = await self.casino.authenticate(token)
            bet = BetIn.model_validate_json(body)
            checked = check_key(key)
        except Exception:  # not signed in, or malformed: the route answers, in its words
            return None
        try:
            placed = await self.casino.place_bet(user, table_id, bet.bet, bet.amount_cents, checked)
        except BaccaraError as error:  # refused: answered now, as the route would answer
            return refusal(error), user  # it (tried again there, it could find a new round)
        except Exception:  # the database failed under it: the bet was rolled back, and the
            return None  # route tries it again (a bet committed is answered by its key)
        self.placed += 1
        return JSONResponse(placed, status_code=201), user


def _headers(scope: Scope) -> dict[bytes, str] | None:
    """A bet's headers, or ``None`` if the route should see it: a header sent twice (the
    route decides what that means), or a body of undeclared length or over the bound
    (the Guard refuses it)."""
    headers: dict[bytes, str] = {}
    for name, value in scope["headers"]:
        if name in headers:
            return None
        headers[name] = value.decode("latin-1")
    length = headers.get(b"content-length", "")
    return headers if length.isdigit() and int(length) <= MAX_BODY else None


class CasinoApp(FastAPI):
    """The casino's FastAPI application, with the bet lane in front when it has one and,
    in front of both, the :class:`~.observer.Observer` that logs and times every request."""

    lane: BetLane | None = None
    observer: Observer | None = None

    def open_lane(self, casino: Casino) -> None:
        self.lane = BetLane(super().__call__, casino)

    def observe(self, casino: Casino, metrics: Metrics) -> None:
        self.observer = Observer(self._answer, casino, metrics, self.router.routes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.observer is None:
            await self._answer(scope, receive, send)
        else:
            await self.observer(scope, receive, send)

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.lane is None:
            await super().__call__(scope, receive, send)
        else:
            await self.lane(scope, receive, send)
