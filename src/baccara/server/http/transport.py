"""The casino's connections before any request reaches it: bounded, timed and counted.

uvicorn reads a request's head as long as it comes and as slowly as it comes, and keeps
every connection it is offered, so one client could hold the server: a 64 MiB header
was read whole (every table stalled while it arrived), a client sending one header line
every two seconds was never closed, and a thousand half-open requests took every file
descriptor of a process limited to 1,024 (every player was then refused). uvicorn's HTTP
protocol is therefore taken as it is, with these bounds added, in one place:

* **The head.** A request line longer than :data:`MAX_REQUEST_LINE` is answered 414, a
  head (request line and headers, as sent) larger than :data:`MAX_HEAD` 431 — as soon as
  it is seen, before the rest arrives.
* **Time.** A head must be complete :data:`HEAD_SECONDS` after the connection opens or
  the request's first byte arrives, and a body :data:`BODY_SECONDS` after its head, else
  the answer is 408 and the connection closes (between requests, uvicorn's keep-alive
  timeout closes an idle connection sooner).
* **Connections.** At most :data:`MAX_CONNECTIONS_PER_ADDRESS` open from one address (an
  IPv6 client's /64, which one subscriber gets whole) and :func:`connection_limit` in
  all; one over either is closed as soon as it is accepted. The proxies of
  ``--forwarded-allow-ips`` are spared the first cap (their clients share their
  address); the total holds for them too. A WebSocket counts until it closes.
* **WebSocket messages** from a client are at most :data:`MAX_WEBSOCKET_MESSAGE` bytes
  (a client sends "ping"); a longer frame is refused from its header, its payload never
  buffered, and the socket closed with code 1009.

Its own answers (400 for bytes that are not HTTP, 408, 414, 431) are JSON like the API's
refusals, with the casino's security headers (:data:`~.guard.SECURED`), which uvicorn's
did not carry; so do the refusals of a WebSocket's handshake. Each is logged ("request
refused", as a request is), and the connections refused over a cap are counted in one
event every :data:`REPORT_EVERY` seconds at most, never a line a connection. What it adds to each request is a counter and a timer: the bet path does
not notice it.
"""

from __future__ import annotations

import asyncio
import json
import resource
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import httptools
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

from baccara.server.cluster.hub import SOCKET_FRAMES
from baccara.server.domain.addresses import client_key, ip_of
from baccara.server.errors import (
    HeadersTooLarge,
    MalformedRequest,
    RequestTimeout,
    ServerError,
    URLTooLong,
)
from baccara.server.http.guard import SECURED
from baccara.server.observe.logs import get_logger
from baccara.server.settings import IpNetwork, Settings

MAX_REQUEST_LINE = 8 * 1024
"""Bytes a request's URL may have: the casino's longest is a round history's query, under
200; browsers and proxies (nginx's default buffer) stop near 8 KiB too."""
MAX_HEAD = 16 * 1024
"""Bytes a request's head may have, its request line and every header line: a browser's
with its cookies and a bearer token is under 2 KiB."""
HEAD_SECONDS = 10.0
"""Seconds a client has to send a request's head: a browser sends it at once."""
BODY_SECONDS = 10.0
"""Seconds a client has to send a request's body once its head is in: a body is at most
64 KiB (the Guard's bound), which any connection sends in well under a second."""
MAX_CONNECTIONS_PER_ADDRESS = 64
"""Connections open from one address: a browser opens 6 to a host, and a player a
WebSocket for each table they watch; a household or an office behind one address has
room for many players."""
MAX_CONNECTIONS = 10_000
"""Connections open in all, at most: fewer when the process may open fewer files
(:func:`connection_limit`)."""
RESERVED_DESCRIPTORS = 128
"""File descriptors kept for the casino itself, beyond its connections: the database's
files and connections, the other processes', the log."""
MIN_CONNECTIONS = 16
REPORT_EVERY = 10.0
"""Seconds between two log events of connections refused: a flood of them is a line
every 10 s, not a line a connection."""
MAX_WEBSOCKET_MESSAGE = 4 * 1024
"""Bytes a message a client sends on a table's WebSocket may have: it sends "ping"."""

log = get_logger()

NOT_READING = -1
"""The head count between a request's head and the next one's first bytes."""


def connection_limit() -> int:
    """The connections open in all: :data:`MAX_CONNECTIONS`, or fewer, so that the
    process never runs out of file descriptors (``ulimit -n``) with
    :data:`RESERVED_DESCRIPTORS` of them kept for itself."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(MIN_CONNECTIONS, min(MAX_CONNECTIONS, soft - RESERVED_DESCRIPTORS))


@dataclass
class Admission:
    """The connections open, in all and by address, and whether one more may open.

    >>> admission = Admission(total=3, per_address=2)
    >>> [admission.admit("10.0.0.5") for _ in range(3)]
    ['10.0.0.5', '10.0.0.5', None]
    >>> admission.admit("2001:db8::1:2"), admission.admit("10.0.0.6")
    ('2001:db8::/64', None)
    """

    total: int
    per_address: int
    exempt: Sequence[IpNetwork] = ()
    open: int = 0
    by_address: dict[str, int] = field(default_factory=dict)
    refused: int = 0
    """Connections refused since the last log event said how many."""
    reported_at: float = -REPORT_EVERY
    flush: asyncio.TimerHandle | None = None
    """The report due of connections refused since the last one: when a flood stops, the
    count it left is logged once its :data:`REPORT_EVERY` seconds have run."""

    def report(self, now: float) -> None:
        """Log the connections refused since the last report, if any were."""
        if self.flush is not None:
            self.flush.cancel()
            self.flush = None
        if self.refused:
            log.warning("connections refused", refused=self.refused, open=self.open,
                        limit=self.total, per_address=self.per_address)  # fmt: skip
            self.refused, self.reported_at = 0, now

    def admit(self, peer: str | None) -> str | None:
        """Count a new connection from ``peer``: the key it is counted under (``""`` for
        an address spared the cap per address), or ``None`` if it may not open."""
        if self.open >= self.total:
            self.refused += 1
            return None
        key = self.key(peer)
        if key:
            count = self.by_address.get(key, 0)
            if count >= self.per_address:
                self.refused += 1
                return None
            self.by_address[key] = count + 1
        self.open += 1
        return key

    def release(self, key: str) -> None:
        """A connection :meth:`admit` counted under ``key`` has closed."""
        self.open -= 1
        if key:
            left = self.by_address[key] - 1
            if left:
                self.by_address[key] = left
            else:
                del self.by_address[key]

    def key(self, peer: str | None) -> str:
        """What connections from ``peer`` are counted by (:func:`~.addresses.client_key`),
        or ``""``: a proxy of the settings, or no IP address (a Unix socket)."""
        address = ip_of(peer)
        if address is None or any(address in network for network in self.exempt):
            return ""
        return client_key(peer)


class Refused(Exception):
    """Raised in a parser callback to stop reading: :attr:`error` is the answer."""

    def __init__(self, error: type[ServerError], detail: str) -> None:
        super().__init__(detail)
        self.error, self.detail = error, detail


def answer(error: type[ServerError], detail: str) -> bytes:
    """The bytes of a refusal written before any route: JSON like the API's, the casino's
    security headers, and the connection closed."""
    body = json.dumps({"error": error.code, "detail": detail}).encode()
    lines = [
        STATUS_LINE[error.status],
        b"content-type: application/json\r\n",
        b"content-length: %d\r\n" % len(body),
        b"connection: close\r\n",
        *(name + b": " + value + b"\r\n" for name, value in SECURED),
        b"\r\n",
        body,
    ]
    return b"".join(lines)


class CasinoHttp(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol (httptools), with the head bounded and timed and the
    connection counted (:func:`protocols` gives each server its own :class:`Admission`)."""

    admission: ClassVar[Admission]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slot: str | None = None
        self.head_bytes = NOT_READING
        self.timer: asyncio.TimerHandle | None = None
        """The head's time, then the body's (one at a time)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.slot = self.admission.admit(self.client[0] if self.client else None)
        if self.slot is None:
            transport.close()
            self.report_refused()
            return
        self.head_bytes = 0
        self.timer = self.loop.call_later(HEAD_SECONDS, self.head_timed_out)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.slot is not None:
            self.admission.release(self.slot)
            self.slot = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.slot is None:  # refused: closing, nothing more is read
            return
        self._unset_keepalive_if_required()
        if self.head_bytes != NOT_READING:
            self.head_bytes += len(data)
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        except httptools.HttpParserError as error:
            refused = error.__context__
            if isinstance(refused, Refused):
                self.refuse(refused.error, refused.detail)
            else:
                self.refuse(MalformedRequest, "the request is not HTTP/1.1")
            return
        if self.head_bytes > MAX_HEAD:  # still arriving, and already too large
            self.refuse(HeadersTooLarge, f"the request's headers are over {MAX_HEAD} bytes")
        elif (
            self.timer is None
            and self.head_bytes == NOT_READING
            and self.cycle is not None
            and self.cycle.more_body
        ):  # a body still to come (one that came with its head costs no timer)
            self.timer = self.loop.call_later(BODY_SECONDS, self.body_timed_out)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.timer is None:  # the next request on a kept-alive connection
            self.timer = self.loop.call_later(HEAD_SECONDS, self.head_timed_out)

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > MAX_REQUEST_LINE:
            raise Refused(URLTooLong, f"the request's URL is over {MAX_REQUEST_LINE} bytes")

    def on_headers_complete(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.head_bytes = NOT_READING
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > MAX_HEAD:
            raise Refused(HeadersTooLarge, f"the request's headers are over {MAX_HEAD} bytes")
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        if self.timer is not None:  # the body's
            self.timer.cancel()
            self.timer = None
        self.head_bytes = 0

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        socket = self.transport.get_protocol()
        if isinstance(socket, CasinoWebSocket):  # it counts the connection from now on
            socket.handed(self.admission, self.slot)
            self.slot = None

    def send_400_response(self, msg: str) -> None:
        self.refuse(MalformedRequest, "the request is not HTTP/1.1")

    def refuse(self, error: type[ServerError], detail: str) -> None:
        """Answer ``error`` and close the connection, reading nothing more."""
        if not self.transport.is_closing():
            self.transport.write(answer(error, detail))
            self.transport.close()
            log.info("request refused", status=error.status, error=error.code)

    def report_refused(self) -> None:
        """Log the connections refused, at most every :data:`REPORT_EVERY` seconds: at once
        if the last report is that old, else when it will be (the loop's timer), so the
        last of a flood is logged too."""
        admission, loop = self.admission, self.loop
        due = admission.reported_at + REPORT_EVERY - loop.time()
        if due <= 0:
            admission.report(loop.time())
        elif admission.flush is None:
            admission.flush = loop.call_later(due, lambda: admission.report(loop.time()))

    def head_timed_out(self) -> None:
        self.timer = None
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.keep_alive = False  # a head pipelined behind an answer: close after it
        else:
            self.refuse(RequestTimeout, f"the request's head took over {HEAD_SECONDS:g} s")

    def body_timed_out(self) -> None:
        self.timer = None
        if self.cycle is not None and not self.cycle.response_started:
            self.refuse(RequestTimeout, f"the request's body took over {BODY_SECONDS:g} s")
        else:  # answered already (the Guard's 413): the rest would only be read and dropped
            self.transport.close()


class SecuredHandshake(ServerProtocol):
    """The WebSocket handshake (websockets' own): a refusal of it (400 for a malformed
    upgrade, 403, 500) carries the casino's security headers, like every other answer."""

    def send_response(self, response: Response) -> None:
        if response.status_code != 101:
            for name, value in SECURED:
                response.headers[name.decode()] = value.decode()
        super().send_response(response)


class CasinoWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, counting its connection until it closes (the HTTP
    protocol it was upgraded from hands it over), its handshake's refusals secured, and
    writing the frames the hub made once for every socket (the hub's ``FrameSink``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = SecuredHandshake(
            extensions=self.conn.available_extensions,
            max_size=self.config.ws_max_size,
            logger=self.conn.logger,
        )
        self.admission: Admission | None = None
        self.slot: str | None = None

    def handed(self, admission: Admission, slot: str | None) -> None:
        self.admission, self.slot = admission, slot

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        self.scope[SOCKET_FRAMES] = self  # type: ignore[literal-required]

    # --- the hub's FrameSink: frames made once for every socket ----------------------------

    def takes_frames(self) -> bool:
        return self.handshake_complete and not self.conn.extensions

    def write_now(self, data: bytes) -> bool:
        """Write ``data`` as uvicorn's ``send`` writes a frame, but now or not at all: not
        while the transport's buffer stands full (``False``), never to a socket that is
        closing or closed (:class:`ClientDisconnected`, as ``send`` raises)."""
        if self.disconnected or self.close_sent or self.conn.state is not State.OPEN:
            raise ClientDisconnected()
        if not self.writable.is_set():
            return False
        self.transport.write(data)
        return True

    def abort(self) -> None:
        self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.admission is not None and self.slot is not None:
            self.admission.release(self.slot)
            self.slot = None
        super().connection_lost(exc)


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """How uvicorn serves the casino, wherever it runs it (``baccara serve``, the tests):
    the casino's own protocols, bounded and counted, with one :class:`Admission` of its
    own; no per-message compression (table messages are a few hundred bytes, sent as the
    same frame to every socket, :data:`~baccara.server.cluster.hub.SOCKET_FRAMES` — per
    connection compression would cost more processor time than it saves in bytes); a
    client's messages at most :data:`MAX_WEBSOCKET_MESSAGE`; and a client's address from
    ``X-Forwarded-For`` only when one of the settings' proxies sent the request (a scrape
    address of the metrics, and every limit per address, is checked against it)."""
    admission = Admission(connection_limit(), MAX_CONNECTIONS_PER_ADDRESS, settings.proxy_networks)
    return {"http": protocols(admission), "ws": CasinoWebSocket, "ws_per_message_deflate": False,
            "ws_max_size": MAX_WEBSOCKET_MESSAGE, "proxy_headers": True,
            "forwarded_allow_ips": settings.forwarded_allow_ips}  # fmt: skip


def protocols(admission: Admission) -> type[CasinoHttp]:
    """The HTTP protocol class of one server, counting its connections in ``admission``
    (pass it as uvicorn's ``http``, with ``ws=CasinoWebSocket``)."""

    class Counted(CasinoHttp):
        pass

    Counted.admission = admission
    return Counted
