"""A seat nobody plays, in Chromium: the table stands its player up, the page says why
and offers the seat again."""

from __future__ import annotations

import pathlib

from playwright.sync_api import Page, expect

from baccara.table.table import IDLE_ROUND_SECONDS, STOOD_UP_SECONDS
from tests.server.harness import Clock, Server
from tests.web.casino import open_table, register, shoot

MINI = 3
"""The default Mini RedGreen table: seven seats, a seat needed to bet."""


def test_the_page_says_its_player_was_stood_up_and_offers_the_seat_again(
    casino: Server, page: Page, clock: Clock, screenshots: pathlib.Path
) -> None:
    name = register(page, casino.url)
    open_table(page, MINI, "Mini RedGreen")
    page.get_by_role("button", name="Take a seat").click()
    seats = page.locator(".seat-list")
    expect(seats.locator(".seat.mine")).to_contain_text(f"{name} (you)")

    clock.advance(2 * IDLE_ROUND_SECONDS + 1)  # two rounds nobody played, no bet of theirs
    notice = page.locator("#table-notice")
    expect(notice).to_have_text(
        "You were stood up after two rounds without a bet. You may take a seat again in a minute.",
        timeout=15_000,
    )
    expect(seats.locator(".seat.mine")).to_have_count(0)
    again = page.get_by_role("button", name="Take a seat")
    expect(again).to_be_visible()
    expect(again).to_be_enabled()
    shoot(page, screenshots, "stood-up")
    assert casino.client().get(f"/api/tables/{MINI}").json()["seated"] == {}

    clock.advance(STOOD_UP_SECONDS)  # a player the table stood up sits again after a wait
    again.click()
    expect(seats.locator(".seat.mine")).to_contain_text(f"{name} (you)")
    expect(notice).to_be_hidden()
