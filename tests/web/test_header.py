"""The header on every page of a signed-in player: their balance, the same in every tab
the moment a bet is taken or taken back and once the round pays, and their play
session's time, ticking each second, and net result ("Session 0:00:12 · Net −25.00")."""

from __future__ import annotations

import pathlib
import re

from playwright.sync_api import BrowserContext, Page, expect

from tests.server.harness import Server
from tests.web.casino import (
    DESKTOP,
    PHONE,
    Watch,
    balance,
    cents,
    money,
    open_table,
    place,
    register,
    result_panel,
    settled_amounts,
    shoot,
    token,
)

SHOTS = pathlib.Path("/tmp/shots-header")
CLOCK = re.compile(r"^\d+:\d\d:\d\d$")


def session_net(page: Page) -> int:
    return cents(page.locator("#session-net").inner_text().replace("±", ""))


def session_seconds(page: Page) -> int:
    return int(page.locator("#session-time").get_attribute("data-seconds") or -1)


def second_tab(context: BrowserContext, watch: Watch, url: str) -> Page:
    """The same player's second tab: the same browser, so the same sign-in."""
    tab = context.new_page()
    watch.attach(tab)
    tab.goto(url)
    expect(tab.get_by_role("button", name="Sign out")).to_be_visible(timeout=20_000)
    expect(tab.get_by_role("status").filter(has_text="Live")).to_be_visible()
    return tab


def test_a_bet_in_one_tab_moves_the_balance_in_the_other_at_once(
    casino: Server, page: Page, context: BrowserContext, watch: Watch
) -> None:
    """Tab A bets, takes it back, bets again and deals; tab B, at the same table, shows
    each new balance to the cent within a second, and the paid one after the round."""
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    tab = second_tab(context, watch, page.url)
    start = balance(page)
    expect(tab.get_by_label("Balance")).to_have_text(money(start))

    place(page, "banker", "25.00")
    expect(page.get_by_label("Balance")).to_have_text(money(start - 2500))
    expect(tab.get_by_label("Balance")).to_have_text(money(start - 2500), timeout=1_000)

    page.get_by_role("button", name="Clear").click()
    expect(page.get_by_label("Balance")).to_have_text(money(start))
    expect(tab.get_by_label("Balance")).to_have_text(money(start), timeout=1_000)

    place(page, "player", "5.00")
    expect(tab.get_by_label("Balance")).to_have_text(money(start - 500), timeout=1_000)
    page.get_by_role("button", name="Deal").click()
    result_panel(page)
    staked, returned, _ = settled_amounts(page)
    after = start - staked + returned
    expect(page.get_by_label("Balance")).to_have_text(money(after))
    expect(tab.get_by_label("Balance")).to_have_text(money(after), timeout=1_000)
    assert casino.client(token(page)).get("/api/me").json()["balance_cents"] == after


def test_a_lobby_tab_follows_the_bets_made_at_a_table(
    casino: Server, page: Page, context: BrowserContext, watch: Watch
) -> None:
    """The player's lobby, open in another tab, shows each new balance within a second."""
    register(page, casino.url)
    lobby = context.new_page()
    watch.attach(lobby)
    lobby.goto(casino.url)
    expect(lobby.get_by_role("heading", name="Tables")).to_be_visible()
    open_table(page, 1, "Punto Banco")
    start = balance(page)
    expect(lobby.get_by_label("Balance")).to_have_text(money(start))
    place(page, "banker", "25.00")
    expect(lobby.get_by_label("Balance")).to_have_text(money(start - 2500), timeout=1_000)
    expect(lobby.locator("#session-net")).to_have_text("−25.00")
    page.get_by_role("button", name="Clear").click()
    expect(lobby.get_by_label("Balance")).to_have_text(money(start), timeout=1_000)


def test_the_session_clock_ticks_and_its_net_follows_each_bet_and_the_result(
    casino: Server, page: Page, context: BrowserContext, watch: Watch
) -> None:
    """No session before the first bet; then its time, counting each second, and its
    net: the stake at risk, nothing once it is taken back, the round's result once paid
    — in the tab that bets and in the other."""
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    clock = page.locator("#session-clock")
    expect(page.get_by_label("Balance")).to_be_visible()
    expect(clock).to_be_hidden()  # watching is not playing

    place(page, "banker", "25.00")
    expect(clock).to_be_visible()
    expect(clock).to_contain_text("Session")
    expect(page.locator("#session-time")).to_have_text(CLOCK)
    expect(page.locator("#session-net")).to_have_text("−25.00")
    tab = second_tab(context, watch, page.url)
    expect(tab.locator("#session-net")).to_have_text("−25.00")
    first = session_seconds(page)
    page.wait_for_function(
        f"() => Number(document.getElementById('session-time').dataset.seconds) >= {first + 2}"
    )
    assert session_seconds(page) - first in (2, 3)  # a tick a second, not a jump

    page.get_by_role("button", name="Clear").click()
    expect(page.locator("#session-net")).to_have_text("±0.00")
    expect(tab.locator("#session-net")).to_have_text("±0.00")

    place(page, "player", "5.00")
    expect(tab.locator("#session-net")).to_have_text("−5.00")
    page.get_by_role("button", name="Deal").click()
    result_panel(page)
    _, _, net = settled_amounts(page)
    for each in (page, tab):
        expect(each.locator("#session-net")).to_have_text(
            "±0.00" if net == 0 else ("+" if net > 0 else "") + money(net)
        )
    assert session_net(page) == net

    page.get_by_role("link", name="Lobby").click()  # every page's header, not the table's
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()
    expect(clock).to_be_visible()
    assert session_net(page) == net


def test_the_session_fits_the_header_on_a_phone_and_a_desktop(casino: Server, page: Page) -> None:
    """Beside or under the balance, never over it; and on a phone the header keeps its
    height when the first bet starts the session, so nothing under the finger moves."""
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    clock = page.locator("#session-clock")
    page.set_viewport_size(PHONE)
    expect(clock).to_be_hidden()
    before = page.locator("header.top").bounding_box()
    place(page, "banker", "25.00")
    expect(clock).to_be_visible()
    after = page.locator("header.top").bounding_box()
    assert before is not None and after is not None
    assert after["height"] == before["height"]
    SHOTS.mkdir(exist_ok=True)
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        box = clock.bounding_box()
        wallet = page.locator(".top .wallet").bounding_box()
        assert box is not None and wallet is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"]  # on the screen
        beside = box["x"] + box["width"] <= wallet["x"] + 1
        below = box["y"] >= wallet["y"] + wallet["height"] - 1
        above = box["y"] + box["height"] <= wallet["y"] + 1
        assert beside or below or above  # never over the balance
        assert box["height"] < 60  # on one line, or two on a phone, not a column
    shoot(page, SHOTS, "header-session")
