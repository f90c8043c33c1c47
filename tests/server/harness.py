"""A casino server started by a test: uvicorn in a thread on a free port, and clients for it.

Tests talk to it as any client would: HTTP with httpx, WebSockets with the
``websockets`` library. Each server gets its own database (a fresh SQLite file, or a
fresh PostgreSQL database).
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from baccara.server.app import create_app
from baccara.server.settings import Settings

PASSWORD = "correct horse battery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    url: str
    settings: Settings
    thread: threading.Thread
    server: uvicorn.Server
    clients: list[httpx.Client] = field(default_factory=list)

    @property
    def casino(self) -> Any:
        return self.server.config.app.state.casino  # type: ignore[union-attr]

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        client = httpx.Client(base_url=self.url, headers=headers, timeout=30)
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
        return self.sign_in(name)

    def sign_in(self, name: str) -> Player:
        """A user this casino's database already has (made before a restart)."""
        token = self.client().post("/api/auth/login",
                                   json={"username": name, "password": PASSWORD}).json()["token"]  # fmt: skip
        return Player(name, token, self.client(token), self)

    @contextlib.contextmanager
    def ws(self, table_id: int, token: str) -> Iterator[ClientConnection]:
        url = f"{self.url.replace('http', 'ws')}/ws/tables/{table_id}?token={token}"
        with connect(url, open_timeout=10) as socket:
            yield socket


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
    """The server's clock, as a test moves it: real time plus an offset it can jump by."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@contextlib.contextmanager
def running(settings: Settings, clock: Clock | None = None) -> Iterator[Server]:
    port = free_port()
    app = create_app(settings, clock)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the casino server did not start")
        time.sleep(0.02)
    running_server = Server(f"http://127.0.0.1:{port}", settings, thread, server)
    try:
        yield running_server
    finally:
        for client in running_server.clients:
            client.close()
        server.should_exit = True
        thread.join(timeout=30)
        assert not thread.is_alive(), "the casino server did not stop within 30 s"


def wait_for(predicate: Any, timeout: float = 45.0, every: float = 0.02) -> Any:
    """Poll ``predicate`` until it returns something truthy (a test helper, not the browser)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(every)


def receive(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return message


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
