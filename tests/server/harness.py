"""Casino servers started by a test, and clients for them.

Most tests run the casino in their own process (:func:`in_process`): its event loop in a
thread, HTTP through httpx's ASGI transport, WebSockets as ASGI sessions, all without a
port, on a :class:`~baccara.server.clock.ManualClock` that only the test moves. A table's
timers run out when the test advances the clock, and :meth:`Server.idle` waits until the
casino has done all that the time it reads makes due, so nothing waits on a stopwatch.
The tests whose subject is a real server (a browser's pages, the schema run, crash
recovery) take :func:`running`, uvicorn in a thread on a free port, or :func:`serve`, a
``baccara serve`` process of its own.

Either way tests talk to it as any client would, and each server gets its own database
(a fresh SQLite file, or a fresh PostgreSQL database).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pathlib
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Coroutine, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import httpx
import uvicorn
from fastapi import FastAPI
from websockets.sync.client import connect

from baccara.server.app import create_app
from baccara.server.clock import ManualClock
from baccara.server.domain.runner import Runner
from baccara.server.http.transport import uvicorn_options
from baccara.server.settings import Settings
from baccara.table.round import Phase

PASSWORD = "correct horse battery"
IN_PROCESS = "http://testserver"
"""The address the in-process casino answers as (no port is opened)."""
WAIT_SECONDS = 30.0
"""How long an in-process call may take before the test fails instead of hanging."""

T = TypeVar("T")


def ticket_for(base: str, token: str) -> str:
    """A ticket from the casino at ``base`` that opens one table socket for ``token``'s
    holder (the socket's URL carries it, never the token)."""
    answer = httpx.post(f"{base}/api/ws-ticket", headers={"Authorization": f"Bearer {token}"},
                        timeout=30)  # fmt: skip
    assert answer.status_code == 200, answer.text
    return str(answer.json()["ticket"])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Socket(Protocol):
    """A table's WebSocket as the tests use it, in process or over the network."""

    def recv(self, timeout: float | None = None) -> str | bytes: ...

    def send(self, message: str) -> None: ...


@dataclass
class Server:
    url: str
    settings: Settings
    app: FastAPI
    loop: AppLoop | None = None
    """The event loop the casino runs on in this process (``None``: a real server)."""
    clock: ManualClock | None = None
    """The in-process casino's clock, which only the test moves."""
    clients: list[httpx.Client] = field(default_factory=list)

    @property
    def casino(self) -> Any:
        return self.app.state.casino

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        transport = None if self.loop is None else InProcessTransport(self.loop, self.app)
        client = httpx.Client(base_url=self.url, headers=headers, timeout=30, transport=transport)
        self.clients.append(client)
        return client

    def player(self, name: str | None = None, role: str = "player") -> Player:
        name = name or f"p{uuid.uuid4().hex[:10]}"
        if role == "player":
            made = self.client().post("/api/auth/register",
                                      json={"username": name, "password": PASSWORD})  # fmt: skip
            assert made.status_code == 201, made.text
        else:
            self.casino.register(name, PASSWORD, role)
            if role == "dealer":  # on the floor: at every live table open now
                assign_dealer(self.casino, name, live_table_ids(self.casino))
        return self.sign_in(name)

    def assign(self, dealer: Player, *table_ids: int) -> None:
        """Add tables to a dealer's assignment (as an admin's would, outside the audit trail:
        it sets a test up, it is not the action under test)."""
        assign_dealer(self.casino, dealer.name, table_ids)

    def sign_in(self, name: str) -> Player:
        """A user this casino's database already has (made before a restart)."""
        token = self.client().post("/api/auth/login",
                                   json={"username": name, "password": PASSWORD}).json()["token"]  # fmt: skip
        return Player(name, token, self.client(token), self)

    def ticket(self, token: str) -> str:
        """A ticket that opens one table socket for the holder of ``token``; a token the
        casino gives no ticket for is handed on as it is, and the socket refuses it."""
        if not token:
            return token
        client = self.client(token)
        answer = client.post("/api/ws-ticket")
        self.clients.remove(client)
        client.close()
        return str(answer.json()["ticket"]) if answer.status_code == 200 else token

    @contextlib.contextmanager
    def ws(self, table_id: int, token: str) -> Iterator[Socket]:
        path = f"/ws/tables/{table_id}?ticket={self.ticket(token)}"
        if self.loop is not None:
            with InProcessSocket(self.loop, self.app, path) as in_process:
                yield in_process
            return
        with connect(f"{self.url.replace('http', 'ws')}{path}", open_timeout=10) as real:
            yield real

    def live_table(self, game: str = "punto-banco") -> int:
        """The id of the first live table of ``game`` in the lobby (the default tables
        have one, after an electronic table of each game)."""
        tables = self.client().get("/api/tables").json()
        return int(next(t["id"] for t in tables if t["mode"] == "live" and t["game"] == game))

    def idle(self) -> None:
        """Wait until the in-process casino has done everything the time on its clock makes
        due: no table's tick under way, none whose deadline has come. What follows — a
        betting timer run out, a peek's end, a reveal's cards — has then happened."""
        loop = self._in_process()
        scheduler = self.casino.scheduler
        clock = self.clock
        assert clock is not None

        async def settled() -> None:
            while True:
                ticking = list(scheduler.ticking.values())
                if ticking:
                    await asyncio.gather(*ticking, return_exceptions=True)
                    continue
                now = clock.now()
                if not any((due := live.deadline()) is not None and due <= now
                           for live in list(scheduler.tables.values())):  # fmt: skip
                    return
                await asyncio.sleep(0)  # the scheduler's loop starts the ticks that are due

        loop.run(settled())

    def advance(self, seconds: float) -> None:
        """Move the in-process casino's clock on, and wait for what that makes due."""
        assert self.clock is not None, "a real server runs on the real clock"
        self.clock.advance(seconds)
        self.idle()

    def play_out(self) -> None:
        """Play out every round past betting (a peek, a choice, a reveal), moving the clock
        to each of its deadlines in turn as real time would run them out. At the end of a
        test the casino then stops as a real one does, with only rounds open for bets
        left to void."""
        assert self.clock is not None
        self.idle()
        for _ in range(1000):
            dealing = [due for live in list(self.casino.scheduler.tables.values())
                       if (round_ := live.table.round) is not None
                       and round_.phase is not Phase.BETTING
                       and (due := live.deadline()) is not None]  # fmt: skip
            if not dealing:
                return
            self.advance(max(0.0, min(dealing) - self.clock.now()))
        raise AssertionError("the rounds in play did not finish")

    def _in_process(self) -> AppLoop:
        assert self.loop is not None, "only a casino in this process can be waited on"
        return self.loop


def live_table_ids(casino: Any) -> list[int]:
    """The open live tables of an in-process or threaded casino."""
    from sqlalchemy import select

    from baccara.server.db.models import CasinoTable

    with casino.db.read() as session:
        return list(session.scalars(select(CasinoTable.id).where(
            CasinoTable.mode == "live", CasinoTable.status == "open")))  # fmt: skip


def assign_dealer(casino: Any, name: str, table_ids: Iterable[int]) -> None:
    """Put the dealer ``name`` on these tables (see :meth:`Server.assign`)."""
    from sqlalchemy import select

    from baccara.server.db.models import DealerTable, User

    with casino.db.write() as session:
        user_id = session.scalars(select(User.id).where(User.username == name)).one()
        for table_id in table_ids:
            if session.get(DealerTable, (user_id, table_id)) is None:
                session.add(DealerTable(user_id=user_id, table_id=table_id,
                                        assigned_at=casino.clock()))  # fmt: skip


@dataclass
class Player:
    name: str
    token: str
    http: httpx.Client
    server: Server

    def bet(self, table_id: int, bet: str, cents: int, key: str | None = None) -> httpx.Response:
        return self.http.post(f"/api/tables/{table_id}/bets", json={"bet": bet, "amount_cents": cents},
                              headers={"Idempotency-Key": key or uuid.uuid4().hex})  # fmt: skip

    def sit(self, table_id: int, seat: int | None = None) -> httpx.Response:
        return self.http.post(f"/api/tables/{table_id}/seat", json={"seat": seat})

    def sign_in_again(self) -> None:
        """A fresh token (after the test moved the clock past the old one's expiry)."""
        self.token = (
            self.server.client()
            .post("/api/auth/login", json={"username": self.name, "password": PASSWORD})
            .json()["token"]
        )
        self.http.headers["Authorization"] = f"Bearer {self.token}"

    def balance(self) -> int:
        return int(self.http.get("/api/me").json()["balance_cents"])

    def round_of(self, table_id: int) -> dict[str, Any]:
        round_id = self.http.get(f"/api/tables/{table_id}").json()["round_id"]
        return dict(self.http.get(f"/api/rounds/{round_id}").json())


ONE_DECK_SHOE = {
    "game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 10_000, "mode": "live",
    "options": {"decks": 1}, "shoe": {"mode": "continuous", "penetration": 0.75},
}  # fmt: skip
"""A live Punto Banco table dealt from one deck to a cut card: the shoe's edges move."""


class Clock:
    """A real server's clock, as a test moves it: real time plus an offset it can jump by."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class AppLoop:
    """An event loop in a thread of its own, where an in-process casino runs: the test's
    thread hands it coroutines and waits for their results, as a server's clients would
    wait for its answers."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True, name="casino")
        self.thread.start()

    def run(self, work: Coroutine[Any, Any, T], timeout: float = WAIT_SECONDS) -> T:
        future = asyncio.run_coroutine_threadsafe(work, self.loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise AssertionError(f"the casino did not answer within {timeout} s") from None

    def soon(self, callback: Any, *args: Any) -> None:
        self.loop.call_soon_threadsafe(callback, *args)

    def close(self) -> None:
        async def finish() -> None:
            here = asyncio.current_task()
            left = [task for task in asyncio.all_tasks() if task is not here]
            for task in left:
                task.cancel()
            await asyncio.gather(*left, return_exceptions=True)
            await self.loop.shutdown_asyncgens()
            await self.loop.shutdown_default_executor()

        try:
            self.run(finish())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=WAIT_SECONDS)
            self.loop.close()


class Recorded:
    """The application, keeping every exception it lets out: the client sees a 500, as
    from a real server, and the test fails at the end with the exception itself."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.errors: list[BaseException] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await self.app(scope, receive, send)
        except Exception as error:
            self.errors.append(error)
            raise


class _Pieces(httpx.AsyncByteStream):
    """A request's body in the pieces the client sent it in (a chunked body stays so)."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = pieces

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in self.pieces:
            yield piece


class InProcessTransport(httpx.BaseTransport):
    """httpx's ASGI transport for a synchronous client: each request runs on the casino's
    loop, and the client waits for the whole answer."""

    def __init__(self, loop: AppLoop, app: Any) -> None:
        self.loop = loop
        self.asgi = httpx.ASGITransport(app, raise_app_exceptions=False)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        stream = request.stream
        assert isinstance(stream, httpx.SyncByteStream)
        request.stream = _Pieces(list(stream))

        async def answer() -> tuple[int, httpx.Headers, bytes]:
            response = await self.asgi.handle_async_request(request)
            return response.status_code, response.headers, await response.aread()

        status, headers, body = self.loop.run(answer())
        return httpx.Response(status, headers=headers, stream=httpx.ByteStream(body))


class SocketClosed(Exception):
    """The casino closed the WebSocket (or refused it, closing it before accepting it)."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"closed with code {code}: {reason}")
        self.code, self.reason = code, reason


class InProcessSocket:
    """A WebSocket to the in-process casino: one ASGI session on its loop. ``recv`` waits
    for the casino's next message (a ``TimeoutError`` if none comes in ``timeout``), as
    the ``websockets`` client's does."""

    def __init__(self, loop: AppLoop, app: Any, path: str) -> None:
        self.loop, self.app = loop, app
        route, _, query = path.partition("?")
        self.scope = {
            "type": "websocket", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "scheme": "ws", "server": ("testserver", 80), "client": ("127.0.0.1", 50000),
            "root_path": "", "path": route, "raw_path": route.encode(),
            "query_string": query.encode(), "subprotocols": [], "state": {},
            "headers": [(b"host", b"testserver"), (b"connection", b"upgrade"),
                        (b"upgrade", b"websocket"), (b"sec-websocket-version", b"13"),
                        (b"sec-websocket-key", b"dGhlIHNhbXBsZSBub25jZQ==")],
        }  # fmt: skip
        self.received: queue.Queue[dict[str, Any] | None] = queue.Queue()
        """What the casino sent, in order; ``None`` once its session has ended."""
        self.inbox: asyncio.Queue[dict[str, Any]] | None = None
        self.session: asyncio.Task[None] | None = None
        self.closed: SocketClosed | None = None

    def __enter__(self) -> InProcessSocket:
        async def start() -> None:
            self.inbox = asyncio.Queue()
            self.inbox.put_nowait({"type": "websocket.connect"})
            self.session = asyncio.create_task(self.app(self.scope, self.inbox.get, self._send))
            self.session.add_done_callback(lambda _: self.received.put(None))

        self.loop.run(start())
        first = self._next(WAIT_SECONDS)
        if first["type"] != "websocket.accept":
            self.__exit__()
            raise SocketClosed(int(first.get("code", first.get("status", 1006))),
                               str(first.get("reason", "")))  # fmt: skip
        return self

    def __exit__(self, *exc: object) -> None:
        if self.inbox is not None:
            self.loop.soon(self.inbox.put_nowait, {"type": "websocket.disconnect", "code": 1000})
        if self.session is not None:
            session = self.session

            async def ended() -> None:
                await asyncio.wait({session})

            self.loop.run(ended())

    async def _send(self, message: dict[str, Any]) -> None:
        self.received.put(message)

    def _next(self, timeout: float | None) -> dict[str, Any]:
        if self.closed is not None:
            raise self.closed
        try:
            message = self.received.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no message from the casino in {timeout} s") from None
        if message is None:
            assert self.session is not None
            error = None if self.session.cancelled() else self.session.exception()
            if error is not None:
                raise error
            self.closed = SocketClosed(1006, "the casino ended the session without closing")
            raise self.closed
        if message["type"] == "websocket.close":
            self.closed = SocketClosed(int(message.get("code", 1000)), message.get("reason", ""))
            raise self.closed
        return message

    def recv(self, timeout: float | None = None) -> str | bytes:
        message = self._next(timeout)
        assert message["type"] == "websocket.send", message
        text: str | None = message.get("text")
        return text if text is not None else bytes(message["bytes"])

    def send(self, message: str) -> None:
        assert self.inbox is not None
        self.loop.soon(self.inbox.put_nowait, {"type": "websocket.receive", "text": message})


class Lifespan:
    """The ASGI lifespan of an application: its start-up and its shut-down, as a server
    runs them."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"},
                 "state": {}}  # fmt: skip
        self.task = asyncio.create_task(app(scope, self.inbox.get, self.outbox.put))

    async def _step(self, message: str) -> None:
        await self.inbox.put({"type": f"lifespan.{message}"})
        answer = asyncio.ensure_future(self.outbox.get())
        await asyncio.wait({answer, self.task}, return_when=asyncio.FIRST_COMPLETED)
        if not answer.done():
            answer.cancel()
            self.task.result()  # the application's own error, if it raised one
            raise RuntimeError(f"the application ended its lifespan at {message}")
        reply = answer.result()
        if reply["type"] != f"lifespan.{message}.complete":
            raise RuntimeError(f"{message} failed: {reply.get('message', '')}")

    async def startup(self) -> None:
        await self._step("startup")

    async def shutdown(self) -> None:
        await self._step("shutdown")
        await self.task


@contextlib.contextmanager
def in_process(settings: Settings, clock: ManualClock | None = None) -> Iterator[Server]:
    """The casino in this process on ``clock`` (a fresh :class:`ManualClock` if none),
    started and at the end stopped as a server starts and stops it."""
    clock = clock or ManualClock()
    app = create_app(settings, clock)
    recorded = Recorded(app)
    loop = AppLoop()
    try:
        lifespan: Lifespan = loop.run(_started(recorded))
        server = Server(IN_PROCESS, settings, app, loop, clock)
        try:
            yield server
            server.play_out()
        finally:
            for client in server.clients:
                client.close()
            loop.run(lifespan.shutdown(), timeout=WAIT_SECONDS * 2)
    finally:
        loop.close()
    if recorded.errors:
        raise recorded.errors[0]


async def _started(app: Any) -> Lifespan:
    lifespan = Lifespan(app)
    await lifespan.startup()
    return lifespan


class Uvicorn(uvicorn.Server):
    """uvicorn, saying when it has started to listen (or has given up)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.up = threading.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self.up.set()

    def serve_then_say(self) -> None:
        try:
            self.run()
        finally:
            self.up.set()  # it stopped, or never started: nobody waits any longer


@contextlib.contextmanager
def running(settings: Settings, clock: Clock | None = None) -> Iterator[Server]:
    """The casino behind uvicorn in a thread, on a free port: for the tests whose subject
    is a real server (a browser, the schema run over HTTP)."""
    port = free_port()
    app = create_app(settings, clock)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="on",
        **uvicorn_options(settings),
    )  # as serve runs it
    server = Uvicorn(config)
    thread = threading.Thread(target=server.serve_then_say, daemon=True)
    thread.start()
    if not server.up.wait(timeout=30) or not server.started:
        raise RuntimeError("the casino server did not start")
    running_server = Server(f"http://127.0.0.1:{port}", settings, app)
    try:
        yield running_server
    finally:
        for client in running_server.clients:
            client.close()
        server.should_exit = True
        # A graceful stop waits up to STOP_SECONDS for a round whose cards are fixed to play
        # out on its timers (a Mini RedGreen choice and then its squeeze take longer than
        # that when nobody is left to make them): the wait is the casino's, not a hang.
        stop_within = Runner.STOP_SECONDS + 30
        thread.join(timeout=stop_within)
        assert not thread.is_alive(), f"the casino server did not stop within {stop_within} s"


def fresh_sqlite(template: pathlib.Path, folder: pathlib.Path) -> str:
    """A new casino's SQLite database in ``folder``: a copy of ``template``, a database
    already at the newest migration, as the casino would have migrated an empty one (a
    copy takes a millisecond, the migrations a third of a second)."""
    shutil.copyfile(template, folder / "casino.db")
    return f"sqlite:///{folder / 'casino.db'}"


def wait_for(predicate: Any, timeout: float = 45.0, every: float = 0.02) -> Any:
    """Poll ``predicate`` until it returns something truthy: for a real server in a process
    of its own, whose insides a test cannot wait on (in process, :meth:`Server.idle`)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(every)


def receive(ws: Socket, timeout: float = 10.0) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


def drain(ws: Socket) -> list[dict[str, Any]]:
    """Every message the casino has queued for ``ws`` so far: a ping goes behind them, and
    they are what arrives before its pong."""
    ws.send("ping")
    messages = []
    while (message := receive(ws))["type"] != "pong":
        messages.append(message)
    return messages


@contextlib.contextmanager
def serve(
    url: str, port: int, *flags: str, log: pathlib.Path | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """``baccara serve`` as its own process on ``url``: up once it answers; killed at the end
    if the test has not stopped it. Its standard error goes to ``log`` (or a temporary
    file), never to a pipe nobody reads, which a server logging much would fill and hang on."""
    with contextlib.ExitStack() as stack:
        if log is not None:
            err = stack.enter_context(log.open("a+b"))
        else:
            err = stack.enter_context(tempfile.TemporaryFile())
        process = subprocess.Popen(
            [sys.executable, "-m", "baccara", "serve", "--port", str(port), *flags],
            env={**os.environ, "DATABASE_URL": url},
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        try:
            wait_for(lambda: is_up(port) or process.poll() is not None, timeout=60, every=0.1)
            if process.poll() is not None:
                err.seek(0)
                raise AssertionError(err.read().decode(errors="replace"))
            yield process
        finally:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)


def is_up(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False
