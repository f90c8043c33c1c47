"""The player's protections through the API, with the server's clock moved by the test.

UKGC's and Ontario's expectations, as issue 14 puts them: a loss limit over a rolling
period refuses a bet that could take the net loss past it (stakes at risk counted),
lowering applies at once, raising only after 24 hours; self-exclusion refuses every
bet and cannot be lifted early; a reality check every N minutes tells the player the
session's length and result and waits for them to continue.
"""

from __future__ import annotations

from typing import Any

import pytest

from baccara.server.clock import ManualClock
from tests.server.books import check_books
from tests.server.conftest import settings_for
from tests.server.harness import Server, drain, in_process, receive


def test_a_loss_limit_refuses_at_the_boundary_counting_stakes_at_risk(server: Server) -> None:
    ann = server.player()
    assert ann.http.put("/api/me/limits", json={"period": "day", "loss_limit_cents": 5000}).json()[
        "loss_limit_cents"] == 5000  # fmt: skip
    assert ann.bet(1, "banker", 3000).status_code == 201  # at risk: 30.00 of 50.00
    refused = ann.bet(1, "player", 2020)  # a multiple of the table's 0.20 step
    assert refused.status_code == 409 and refused.json()["error"] == "loss_limit"
    assert "20.00 of room is left" in refused.json()["detail"]
    assert ann.bet(1, "player", 2000).status_code == 201  # exactly at the limit
    assert ann.bet(1, "tie", 100).status_code == 409
    page = ann.http.get("/api/me/protections").json()
    assert page["limits"]["day"] == {"loss_limit_cents": 5000, "net_loss_cents": 5000,
                                     "room_cents": 0, "pending": None}  # fmt: skip


def test_lowering_applies_now_raising_after_a_day(server: Server, clock: ManualClock) -> None:
    ann = server.player()
    ann.http.put("/api/me/limits", json={"period": "week", "loss_limit_cents": 10_000})
    lowered = ann.http.put("/api/me/limits", json={"period": "week", "loss_limit_cents": 2000})
    assert lowered.json()["effective_at"] <= clock.now() + 1
    raised = ann.http.put("/api/me/limits", json={"period": "week", "loss_limit_cents": 50_000})
    assert raised.json()["effective_at"] >= clock.now() + 86_400 - 5
    page = ann.http.get("/api/me/protections").json()["limits"]["week"]
    assert page["loss_limit_cents"] == 2000 and page["pending"]["loss_limit_cents"] == 50_000
    assert ann.bet(1, "banker", 2500).status_code == 409  # still 20.00
    server.advance(86_400 + 10)
    ann.sign_in_again()
    assert (
        ann.http.get("/api/me/protections").json()["limits"]["week"]["loss_limit_cents"] == 50_000
    )
    assert ann.bet(1, "banker", 2500).status_code == 201
    removed = ann.http.put("/api/me/limits", json={"period": "week", "loss_limit_cents": None})
    assert removed.json()["effective_at"] >= clock.now() + 86_400 - 5


def test_a_rolling_day_forgets_what_is_older_than_a_day(server: Server, clock: ManualClock) -> None:
    ann = server.player()
    ann.sit(1)
    ann.http.put("/api/me/limits", json={"period": "day", "loss_limit_cents": 1000})
    ann.bet(1, "tie", 1000)
    ann.http.post("/api/tables/1/deal")
    server.idle()  # the round is dealt and settled
    assert ann.bet(1, "tie", 1000).status_code == 409 or ann.balance() > 99_000
    server.advance(86_400 + 60)
    ann.sign_in_again()
    assert ann.bet(1, "tie", 1000).status_code == 201


def test_self_exclusion_refuses_every_bet_and_seat_and_cannot_be_lifted(
    server: Server, clock: ManualClock
) -> None:
    ann = server.player()
    ann.bet(1, "banker", 1000)
    until = ann.http.post("/api/me/self-exclusion", json={"days": 30}).json()["excluded_until"]
    assert until == pytest.approx(clock.now() + 30 * 86_400, abs=5)
    refused = ann.bet(1, "banker", 1000)
    assert refused.status_code == 403 and refused.json()["error"] == "self_excluded"
    assert ann.sit(2).status_code == 403
    shorter = ann.http.post("/api/me/self-exclusion", json={"days": 1}).json()["excluded_until"]
    assert shorter == pytest.approx(until, abs=1)  # a shorter one does not shorten it
    assert ann.http.get("/api/me/history").status_code == 200  # history stays readable
    server.advance(30 * 86_400 + 60)
    ann.sign_in_again()
    assert ann.bet(1, "banker", 1000).status_code == 201
    check_books(server.settings.database_url)


def test_the_reality_check_tells_the_time_and_result_and_waits(
    sqlite_url: str, clock: ManualClock
) -> None:
    with in_process(settings_for(sqlite_url), clock) as server:
        ann = server.player()
        assert ann.http.put("/api/me/reality-check", json={"minutes": 5}).json() == {"minutes": 5}
        with server.ws(1, ann.token) as socket:
            assert receive(socket)["type"] == "snapshot"
            drain(socket)
            assert ann.http.get("/api/me/protections").json()["session"] is None  # no bet yet
            before = ann.balance()
            assert ann.bet(1, "banker", 1000).status_code == 201
            assert ann.http.get("/api/me/protections").json()["session"]
            receive(socket)  # the bet, on the table
            server.advance(5 * 60 + 1)  # the betting timer runs out too: the round deals
            message = receive(socket)
            while message["type"] != "reality-check":
                message = receive(socket)

            last: dict[str, Any] = ann.http.get("/api/me/history").json()[0]
            after = last["balance_after_cents"]
            assert after is not None  # the round is settled
            result = after - before
            assert ann.balance() == after and result in (-1000, 0, 950)  # loses, ties, wins
            # the check tells the net at the moment it fell due: the stake, or the result
            assert message["minutes"] >= 5 and message["net_cents"] in (-1000, result)
            blocked = ann.bet(1, "player", 1000)
            assert blocked.status_code == 409 and blocked.json()["error"] == "reality_check"
            ann.http.post("/api/me/reality-check/continue")
            assert ann.bet(1, "player", 1000).status_code == 201
        page = ann.http.get("/api/me/protections").json()
        # "Today" starts at midnight UTC: a session that began before it counts from then.
        since_midnight = clock.now() % 86_400
        played = min(5 * 60, since_midnight) - 5  # what the clock moved, less a little
        assert page["time_played_today_seconds"] >= played or page["session"] is None


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/me/limits", {"period": "year", "loss_limit_cents": 100}),
        ("/api/me/limits", {"period": "day", "loss_limit_cents": -1}),
        ("/api/me/limits", {"period": "day", "loss_limit_cents": 1.5}),
        ("/api/me/reality-check", {"minutes": 1}),
        ("/api/me/self-exclusion", {"days": 0}),
        ("/api/me/self-exclusion", {"days": "forever"}),
    ],
)
def test_bad_protection_requests(sqlite_server: Server, path: str, body: dict[str, object]) -> None:
    ann = sqlite_server.player()
    method = ann.http.post if path.endswith("exclusion") else ann.http.put
    answer = method(path, json=body)
    assert answer.status_code == 422 and answer.json()["error"] == "invalid_request"
    assert ann.http.get("/api/me/protections").json()["self_excluded_until"] is None
