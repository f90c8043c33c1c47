"""A person at the web casino, as the browser tests drive them: by the names on the page.

Every step goes through what a player sees and can reach — labelled fields, buttons
named by their bet, links named by their game — never through the page's internals.
"""

from __future__ import annotations

import os
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Locator, Page, expect

from tests.server.harness import PASSWORD

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

SPOT_NAMES = {
    "banker": "Banker", "player": "Player", "tie": "Tie", "player-pair": "Player Pair",
    "banker-pair": "Banker Pair", "red": "Red", "green": "Green", "bonus": "Bonus", "main": "Main",
    "lo-card": "Lo-Card", "hi-card": "Hi-Card", "dice-lo": "Dice-Lo", "dice-hi": "Dice-Hi",
}  # fmt: skip


def cents(text: str) -> int:
    """The page's amounts in cents: 1,000.95 is 100095, −1.00 is -100."""
    cleaned = text.strip().replace(",", "").replace("−", "-").replace("+", "")
    match = re.fullmatch(r"(-?)(\d+)\.(\d\d)", cleaned)
    assert match, f"not an amount: {text!r}"
    value = int(match.group(2)) * 100 + int(match.group(3))
    return -value if match.group(1) else value


@dataclass
class Watch:
    """Script errors and CSP violations in the pages it is attached to."""

    problems: list[str] = field(default_factory=list)

    def attach(self, page: Page) -> None:
        page.on("pageerror", lambda error: self.problems.append(f"script error: {error}"))
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.problems.append(f"CSP: {text}")
        elif message.type == "error" and "Failed to load resource" not in text:
            self.problems.append(f"console error: {text}")

    def check(self) -> None:
        assert not self.problems, "\n".join(self.problems)


def new_name(prefix: str = "p") -> str:
    return f"{prefix}{uuid.uuid4().hex[:9]}"


def register(page: Page, base: str, name: str | None = None) -> str:
    """Register through the sign-in form; back in the lobby, signed in."""
    name = name or new_name()
    page.goto(f"{base}/sign-in")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible(timeout=20_000)
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()
    return name


def sign_in(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/sign-in")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible(timeout=20_000)


def sign_out(page: Page) -> None:
    """Sign out and wait until the page has: a navigation right after the click would
    race the sign-out and could load the next page still signed in."""
    page.locator("#sign-out").click()
    expect(page.locator("#sign-out")).to_be_hidden()


def balance(page: Page) -> int:
    return cents(page.get_by_label("Balance").inner_text())


def open_table(page: Page, table_id: int, game_name: str) -> None:
    """From the lobby, by the link named after the game, to a live table page."""
    card = page.locator(f'li[data-table-id="{table_id}"]')
    card.get_by_role("link", name=game_name, exact=True).click()
    expect(page.get_by_role("heading", name=game_name, level=1)).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()


def spot(page: Page, bet: str) -> Locator:
    return page.get_by_role("button", name=SPOT_NAMES[bet], exact=True)


def choose_chip(page: Page, amount: str) -> None:
    page.get_by_role("radio", name=f"Chip {amount}").check()


def place(page: Page, bet: str, amount: str) -> None:
    """Select the chip and click the spot; wait until the table shows the bet."""
    before = page.locator(f"#stake-{bet}").inner_text()
    choose_chip(page, amount)
    spot(page, bet).click()
    expect(page.locator(f"#stake-{bet}")).not_to_have_text(before, timeout=10_000)


def result_panel(page: Page, timeout: float = 30_000) -> Locator:
    panel = page.locator("section.result")
    expect(panel).to_be_visible(timeout=timeout)
    return panel


def settled_amounts(page: Page) -> tuple[int, int, int]:
    """(staked, returned, net) in cents, as the result panel states them."""
    net = page.locator("section.result .net")
    expect(net).to_be_visible()
    return (int(net.get_attribute("data-staked") or 0), int(net.get_attribute("data-returned") or 0),
            cents(net.locator("strong").inner_text().replace("±", "")))  # fmt: skip


def wait_until(page: Page, done: Callable[[], bool], timeout: float = 20.0) -> None:
    """Let the browser run (its route handlers too) until ``done``."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the browser never got there"
        page.wait_for_timeout(50)


def token(page: Page) -> str:
    value = page.evaluate("localStorage.getItem('baccara.token')")
    assert isinstance(value, str)
    return value


def visible_cards(hand: Locator) -> list[str]:
    """The accessible names of the cards, tiles or dice drawn in a hand."""
    return [img.get_attribute("aria-label") or "" for img in hand.get_by_role("img").all()]


def money(amount: int) -> str:
    """Cents as the page writes them: 100095 → "1,000.95"."""
    sign = "−" if amount < 0 else ""
    return f"{sign}{abs(amount) // 100:,}.{abs(amount) % 100:02d}"


SETTLED = """() => document.getAnimations().every(
    (a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity
           || a.effect?.target?.closest?.(".bar"))"""
"""Whether every animation that ends (a card's turn, a result's arrival) has ended; polled
on each frame the page draws, so it is also true only once the page has drawn since. A
countdown's bar moves on every tick while betting is open, which is from the round's
opening, so it never stands still: its moves are not waited for."""


SCREENSHOTS = os.environ.get("BACCARA_SCREENSHOTS") == "1"
"""Whether :func:`shoot` takes its pictures: ``BACCARA_SCREENSHOTS=1 make pytest`` leaves
them in tests/web/screenshots to be looked at. Without it the tests run all the same and
skip only the pictures, about a tenth of the browser tests' time."""


def shoot(page: Page, folder: Any, name: str) -> list[Any]:
    """Full-page screenshots at desktop and phone size, left in ``folder`` to be looked at
    (when :data:`SCREENSHOTS` asks for them)."""
    paths: list[Any] = []
    if not SCREENSHOTS:
        return paths
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_function(SETTLED)  # the new layout drawn, the last card turned
        path = folder / f"{name}-{label}.png"
        page.screenshot(path=str(path), full_page=True, animations="disabled")
        paths.append(path)
    page.set_viewport_size(DESKTOP)
    return paths
