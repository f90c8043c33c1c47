"""Nobody inside can defraud the casino: voids and dealers.

A peeker and a member of staff working together would void the electronic hands the
peeker saw losing; a dealer would void the live hands their friends lose. So: no staff
void at an electronic table once betting has closed (the seeds fix the cards, and the
round is played out), closing a table mid-round plays its round out too, a live void
always has a reason and is counted against its dealer in the back office, and a dealer
acts only at the tables an admin has assigned to them.
"""

from __future__ import annotations

from typing import Any

from baccara.table.record import verify_record
from tests.server.books import check_books
from tests.server.harness import Player, Server

REDGREEN = 2
"""The default electronic RedGreen table, which offers the highest bettor a peek."""
NATURALS = [["9S", "2H", "KD", "3C"], ["9H", "2D", "KC", "3S"], ["9D", "2C", "KS", "3H"],
            ["9C", "2S", "KH", "3D"]]  # fmt: skip
"""Punto Banco coups a Player natural 9 wins against a Banker 5, no card drawn."""


def peeked_round(server: Server, ann: Player) -> int:
    """Ann bets on Red at the RedGreen table, betting closes on its timer, and she peeks."""
    ann.sit(REDGREEN)
    round_id = int(ann.http.get(f"/api/tables/{REDGREEN}").json()["round_id"])
    assert ann.bet(REDGREEN, "red", 1000).status_code == 201
    server.advance(server.settings.betting_seconds)
    assert ann.http.get(f"/api/rounds/{round_id}").json()["state"] == "peek"
    assert ann.http.get(f"/api/rounds/{round_id}/peek").status_code == 200
    return round_id


def test_no_one_voids_an_electronic_round_after_the_peek_not_even_an_admin(
    server: Server,
) -> None:
    admin, dealer, ann = server.player(role="admin"), server.player(role="dealer"), server.player()
    round_id = peeked_round(server, ann)
    refused = admin.http.post(f"/api/rounds/{round_id}/void", json={"reason": "malfunction"})
    assert refused.status_code == 409 and refused.json()["error"] == "void_refused"
    assert "played out" in refused.json()["detail"]
    by_dealer = dealer.http.post(f"/api/rounds/{round_id}/void", json={"reason": "malfunction"})
    assert by_dealer.status_code == 403
    assert ann.http.get(f"/api/rounds/{round_id}").json()["state"] == "peek"  # nothing changed
    server.play_out()
    settled = ann.http.get(f"/api/rounds/{round_id}").json()
    assert settled["state"] == "settled" and verify_record(settled).ok
    audit = admin.http.get("/api/admin/audit").json()
    assert not [e for e in audit if e["action"] == "round-voided"]
    check_books(server.settings.database_url)


def test_an_admin_may_void_an_electronic_round_while_betting_is_open(server: Server) -> None:
    admin, ann = server.player(role="admin"), server.player()
    ann.sit(REDGREEN)
    round_id = ann.http.get(f"/api/tables/{REDGREEN}").json()["round_id"]
    ann.bet(REDGREEN, "red", 1000)
    voided = admin.http.post(f"/api/rounds/{round_id}/void", json={"reason": "wrong limits"})
    assert voided.json() == {"state": "voided"}
    assert ann.balance() == server.settings.starting_balance_cents


def test_closing_an_electronic_table_mid_round_plays_its_round_out(server: Server) -> None:
    admin, ann = server.player(role="admin"), server.player()
    round_id = peeked_round(server, ann)
    assert admin.http.delete(f"/api/tables/{REDGREEN}").status_code == 204
    record = ann.http.get(f"/api/rounds/{round_id}").json()
    assert record["state"] == "settled"
    assert verify_record(record).ok  # the cards its seeds fixed, settled as they deal
    (bet,) = record["bets"]
    assert ann.balance() == server.settings.starting_balance_cents - 1000 + bet["payout_cents"]
    (closed,) = [e for e in admin.http.get("/api/admin/audit").json()
                 if e["action"] == "table-closed"]  # fmt: skip
    assert closed["details"]["round_played_out"] == round_id
    assert closed["details"]["round_voided"] is None
    check_books(server.settings.database_url)


def test_closing_an_electronic_table_open_for_bets_refunds_them(server: Server) -> None:
    admin, ann = server.player(role="admin"), server.player()
    ann.sit(REDGREEN)
    round_id = ann.http.get(f"/api/tables/{REDGREEN}").json()["round_id"]
    ann.bet(REDGREEN, "red", 1000)
    assert admin.http.delete(f"/api/tables/{REDGREEN}").status_code == 204
    assert ann.http.get(f"/api/rounds/{round_id}").json()["state"] == "voided"
    assert ann.balance() == server.settings.starting_balance_cents


def test_a_live_table_closes_only_once_its_dealer_has_finished_the_round(server: Server) -> None:
    admin, dealer, ann = server.player(role="admin"), server.player(role="dealer"), server.player()
    live = server.live_table()
    ann.sit(live)
    round_id = ann.http.get(f"/api/tables/{live}").json()["round_id"]
    ann.bet(live, "player", 1000)
    dealer.http.post(f"/api/tables/{live}/close-betting")
    dealer.http.post(f"/api/tables/{live}/cards", json={"cards": ["9S", "2H"]})
    refused = admin.http.delete(f"/api/tables/{live}")
    assert refused.status_code == 409 and refused.json()["error"] == "round_in_play"
    assert ann.http.get(f"/api/tables/{live}").status_code == 200  # still open
    dealer.http.post(f"/api/tables/{live}/cards", json={"cards": ["KD", "3C"]})
    assert ann.http.get(f"/api/rounds/{round_id}").json()["state"] == "settled"
    assert admin.http.delete(f"/api/tables/{live}").status_code == 204


def test_a_live_void_needs_a_reason(server: Server) -> None:
    dealer, ann = server.player(role="dealer"), server.player()
    live = server.live_table()
    ann.sit(live)
    round_id = ann.http.get(f"/api/tables/{live}").json()["round_id"]
    ann.bet(live, "player", 1000)
    dealer.http.post(f"/api/tables/{live}/close-betting")
    for body in ({}, {"reason": ""}, {"reason": "ab"}, {"reason": "    "}, {"reason": "x" * 501}):
        refused = dealer.http.post(f"/api/rounds/{round_id}/void", json=body)
        assert refused.status_code in (400, 422), (body, refused.text)
        assert ann.http.get(f"/api/rounds/{round_id}").json()["state"] == "dealing"
    voided = dealer.http.post(f"/api/rounds/{round_id}/void", json={"reason": " card flashed "})
    assert voided.json() == {"state": "voided"}
    assert ann.http.get(f"/api/rounds/{round_id}").json()["result"] == {"voided": "card flashed"}


def deal(dealer: Player, ann: Player, table: int, cards: list[str], void: str = "") -> int:
    """One live round: Ann's 10.00 on Player, then the dealer voids it or deals ``cards``."""
    round_id = int(ann.http.get(f"/api/tables/{table}").json()["round_id"])
    assert ann.bet(table, "player", 1000).status_code == 201
    assert dealer.http.post(f"/api/tables/{table}/close-betting").status_code == 200
    if void:
        answer = dealer.http.post(f"/api/rounds/{round_id}/void", json={"reason": void})
        assert answer.json() == {"state": "voided"}, answer.text
    else:
        answer = dealer.http.post(f"/api/tables/{table}/cards", json={"cards": cards})
        assert answer.json()["state"] == "settled", answer.text
    return round_id


def by_name(rows: list[dict[str, Any]], key: str) -> dict[Any, dict[str, Any]]:
    return {row[key]: row for row in rows}


def test_the_void_report_counts_voids_per_dealer_and_flags_the_one_far_above_the_others(
    server: Server,
) -> None:
    admin, ann = server.player(role="admin"), server.player()
    dee, dan, don = (server.player(role="dealer") for _ in range(3))
    live = server.live_table()
    ann.sit(live)
    voided = [deal(dee, ann, live, [], void="card flashed") for _ in range(3)]
    deal(dee, ann, live, NATURALS[0])
    for cards in NATURALS[1:3]:
        deal(dan, ann, live, cards)
    dropped = deal(dan, ann, live, [], void="shoe dropped")
    deal(dan, ann, live, NATURALS[3])
    for cards in NATURALS[:4]:
        deal(don, ann, live, cards)
    report = admin.http.get("/api/admin/voids", params={"min_rounds": 4})
    assert report.status_code == 200, report.text
    data = report.json()
    dealers = by_name(data["dealers"], "dealer")
    assert {name: (d["rounds"], d["voided"], d["voided_stakes_cents"]) for name, d in
            dealers.items()} == {dee.name: (4, 3, 3000), dan.name: (4, 1, 1000),
                                 don.name: (4, 0, 0)}  # fmt: skip
    assert dealers[dee.name]["void_share"] == 0.75
    assert dealers[dee.name]["peer_median_share"] == 0.125  # dan's 0.25 and don's 0.0
    assert [name for name, d in dealers.items() if d["flagged"]] == [dee.name]
    assert dealers[dee.name]["tables"] == [{"table_id": live, "rounds": 4, "voided": 3,
                                            "voided_stakes_cents": 3000, "void_share": 0.75}]  # fmt: skip
    (table,) = data["tables"]
    assert (table["table_id"], table["rounds"], table["voided"]) == (live, 12, 4)
    listed = data["voided_rounds"]
    assert [r["round_id"] for r in listed] == [dropped, *reversed(voided)]  # newest first
    assert {(r["dealer"], r["reason"], r["stakes_cents"]) for r in listed} == {
        (dee.name, "card flashed", 1000), (dan.name, "shoe dropped", 1000)}  # fmt: skip
    # too few rounds to compare, by the operator's rule: no one is flagged
    strict = admin.http.get("/api/admin/voids", params={"min_rounds": 5}).json()
    assert not any(d["flagged"] for d in strict["dealers"])
    assert ann.http.get("/api/admin/voids").status_code == 403
    assert dee.http.get("/api/admin/voids").status_code == 403


def test_a_dealer_acts_only_at_the_tables_an_admin_assigned(server: Server) -> None:
    admin, dealer, ann = server.player(role="admin"), server.player(role="dealer"), server.player()
    made = admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 100,
                                                "max_bet_cents": 10_000, "mode": "live"})  # fmt: skip
    other = made.json()["id"]
    ann.sit(other)
    round_id = ann.http.get(f"/api/tables/{other}").json()["round_id"]
    ann.bet(other, "player", 1000)
    for answer in (
        dealer.http.post(f"/api/tables/{other}/close-betting"),
        dealer.http.post(f"/api/tables/{other}/cards", json={"cards": ["9S"]}),
        dealer.http.post(f"/api/rounds/{round_id}/void", json={"reason": "card flashed"}),
        dealer.http.get(f"/api/tables/{other}/shoe"),
    ):
        assert answer.status_code == 403 and answer.json()["error"] == "not_assigned", answer.text
        assert f"not assigned to table {other}" in answer.json()["detail"]
    assert ann.http.get(f"/api/rounds/{round_id}").json()["state"] == "betting"
    live = server.live_table()
    roster = by_name(admin.http.get("/api/admin/dealers").json(), "username")
    assert roster[dealer.name]["tables"] == [live]
    path = f"/api/admin/dealers/{dealer.name}/tables"
    assigned = admin.http.put(path, json={"tables": [other], "reason": "evening shift"})
    assert assigned.json() == {"username": dealer.name, "tables": [other]}
    assert dealer.http.post(f"/api/tables/{other}/close-betting").json() == {"state": "dealing"}
    refused = dealer.http.post(f"/api/tables/{live}/close-betting")
    assert refused.status_code == 403 and refused.json()["error"] == "not_assigned"
    (entry,) = [e for e in admin.http.get("/api/admin/audit").json()
                if e["action"] == "dealer-assigned"]  # fmt: skip
    assert (entry["actor"], entry["target"], entry["reason"]) == (
        admin.name, f"user {dealer.name}", "evening shift")  # fmt: skip
    assert entry["details"] == {"before": [live], "tables": [other]}


def test_an_assignment_names_open_live_tables_and_a_dealer_or_changes_nothing(
    server: Server,
) -> None:
    admin, dealer, ann = server.player(role="admin"), server.player(role="dealer"), server.player()
    live = server.live_table()
    path = f"/api/admin/dealers/{dealer.name}/tables"
    for who, url, body, status in (
        (admin, path, {"tables": [live, 1]}, 400),  # table 1 is electronic
        (admin, path, {"tables": [live, 999]}, 400),
        (admin, path, {"tables": list(range(1, 102))}, 422),
        (admin, path, {"tables": ["5"]}, 422),
        (admin, f"/api/admin/dealers/{ann.name}/tables", {"tables": [live]}, 400),
        (admin, "/api/admin/dealers/nobody/tables", {"tables": [live]}, 404),
        (ann, path, {"tables": []}, 403),
        (dealer, path, {"tables": []}, 403),
    ):
        answer = who.http.put(url, json=body)
        assert answer.status_code == status, (body, answer.text)
    roster = by_name(admin.http.get("/api/admin/dealers").json(), "username")
    assert roster[dealer.name]["tables"] == [live]
    assert ann.name not in roster
