"""Crash recovery: the server process killed (SIGKILL) mid-round and started again.

As Ontario's internet gaming standard 4.21 asks: a round whose cards were fixed is
finished from its seed and log and settled; a live round waiting for cards waits for
the dealer again; a round still open for bets is voided and refunded. Nothing is
lost, nothing paid twice.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator

import httpx
import pytest

from tests.server.books import check_books
from tests.server.harness import PASSWORD, free_port, serve, wait_for

OPEN: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()


def _client(base: str, username: str) -> httpx.Client:
    token = httpx.post(f"{base}/api/auth/login",
                       json={"username": username, "password": PASSWORD}).json()["token"]  # fmt: skip
    client = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    OPEN.append(client)
    return client


def _player(base: str) -> httpx.Client:
    name = f"p{uuid.uuid4().hex[:8]}"
    httpx.post(f"{base}/api/auth/register", json={"username": name, "password": PASSWORD})
    return _client(base, name)


def _bet(client: httpx.Client, table: int, bet: str, cents: int) -> None:
    answer = client.post(f"/api/tables/{table}/bets", json={"bet": bet, "amount_cents": cents},
                         headers={"Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
    assert answer.status_code == 201, answer.text


def test_killed_while_revealing_the_round_is_finished_and_settled(database_url: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    flags = ("--reveal-delay-ms", "4000", "--betting-seconds", "1")
    with serve(database_url, port, *flags) as process:
        ann, bob = _player(base), _player(base)
        ann.post("/api/tables/1/seat", json={})
        bob.post("/api/tables/1/seat", json={})
        round_id = ann.get("/api/tables/1").json()["round_id"]
        _bet(ann, 1, "banker", 2000)
        _bet(bob, 1, "player", 3000)
        ann.post("/api/tables/1/deal")
        bob.post("/api/tables/1/deal")
        state = ann.get(f"/api/rounds/{round_id}").json()
        assert state["state"] == "revealing" and len(state["cards"]["player"]) == 1
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    with serve(database_url, port, *flags):
        settled = wait_for(lambda: (r := ann.get(f"/api/rounds/{round_id}").json())["state"]
                           == "settled" and r, timeout=60)  # fmt: skip
        paid = {b["bet"]: b["payout_cents"] for b in settled["bets"]}
        assert ann.get("/api/me").json()["balance_cents"] == 100_000 - 2000 + paid["banker"]
        assert bob.get("/api/me").json()["balance_cents"] == 100_000 - 3000 + paid["player"]
        from baccara.table.record import verify_record

        assert verify_record(settled).ok  # the cards are the ones its seeds fixed
    check_books(database_url)


def test_killed_while_betting_the_round_is_voided_and_refunded(sqlite_url: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(sqlite_url, port, "--betting-seconds", "600") as process:
        ann = _player(base)
        ann.post("/api/tables/2/seat", json={})
        round_id = ann.get("/api/tables/2").json()["round_id"]
        _bet(ann, 2, "red", 5000)
        assert ann.get("/api/me").json()["balance_cents"] == 95_000
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    with serve(sqlite_url, port):
        voided = ann.get(f"/api/rounds/{round_id}").json()
        assert voided["state"] == "voided" and "restarted" in voided["result"]["voided"]
        assert ann.get("/api/me").json()["balance_cents"] == 100_000
        assert ann.get("/api/tables/2").json()["round_id"] != round_id
    check_books(sqlite_url)


def test_killed_while_a_live_dealer_deals_the_round_waits_for_the_dealer(sqlite_url: str) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    for name, role in (("dee", "dealer"), ("ada", "admin")):
        subprocess.run([sys.executable, "-m", "baccara", "user", "add", name, "--role", role],
                       input=PASSWORD.encode(), env={**os.environ, "DATABASE_URL": sqlite_url},
                       check=True, capture_output=True)  # fmt: skip
    with serve(sqlite_url, port) as process:
        dealer = _client(base, "dee")
        ann = _player(base)
        live = next(t["id"] for t in ann.get("/api/tables").json() if t["mode"] == "live")
        _client(base, "ada").put("/api/admin/dealers/dee/tables", json={"tables": [live]})
        ann.post(f"/api/tables/{live}/seat", json={})
        round_id = ann.get(f"/api/tables/{live}").json()["round_id"]
        _bet(ann, 5, "player", 1000)
        dealer.post(f"/api/tables/{live}/close-betting")
        dealer.post(f"/api/tables/{live}/cards", json={"cards": ["9S", "2H"]})
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    with serve(sqlite_url, port):
        needs = wait_for(lambda: (n := dealer.get(f"/api/tables/{live}/needs").json()).get("state")
                         == "dealing" and n)  # fmt: skip
        assert [n["position"] for n in needs["needs"]] == ["player.1", "banker.1"]
        done = dealer.post(f"/api/tables/{live}/cards", json={"cards": ["KD", "3C"]})
        assert done.json()["state"] == "settled"
        assert ann.get(f"/api/rounds/{round_id}").json()["bets"][0]["payout_cents"] == 2000
    check_books(sqlite_url)


def test_user_add_refuses_a_bad_role_in_one_line(sqlite_url: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "baccara", "user", "add", "eve", "--role", "boss"],
        input=PASSWORD, text=True, capture_output=True,
        env={**os.environ, "DATABASE_URL": sqlite_url},
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip() == "baccara: error: role: one of admin, dealer, player, not 'boss'"


@pytest.mark.parametrize("password", ["short", ""])
def test_user_add_refuses_a_short_password(sqlite_url: str, password: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "baccara", "user", "add", "eve"], input=password + "\n", text=True,
        capture_output=True, env={**os.environ, "DATABASE_URL": sqlite_url},
    )  # fmt: skip
    assert result.returncode == 2 and "password: 8 to 128 characters" in result.stderr
