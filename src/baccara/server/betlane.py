"""The bet's own lane: ``POST /api/tables/{id}/bets`` placed without FastAPI's routing.

A bet is nearly every request a busy casino answers, and FastAPI's general machinery —
matching the path against every route, solving the dependencies, building the request
— cost more processor time than placing the bet itself. This ASGI middleware answers
the one request that matters with the very functions the route calls, in the same
order: the token checked by ``Casino.authenticate``, the body by the ``BetIn`` model,
the key by ``check_key``, the bet placed by ``Casino.place_bet``, the answer the
route's ``JSONResponse``.

It takes only the plain success: whenever anything is not exactly as the route expects
(no or malformed token, a body or key the models refuse, a bet the casino refuses, a
database connection lost), it hands the request, as it came, to the FastAPI route,
which answers it — the same error, in the same words, documented in ``/docs``. Nothing
it tried changed anything: a refused bet changes nothing, a failed transaction is rolled
back, and a bet committed before an error is answered again by its Idempotency-Key. A test sends every kind of request through both lanes and compares
the answers byte for byte.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from baccara.server.api.schemas import BetIn
from baccara.server.betting import check_key
from baccara.server.security import read_body, replaying

if TYPE_CHECKING:
    from baccara.server.casino import Caller, Casino

BET_PATH = re.compile(r"/api/tables/([1-9][0-9]{0,8})/bets")
"""A bet's path, with a table id the route accepts (larger ones go to the route)."""


class BetLane:
    """ASGI middleware: place a well-formed bet directly (see the module's docstring)."""

    def __init__(self, app: ASGIApp, casino: Casino) -> None:
        self.app = app
        self.casino = casino
        self.placed = 0
        """Bets this lane answered (the rest went to the route)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = (
            BET_PATH.fullmatch(scope["path"])
            if scope["type"] == "http" and scope["method"] == "POST"
            else None
        )
        if found is None:
            await self.app(scope, receive, send)
            return
        body = await read_body(receive)
        answer = await self._place(scope, int(found.group(1)), body)
        if answer is not None:
            await answer(scope, receive, send)
            return
        await self.app(scope, replaying(body, receive), send)

    async def _place(self, scope: Scope, table_id: int, body: bytes) -> JSONResponse | None:
        """The route's answer to a bet that is in order, or ``None`` to let the route
        answer."""
        token = key = None
        json_body = False
        seen: set[bytes] = set()
        for name, value in scope["headers"]:
            if name in seen:  # a header sent twice: the route decides what that means
                return None
            seen.add(name)
            if name == b"authorization":
                scheme, _, credentials = value.decode("latin-1").partition(" ")
                if scheme.lower() == "bearer" and credentials:
                    token = credentials
            elif name == b"idempotency-key":
                key = value.decode("latin-1")
            elif name == b"content-type":
                json_body = value.strip().lower() == b"application/json"
        if token is None or key is None or not json_body:
            return None
        try:
            user: Caller = await self.casino.authenticate(token)
            bet = BetIn.model_validate_json(body)
            checked = check_key(key)
            placed = await self.casino.place_bet(user, table_id, bet.bet, bet.amount_cents, checked)
        except Exception:  # refused, malformed, or the database failed under it: the
            return None  # route answers, in its words (a bet half done is rolled back)
        self.placed += 1
        return JSONResponse(placed, status_code=201)
