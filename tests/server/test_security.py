"""Access rules and guard rails: who may see and do what, and what the server refuses.

Every way to learn a card before the rules expose it is tried — the round endpoint,
the WebSocket, the history, the peek by the wrong player, the server seed before the
round is over — and each must show nothing.
"""

from __future__ import annotations

import asyncio
import json
import urllib.parse
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from baccara.server.cluster.leases import Holder
from baccara.server.db.database import Database
from baccara.server.db.models import User
from baccara.server.http.forward import Forwarder
from baccara.server.observe.metrics import Metrics
from tests.server.harness import PASSWORD, Server, drain, receive


def test_failed_sign_ins_are_limited_per_username_not_successes(sqlite_server: Server) -> None:
    ann = sqlite_server.player("ann")
    client = sqlite_server.client()
    for _ in range(5):
        wrong = client.post("/api/auth/login", json={"username": "ann", "password": "nope nope"})
        assert wrong.status_code == 401
    blocked = client.post("/api/auth/login", json={"username": "ann", "password": PASSWORD})
    assert blocked.status_code == 429 and blocked.json()["error"] == "too_many_attempts"
    other = sqlite_server.player("bob")  # another username from the same address signs in
    for _ in range(20):  # and successful sign-ins are never limited
        assert client.post("/api/auth/login",
                           json={"username": "bob", "password": PASSWORD}).status_code == 200  # fmt: skip
    assert other.balance() == ann.balance()


def test_failed_sign_ins_are_limited_per_address(sqlite_server: Server) -> None:
    client = sqlite_server.client()
    sqlite_server.casino.register("carol", PASSWORD)
    for number in range(50):
        client.post("/api/auth/login", json={"username": f"guess{number}", "password": "x" * 8})
    # Fifty failures from one address: every attempt from it waits, a right password too.
    blocked = client.post("/api/auth/login", json={"username": "carol", "password": PASSWORD})
    assert blocked.status_code == 429 and "address" in blocked.json()["detail"]


def test_request_bodies_are_bounded(sqlite_server: Server) -> None:
    ann = sqlite_server.player()
    big = {"bet": "banker", "amount_cents": 100, "pad": "x" * 70_000}
    answer = ann.http.post("/api/tables/1/bets", json=big, headers={"Idempotency-Key": "k"})
    assert answer.status_code == 413 and answer.json()["error"] == "too_large"

    def chunks():  # type: ignore[no-untyped-def]
        for _ in range(20):
            yield b"x" * 8_000

    streamed = ann.http.post("/api/tables/1/bets", content=chunks(),
                             headers={"Idempotency-Key": "k2", "Content-Type": "application/json"})  # fmt: skip
    assert streamed.status_code == 413
    assert ann.balance() == 100_000


def test_every_answer_carries_the_security_headers(sqlite_server: Server) -> None:
    client = sqlite_server.client()
    for path in ("/api/health", "/api/tables", "/api/me", "/openapi.json"):
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


def test_no_way_to_see_a_card_before_the_rules_expose_it(sqlite_server: Server) -> None:
    """A RedGreen round held in its peek: the other player tries everything."""
    high, low = sqlite_server.player(), sqlite_server.player()
    high.sit(2)
    low.sit(2)
    round_id = high.http.get("/api/tables/2").json()["round_id"]
    with sqlite_server.ws(2, low.token) as socket:
        receive(socket)
        low.bet(2, "green", 500)
        high.bet(2, "red", 5000)
        high.http.post("/api/tables/2/deal")
        low.http.post("/api/tables/2/deal")
        sqlite_server.idle()
        assert low.http.get(f"/api/rounds/{round_id}").json()["state"] == "peek"
        high.http.get(f"/api/rounds/{round_id}/peek")
        seen = low.http.get(f"/api/rounds/{round_id}").json()
        assert seen["cards"] == {"red": [], "green": []} and seen["server_seed"] is None
        history = low.http.get("/api/me/history").json()[0]
        texts = [json.dumps(seen), json.dumps(history)]
        messages = drain(socket)  # all the socket was sent up to the peek
        texts += [json.dumps(m) for m in messages]
        assert low.http.get(f"/api/rounds/{round_id}/peek").status_code == 403
        red = high.http.get(f"/api/rounds/{round_id}/peek").json()["cards"]
        events = [e for t in texts for e in json.loads(t).get("events", [])]
        assert all(e.get("item") is None for e in events if e["kind"] == "card-dealt")
        assert all(e.get("cards") is None for e in events if e["kind"] == "peeked")
        assert history["server_seed"] is None
        for text in texts:  # not one of the peeked cards anywhere the other player can look
            for card in red:
                assert f'"{card}"' not in text


def test_players_cannot_act_for_others(sqlite_server: Server) -> None:
    ann, bob = sqlite_server.player(), sqlite_server.player()
    ann.sit(1, 3)
    assert bob.http.delete("/api/tables/1/seat").status_code == 409  # bob has no seat to leave
    assert ann.http.get("/api/tables/1").json()["seated"] == {"3": ann.name}
    bet_id = ann.bet(1, "banker", 1000).json()["bet_id"]
    assert bob.http.delete(f"/api/tables/1/bets/{bet_id}").status_code == 400
    assert [r["round_id"] for r in bob.http.get("/api/me/history").json()] == []
    live = sqlite_server.live_table()
    for path in ("/api/admin/audit", "/api/admin/report", f"/api/tables/{live}/needs",
                 f"/api/tables/{live}/shoe"):  # fmt: skip
        assert ann.http.get(path).status_code in (403, 404), path


def test_docs_are_served_with_their_own_policy(sqlite_server: Server) -> None:
    answer = sqlite_server.client().get("/docs")
    policy = answer.headers["content-security-policy"]
    assert answer.status_code == 200 and "script-src 'self' 'sha256-" in policy
    assert "https:" not in policy


class _Cluster:
    """A casino in a cluster of two whose other process deals every table: what the
    forwarder would send it is recorded, never sent."""

    shared = True
    me = Holder("this-process", "http://10.0.0.1:8000")

    def __init__(self) -> None:
        self.sent: list[httpx.Request] = []
        self.client = httpx.AsyncClient(transport=httpx.MockTransport(self._answer))

    def _answer(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request)
        return httpx.Response(200, json={"answered": "by the holder"})

    def holder_of(self, table_id: int) -> Holder:
        return Holder("the-holder", "http://10.0.0.2:8000")

    def table_of_round(self, round_id: int) -> int:
        return 7

    def forget_holder(self, table_id: int) -> None:
        raise AssertionError("the holder is never out of reach here")


def _forwarded(path: str, raw_path: bytes, headers: list[tuple[bytes, bytes]] | None = None
               ) -> tuple[_Cluster, int, dict[str, str], bool]:  # fmt: skip
    """Send one request through the forwarder, as uvicorn hands it over (``path`` decoded,
    ``raw_path`` as sent): what it sent on, the status and body answered, and whether
    this process's own routes were asked."""
    cluster = _Cluster()
    casino = SimpleNamespace(cluster=cluster, tables={}, metrics=Metrics())
    asked_here = False

    async def routes(scope: Any, receive: Any, send: Any) -> None:
        nonlocal asked_here
        asked_here = True

    forwarder = Forwarder(routes, casino)  # type: ignore[arg-type]
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": raw_path,
             "query_string": b"", "headers": headers or [], "root_path": ""}  # fmt: skip
    answer: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        answer.append(message)

    async def go() -> None:
        await forwarder(scope, receive, send)
        await cluster.client.aclose()

    asyncio.run(go())
    status = answer[0]["status"] if answer else 0
    body = json.loads(answer[1]["body"]) if len(answer) > 1 else {}
    return cluster, status, body, asked_here


@pytest.mark.parametrize(
    "raw",
    [b"/api/tables/7/../../../metrics", b"/api/tables/7/%2e%2e/%2E%2E/%2e%2e/metrics",
     b"/api/tables/7/./bets", b"/api/rounds/3/%252e%252e/%252e%252e/%252e%252e/metrics",
     b"/api/tables/7/.%2e/.%2E/metrics"],
)  # fmt: skip
def test_a_path_with_dot_segments_is_never_forwarded(raw: bytes) -> None:
    """The holder would be asked for another path than the one sent (httpx removes dot
    segments): ``/api/tables/7/../../../metrics`` would read its /metrics from here."""
    cluster, status, body, asked_here = _forwarded(urllib.parse.unquote(raw.decode()), raw)
    assert cluster.sent == [] and not asked_here
    assert status == 404 and body == {"error": "http", "detail": "Not Found"}


def test_the_forwarder_passes_no_client_address_on() -> None:
    """The holder believes X-Forwarded-For from an address it trusts (a process on its own
    host): a client's own must not reach it through the forwarder."""
    headers = [(b"x-forwarded-for", b"10.0.0.7"), (b"forwarded", b"for=10.0.0.7"),
               (b"x-real-ip", b"10.0.0.7"), (b"authorization", b"Bearer abc")]  # fmt: skip
    cluster, status, body, asked_here = _forwarded("/api/tables/7/bets", b"/api/tables/7/bets",
                                                   headers)  # fmt: skip
    assert status == 200 and body == {"answered": "by the holder"} and not asked_here
    [request] = cluster.sent
    assert str(request.url) == "http://10.0.0.2:8000/api/tables/7/bets"
    for name in ("x-forwarded-for", "forwarded", "x-real-ip"):
        assert name not in request.headers
    assert request.headers["authorization"] == "Bearer abc"
    assert request.headers["x-baccara-forwarded"] == "this-process"


def test_a_database_error_never_carries_the_statements_parameters(sqlite_url: str) -> None:
    """An error's text reaches the log: never an idempotency key, a seed or a password's
    hash it was written with."""
    database = Database(sqlite_url)
    try:
        row = {"username": "ann", "password_hash": "hash-nobody-may-read", "role": "player",
               "created_at": 0.0}  # fmt: skip
        with database.write() as session:
            session.execute(insert(User), row)
        with pytest.raises(IntegrityError) as twice, database.write() as session:
            session.execute(insert(User), row)
        with pytest.raises(IntegrityError) as unknown, database.write() as session:
            session.execute(insert(User), {**row, "username": "bob", "role": "secret-role"})
    finally:
        database.engine.dispose()
    for error in (twice.value, unknown.value):
        assert "INSERT INTO users" in str(error)
        for secret in ("hash-nobody-may-read", "secret-role"):
            assert secret not in str(error) and secret not in repr(error)
