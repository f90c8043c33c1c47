"""Live-dealer tables through the API: the dealer enters the cards, the server calls and pays.

Known cards from the issue: Player 9S KD, Banker 2H 3C — a Player natural 9 against 5.
"""

from __future__ import annotations

import pytest

from tests.server.books import check_books
from tests.server.conftest import settings_for
from tests.server.harness import ONE_DECK_SHOE, Server, in_process


def test_a_live_round_with_known_cards(server: Server) -> None:
    live = server.live_table()  # the default live Punto Banco table
    dealer = server.player(role="dealer")
    ann, bob = server.player(), server.player()
    ann.sit(live)
    bob.sit(live)
    round_id = ann.http.get(f"/api/tables/{live}").json()["round_id"]
    ann.bet(live, "player", 1000)
    bob.bet(live, "banker", 2000)
    assert dealer.http.post(f"/api/tables/{live}/close-betting").json() == {"state": "dealing"}
    needs = dealer.http.get(f"/api/tables/{live}/needs").json()["needs"]
    assert [n["position"] for n in needs] == ["player.0", "banker.0", "player.1", "banker.1"]
    two = dealer.http.post(f"/api/tables/{live}/cards", json={"cards": ["9S", "2H"]})
    assert two.json() == {"state": "dealing", "needs": [
        {"position": "player.1", "kind": "card"}, {"position": "banker.1", "kind": "card"}]}  # fmt: skip
    done = dealer.http.post(f"/api/tables/{live}/cards", json={"cards": ["KD", "3C"]})
    assert done.status_code == 200 and done.json()["needs"] == []
    settled = ann.http.get(f"/api/rounds/{round_id}").json()
    assert settled["state"] == "settled"
    assert settled["cards"] == {"player": ["9S", "KD"], "banker": ["2H", "3C"]}
    assert settled["result"]["winner"] == "player" and settled["result"]["natural"] is True
    paid = {b["username"]: b["payout_cents"] for b in settled["bets"]}
    assert paid == {ann.name: 2000, bob.name: 0}
    assert settled["server_seed"] is None  # a live round has no seed: a dealer dealt it
    check_books(server.settings.database_url)


def test_a_refused_card_changes_nothing(server: Server) -> None:
    live = server.live_table()  # the default live Punto Banco table
    dealer = server.player(role="dealer")
    ann = server.player()
    ann.sit(live)
    ann.bet(live, "player", 1000)
    dealer.http.post(f"/api/tables/{live}/close-betting")
    refused = dealer.http.post(f"/api/tables/{live}/cards", json={"cards": ["9S", "ZZ"]})
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_cards"
    assert "entry 2 ('ZZ') for banker.0" in refused.json()["detail"]
    needs = dealer.http.get(f"/api/tables/{live}/needs").json()["needs"]
    assert needs[0]["position"] == "player.0"  # the 9S of the refused request was not kept
    too_many = dealer.http.post(f"/api/tables/{live}/cards",
                                json={"cards": ["9S", "2H", "KD", "3C", "4D"]})  # fmt: skip
    assert too_many.status_code == 400 and "one too many" in too_many.json()["detail"]


def test_only_a_dealer_deals_and_voids(server: Server) -> None:
    live = server.live_table()  # the default live Punto Banco table
    ann = server.player()
    admin = server.player(role="admin")
    ann.sit(live)
    round_id = ann.http.get(f"/api/tables/{live}").json()["round_id"]
    ann.bet(live, "banker", 1000)
    for who in (ann, admin):
        assert who.http.post(f"/api/tables/{live}/close-betting").status_code == 403
        assert who.http.post(f"/api/tables/{live}/cards", json={"cards": ["AS"]}).status_code == 403
    assert ann.http.post(f"/api/rounds/{round_id}/void", json={"reason": "x"}).status_code == 403
    dealer = server.player(role="dealer")
    assert dealer.http.post("/api/tables/1/cards", json={"cards": ["AS"]}).status_code == 403


def test_a_misdeal_is_voided_and_every_bet_refunded(server: Server) -> None:
    live = server.live_table()  # the default live Punto Banco table
    dealer = server.player(role="dealer")
    ann = server.player()
    ann.sit(live)
    before = ann.balance()
    round_id = ann.http.get(f"/api/tables/{live}").json()["round_id"]
    ann.bet(live, "banker", 1000)
    ann.bet(live, "tie", 500)
    dealer.http.post(f"/api/tables/{live}/close-betting")
    dealer.http.post(f"/api/tables/{live}/cards", json={"cards": ["9S"]})
    empty = dealer.http.post(f"/api/rounds/{round_id}/void", json={"reason": "   "})
    assert empty.status_code == 400 and "say why the round is voided" in empty.json()["detail"]
    voided = dealer.http.post(f"/api/rounds/{round_id}/void",
                              json={"reason": "a card was exposed"})  # fmt: skip
    assert voided.json() == {"state": "voided"}
    record = ann.http.get(f"/api/rounds/{round_id}").json()
    assert record["result"] == {"voided": "a card was exposed"}
    assert all(b["payout_cents"] == b["amount_cents"] for b in record["bets"])
    assert ann.balance() == before
    check_books(server.settings.database_url)


def test_a_continuous_live_shoe_reports_its_exact_edges(server: Server) -> None:
    admin = server.player(role="admin")
    dealer = server.player(role="dealer")
    ann = server.player()
    made = admin.http.post("/api/tables", json=ONE_DECK_SHOE)
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    server.assign(dealer, table_id)
    assert ann.http.get(f"/api/tables/{table_id}/shoe").status_code == 403
    full = dealer.http.get(f"/api/tables/{table_id}/shoe").json()
    assert full["cards_left"] == 52
    ann.sit(table_id)
    ann.bet(table_id, "player", 500)
    dealer.http.post(f"/api/tables/{table_id}/close-betting")
    dealer.http.post(f"/api/tables/{table_id}/cards", json={"cards": ["9S", "2H", "KD", "3C"]})
    after = admin.http.get(f"/api/tables/{table_id}/shoe").json()
    assert after["cards_left"] == 48
    banker = next(b for b in after["bets"] if b["bet"] == "banker")
    assert banker["house_edge_exact"] != next(
        b for b in full["bets"] if b["bet"] == "banker")["house_edge_exact"]  # fmt: skip
    ann.bet(table_id, "player", 500)
    dealer.http.post(f"/api/tables/{table_id}/close-betting")
    again = dealer.http.post(f"/api/tables/{table_id}/cards", json={"cards": ["9S"]})
    assert again.status_code == 400 and "cannot hold another 9S" in again.json()["detail"]


def test_lo_ball_live_takes_tiles_and_dice(server: Server) -> None:
    admin = server.player(role="admin")
    dealer = server.player(role="dealer")
    ann = server.player()
    table_id = admin.http.post("/api/tables", json={"game": "lo-ball", "min_bet_cents": 100,
                               "max_bet_cents": 10_000, "mode": "live"}).json()["id"]  # fmt: skip
    server.assign(dealer, table_id)
    ann.sit(table_id)
    round_id = ann.http.get(f"/api/tables/{table_id}").json()["round_id"]
    ann.bet(table_id, "hi-card", 1000)
    dealer.http.post(f"/api/tables/{table_id}/close-betting")
    tiles = ["1-2", "2-3", "4-5", "1-1", "7-7", "3-6"]
    wrong = dealer.http.post(f"/api/tables/{table_id}/cards", json={"cards": [*tiles, "2-2"]})
    assert wrong.status_code == 400 and "a die under" in wrong.json()["detail"]
    ok = dealer.http.post(f"/api/tables/{table_id}/cards", json={"cards": tiles, "dice": [2, 3, 5]})
    assert ok.status_code == 200, ok.text
    server.idle()
    settled = ann.http.get(f"/api/rounds/{round_id}").json()
    assert settled["state"] == "settled"
    assert settled["cards"]["seats"] == {"1": ["1-1", "7-7", "3-6"]}
    assert settled["cards"]["dice"] == [2, 3, 5]
    assert settled["bets"][0]["payout_cents"] == 8000  # Hi-Card 7 to 1


@pytest.mark.parametrize("body", [{"cards": "9S"}, {"cards": [9]}, {"cards": []}, {"dice": ["x"]}])
def test_malformed_card_entries_are_refused(sqlite_server: Server, body: dict[str, object]) -> None:
    live = sqlite_server.live_table()  # the default live Punto Banco table
    dealer = sqlite_server.player(role="dealer")
    ann = sqlite_server.player()
    ann.sit(live)
    ann.bet(live, "player", 1000)
    dealer.http.post(f"/api/tables/{live}/close-betting")
    answer = dealer.http.post(f"/api/tables/{live}/cards", json=body)
    assert answer.status_code in (400, 422) and "error" in answer.json()
    assert dealer.http.get(f"/api/tables/{live}/needs").json()["needs"][0]["position"] == "player.0"


def test_a_continuous_shoe_comes_back_after_a_restart_without_the_cards_of_a_misdeal(
    sqlite_url: str,
) -> None:
    """The cards of a settled round and of a voided one (a misdeal: they are out of the
    shoe, as on the table) stay out of it when the server starts again."""
    with in_process(settings_for(sqlite_url)) as server:
        admin = server.player(role="admin")
        dealer = server.player(role="dealer")
        ann = server.player()
        table_id = admin.http.post("/api/tables", json=ONE_DECK_SHOE).json()["id"]
        server.assign(dealer, table_id)
        ann.sit(table_id)
        ann.bet(table_id, "player", 500)
        dealer.http.post(f"/api/tables/{table_id}/close-betting")
        dealer.http.post(f"/api/tables/{table_id}/cards", json={"cards": ["9S", "2H", "KD", "3C"]})
        round_id = ann.http.get(f"/api/tables/{table_id}").json()["round_id"]
        ann.bet(table_id, "player", 500)
        dealer.http.post(f"/api/tables/{table_id}/close-betting")
        dealer.http.post(f"/api/tables/{table_id}/cards", json={"cards": ["AS"]})
        voided = dealer.http.post(f"/api/rounds/{round_id}/void", json={"reason": "misdeal"})
        assert voided.json() == {"state": "voided"}
        before = dealer.http.get(f"/api/tables/{table_id}/shoe").json()
        assert before["cards_left"] == 47
    with in_process(settings_for(sqlite_url)) as again:
        dealer = again.sign_in(dealer.name)
        assert dealer.http.get(f"/api/tables/{table_id}/shoe").json() == before
        ann = again.sign_in(ann.name)
        ann.bet(table_id, "banker", 500)
        dealer.http.post(f"/api/tables/{table_id}/close-betting")
        refused = dealer.http.post(f"/api/tables/{table_id}/cards", json={"cards": ["AS"]})
        assert refused.status_code == 400 and "cannot hold another AS" in refused.json()["detail"]
