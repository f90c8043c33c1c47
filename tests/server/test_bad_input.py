"""Every malformed request: a 4xx with a JSON error saying what is wrong, and nothing changed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from baccara.server.clock import ManualClock
from tests.server.books import check_books
from tests.server.conftest import settings_for
from tests.server.harness import Player, Server, in_process


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One casino for every refusal that must change nothing: each case checks its own
    before and after, and a refusal that did change something would show in the cases
    that follow it as well (a casino started for each case cost most of this file's time)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('refusals') / 'casino.db'}"
    with in_process(settings_for(url)) as started:
        yield started


@pytest.fixture(scope="module")
def ann(shared: Server) -> Player:
    player = shared.player("ann")
    player.sit(2)
    return player


def _state(player: Player) -> tuple[int, int]:
    round_ = player.round_of(2)
    return player.balance(), len(round_["events"])


@pytest.mark.parametrize(
    ("path", "body", "status", "code", "message"),
    [
        ("/api/tables/99/bets", {"bet": "red", "amount_cents": 100}, 404, "not_found", "no open table 99"),
        ("/api/tables/2/bets", {"bet": "blue", "amount_cents": 100}, 400, "invalid_bet", "unknown bet 'blue'"),
        ("/api/tables/2/bets", {"bet": "red", "amount_cents": 0}, 422, "invalid_request", "amount_cents"),
        ("/api/tables/2/bets", {"bet": "red", "amount_cents": -100}, 422, "invalid_request", "amount_cents"),
        ("/api/tables/2/bets", {"bet": "red", "amount_cents": 10.5}, 422, "invalid_request", "amount_cents"),
        ("/api/tables/2/bets", {"bet": "red", "amount_cents": 100.0}, 422, "invalid_request", "amount_cents"),
        ("/api/tables/2/bets", {"bet": "red", "amount_cents": "100"}, 422, "invalid_request", "amount_cents"),
        ("/api/tables/2/bets", {"bet": "red", "amount_cents": 2**63}, 422, "invalid_request", "amount_cents"),
        ("/api/tables/2/bets", {"bet": "red", "amount_cents": 10**30}, 422, "invalid_request", "amount_cents"),
        ("/api/tables/2/bets", {"bet": "red", "amount_cents": 50_001}, 400, "over_limit", "this table takes 1.00 to 500.00 a spot"),
        ("/api/tables/2/bets", {"bet": "red", "amount_cents": 99}, 400, "under_limit", "this table takes 1.00"),
        ("/api/tables/2/bets", {"bet": "red"}, 422, "invalid_request", "amount_cents: Field required"),
        ("/api/tables/2/bets", {"bet": "red", "amount_cents": 100, "extra": 1}, 422, "invalid_request", "extra"),
        ("/api/tables/2/bets", [1, 2], 422, "invalid_request", ""),
        ("/api/tables/3/seat", {"seat": 99}, 409, "seat", "seats 1 to 7"),
        ("/api/tables/2/seat", {"seat": "one"}, 422, "invalid_request", "seat"),
        ("/api/tables", {"game": "faro", "min_bet_cents": 1, "max_bet_cents": 2}, 403, "forbidden", "admin"),
        ("/api/rounds/999999/choose", {"hand": "red"}, 404, "not_found", "no round 999999"),
    ],
)  # fmt: skip
def test_bad_requests_are_refused_and_change_nothing(
    ann: Player, path: str, body: Any, status: int, code: str, message: str
) -> None:
    before = _state(ann)
    answer = ann.http.post(path, json=body, headers={"Idempotency-Key": "k-" + str(time.time())})
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == code and message in answer.json()["detail"]
    assert _state(ann) == before


def test_a_body_that_is_not_json(ann: Player) -> None:
    answer = ann.http.post("/api/tables/2/bets", content=b"\xff{not json",
                           headers={"Content-Type": "application/json", "Idempotency-Key": "x"})  # fmt: skip
    assert answer.status_code == 400
    assert answer.json() == {"error": "http", "detail": "There was an error parsing the body"}


def test_a_bet_after_betting_closed(sqlite_server: Server) -> None:
    ann, bob = sqlite_server.player(), sqlite_server.player()
    dealer = sqlite_server.player(role="dealer")
    live = sqlite_server.live_table()
    for player in (ann, bob):
        player.sit(live)
    ann.bet(live, "player", 1000)
    dealer.http.post(f"/api/tables/{live}/close-betting")
    late = bob.bet(live, "banker", 1000)
    assert late.status_code == 409 and "betting is closed" in late.json()["detail"]
    assert bob.balance() == 100_000


def test_a_seat_taken_and_a_table_full(sqlite_server: Server) -> None:
    players = [sqlite_server.player() for _ in range(8)]
    assert players[0].sit(3, 7).json() == {"seat": 7}
    taken = players[1].sit(3, 7)
    assert taken.status_code == 409 and "seat 7 is taken" in taken.json()["detail"]
    for player in players[1:7]:
        assert player.sit(3).status_code == 200
    full = players[7].sit(3)
    assert full.status_code == 409 and "the table is full" in full.json()["detail"]


def test_another_players_bet_is_not_yours_to_take(patient_server: Server) -> None:
    ann, bob = patient_server.player(), patient_server.player()
    bet_id = ann.bet(1, "banker", 1000).json()["bet_id"]
    refused = bob.http.delete(f"/api/tables/1/bets/{bet_id}")
    assert refused.status_code == 400 and "no bet" in refused.json()["detail"]
    assert ann.balance() == 99_000 and bob.balance() == 100_000


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer"}, {"Authorization": "Bearer nonsense"},
     {"Authorization": "Basic YW5uOnB3"}, {"Authorization": "Bearer eyJpZCI6MX0.c2lnbmF0dXJl"}],
)  # fmt: skip
def test_no_token_or_a_forged_one(sqlite_server: Server, headers: dict[str, str]) -> None:
    client = sqlite_server.client()
    for method, path in (("GET", "/api/me"), ("GET", "/api/me/history"),
                         ("POST", "/api/tables/1/deal"), ("GET", "/api/rounds/1")):  # fmt: skip
        answer = client.request(method, path, headers=headers)
        assert answer.status_code == 401, (path, answer.text)
        assert answer.json()["error"] == "unauthorized"


def test_a_token_signed_with_another_key(sqlite_server: Server) -> None:
    from baccara.server.domain.accounts import Tokens

    forged = Tokens(b"k" * 32, 3600).issue(1, "ann", time.time())
    answer = sqlite_server.client(forged).get("/api/me")
    assert answer.status_code == 401 and "not one this casino signed" in answer.json()["detail"]


@pytest.fixture
def short_lived(sqlite_url: str, clock: ManualClock) -> Iterator[Server]:
    with in_process(settings_for(sqlite_url, token_hours=1.5 / 3600), clock) as started:
        yield started


def test_an_expired_token(short_lived: Server, clock: ManualClock) -> None:
    ann = short_lived.player()
    assert ann.http.get("/api/me").status_code == 200
    clock.advance(1.6)
    expired = ann.http.get("/api/me")
    assert expired.status_code == 401 and "expired" in expired.json()["detail"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"username": "ab", "password": "long enough"}, "username: 3 to 32"),
        ({"username": "ann smith", "password": "long enough"}, "username"),
        ({"username": "ann", "password": "short"}, "password: 8 to 128"),
        ({"username": "ann", "password": 12345678}, "password"),
        ({"username": "ann"}, "password"),
    ],
)
def test_registration_checks_names_and_passwords(
    shared: Server, body: dict[str, Any], message: str
) -> None:
    answer = shared.client().post("/api/auth/register", json=body)
    assert answer.status_code in (400, 422) and message in answer.json()["detail"]


def test_a_taken_username_and_a_wrong_password(sqlite_server: Server) -> None:
    sqlite_server.player("ann")
    again = sqlite_server.client().post("/api/auth/register",
                                        json={"username": "ann", "password": "another one"})  # fmt: skip
    assert again.status_code == 409
    wrong = sqlite_server.client().post("/api/auth/login",
                                        json={"username": "ann", "password": "not the one"})  # fmt: skip
    assert wrong.status_code == 401 and wrong.json()["detail"] == "wrong username or password"
    check_books(sqlite_server.settings.database_url)


def test_players_cannot_open_or_close_tables(sqlite_server: Server) -> None:
    ann = sqlite_server.player()
    assert ann.http.delete("/api/tables/1").status_code == 403
    body = {"game": "punto-banco", "min_bet_cents": 100, "max_bet_cents": 1000}
    assert ann.http.post("/api/tables", json=body).status_code == 403


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "faro", "min_bet_cents": 1, "max_bet_cents": 2}, "unknown game 'faro'"),
        ({"game": "punto-banco", "min_bet_cents": 500, "max_bet_cents": 100}, "at least the minimum"),
        ({"game": "punto-banco", "min_bet_cents": 1, "max_bet_cents": 2, "options": {"decks": 0}}, "decks"),
        ({"game": "punto-banco", "min_bet_cents": 1, "max_bet_cents": 2, "shoe": {"mode": "continuous"}}, "live tables"),
        ({"game": "lo-ball", "min_bet_cents": 1, "max_bet_cents": 2, "seats": 8}, "seats 1 to 7"),
    ],
)  # fmt: skip
def test_a_bad_table_is_refused(shared: Server, body: dict[str, Any], message: str) -> None:
    admin = shared.player(role="admin")
    answer = admin.http.post("/api/tables", json=body)
    assert answer.status_code in (400, 422) and message in answer.json()["detail"], answer.text
    assert len(admin.http.get("/api/tables").json()) == 6  # the default tables alone
