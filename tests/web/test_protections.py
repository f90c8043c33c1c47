"""The player's protections in Chromium: a loss limit set on the account page refuses a
bet that could go past it, with the server's reason at the table; a raise waits its 24
hours; self-exclusion, once confirmed, refuses every bet; the reality check stops the
table with the session's time and result until the player chooses to go on."""

from __future__ import annotations

import pathlib

from playwright.sync_api import Page, expect

from tests.server.harness import Clock, Server
from tests.web.casino import (
    DESKTOP,
    balance,
    choose_chip,
    money,
    open_table,
    place,
    register,
    shoot,
    spot,
    token,
)


def open_account(page: Page) -> None:
    page.get_by_role("link", name="My account").click()
    expect(page.get_by_role("heading", name="My account: limits and breaks")).to_be_visible()
    expect(page.locator('tr[data-period="day"] .limit')).to_have_text("none")


def test_a_loss_limit_set_on_the_account_page_refuses_a_bigger_bet(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, casino.url)
    open_account(page)
    expect(page.locator("#net-today")).to_have_text("±0.00")

    page.get_by_label("Period").select_option("day")
    page.get_by_label("Loss limit", exact=True).fill("10")
    page.get_by_role("button", name="Save limit").click()
    expect(page.locator("#limit-message")).to_have_text("Your daily loss limit is 10.00, from now.")
    day = page.locator('tr[data-period="day"]')
    expect(day.locator(".limit")).to_have_text("10.00")
    expect(day.locator(".room")).to_have_text("10.00")

    # A raise waits a day: the page says so, and when; the limit in force stays.
    page.get_by_label("Loss limit", exact=True).fill("50.00")
    page.get_by_role("button", name="Save limit").click()
    expect(page.locator("#limit-message")).to_contain_text("Raising a limit waits 24 hours")
    expect(page.locator("#limit-message")).to_contain_text(
        "Until then your daily limit stays 10.00."
    )
    expect(day.locator(".pending")).to_contain_text("50.00 from ")
    expect(day.locator(".limit")).to_have_text("10.00")
    mine = casino.client(token(page)).get("/api/me/protections").json()["limits"]["day"]
    assert mine["loss_limit_cents"] == 1000 and mine["pending"]["loss_limit_cents"] == 5000
    shown = float(day.locator(".pending").get_attribute("data-effective-at") or 0)
    assert shown == mine["pending"]["effective_at"]

    shoot(page, screenshots, "account")
    page.set_viewport_size(DESKTOP)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(
        path=str(screenshots / "web-account.png"), full_page=True, animations="disabled"
    )

    # Nonsense is refused before it is sent; so is a reminder the server would refuse.
    page.get_by_label("Loss limit", exact=True).fill("ten")
    page.get_by_role("button", name="Save limit").click()
    expect(page.locator("#limit-message")).to_have_text(
        "Enter the most you allow yourself to lose, such as 50.00."
    )
    page.get_by_label("Remind me every (minutes)").fill("2")
    page.get_by_role("button", name="Save reminder").click()
    expect(page.locator("#reality-message")).to_have_text(
        "Enter a whole number of minutes from 5 to 600."
    )

    # At the table: 25.00 could lose more than the 10.00 of room, and is refused.
    page.get_by_role("link", name="Lobby").click()
    open_table(page, 1, "Punto Banco")
    start = balance(page)
    choose_chip(page, "25.00")
    spot(page, "banker").click()
    notice = page.locator("#table-notice")
    expect(notice).to_have_text(
        "Bet refused: your daily loss limit is 10.00: this bet could take you past it;"
        " 10.00 of room is left."
    )
    expect(page.locator("#stake-banker")).to_have_text("")
    assert balance(page) == start
    place(page, "banker", "5.00")  # within the limit: taken, and the refusal goes
    expect(notice).to_be_hidden()
    expect(page.get_by_label("Balance")).to_have_text(money(start - 500))


def test_self_exclusion_confirmed_on_the_account_page_refuses_every_bet(
    casino: Server, page: Page, clock: Clock
) -> None:
    register(page, casino.url)
    open_account(page)
    http = casino.client(token(page))

    page.get_by_label("Exclude me for").select_option("7")
    page.get_by_role("button", name="Exclude me…").click()
    dialog = page.get_by_role("dialog", name="Exclude yourself for 7 days?")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("It cannot be lifted early")
    page.keyboard.press("Escape")  # a second thought: nothing happens
    expect(dialog).to_have_count(0)
    expect(page.get_by_role("button", name="Exclude me…")).to_be_focused()
    assert http.get("/api/me/protections").json()["self_excluded_until"] is None

    page.get_by_role("button", name="Exclude me…").click()
    dialog.get_by_role("button", name="Yes, exclude me for 7 days").click()
    expect(page.locator("#excluded-until")).to_contain_text(
        "You have excluded yourself from play until "
    )
    expect(page.get_by_role("button", name="Exclude me…")).to_have_count(0)  # nothing to undo
    until = http.get("/api/me/protections").json()["self_excluded_until"]
    assert abs(until - (clock() + 7 * 86_400)) < 60
    assert page.locator("#excluded-until").get_attribute("data-until") == str(until)

    page.get_by_role("link", name="Lobby").click()
    open_table(page, 1, "Punto Banco")
    expect(page.locator("#table-notice")).to_contain_text(
        "No bets: you have excluded yourself from play until "
    )
    expect(spot(page, "banker")).to_be_disabled()
    refused = http.post("/api/tables/1/bets", json={"bet": "banker", "amount_cents": 500},
                        headers={"Idempotency-Key": "excluded-bet-1"})  # fmt: skip
    assert refused.status_code == 403 and refused.json()["error"] == "self_excluded"


def test_the_reality_check_stops_the_table_until_the_player_goes_on(
    casino: Server, page: Page, clock: Clock, screenshots: pathlib.Path
) -> None:
    casino.casino.sessions.REALITY_POLL = 0.2
    register(page, casino.url)
    open_account(page)
    page.get_by_label("Remind me every (minutes)").fill("5")
    page.get_by_role("button", name="Save reminder").click()
    expect(page.locator("#reality-message")).to_contain_text("Every 5 minutes of play")
    expect(page.locator("#reality-now")).to_have_text("A reality check every 5 minutes of play.")

    page.get_by_role("link", name="Lobby").click()
    open_table(page, 1, "Punto Banco")
    start = balance(page)
    place(page, "banker", "5.00")
    clock.advance(5 * 60 + 1)  # five minutes of play (and the betting timer runs out: it deals)

    dialog = page.get_by_role("dialog", name="Reality check")
    expect(dialog).to_be_visible(timeout=20_000)
    expect(page.locator("section.result")).to_be_visible(timeout=30_000)
    expect(dialog).to_contain_text("You have been playing for 5 min.")
    expect(dialog).to_contain_text("Your net result this session: ")
    expect(page.locator("#table-notice")).to_have_text(
        "Bets paused: answer the reality check to bet on."
    )
    expect(dialog).to_be_focused()
    page.keyboard.press("Escape")  # it must be answered
    expect(dialog).to_be_visible()
    shoot(page, screenshots, "reality-check")

    # Until then the server refuses the player's bets, wherever they come from.
    http = casino.client(token(page))
    refused = http.post("/api/tables/1/bets", json={"bet": "banker", "amount_cents": 500},
                        headers={"Idempotency-Key": "reality-bet-1"})  # fmt: skip
    assert refused.status_code == 409 and refused.json()["error"] == "reality_check"
    after = http.get("/api/me").json()["balance_cents"]  # the round is settled
    expect(page.get_by_label("Balance")).to_have_text(money(after))  # and the page knows it
    net = int(dialog.get_attribute("data-net") or "x")
    assert net in (-500, after - start)  # told before or after the round settled

    page.keyboard.press("Tab")
    expect(dialog.get_by_role("button", name="Continue playing")).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).to_have_count(0)
    expect(page.locator("#table-notice")).to_be_hidden()
    before = balance(page)
    place(page, "player", "5.00")  # betting resumes
    expect(page.get_by_label("Balance")).to_have_text(money(before - 500))


def test_leave_at_the_reality_check_goes_to_the_lobby(
    casino: Server, page: Page, clock: Clock
) -> None:
    casino.casino.sessions.REALITY_POLL = 0.2
    register(page, casino.url)
    http = casino.client(token(page))
    http.put("/api/me/reality-check", json={"minutes": 5})
    placed = http.post("/api/tables/1/bets", json={"bet": "banker", "amount_cents": 500},
                       headers={"Idempotency-Key": "first-bet"})  # fmt: skip
    assert placed.status_code == 201  # the session starts with a bet, at any table
    page.get_by_role("link", name="Lobby").click()
    open_table(page, 4, "Lo-Ball")
    clock.advance(5 * 60 + 1)
    dialog = page.get_by_role("dialog", name="Reality check")
    expect(dialog).to_be_visible(timeout=20_000)
    dialog.get_by_role("button", name="Leave the table").click()
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()
    expect(dialog).to_have_count(0)
