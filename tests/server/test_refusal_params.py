"""A refusal that names amounts says them as money, and gives them as numbers too.

Each such answer carries ``params`` beside its code and detail: the figures it names, every
amount in integer cents, so a client words the refusal itself (the table page does) and
never has to read numbers back out of English. The detail says the same for a person,
amounts as money ("501.00", never "50100 cents"). Every refusal still changes nothing.
"""

from __future__ import annotations

from typing import Any

from tests.server.books import check_books
from tests.server.harness import Player, Server

PUNTO_BANCO = 1
"""The default electronic Punto Banco table: 1.00 to 500.00 a spot, a 0.20 step."""


def _limits(server: Server, table_id: int) -> tuple[int, int]:
    table = next(t for t in server.client().get("/api/tables").json() if t["id"] == table_id)
    return int(table["min_bet_cents"]), int(table["max_bet_cents"])


def _refused(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body: dict[str, Any] = answer.json()
    assert list(body) == ["error", "detail", "params"] and body["error"] == code
    return body


def _seated(server: Server) -> Player:
    ann = server.player()
    assert ann.sit(PUNTO_BANCO).status_code == 200
    return ann


def test_a_total_over_the_limit_names_the_amounts_as_money_and_as_cents(server: Server) -> None:
    low, high = _limits(server, PUNTO_BANCO)
    assert (low, high) == (100, 50_000)
    ann = _seated(server)
    assert ann.bet(PUNTO_BANCO, "banker", 50_000).status_code == 201
    before = ann.balance()
    body = _refused(ann.bet(PUNTO_BANCO, "banker", 100), 400, "over_limit")
    assert body["params"] == {"spot": "banker", "total_cents": 50_100, "min_cents": 100,
                              "max_cents": 50_000}  # fmt: skip
    assert (
        body["detail"]
        == "the total on Banker would be 501.00; this table takes 1.00 to 500.00 a spot"
    )
    assert "cents" not in body["detail"]
    assert ann.balance() == before
    check_books(server.settings.database_url)


def test_a_total_under_the_minimum_is_its_own_code(server: Server) -> None:
    ann = _seated(server)
    body = _refused(ann.bet(PUNTO_BANCO, "player-pair", 60), 400, "under_limit")
    assert body["params"] == {"spot": "player-pair", "total_cents": 60, "min_cents": 100,
                              "max_cents": 50_000}  # fmt: skip
    assert (
        body["detail"]
        == "the total on Player Pair would be 0.60; this table takes 1.00 to 500.00 a spot"
    )


def test_taking_back_a_bet_that_would_leave_too_little_names_what_would_be_left(
    server: Server,
) -> None:
    ann = _seated(server)
    first = ann.bet(PUNTO_BANCO, "banker", 500).json()["bet_id"]
    assert ann.bet(PUNTO_BANCO, "banker", 60).status_code == 201
    before = ann.balance()
    body = _refused(
        ann.http.delete(f"/api/tables/{PUNTO_BANCO}/bets/{first}"), 400, "under_minimum"
    )
    assert body["params"] == {"spot": "banker", "left_cents": 60, "min_cents": 100}
    assert body["detail"] == "that would leave 0.60 on Banker, under the table minimum of 1.00"
    assert ann.balance() == before


def test_a_stake_off_the_step_gives_the_stakes_that_are_on_it(server: Server) -> None:
    ann = _seated(server)
    body = _refused(ann.bet(PUNTO_BANCO, "banker", 110), 400, "bet_step")
    assert body["params"] == {"amount_cents": 110, "step_cents": 20, "lower_cents": 100,
                              "higher_cents": 120}  # fmt: skip
    assert (
        body["detail"]
        == "a stake of 1.10 is not a multiple of this table's bet step, 0.20: bet 1.00 or 1.20"
    )
    edge = _refused(ann.bet(PUNTO_BANCO, "banker", 50), 400, "under_limit")  # a limit comes first
    assert edge["params"]["total_cents"] == 50


def test_a_balance_too_short_names_the_balance_and_the_stake(server: Server) -> None:
    ann = _seated(server)
    assert ann.balance() == 100_000
    for spot in ("banker", "player"):  # the whole wallet, one spot's maximum at a time
        assert ann.bet(PUNTO_BANCO, spot, 50_000).status_code == 201
    body = _refused(ann.bet(PUNTO_BANCO, "tie", 1_000), 400, "insufficient_funds")
    assert body["params"] == {"balance_cents": 0, "needed_cents": 1_000}
    assert body["detail"] == "the balance is 0.00; 10.00 is needed"
    assert ann.balance() == 0
    check_books(server.settings.database_url)


def test_a_loss_limit_names_the_limit_and_the_room_left(server: Server) -> None:
    ann = _seated(server)
    limit = {"period": "day", "loss_limit_cents": 1_250}
    assert ann.http.put("/api/me/limits", json=limit).status_code == 200
    body = _refused(ann.bet(PUNTO_BANCO, "banker", 2_000), 409, "loss_limit")
    assert body["params"] == {"period": "day", "limit_cents": 1_250, "room_cents": 1_250}
    assert body["detail"].startswith("your day loss limit is 12.50: this bet could take you past")
    assert ann.balance() == 100_000


def test_a_refusal_without_figures_keeps_the_shape_it_had(server: Server) -> None:
    ann = _seated(server)
    answer = ann.bet(PUNTO_BANCO, "blue", 100)
    assert answer.status_code == 400
    assert list(answer.json()) == ["error", "detail"] and answer.json()["error"] == "invalid_bet"
