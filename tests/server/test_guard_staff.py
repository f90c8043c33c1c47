"""Nobody inside can defraud the casino: staff do not play.

A dealer who sits at their own live table, bets and then keys in the cards plays against
a house they deal for; an admin who credits their own wallet takes the house's money with
no one else to see it. Only players sit and bet, at every table and by every path (the
bet's own lane included), and an admin adjusts other users' wallets, never their own.
"""

from __future__ import annotations

import httpx
import pytest

from baccara.table.table import IDLE_ROUND_SECONDS, STOOD_UP_SECONDS
from tests.server.harness import Player, Server

REDGREEN = 2
"""The default electronic RedGreen table."""


def refused_as_staff(answer: httpx.Response) -> None:
    assert answer.status_code == 403, answer.text
    assert answer.json()["error"] == "staff_cannot_play"


@pytest.mark.parametrize("role", ["dealer", "admin"])
def test_staff_may_not_sit_at_a_live_or_an_electronic_table(server: Server, role: str) -> None:
    staff = server.player(role=role)
    live = server.live_table()
    if role == "dealer":
        server.assign(staff, live)
    for table_id in (live, REDGREEN):
        refused_as_staff(staff.sit(table_id))
        seats = staff.http.get(f"/api/tables/{table_id}").json()["seated"]
        assert staff.name not in seats.values()


@pytest.mark.parametrize("role", ["dealer", "admin"])
def test_staff_may_not_bet_and_their_wallet_is_untouched(server: Server, role: str) -> None:
    staff = server.player(role=role)
    before = staff.balance()
    for table_id in (server.live_table(), REDGREEN):
        refused_as_staff(staff.bet(table_id, "player" if table_id != REDGREEN else "red", 1000))
    assert staff.balance() == before


def test_a_player_promoted_to_dealer_at_their_own_table_can_no_longer_sit_or_bet(
    server: Server,
) -> None:
    """The attack as it was tried: promoted, assigned to a live table, sat, bet 50.00."""
    admin, dee = server.player(role="admin"), server.player()
    live = server.live_table()
    promoted = admin.http.put(f"/api/admin/users/{dee.name}/role",
                              json={"role": "dealer", "reason": "new hire"})  # fmt: skip
    assert promoted.status_code == 200, promoted.text
    dealer = server.sign_in(dee.name)
    server.assign(dealer, live)
    before = dealer.balance()
    refused_as_staff(dealer.sit(live))
    refused_as_staff(dealer.bet(live, "player", 5000))
    assert dealer.balance() == before


def test_a_seated_player_promoted_to_staff_can_no_longer_bet(server: Server) -> None:
    admin, ann = server.player(role="admin"), server.player()
    assert ann.sit(REDGREEN).status_code == 200
    assert ann.bet(REDGREEN, "red", 100).status_code == 201
    promoted = admin.http.put(f"/api/admin/users/{ann.name}/role",
                              json={"role": "admin", "reason": "runs the floor now"})  # fmt: skip
    assert promoted.status_code == 200, promoted.text
    now_admin = server.sign_in(ann.name)
    before = now_admin.balance()
    refused_as_staff(now_admin.bet(REDGREEN, "red", 100))
    assert now_admin.balance() == before


def test_a_player_still_sits_and_bets(server: Server) -> None:
    ann = server.player()
    assert ann.sit(REDGREEN).status_code == 200
    assert ann.bet(REDGREEN, "red", 100).status_code == 201


def adjust(admin: Player, name: str, cents: int) -> httpx.Response:
    return admin.http.post(f"/api/admin/wallets/{name}/adjust",
                           json={"amount_cents": cents, "reason": "goodwill"})  # fmt: skip


def test_an_admin_may_not_adjust_their_own_wallet(server: Server) -> None:
    admin = server.player(role="admin")
    before = admin.balance()
    answer = adjust(admin, admin.name, 1_000_000)
    assert answer.status_code == 403, answer.text
    assert answer.json()["error"] == "own_wallet"
    assert admin.balance() == before
    audit = admin.http.get("/api/admin/audit").json()
    assert not [e for e in audit if e["action"] == "wallet-credited"]


def test_an_admin_still_adjusts_another_users_wallet(server: Server) -> None:
    admin, ann = server.player(role="admin"), server.player()
    before = ann.balance()
    assert adjust(admin, ann.name, 500).status_code == 200
    assert ann.balance() == before + 500


MINI = 3
"""The default Mini RedGreen table: seven seats, a seat needed to bet."""


def test_a_stood_up_squatter_waits_before_sitting_again_and_the_seat_goes_to_another(
    sqlite_server: Server,
) -> None:
    """A squatter sits with no table page open and never bets: one round nobody played
    later the table stands them up. Sitting again at once (from the ``stood-up`` event) is
    refused for ``STOOD_UP_SECONDS``, so the honest player asking for a seat gets it."""
    server = sqlite_server
    squatter, honest = server.player(), server.player()
    assert squatter.sit(MINI).status_code == 200
    server.advance(IDLE_ROUND_SECONDS)
    seated = server.client().get(f"/api/tables/{MINI}").json()["seated"]
    assert squatter.name not in seated.values()  # stood up
    again = squatter.sit(MINI)
    assert again.status_code == 409 and again.json()["error"] == "seat", again.text
    assert "sit here again in" in again.json()["detail"]
    assert honest.sit(MINI).status_code == 200
    server.advance(STOOD_UP_SECONDS)
    assert squatter.sit(MINI).status_code == 200
