"""The back office's watch on dealers, in Chromium: each dealer's voids at the live tables
with the one far above the others flagged, the voided rounds with their reasons, and a
dealer assigned to a table through the page, who may deal there from then on."""

from __future__ import annotations

import pathlib
import re

from playwright.sync_api import Page, expect

from tests.server.harness import Player, Server
from tests.web.casino import money, shoot, sign_in, sign_out

NATURALS = [["9S", "2H", "KD", "3C"], ["9H", "2D", "KC", "3S"], ["9D", "2C", "KS", "3H"],
            ["9C", "2S", "KH", "3D"]]  # fmt: skip
"""Punto Banco coups a Player natural 9 wins against a Banker 5, no card drawn."""


def deal(dealer: Player, ann: Player, table: int, cards: list[str], void: str = "") -> None:
    """One live round: Ann's 10.00 on Player, then the dealer voids it or deals ``cards``."""
    round_id = ann.http.get(f"/api/tables/{table}").json()["round_id"]
    assert ann.bet(table, "player", 1000).status_code == 201
    assert dealer.http.post(f"/api/tables/{table}/close-betting").status_code == 200
    if void:
        answer = dealer.http.post(f"/api/rounds/{round_id}/void", json={"reason": void})
    else:
        answer = dealer.http.post(f"/api/tables/{table}/cards", json={"cards": cards})
    assert answer.status_code == 200, answer.text


def test_the_voids_per_dealer_and_a_dealer_assigned_through_the_page(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    admin, ann = casino.player(role="admin"), casino.player()
    dee, dan = casino.player(role="dealer"), casino.player(role="dealer")
    live = casino.live_table()
    ann.sit(live)
    for reason in ("card flashed", "card flashed", "shoe dropped"):
        deal(dee, ann, live, [], void=reason)
    deal(dee, ann, live, NATURALS[0])
    for cards in NATURALS[1:]:
        deal(dan, ann, live, cards)
    made = admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 100,
                                                "max_bet_cents": 10_000, "mode": "live"})  # fmt: skip
    other = made.json()["id"]

    sign_in(page, casino.url, admin.name)
    page.get_by_role("link", name="Dealers", exact=True).click()
    expect(page.get_by_role("heading", name="Dealers and voids")).to_be_visible()
    page.get_by_label("Compare from").fill("3")
    page.get_by_role("button", name="Show voids").click()
    flagged = page.locator(f'#void-dealers tr[data-dealer="{dee.name}"]')
    expect(flagged).to_have_class(re.compile(r"\bflagged\b"))
    expect(flagged.locator('[data-col="rounds"]')).to_have_text("4")
    expect(flagged.locator('[data-col="voided"]')).to_have_text("3")
    expect(flagged.locator('[data-col="share"]')).to_contain_text("75.0 %")
    expect(flagged.locator('[data-col="stakes"]')).to_have_text(money(3000))
    calm = page.locator(f'#void-dealers tr[data-dealer="{dan.name}"]')
    expect(calm).not_to_have_class(re.compile(r"\bflagged\b"))
    expect(calm.locator('[data-col="share"]')).to_have_text("0.0 %")
    expect(page.locator("#void-flags")).to_contain_text(f"{dee.name}: 3 of 4 rounds voided")
    rounds = page.locator("#void-rounds tbody tr")
    expect(rounds).to_have_count(3)
    expect(rounds.first).to_contain_text("shoe dropped")  # newest first
    expect(page.locator("#void-tables")).to_contain_text(f"Table {live}")
    shoot(page, screenshots, "dealers-voids")

    ann.sit(other)
    ann.bet(other, "player", 1000)
    refused = dan.http.post(f"/api/tables/{other}/close-betting")
    assert refused.status_code == 403 and refused.json()["error"] == "not_assigned"
    box = page.get_by_label(f"{dan.name} deals table {other}")
    expect(box).not_to_be_checked()
    expect(page.get_by_label(f"{dan.name} deals table {live}")).to_be_checked()
    box.check()
    page.get_by_role("button", name=f"Save {dan.name}'s tables").click()
    expect(page.locator("#roster-message")).to_have_text(
        f"{dan.name} now deals table {live}, table {other}.")  # fmt: skip
    assert dan.http.post(f"/api/tables/{other}/close-betting").json() == {"state": "dealing"}
    page.get_by_role("link", name="Audit", exact=True).click()
    entry = page.locator('#audit-trail tr[data-action="dealer-assigned"]').first
    expect(entry).to_contain_text(f"user {dan.name}")
    expect(entry.locator(".details")).to_have_text(
        f"before: table {live} · tables: table {live}, table {other}")  # fmt: skip

    sign_out(page)
    sign_in(page, casino.url, dan.name)
    expect(page.get_by_role("link", name="Dealers", exact=True)).to_be_hidden()
    page.goto(f"{casino.url}/admin/dealers")
    expect(page.get_by_role("heading", name="Admins only")).to_be_visible()
    assert dan.http.get("/api/admin/dealers").status_code == 403
