"""The back office: the audit trail of every admin and dealer action, and wallet adjustments."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from baccara.server.db.database import Database
from tests.server.books import check_books
from tests.server.harness import Server


def test_every_admin_and_dealer_action_is_in_the_audit_trail(server: Server) -> None:
    admin = server.player(role="admin")
    dealer = server.player(role="dealer")
    ann = server.player()
    made = admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 100,
                                                "max_bet_cents": 10_000, "mode": "live"})  # fmt: skip
    table_id = made.json()["id"]
    server.assign(dealer, table_id)
    ann.sit(table_id)
    round_id = ann.http.get(f"/api/tables/{table_id}").json()["round_id"]
    ann.bet(table_id, "banker", 1000)
    dealer.http.post(f"/api/tables/{table_id}/close-betting")
    dealer.http.post(f"/api/tables/{table_id}/cards", json={"cards": ["9S"]})
    dealer.http.post(f"/api/rounds/{round_id}/void", json={"reason": "card flashed"})
    admin.http.post(f"/api/admin/wallets/{ann.name}/adjust",
                    json={"amount_cents": 2500, "reason": "goodwill credit"})  # fmt: skip
    admin.http.post(f"/api/admin/wallets/{ann.name}/adjust",
                    json={"amount_cents": -500, "reason": "correction"})  # fmt: skip
    assert admin.http.delete(f"/api/tables/{table_id}").status_code == 204
    trail = admin.http.get("/api/admin/audit").json()
    actions = [(e["action"], e["actor"]) for e in reversed(trail)]
    assert actions == [
        ("table-opened", admin.name),
        ("betting-closed", dealer.name),
        ("cards-entered", dealer.name),
        ("round-voided", dealer.name),
        ("wallet-credited", admin.name),
        ("wallet-debited", admin.name),
        ("table-closed", admin.name),
    ]
    voided = next(e for e in trail if e["action"] == "round-voided")
    assert voided["reason"] == "card flashed" and voided["target"] == f"round {round_id}"
    credited = next(e for e in trail if e["action"] == "wallet-credited")
    assert credited["details"]["amount_cents"] == 2500 and credited["reason"] == "goodwill credit"
    assert ann.http.get("/api/admin/audit").status_code == 403
    check_books(server.settings.database_url)


def test_the_audit_trail_cannot_be_rewritten(server: Server) -> None:
    admin, ann = server.player(role="admin"), server.player()
    credit = admin.http.post(f"/api/admin/wallets/{ann.name}/adjust",
                             json={"amount_cents": 100, "reason": "test credit"})  # fmt: skip
    assert credit.status_code == 200, credit.text  # a row in the trail to rewrite
    database = Database(server.settings.database_url)
    try:
        for statement in ("UPDATE audit_log SET reason = 'nothing'", "DELETE FROM audit_log"):
            with pytest.raises(DBAPIError, match="append-only"), database.engine.begin() as c:
                c.execute(text(statement))
    finally:
        database.dispose()


def test_wallet_adjustments_go_through_the_ledger(server: Server) -> None:
    admin = server.player(role="admin")
    ann = server.player()
    credit = admin.http.post(f"/api/admin/wallets/{ann.name}/adjust",
                             json={"amount_cents": 12_345, "reason": "promotion"})  # fmt: skip
    assert credit.json() == {"username": ann.name, "balance_cents": 112_345}
    too_much = admin.http.post(f"/api/admin/wallets/{ann.name}/adjust",
                               json={"amount_cents": -200_000, "reason": "error"})  # fmt: skip
    assert too_much.status_code == 400 and too_much.json()["error"] == "insufficient_funds"
    for body in ({"amount_cents": 0, "reason": "nothing"}, {"amount_cents": 5, "reason": ""},
                 {"amount_cents": 1.5, "reason": "half"}):  # fmt: skip
        assert admin.http.post(f"/api/admin/wallets/{ann.name}/adjust", json=body).status_code in (
            400, 422)  # fmt: skip
    missing = admin.http.post("/api/admin/wallets/nobody/adjust",
                              json={"amount_cents": 5, "reason": "nobody"})  # fmt: skip
    assert missing.status_code == 404
    assert ann.http.post(f"/api/admin/wallets/{ann.name}/adjust",
                         json={"amount_cents": 5, "reason": "myself"}).status_code == 403  # fmt: skip
    assert ann.balance() == 112_345
    check_books(server.settings.database_url)
