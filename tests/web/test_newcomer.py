"""A new player's first minutes at a table, and a hasty one's: what they see and what
their clicks do.

- a double-click on a spot by a player not yet seated places both chips (the table seats
  them once, not twice, and neither chip is lost to the seat taken by the other);
- the table's call ("Place your bets") never covers the result of the round just played;
- a table number no table can have (0, past the casino's range) says the table does not
  exist, at a table's address and on the screen of several, instead of joining for ever;
- a player stood up who bets again (the bet takes the seat) is no longer told so.
"""

from __future__ import annotations

import re
import time

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize, expect

from baccara.table.table import IDLE_ROUND_SECONDS, STOOD_UP_SECONDS
from tests.server.harness import Clock, Server
from tests.web.casino import (
    DESKTOP,
    PHONE,
    balance,
    choose_chip,
    money,
    open_table,
    register,
    spot,
    token,
)


def test_a_double_click_on_a_spot_before_sitting_places_both_chips(
    casino: Server, page: Page
) -> None:
    register(page, casino.url)
    open_table(page, 2, "RedGreen")
    start = balance(page)
    choose_chip(page, "5.00")
    spot(page, "red").dblclick()
    expect(page.locator("#stake-red")).to_have_text("Your bet 10.00")
    expect(page.get_by_label("Balance")).to_have_text(money(start - 1000))
    expect(page.locator(".table-bets li.mine .what")).to_have_text("Red 10.00")
    expect(page.locator("#table-notice")).to_be_hidden()
    expect(page.locator(".seat.mine")).to_have_count(1)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_next_rounds_call_never_covers_the_result(
    casino: Server, page: Page, size: ViewportSize
) -> None:
    page.set_viewport_size(size)
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    choose_chip(page, "5.00")
    spot(page, "banker").click()
    expect(page.locator("#stake-banker")).to_have_text("Your bet 5.00")
    page.get_by_role("button", name="Deal").click()
    result = page.locator(".stage > .result")
    expect(result).to_be_visible(timeout=30_000)
    callout = page.locator(".stage > .callout")
    expect(callout).to_have_text("Place your bets", timeout=30_000)  # the next round opens
    expect(page.locator(".stage > .result")).to_be_visible()  # the result still open under it
    box = result.bounding_box()
    assert box is not None
    shown = callout.bounding_box() if callout.is_visible() else None
    if shown is not None:  # beside the result, not over its words
        overlaps = (shown["x"] < box["x"] + box["width"] and box["x"] < shown["x"] + shown["width"]
                    and shown["y"] < box["y"] + box["height"] and box["y"] < shown["y"] + shown["height"])  # fmt: skip
        assert not overlaps, (shown, box)


@pytest.mark.parametrize("table", ["0", "99999999999999999999"])
def test_a_table_number_no_table_can_have_says_so_instead_of_joining_for_ever(
    casino: Server, page: Page, table: str
) -> None:
    page.goto(f"{casino.url}/tables/{table}")
    heading = page.get_by_role("heading", name=re.compile(r"^Table \d+ does not exist$"), level=1)
    expect(heading).to_be_visible(timeout=15_000)
    expect(page.get_by_text("Joining the table")).to_have_count(0)
    expect(page.get_by_role("link", name="Back to the lobby")).to_be_visible()


def test_a_player_stood_up_who_bets_again_is_not_told_they_were_stood_up(
    casino: Server, page: Page, clock: Clock
) -> None:
    name = register(page, casino.url)
    open_table(page, 3, "Mini RedGreen")
    page.get_by_role("button", name="Take a seat").click()
    seats = page.locator(".seat-list")
    expect(seats.locator(".seat.mine")).to_contain_text(f"{name} (you)")
    clock.advance(2 * IDLE_ROUND_SECONDS + 1)  # two rounds nobody played, no bet of theirs
    notice = page.locator("#table-notice")
    expect(notice).to_contain_text("You were stood up", timeout=15_000)

    shown = page.locator(".round-info dd").first.inner_text()  # "#3 · nonce 1"
    round_id = int(shown.removeprefix("#").split(" ")[0])
    clock.advance(STOOD_UP_SECONDS)  # past the wait, and past a betting timer if one ran:
    ticked(casino.client(token(page)), round_id, clock)
    choose_chip(page, "5.00")
    spot(page, "red").click()  # the bet takes a seat again
    expect(page.locator("#stake-red")).to_have_text("Your bet 5.00")
    expect(seats.locator(".seat.mine")).to_contain_text(f"{name} (you)")
    expect(notice).to_be_hidden()


def ticked(http: httpx.Client, round_id: int, clock: Clock) -> None:
    """Wait for the table's tick to catch up with a clock that jumped: a betting timer the
    jump ran out is closed by the tick (another window opens, nobody having bet), and a
    bet between the jump and the tick is refused, "no more bets", as it should be."""
    give_up = time.monotonic() + 15
    while time.monotonic() < give_up:
        due = http.get(f"/api/rounds/{round_id}").json()["deadline"]
        if due is None or due > clock():
            return
        time.sleep(0.1)
    raise AssertionError(f"round {round_id}'s timer ran out and was never ticked")


def test_the_screen_of_several_tables_drops_a_number_no_table_can_have(
    casino: Server, page: Page
) -> None:
    register(page, casino.url)
    page.goto(f"{casino.url}/multi?tables=1,99999999999999999999,2")
    expect(page.locator(".multi-tile")).to_have_count(2)
    expect(page.locator(".multi-tile .table-gone")).to_have_count(0)
    page.wait_for_url("**/multi?tables=1,2")
