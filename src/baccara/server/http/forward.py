"""Requests for a table another server process deals are sent on to that process.

With several ``baccara serve`` processes behind a load balancer, a player's request
may reach any of them, but each table is dealt by one (see
:mod:`baccara.server.cluster.membership`). Behind nginx hashing on the table
(``deploy/nginx/baccara.conf``, ``serve --upstream``) a table's requests reach the
process that deals it, and this is the fallback for the moments they cannot: a table
changing hands, its process down, a round's path, a balancer that does not hash. Each
request sent on is counted (``baccara_forwarded_requests_total``).

This middleware looks at the path: a request for a table (``/api/tables/{id}/…``) or
for the round of one (``/api/rounds/{id}/…``) that this process does not deal is
forwarded, as it came, to the process that does — found in the table's lease — and
its answer returned as it is. The holder checks the token and everything else itself.

A forwarded request carries ``X-Baccara-Forwarded``; it is never forwarded again (two
processes disagreeing for a moment about who holds a table answer 503 and the client
retries, rather than pass the request back and forth). Reading a round
(``GET /api/rounds/{id}``) needs no forwarding: every process reads it as committed.

The holder is asked for the path as sent, never another: a path with a ``.`` or ``..``
segment, as sent or percent-encoded, is answered here with the API's 404 (an HTTP client
removes such segments, so ``/api/tables/7/../../../metrics`` would reach the holder's
``/metrics`` from this process's address). The client's own claims of where it is
(``X-Forwarded-For``, ``Forwarded``, ``X-Real-IP``) are not passed on: the holder would
believe them from a process on its own host.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import urllib.parse
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Receive, Scope, Send

from baccara.server.errors import HTTPRefusal, TableMoved
from baccara.server.http.guard import read_body

if TYPE_CHECKING:
    from baccara.server.domain.casino import Casino

log = logging.getLogger("baccara.server")
FORWARDED = b"x-baccara-forwarded"
TABLE_PATH = re.compile(r"^/api/tables/(\d{1,9})(?:/|$)")
ROUND_PATH = re.compile(r"^/api/rounds/(\d{1,12})/")
HOP_BY_HOP = {b"connection", b"keep-alive", b"transfer-encoding", b"content-length", b"host",
              b"upgrade", b"te", b"trailer", b"proxy-connection"}  # fmt: skip
CLAIMED_ADDRESS = {b"x-forwarded-for", b"forwarded", b"x-real-ip"}
"""Where the client says it is: the holder must not take it from the forwarder."""
DOTS = {".", ".."}
DECODINGS = 4
"""Percent-decodings of a path's segments looked through for a dot segment (``%252e``
is ``%2e`` once decoded, ``.`` twice)."""


class Forwarder:
    """ASGI middleware: route a table's requests to the process that deals it."""

    def __init__(self, app: ASGIApp, casino: Casino) -> None:
        self.app = app
        self.casino = casino

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cluster = self.casino.cluster
        if scope["type"] != "http" or not cluster.shared:
            await self.app(scope, receive, send)
            return
        try:
            table_id = await self._table(scope["path"])
            if table_id is None or table_id in self.casino.tables:
                holder = None
            else:
                holder = await asyncio.to_thread(cluster.holder_of, table_id)
        except Exception:  # the database out of reach: the route answers (a JSON 503)
            log.warning("could not tell who deals the table of %s", scope["path"], exc_info=True)
            table_id = holder = None
        headers = scope["headers"]
        if table_id is None or holder is None:
            await self.app(scope, receive, send)
            return
        if holder.id == cluster.me.id or any(k == FORWARDED for k, _ in headers):
            await self.app(scope, receive, send)  # the route answers: not found, or moving
            return
        if _has_dot_segment(scope):
            await _not_found(send)
            return
        body = await read_body(receive)
        query = scope.get("query_string", b"").decode("latin-1")
        url = holder.address + scope["path"] + (f"?{query}" if query else "")
        sent = [(k, v) for k, v in headers  # as bytes, as they came
                if k not in HOP_BY_HOP and k.lower() not in CLAIMED_ADDRESS]  # fmt: skip
        sent.append((FORWARDED, cluster.me.id.encode()))
        self.casino.metrics.forwarded.inc()
        try:
            answer = await cluster.client.request(scope["method"], url, headers=sent,
                                                  content=body)  # fmt: skip
        except Exception:  # the holder is gone (its lease will run out and move), or the
            cluster.forget_holder(table_id)  # request cannot be sent on as it is
            log.warning("table %s: could not forward to %s", table_id, holder.address,
                        exc_info=True)  # fmt: skip
            await _moving(send, table_id)
            return
        out = [(k, v) for k, v in answer.headers.raw if k.lower() not in HOP_BY_HOP]
        out.append((b"content-length", str(len(answer.content)).encode()))
        await send({"type": "http.response.start", "status": answer.status_code, "headers": out})
        await send({"type": "http.response.body", "body": answer.content})

    async def _table(self, path: str) -> int | None:
        found = TABLE_PATH.match(path)
        if found:
            return int(found.group(1))
        found = ROUND_PATH.match(path)
        if found:
            return await asyncio.to_thread(self.casino.cluster.table_of_round, int(found.group(1)))
        return None


def _has_dot_segment(scope: Scope) -> bool:
    """Whether the path, decoded or as sent, has a ``.`` or ``..`` segment, however
    percent-encoded."""
    raw = scope.get("raw_path") or b""
    for path in (scope["path"], raw.decode("latin-1")):
        for segment in path.split("/"):
            for _ in range(DECODINGS):
                if segment in DOTS:
                    return True
                decoded = urllib.parse.unquote(segment)
                if decoded == segment:
                    break
                segment = decoded
            else:
                return True  # encoded deeper than any client encodes: refused all the same
            if "/" in segment and any(part in DOTS for part in segment.split("/")):
                return True  # ``..%2f`` decodes to a segment and a separator
    return False


async def _not_found(send: Send) -> None:
    """The API's answer for a path no route has (as the holder would answer it as sent)."""
    body = json.dumps(
        {"error": HTTPRefusal.code, "detail": "Not Found"}, separators=(",", ":")
    ).encode()
    await send({"type": "http.response.start", "status": 404,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})


async def _moving(send: Send, table_id: int) -> None:
    body = json.dumps(
        {"error": TableMoved.code, "detail": f"table {table_id} is changing hands: try again"}
    ).encode()
    await send({"type": "http.response.start", "status": TableMoved.status,
                "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1"),
                            (b"content-length", str(len(body)).encode())]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})
