"""The bet's own lane answers exactly as the FastAPI route does.

Two casinos, one with the lane and one without, get the same requests in the same
order — good bets, replays, and every kind of malformed or refused bet — and must give
the same answers byte for byte (a new bet's random id aside), and end with the same
balances and the same bets on record.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

from baccara.server.http.betlane import BetLane
from tests.server.conftest import settings_for
from tests.server.harness import Server, in_process

GOOD = b'{"bet":"banker","amount_cents":100}'
JSON = {"content-type": "application/json"}
Request = tuple[str, str, dict[str, str], bytes | list[bytes]]
"""(method, path, headers, body); a body given as a list of pieces is sent chunked, with
no Content-Length."""
SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy",
                    "x-frame-options", "permissions-policy", "content-length")  # fmt: skip


def corpus(ann: str, bob: str) -> list[Request]:  # fmt: skip
    """(method, path, headers, body): each as a client might send it."""
    a = {**JSON, "authorization": f"Bearer {ann}"}
    b = {**JSON, "authorization": f"Bearer {bob}"}

    def bet(
        body: bytes | list[bytes], key: str = "k", who: dict[str, str] = a, table: str = "1"
    ) -> Request:
        return ("POST", f"/api/tables/{table}/bets", {**who, "idempotency-key": key}, body)

    return [
        bet(GOOD, "k1"),
        bet(GOOD, "k1"),  # a retry: the same answer
        bet(b'{"bet":"banker","amount_cents":200}', "k1"),  # the key reused: 409
        bet(b'{"bet":"player","amount_cents":250}', "k2", who=b),
        ("POST", "/api/tables/1/bets", {**JSON, "idempotency-key": "k3"}, GOOD),  # no token
        bet(GOOD, "k4", who={**JSON, "authorization": "Bearer"}),
        bet(GOOD, "k5", who={**JSON, "authorization": f"Basic {ann}"}),
        bet(GOOD, "k6", who={**JSON, "authorization": "Bearer forged.token"}),
        bet(GOOD, "k7", who={**JSON, "authorization": f"bearer {ann}"}),  # any case
        bet(b"{", "k8"),
        bet(b"[]", "k9"),
        bet(b"", "k10"),
        bet(b'{"bet":"banker","amount_cents":"100"}', "k11"),
        bet(b'{"bet":"banker","amount_cents":0}', "k12"),
        bet(b'{"bet":"banker","amount_cents":1.0}', "k13"),
        bet(b'{"bet":"banker","amount_cents":100,"extra":1}', "k14"),
        bet(b'{"bet":"blue","amount_cents":100}', "k15"),
        bet(b'{"bet":"banker","amount_cents":100000000000000000000000000000}', "k16"),
        bet(b'{"bet":"player","bet":"banker","amount_cents":300}', "k17"),
        bet(b'{"bet":"bank\\u0065r","amount_cents":300}', "k18"),
        bet(b'{"bet":"banker","amount_cents":99999999}', "k19"),  # over the table's limit
        bet(b'{"bet":"banker","amount_cents":50000}', "k20"),
        bet(b'{"bet":"banker","amount_cents":50000}', "k21"),  # more than is left
        bet(GOOD, "x" * 65),
        bet(GOOD, "tab\there"),
        bet(GOOD, ""),
        ("POST", "/api/tables/1/bets", a, GOOD),  # no Idempotency-Key
        (
            "POST",
            "/api/tables/1/bets",
            {**a, "content-type": "text/plain", "idempotency-key": "k22"},
            GOOD,
        ),
        (
            "POST",
            "/api/tables/1/bets",
            {**a, "idempotency-key": "k23", "content-type": "application/json; charset=utf-8"},
            GOOD,
        ),
        (
            "POST",
            "/api/tables/1/bets",
            {"authorization": f"Bearer {ann}", "idempotency-key": "k24"},
            GOOD,
        ),
        bet(GOOD, "k25", table="99"),  # no such table
        bet(GOOD, "k26", table="0"),
        bet(GOOD, "k27", table="01"),
        bet(GOOD, "k28", table="1234567890"),
        bet(GOOD, "k29", table="x"),
        bet(b'{"bet":"red","amount_cents":100}', "k30", table="2"),  # RedGreen needs a seat
        bet(b'{"bet":"red","amount_cents":100}', "k31", table="2", who=b),  # bob sits there
        ("PUT", "/api/tables/1/bets", {**a, "idempotency-key": "k32"}, GOOD),
        ("POST", "/api/tables/1/bets/", {**a, "idempotency-key": "k33"}, GOOD),
        bet([GOOD[:10], GOOD[10:]], "k34"),  # chunked: no declared length
        bet(b" " * (64 * 1024) + GOOD, "k35"),  # over the Guard's bound: 413
        ("GET", "/api/me", a, b""),
        ("GET", "/api/me", b, b""),
        ("GET", "/api/tables/1", a, b""),
    ]


def answers(server: Server, requests: list[Request]) -> list[tuple[int, str, Any]]:
    seen = []
    with server.client() as client:
        for method, path, headers, body in requests:
            content = iter(body) if isinstance(body, list) else body
            answer = client.request(method, path, headers=headers, content=content)
            text = answer.text
            if answer.headers.get("content-type") == "application/json":
                data = json.loads(text)
                if isinstance(data, dict) and "bet_id" in data:
                    data["bet_id"] = "…"  # random: the one difference allowed
                text = json.dumps(data, sort_keys=True)
            secured = tuple(answer.headers.get(name) for name in SECURITY_HEADERS)
            seen.append((answer.status_code, answer.headers.get("content-type", ""), text,
                         secured))  # fmt: skip
    return seen


def lane_of(server: Server) -> BetLane:
    lane = server.app.lane  # type: ignore[attr-defined]
    assert isinstance(lane, BetLane)
    return lane


def play(url: str, *, lane: bool) -> tuple[list[tuple[int, str, Any]], int]:
    with in_process(settings_for(url, betting_seconds=600, bet_lane=lane)) as server:
        ann, bob = server.player("ann"), server.player("bob")
        assert bob.sit(2, 1).status_code == 200
        seen = answers(server, corpus(ann.token, bob.token))
        return seen, lane_of(server).placed if lane else 0


def test_the_lane_answers_every_request_as_the_route_does(tmp_path: pathlib.Path) -> None:
    direct, _ = play(f"sqlite:///{tmp_path / 'route.db'}", lane=False)
    laned, placed = play(f"sqlite:///{tmp_path / 'lane.db'}", lane=True)
    assert placed >= 6  # the good bets did take the lane
    for request, (by_route, by_lane) in zip(
        corpus("ann-token", "bob-token"), zip(direct, laned, strict=True), strict=True
    ):
        assert by_lane == by_route, request
    assert {status for status, *_ in direct} >= {201, 400, 401, 404, 409, 413, 422}
