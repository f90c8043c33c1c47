"""The account page in Chromium, for the protections a player cannot walk around: a loss
limit of 0.00 is asked about before it is sent (it stops all play, and lifting it waits
24 hours), and lowering a limit says that the raise still waiting is cancelled and what
applies from now; the session shown is the one bets started, not an open table."""

from __future__ import annotations

import pathlib

from playwright.sync_api import Page, expect

from tests.server.harness import Server
from tests.web.casino import register, shoot, token


def open_account(page: Page) -> None:
    page.get_by_role("link", name="My account").click()
    expect(page.get_by_role("heading", name="My account: limits and breaks")).to_be_visible()
    expect(page.locator('tr[data-period="day"] .limit')).to_have_text("none")


def save_limit(page: Page, amount: str) -> None:
    page.get_by_label("Loss limit", exact=True).fill(amount)
    page.get_by_role("button", name="Save limit").click()


def test_a_zero_limit_is_asked_about_before_it_is_set(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, casino.url)
    open_account(page)
    http = casino.client(token(page))
    page.get_by_label("Period").select_option("week")

    save_limit(page, "0.00")
    dialog = page.get_by_role("dialog", name="Set a weekly loss limit of 0.00?")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Raising or removing it again waits 24 hours.")
    shoot(page, screenshots, "zero-limit-confirm")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#limit-message")).to_have_text(
        "Nothing changed: your weekly limit is as it was."
    )
    assert http.get("/api/me/protections").json()["limits"]["week"]["loss_limit_cents"] is None

    save_limit(page, "0")
    page.keyboard.press("Escape")  # a second thought, again: nothing is sent
    expect(dialog).to_have_count(0)
    assert http.get("/api/me/protections").json()["limits"]["week"]["loss_limit_cents"] is None

    save_limit(page, "0")
    dialog.get_by_role("button", name="Yes, set 0.00").click()
    expect(page.locator("#limit-message")).to_have_text(
        "Your weekly loss limit is 0.00 from now: no bets until you raise it, which waits 24 hours."
    )
    expect(page.locator('tr[data-period="week"] .limit')).to_have_text("0.00")
    assert http.get("/api/me/protections").json()["limits"]["week"]["loss_limit_cents"] == 0
    refused = http.post("/api/tables/1/bets", json={"bet": "banker", "amount_cents": 200},
                        headers={"Idempotency-Key": "zero-limit-bet"})  # fmt: skip
    assert refused.status_code == 409 and refused.json()["error"] == "loss_limit"


def test_lowering_a_limit_shows_the_raise_waiting_cancelled(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, casino.url)
    open_account(page)
    day = page.locator('tr[data-period="day"]')
    save_limit(page, "10.00")
    expect(day.locator(".limit")).to_have_text("10.00")
    save_limit(page, "500.00")
    expect(page.locator("#limit-message")).to_contain_text(
        "Raising a limit waits 24 hours: your daily limit becomes 500.00 on "
    )
    expect(page.locator("#limit-message")).to_contain_text(
        "Until then your daily limit stays 10.00."
    )
    expect(day.locator(".pending")).to_contain_text("500.00 from ")
    waiting = day.locator(".pending").inner_text()

    save_limit(page, "1.00")
    message = page.locator("#limit-message")
    expect(message).to_contain_text(
        "Lowering a limit applies at once: your daily loss limit is now 1.00."
    )
    expect(message).to_contain_text(f"The change that was waiting ({waiting}) is cancelled.")
    expect(day.locator(".limit")).to_have_text("1.00")
    expect(day.locator(".pending")).to_have_text("—")
    shoot(page, screenshots, "limit-raise-cancelled")
    mine = casino.client(token(page)).get("/api/me/protections").json()["limits"]["day"]
    assert mine["loss_limit_cents"] == 100 and mine["pending"] is None


def test_the_session_shown_is_the_one_bets_started(casino: Server, page: Page) -> None:
    register(page, casino.url)
    open_account(page)
    expect(page.locator("#session-now")).to_have_text("no session: one starts with your next bet")
    placed = casino.client(token(page)).post(
        "/api/tables/1/bets", json={"bet": "banker", "amount_cents": 500},
        headers={"Idempotency-Key": "api-only-bet"},
    )  # fmt: skip
    assert placed.status_code == 201  # through the API alone: no table page was opened
    page.reload()
    expect(page.locator("#session-now")).to_have_text("0 min since your first bet · −5.00")
