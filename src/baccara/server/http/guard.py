"""The casino's guard rails on every request: bounded bodies and security headers.

* A request body larger than :data:`MAX_BODY` is refused with 413 before it is read
  whole (the stream is counted as it arrives, whatever Content-Length says).
* Every answer carries the security headers a casino's pages need: a
  Content-Security-Policy that allows nothing from elsewhere and no inline script,
  no framing (``frame-ancestors 'none'``), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: no-referrer``. The interactive API documentation (``/docs``) is
  Swagger UI served by the casino itself; its page alone gets a policy that allows the
  one inline script that starts the viewer, by its hash — still nothing from elsewhere.
* A redirect never names a host: an absolute ``Location`` (Starlette's added slash,
  ``/static`` to ``/static/``, is built from the request's ``Host`` header, which the
  client chose) goes out as its path, so no one can make the casino send a browser to
  another site.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from baccara.server.cluster.hub import SOCKET_SEND
from baccara.server.errors import BodyTooLarge
from baccara.server.http.pages import DOCS, DOCS_SCRIPT_HASH

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY = 64 * 1024
"""Bytes a request body may have: a bet is tens of bytes, a dealer's cards a few hundred."""

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""Everything from this origin (the table WebSockets are same-origin too), nothing inline."""
DOCS_POLICY = (
    f"default-src 'self'; script-src 'self' {DOCS_SCRIPT_HASH}; style-src 'self';"
    " img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none';"
    " base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""The API documentation's page: its files from this origin only, its one inline script by
hash (:data:`baccara.server.http.pages.DOCS_SCRIPT_HASH`)."""
HEADERS = {
    b"x-content-type-options": b"nosniff",
    b"referrer-policy": b"no-referrer",
    b"x-frame-options": b"DENY",
    b"permissions-policy": b"camera=(), microphone=(), geolocation=()",
}
SECURED = [*HEADERS.items(), (b"content-security-policy", POLICY.encode())]
"""The headers the Guard adds to every answer (an answer written past it adds them too)."""
DOCS_SECURED = [*HEADERS.items(), (b"content-security-policy", DOCS_POLICY.encode())]


class Guard:
    """ASGI middleware: bound request bodies, add security headers to every HTTP answer."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if scope["type"] == "websocket":  # the table's messages go straight out on it
                scope[SOCKET_SEND] = send
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            await _too_large(send)
            return
        body = bytearray()
        while True:  # read the body first, never more than MAX_BODY of it
            message = await receive()
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if len(body) > MAX_BODY:
                await _too_large(send)
                return
            if not message.get("more_body", False):
                break
        added = DOCS_SECURED if scope["path"] == DOCS else SECURED

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [_relative(name, value) for name, value in message.get("headers", [])]
                present = {name.lower() for name, _ in headers}
                for name, value in added:
                    if name not in present:
                        headers.append((name, value))
                message["headers"] = headers
            await send(message)

        await self.app(scope, replaying(bytes(body), receive), secured)


def _relative(name: bytes, value: bytes) -> tuple[bytes, bytes]:
    """A ``Location`` header as its path (and query): the casino only ever sends a client
    somewhere on its own origin, so the host an absolute one names came from the request."""
    if name.lower() != b"location":
        return name, value
    split = urllib.parse.urlsplit(value.decode("latin-1"))
    if not (split.scheme or split.netloc):
        return name, value
    path = "/" + split.path.lstrip("/")  # never "//host": a path, not another origin
    return name, urllib.parse.urlunsplit(("", "", path, split.query, "")).encode("latin-1")


async def read_body(receive: Receive) -> bytes:
    """A request's whole body (inside the Guard: bounded, and in one message)."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return bytes(body)
        body += message.get("body", b"")
        if not message.get("more_body", False):
            return bytes(body)


def replaying(body: bytes, receive: Receive) -> Receive:
    """``receive`` for the app inside, once ``body`` was read: the body, then what follows
    (a disconnect)."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _too_large(send: Send) -> None:
    body = json.dumps(
        {"error": BodyTooLarge.code, "detail": f"the request body is over {MAX_BODY} bytes"}
    )
    await send({"type": "http.response.start", "status": BodyTooLarge.status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            *SECURED]})  # fmt: skip
    await send({"type": "http.response.body", "body": body.encode()})
