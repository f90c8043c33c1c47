"""The table page lives on its WebSocket: after a drop it reconnects by itself, waiting a
little longer after each failed try, and catches up on what it missed from the fresh
snapshot. And the whole casino works with the keyboard alone, on a phone-sized screen."""

from __future__ import annotations

import itertools
import re
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

from tests.server.harness import Server
from tests.web.casino import PHONE, balance, money, open_table, register, result_panel

TIME_TABLE_SOCKETS = """(() => {
  window.tableSockets = [];
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(url, ...rest) {
      super(url, ...rest);
      if (String(url).includes("/ws/tables/")) window.tableSockets.push(performance.now());
    }
  };
})();"""
"""Notes, in the page, the moment (ms) each WebSocket to a table is opened."""


def test_a_dropped_table_reconnects_with_backoff_and_catches_up(casino: Server, page: Page) -> None:
    link: dict[str, Any] = {"down": False, "open": []}

    def route(ws: WebSocketRoute) -> None:
        if link["down"]:
            ws.close(code=1011, reason="the casino is unreachable")
            return
        ws.connect_to_server()
        link["open"].append(ws)

    page.route_web_socket(re.compile(r".*/ws/tables/\d+.*"), route)
    page.add_init_script(TIME_TABLE_SOCKETS)  # after the route's, so it sees the page's sockets
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    bob = casino.player()
    bob.sit(1)
    expect(page.locator('li.seat[data-seat="1"]')).to_contain_text(bob.name)

    link["down"] = True
    opened = page.evaluate("window.tableSockets.length")
    for ws in link["open"]:
        ws.close(code=1006, reason="dropped")
    expect(page.locator(".conn")).to_contain_text("Reconnecting")
    assert bob.bet(1, "banker", 2500).status_code == 201  # missed while the link is down
    assert bob.bet(1, "tie", 100).status_code == 201
    page.wait_for_function(f"() => window.tableSockets.length >= {opened + 4}", timeout=20_000)
    tries = page.evaluate(f"window.tableSockets.slice({opened})")
    gaps = [(b - a) / 1000 for a, b in itertools.pairwise(tries)]
    assert len(gaps) >= 3 and gaps[2] > gaps[0] and gaps[0] > 0.25, gaps  # backing off
    expect(page.locator(".table-bets")).to_have_text("No bets yet.")

    link["down"] = False
    expect(page.locator(".conn")).to_have_text("Live", timeout=20_000)
    caught_up = page.locator(f'.table-bets li[data-player="{bob.name}"]')
    expect(caught_up).to_contain_text("Banker 25.00 · Tie 1.00")
    expect(page.locator("#others-banker")).to_have_text("Others 96 %")  # 25.00 of 26.00


def focus(page: Page, name: str, backwards: bool = False, limit: int = 80) -> None:
    """Press Tab (or Shift+Tab) until the focused control is the one called ``name``."""
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        focused = page.evaluate(
            """() => { const e = document.activeElement;
                       if (!e) return '';
                       if (e.getAttribute('aria-label')) return e.getAttribute('aria-label').trim();
                       const named = e.cloneNode(true);  // its name: the text a reader reads
                       named.querySelectorAll('[aria-hidden="true"]').forEach((n) => n.remove());
                       return (named.textContent || '').trim(); }"""
        )
        if focused == name:
            return
    raise AssertionError(f"{name!r} cannot be reached with the keyboard")


def test_a_round_with_the_keyboard_alone_on_a_phone(casino: Server, page: Page) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{casino.url}/sign-in")
    expect(page.get_by_label("Username")).to_be_focused()
    page.keyboard.type("keyboard.only")
    page.keyboard.press("Tab")
    page.keyboard.type("a long password")
    focus(page, "Register")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Sign out")).to_be_visible(timeout=20_000)

    focus(page, "Lo-Ball")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Lo-Ball", level=1)).to_be_visible()
    expect(page.locator(".conn")).to_have_text("Live")
    before = balance(page)
    focus(page, "Take a seat")
    page.keyboard.press("Enter")
    expect(page.locator(".seat.mine")).to_have_count(1)

    focus(page, "Chip 1.00")  # the chips are one radio group: arrows choose
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("radio", name="Chip 5.00")).to_be_checked()
    focus(page, "Main", backwards=True)
    page.keyboard.press("Enter")
    expect(page.locator("#stake-main")).to_have_text("Your bet 5.00")
    focus(page, "Dice-Lo")
    page.keyboard.press("Space")
    expect(page.locator("#stake-dice-lo")).to_have_text("Your bet 5.00")
    expect(page.get_by_label("Balance")).to_have_text(money(before - 1000))
    focus(page, "Deal")
    page.keyboard.press("Enter")
    result_panel(page)
    net = page.locator("section.result .net")
    returned = int(net.get_attribute("data-returned") or 0)
    expect(page.get_by_label("Balance")).to_have_text(money(before - 1000 + returned))
    # Nothing is wider than the phone: no sideways scrolling of the page.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
