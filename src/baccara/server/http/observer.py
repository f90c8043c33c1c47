"""Every HTTP request as one log event and its metrics, whichever lane answered it.

The :class:`Observer` is the first thing a request meets (:class:`~.betlane.CasinoApp`
puts it in front of the bet lane and of FastAPI), so a bet the lane places and one the
route answers are logged and timed alike. Each request is one ``request`` event: the
method, the route's *template* (``/api/tables/{table_id}/bets``, never the path as sent,
and never its query string, where a WebSocket's token travels), the status, how long it
took in milliseconds, the table and round the path names, the signed-in user's id, and
for a refusal its error code. No header, token, password, cookie or body is logged.

A bet answered here is timed (``baccara_bet_seconds``) when it was placed, and counted
by its error code when refused (``baccara_bets_refused_total``: the route answers every
refusal, the lane none). The bets placed are counted from the committed events instead
(:mod:`baccara.server.domain.monitor`), so a retry answered from its Idempotency-Key is
not counted twice. An error no handler answered is one ``unhandled error`` event with its
traceback, counted and timed as a 500, then goes on to the server as before (uvicorn logs
it too, in the same stream).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from baccara.server.observe.logs import get_logger

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from prometheus_client import Counter, Histogram

    from baccara.server.domain.casino import Casino
    from baccara.server.observe.metrics import Metrics

log = get_logger()

BET_ROUTE = "/api/tables/{table_id}/bets"
ROUTE = "baccara.route"
"""Where a lane that answers a request itself puts the route template in its scope."""
USER = "baccara.user"
"""Where the bet lane, or the routes' dependency, that checked the caller's token puts
their user id (a request that checked none has its token read here)."""
UNMATCHED = "unmatched"
"""The route of a request for no route of the API or the pages."""
MAX_DIGITS = 19
"""Digits of an id read from a path (a longer one is no table's or round's)."""
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""The methods a request is logged and counted by; any other is ``OTHER`` (a client's
made-up method must not add a series to the metrics for each one it makes up)."""
ERROR_BODY = 4096
"""Bytes of a refusal's body read for its error code (``{"error": …}`` is tens)."""


class Observer:
    """ASGI: one ``request`` event per HTTP request, and its metrics (see the module)."""

    def __init__(
        self, app: ASGIApp, casino: Casino, metrics: Metrics, routes: Sequence[BaseRoute]
    ) -> None:
        self.app = app
        self.casino = casino
        self.metrics = metrics
        self.routes = routes
        self._every: list[BaseRoute] | None = None
        self._series: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}
        """Each (method, route, status)'s counter and its route's histogram: the labels
        are looked up once, not on every request (a few dozen series in all: templates,
        the known methods, the statuses the API answers)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            try:
                await self.app(scope, receive, send)
            except Exception:
                if scope["type"] == "websocket":
                    log.exception("unhandled error", route=self._template(scope, scope),
                                  **_path_fields(scope))  # fmt: skip
                raise
            return
        monotonic = self.casino.time.monotonic
        start = monotonic()
        asked = {"type": "http", "path": scope["path"], "method": scope["method"],
                 "root_path": scope.get("root_path", "")}  # fmt: skip
        """The request as it came, for :meth:`_template` (routing rewrites the scope)."""
        status = 0
        refusal = bytearray()

        async def watched(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif status >= 400 and len(refusal) < ERROR_BODY:
                refusal.extend(message.get("body", b"")[:ERROR_BODY])
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception:
            seconds = monotonic() - start
            fields = self._fields(scope, asked, status or 500, seconds, b"")
            log.exception("unhandled error", **fields)
            try:
                self._count(fields["method"], fields["route"], status or 500, seconds)
            except Exception:  # the error goes on to the server whatever a metric does
                log.exception("a request could not be counted", route=fields["route"])
            raise
        try:
            self._answered(scope, asked, status, monotonic() - start, bytes(refusal))
        except Exception:  # the answer went out: what failed is the log's or a metric's
            log.exception("a request could not be logged", route=self._template(scope, asked))

    def _answered(
        self, scope: Scope, asked: Scope, status: int, seconds: float, refusal: bytes
    ) -> None:
        fields = self._fields(scope, asked, status, seconds, refusal)
        if status >= 500:
            log.warning("request", **fields)
        else:
            log.info("request", **fields)
        route = fields["route"]
        self._count(fields["method"], route, status, seconds)
        if route == BET_ROUTE and scope["method"] == "POST" and _answered_here(scope):
            if status == 201:
                self.metrics.bet_seconds.observe(seconds)
            elif status >= 400:
                self._refused(fields)

    def _count(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count the request and time it, by its series (looked up once for each)."""
        key = (method, route, status)
        series = self._series.get(key)
        if series is None:
            series = self._series[key] = (
                self.metrics.requests.labels(method, route, str(status)),
                self.metrics.request_seconds.labels(route),
            )
        counted, timed = series
        counted.inc()
        timed.observe(seconds)

    def _fields(
        self, scope: Scope, asked: Scope, status: int, seconds: float, refusal: bytes
    ) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "method": scope["method"] if scope["method"] in METHODS else "OTHER",
            "route": self._template(scope, asked),
            "status": status,
            "duration_ms": round(seconds * 1000, 3),
            **_path_fields(scope),
        }
        user = self._user(scope)
        if user is not None:
            fields["user"] = user
        if refusal:
            fields["error"] = _error_code(refusal)
        return fields

    def _refused(self, fields: dict[str, Any]) -> None:
        reason = fields.get("error") or "unknown"
        self.metrics.bets_refused.labels(reason).inc()
        log.info("bet refused", reason=reason, status=fields["status"],
                 **{k: fields[k] for k in ("table", "user") if k in fields})  # fmt: skip

    def _template(self, scope: Scope, asked: Scope) -> str:
        """The route's path as declared: the one that answered, or (for a request the
        Guard or the forwarder answered before routing, or a mount's) the one that
        matches the request as it came."""
        if ROUTE in scope:
            return str(scope[ROUTE])
        route = scope.get("route")
        if route is None:
            if self._every is None:
                self._every = list(_every(self.routes))
            route = next((r for r in self._every if r.matches(asked)[0] is Match.FULL), None)
        path = getattr(route, "path_format", None) or getattr(route, "path", None)
        return path if isinstance(path, str) and path else UNMATCHED

    def _user(self, scope: Scope) -> int | None:
        """The signed-in user's id: from the lane, or from a token this casino signed."""
        if USER in scope:
            return int(scope[USER])
        tokens = self.casino.accounts.tokens
        for name, value in scope.get("headers", ()):
            if name == b"authorization" and tokens is not None:
                scheme, _, token = value.decode("latin-1").partition(" ")
                if scheme.lower() != "bearer":
                    return None
                try:
                    return tokens.check(token.strip(), self.casino.clock()).user_id
                except Exception:  # no user: not signed in, or not by this casino
                    return None
        return None


def _every(routes: Sequence[BaseRoute]) -> Iterator[BaseRoute]:
    """Every route, those of the routers the app includes too (FastAPI keeps each
    included router whole, as a route of its own)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is None:
            yield route
        else:
            yield from _every(included.routes)


def _answered_here(scope: Scope) -> bool:
    """Whether this process answered the bet (the lane or the route), not the process
    it was forwarded to (which counts it)."""
    return ROUTE in scope or "route" in scope


def _path_fields(scope: Scope) -> dict[str, int]:
    """The table and the round a route's path names."""
    params = scope.get("path_params") or {}
    fields = {}
    for param, field in (("table_id", "table"), ("round_id", "round")):
        value = params.get(param)
        if isinstance(value, int) or (
            isinstance(value, str) and value.isdigit() and len(value) <= MAX_DIGITS
        ):
            fields[field] = int(value)
    return fields


def _error_code(body: bytes) -> str | None:
    """The ``error`` of a refusal's JSON body."""
    try:
        code = json.loads(body).get("error")
    except (ValueError, AttributeError):
        return None
    return code if isinstance(code, str) else None
