"""The back office in Chromium: the operator's report — each table's and each game's
figures as the API computes them, the table beyond ±3σ flagged, the chart drawn — for
an admin only; the audit trail, and a wallet adjusted through its form that lands in
the trail and in the player's balance, live at the table."""

from __future__ import annotations

import pathlib
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.server.harness import PASSWORD, Player, Server
from tests.web.casino import money, open_table, register, shoot, sign_in, sign_out
from tests.web.test_history import play_round

TIE = ["4H", "9C", "5D", "KS"]
"""Player 4 5 (9), Banker 9 K (9): a natural tie."""
NO_TIE = ["9S", "2H", "KD", "3C"]
"""Player 9 K (9), Banker 2 3 (5): a Player natural."""


@pytest.fixture
def player_page(other: Page) -> Page:
    return other


def live_round(dealer: Player, player: Player, table: int, bet: tuple[str, int],
               cards: list[str]) -> None:  # fmt: skip
    assert player.bet(table, *bet).status_code == 201
    dealer.http.post(f"/api/tables/{table}/close-betting")
    settled = dealer.http.post(f"/api/tables/{table}/cards", json={"cards": cards}).json()
    assert settled["state"] == "settled"


def z_text(z: float) -> str:
    return f"{'−' if z < 0 else '+'}{abs(z):.2f}"


def expect_figures(row: Any, figures: dict[str, Any]) -> None:
    """A row of the page's report says what the API's report says, as money."""
    expect(row.locator('[data-col="rounds"]')).to_have_text(str(figures["rounds"]))
    for column, key in (("handle", "handle_cents"), ("actual", "actual_win_cents"),
                        ("theoretical", "theoretical_win_cents"), ("sd", "sd_cents")):  # fmt: skip
        expect(row.locator(f'[data-col="{column}"]')).to_have_text(money(figures[key]))
    expect(row.locator('[data-col="z"]')).to_contain_text(z_text(figures["z"]))
    hold = f"{figures['hold_pct']:.2f} %".replace("-", "−")
    expect(row.locator('[data-col="hold"]')).to_have_text(hold)


def test_the_report_shows_each_table_and_the_chart_to_an_admin_only(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    admin, dealer = casino.player(role="admin"), casino.player(role="dealer")
    ann, bob, cy = casino.player(), casino.player(), casino.player()
    play_round(ann.http, 1, "banker", 2500)
    play_round(ann.http, 1, "player", 10_000)
    play_round(bob.http, 4, "main", 5000)
    live = casino.live_table()
    cy.sit(live)
    live_round(dealer, cy, live, ("banker", 2000), NO_TIE)
    for _ in range(2):  # two ties in a row on 10.00: beyond three standard deviations
        live_round(dealer, cy, live, ("tie", 1000), TIE)
    report = admin.http.get("/api/admin/report").json()
    assert [t["table_id"] for t in report["tables"]] == [1, 4, live]
    assert [t["table_id"] for t in report["tables"] if t["flagged"]] == [live]

    sign_in(page, casino.url, admin.name)
    page.get_by_role("link", name="Report", exact=True).click()
    expect(page.get_by_role("heading", name="Operator's report")).to_be_visible()
    rows = page.locator("#report-tables tbody tr")
    expect(rows).to_have_count(3)
    for figures in report["tables"]:
        row = page.locator(f'#report-tables tr[data-table-id="{figures["table_id"]}"]')
        expect_figures(row, figures)
        if figures["flagged"]:
            expect(row).to_have_class(re.compile(r"\bflagged\b"))
            expect(row.locator('[data-col="z"]')).to_contain_text("beyond ±3σ")
        else:
            expect(row).not_to_have_class(re.compile(r"\bflagged\b"))
    for figures in report["games"]:
        expect_figures(page.locator(f'#report-games tr[data-game="{figures["game"]}"]'), figures)
    expect_figures(page.locator("#report-games tfoot tr"), report["casino"])
    expect(page.locator("#report-flags")).to_contain_text("A table beyond ±3σ")
    expect(page.locator(f'#report-flags li[data-table-id="{live}"]')).to_contain_text(
        f"Table {live}"
    )

    # The chart: a row per table, the flagged one marked, its dot beyond the ±3σ band.
    chart = page.get_by_role("group", name=re.compile("^Actual win against theoretical win"))
    expect(chart.locator(".chart-row")).to_have_count(3)
    flagged = chart.locator(f'.chart-row[data-table-id="{live}"]')
    expect(flagged).to_have_class(re.compile(r"\bflagged\b"))
    expect(flagged).to_have_attribute("aria-label", re.compile(r"beyond ±3σ$"))
    dot = flagged.locator(".actual").bounding_box()
    band = flagged.locator(".band-3").bounding_box()
    assert dot and band and dot["x"] + dot["width"] / 2 < band["x"]  # the house lost: left of it
    calm = chart.locator('.chart-row[data-table-id="1"]')
    dot, band = calm.locator(".actual").bounding_box(), calm.locator(".band-3").bounding_box()
    assert dot and band and band["x"] < dot["x"] + dot["width"] / 2 < band["x"] + band["width"]

    # Another period: nothing was settled in it.
    page.get_by_label("From", exact=True).fill("2020-01-01")
    page.get_by_label("To", exact=True).fill("2020-01-31")
    page.get_by_role("button", name="Show report").click()
    expect(rows).to_have_text(["No round was settled in this period."])
    page.get_by_label("To", exact=True).fill("2019-12-31")
    page.get_by_role("button", name="Show report").click()
    expect(page.get_by_role("alert")).to_have_text("The first day must not be after the last.")
    page.goto(f"{casino.url}/admin/report")
    expect(rows).to_have_count(3)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / "web-report.png"), full_page=True, animations="disabled")
    shoot(page, screenshots, "report")

    # A player has no link to it, is told it is for admins, and the API refuses them.
    sign_out(page)
    register(page, casino.url)
    expect(page.get_by_role("link", name="My account")).to_be_visible()
    expect(page.get_by_role("link", name="Report", exact=True)).to_have_count(0)
    expect(page.get_by_role("link", name="Audit", exact=True)).to_have_count(0)
    page.goto(f"{casino.url}/admin/report")
    expect(page.get_by_role("heading", name="Admins only")).to_be_visible()
    expect(page.locator("#report-tables")).to_have_count(0)
    assert ann.http.get("/api/admin/report").status_code == 403
    assert ann.http.get("/api/admin/audit").status_code == 403


def test_a_wallet_adjusted_on_the_audit_page_is_in_the_trail_and_the_balance(
    casino: Server, page: Page, player_page: Page, screenshots: pathlib.Path
) -> None:
    admin = casino.player(role="admin")
    name = register(player_page, casino.url)
    open_table(player_page, 1, "Punto Banco")
    expect(player_page.get_by_label("Balance")).to_have_text("1,000.00")

    sign_in(page, casino.url, admin.name)
    page.get_by_role("link", name="Audit", exact=True).click()
    expect(page.get_by_role("heading", name="Audit trail and wallets")).to_be_visible()
    trail = page.locator("#audit-trail tbody tr")
    expect(trail).to_have_text(["Nothing yet: no admin or dealer has acted."])

    page.get_by_label("Username", exact=True).fill(name)
    page.get_by_label("Amount", exact=True).fill("25")
    page.get_by_label("Reason", exact=True).fill("Goodwill: a dropped connection")
    page.get_by_role("button", name="Adjust wallet").click()
    message = page.locator("#adjust-message")
    expect(message).to_have_text(f"Credited 25.00 to {name}: the balance is now 1,025.00.")
    expect(player_page.get_by_label("Balance")).to_have_text("1,025.00")  # live, at the table
    expect(trail).to_have_count(1)
    entry = trail.first
    expect(entry.locator(".actor")).to_have_text(admin.name)
    expect(entry.locator(".role")).to_have_text("admin")
    expect(entry.locator(".action")).to_have_text("Wallet credited")
    expect(entry.locator(".target")).to_have_text(f"user {name}")
    expect(entry.locator(".reason")).to_have_text("Goodwill: a dropped connection")
    expect(entry.locator(".details")).to_have_text("amount +25.00 · balance after 1,025.00")

    page.get_by_label("Username", exact=True).fill(name)
    page.get_by_label("Amount", exact=True).fill("-5.50")
    page.get_by_label("Reason", exact=True).fill("Correction of the credit")
    page.keyboard.press("Enter")
    expect(message).to_have_text(f"Debited 5.50 from {name}: the balance is now 1,019.50.")
    expect(player_page.get_by_label("Balance")).to_have_text("1,019.50")
    expect(trail).to_have_count(2)
    expect(trail.first.locator(".action")).to_have_text("Wallet debited")
    entries = casino.client(admin.token).get("/api/admin/audit").json()
    assert [(e["action"], e["details"]["amount_cents"]) for e in entries] == [
        ("wallet-debited", -550), ("wallet-credited", 2500)]  # fmt: skip
    player = casino.client(casino.client().post("/api/auth/login", json={
        "username": name, "password": PASSWORD}).json()["token"])  # fmt: skip
    assert player.get("/api/me").json()["balance_cents"] == 101_950

    # What the page cannot check, the server refuses, and the page says why.
    page.get_by_label("Username", exact=True).fill("nobody-here")
    page.get_by_label("Amount", exact=True).fill("10")
    page.get_by_label("Reason", exact=True).fill("A mistake")
    page.get_by_role("button", name="Adjust wallet").click()
    expect(message).to_have_text("no user 'nobody-here'")
    page.get_by_label("Amount", exact=True).fill("ten")
    page.get_by_role("button", name="Adjust wallet").click()
    expect(message).to_have_text("Enter an amount: 25.00 to credit, −25.00 to debit.")
    expect(trail).to_have_count(2)
    shoot(page, screenshots, "audit")
