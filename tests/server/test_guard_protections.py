"""Protections that cannot be walked around, through the API on the casino's own clock.

A play session, the reality check and the time played are counted from bets, never from
an open WebSocket: betting through the API alone makes the check fall due on time, and
closing and reopening the table's socket does not start a fresh session. Lowering a
loss limit cancels a raise still waiting (10.00, then 500.00 waiting its day, then
1.00 leaves 1.00 for good), and a limit of 0.00 is taken only when confirmed.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import select

from baccara.server.clock import ManualClock
from baccara.server.db.database import Database
from baccara.server.db.models import PlaySession, User
from baccara.server.domain.responsible import IDLE_GAP
from tests.server.harness import Server, drain, receive

MINUTE = 60.0


def test_betting_through_the_api_alone_makes_the_reality_check_fall_due(
    server: Server, clock: ManualClock
) -> None:
    ann = server.player()
    ann.http.put("/api/me/reality-check", json={"minutes": 5})
    assert ann.bet(1, "banker", 1000).status_code == 201  # no socket is ever opened
    server.advance(3 * MINUTE)
    assert ann.bet(1, "player", 1000).status_code == 201
    assert ann.http.get("/api/me/protections").json()["reality_check_due"] is False
    server.advance(2 * MINUTE + 1)
    refused = ann.bet(1, "player", 1000)
    assert refused.status_code == 409 and refused.json()["error"] == "reality_check"
    mine = ann.http.get("/api/me/protections").json()
    assert mine["reality_check_due"] is True and mine["session"]["minutes"] >= 5
    assert ann.http.post("/api/me/reality-check/continue").status_code == 200
    assert ann.bet(1, "player", 1000).status_code == 201
    after = ann.http.get("/api/me/protections").json()["session"]
    assert after["reality_check_at"] == clock.now() + 5 * MINUTE  # the next, 5 minutes on


def test_reconnecting_the_table_socket_does_not_reset_the_check(server: Server) -> None:
    ann = server.player()
    ann.http.put("/api/me/reality-check", json={"minutes": 5})
    with server.ws(1, ann.token) as socket:
        receive(socket)
        assert ann.bet(1, "banker", 1000).status_code == 201
        server.advance(3 * MINUTE)
    with server.ws(1, ann.token) as socket:  # a reload, or a dropped connection come back
        assert receive(socket)["type"] == "snapshot"
        server.advance(2 * MINUTE + 1)
        message = receive(socket)
        while message["type"] != "reality-check":
            message = receive(socket)
        assert message["minutes"] >= 5
        refused = ann.bet(1, "player", 1000)
        assert refused.status_code == 409 and refused.json()["error"] == "reality_check"
        drain(socket)


def test_a_session_runs_from_the_first_bet_until_an_idle_gap(
    server: Server, clock: ManualClock
) -> None:
    ann = server.player()
    with server.ws(1, ann.token) as socket:  # watching a table is not playing
        receive(socket)
        server.advance(10 * MINUTE)
        mine = ann.http.get("/api/me/protections").json()
        assert mine["session"] is None and mine["time_played_today_seconds"] == 0
        first = clock.now()
        assert ann.bet(1, "banker", 1000).status_code == 201
        server.advance(12 * MINUTE)
        assert ann.bet(1, "banker", 1000).status_code == 201
        mine = ann.http.get("/api/me/protections").json()
        assert mine["session"]["started_at"] == first
        assert mine["session"]["last_bet_at"] == clock.now()
        assert mine["session"]["ends_at"] == clock.now() + IDLE_GAP
        drain(socket)
    server.advance(IDLE_GAP)  # no bet for the idle gap: the session is over
    mine = ann.http.get("/api/me/protections").json()
    assert mine["session"] is None
    played = mine["time_played_today_seconds"]
    since_midnight = clock.now() % 86_400
    assert played == min(12 * MINUTE, max(since_midnight - IDLE_GAP, 0))  # first bet to last
    again = clock.now()
    assert ann.bet(1, "banker", 1000).status_code == 201  # the next bet starts a new one
    assert ann.http.get("/api/me/protections").json()["session"]["started_at"] == again


def test_a_refused_bet_is_no_play(server: Server) -> None:
    ann = server.player()
    ann.http.put("/api/me/limits", json={"period": "day", "loss_limit_cents": 500})
    refused = ann.bet(1, "banker", 1000)
    assert refused.status_code == 409 and refused.json()["error"] == "loss_limit"
    assert ann.http.get("/api/me/protections").json()["session"] is None
    assert ann.bet(1, "banker", 400).status_code == 201  # the first bet taken starts it
    assert ann.http.get("/api/me/protections").json()["session"]["minutes"] == 0


def test_lowering_a_limit_cancels_the_raise_still_waiting(
    server: Server, clock: ManualClock
) -> None:
    ann = server.player()
    day = {"period": "day"}
    assert ann.http.put("/api/me/limits", json={**day, "loss_limit_cents": 1000}).status_code == 200
    raised = ann.http.put("/api/me/limits", json={**day, "loss_limit_cents": 50_000}).json()
    assert raised["in_force_cents"] == 1000 and raised["effective_at"] >= clock.now() + 86_400
    lowered = ann.http.put("/api/me/limits", json={**day, "loss_limit_cents": 100}).json()
    assert lowered == {
        "period": "day", "loss_limit_cents": 100, "effective_at": clock.now(),
        "in_force_cents": 100,
        "cancelled": {"loss_limit_cents": 50_000, "effective_at": raised["effective_at"]},
    }  # fmt: skip
    page = ann.http.get("/api/me/protections").json()["limits"]["day"]
    assert page["loss_limit_cents"] == 100 and page["pending"] is None
    server.advance(86_400 + 60)  # the day the raise would have come
    ann.sign_in_again()
    page = ann.http.get("/api/me/protections").json()["limits"]["day"]
    assert page["loss_limit_cents"] == 100 and page["pending"] is None
    refused = ann.bet(1, "banker", 200)
    assert refused.status_code == 409 and refused.json()["error"] == "loss_limit"


def test_a_raise_replaces_the_raise_waiting_and_waits_its_own_day(
    server: Server, clock: ManualClock
) -> None:
    ann = server.player()
    day = {"period": "day"}
    ann.http.put("/api/me/limits", json={**day, "loss_limit_cents": 1000})
    first = ann.http.put("/api/me/limits", json={**day, "loss_limit_cents": 50_000}).json()
    server.advance(3600)
    second = ann.http.put("/api/me/limits", json={**day, "loss_limit_cents": 20_000}).json()
    assert second["cancelled"] == {"loss_limit_cents": 50_000,
                                   "effective_at": first["effective_at"]}  # fmt: skip
    assert second["in_force_cents"] == 1000
    pending = ann.http.get("/api/me/protections").json()["limits"]["day"]["pending"]
    assert pending == {"loss_limit_cents": 20_000, "effective_at": clock.now() + 86_400}


def test_a_zero_limit_is_set_only_when_confirmed(server: Server) -> None:
    ann = server.player()
    asked = ann.http.put("/api/me/limits", json={"period": "week", "loss_limit_cents": 0})
    assert asked.status_code == 409 and asked.json()["error"] == "confirm"
    assert "24 hours" in asked.json()["detail"]
    page = ann.http.get("/api/me/protections").json()["limits"]["week"]
    assert page["loss_limit_cents"] is None and page["pending"] is None  # nothing changed
    assert ann.bet(1, "banker", 200).status_code == 201
    confirmed = ann.http.put("/api/me/limits", json={"period": "week", "loss_limit_cents": 0,
                                                     "confirm": True})  # fmt: skip
    assert confirmed.status_code == 200 and confirmed.json()["in_force_cents"] == 0
    refused = ann.bet(1, "banker", 200)
    assert refused.status_code == 409 and refused.json()["error"] == "loss_limit"
    # any other limit needs no confirmation
    assert (
        ann.http.put("/api/me/limits", json={"period": "day", "loss_limit_cents": 1}).status_code
        == 200
    )


def test_first_bets_at_two_tables_at_once_start_one_session(server: Server) -> None:
    """The session is in the database, shared by every process and every table's lock:
    two first bets racing at two tables begin one session between them, not two."""
    for _ in range(4):
        ann = server.player()
        assert ann.sit(2).status_code == 200  # RedGreen takes bets from its seats
        with ThreadPoolExecutor(2) as pool:
            placed = list(pool.map(ann.bet, (1, 2), ("banker", "red"), (1000, 1000)))
        assert [answer.status_code for answer in placed] == [201, 201], placed[1].text
        database = Database(server.settings.database_url)
        try:
            with database.read() as session:
                user = session.scalars(select(User).where(User.username == ann.name)).one()
                rows = session.scalars(select(PlaySession).where(PlaySession.user_id == user.id))
                assert len(rows.all()) == 1
        finally:
            database.dispose()
