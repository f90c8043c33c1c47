"""Access rules and guard rails: who may see and do what, and what the server refuses.

Every way to learn a card before the rules expose it is tried — the round endpoint,
the WebSocket, the history, the peek by the wrong player, the server seed before the
round is over — and each must show nothing.
"""

from __future__ import annotations

import json

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
    assert (
        answer.status_code == 200
        and "cdn.jsdelivr.net" in answer.headers["content-security-policy"]
    )
