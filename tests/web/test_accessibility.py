"""Every page of the casino, in each state a person meets it in, has no serious or
critical violation that axe-core finds (WCAG 2.x A and AA): the lobby, each table while
betting, RedGreen's peek as the peeker sees it, Mini RedGreen's choice, a result, My
rounds, Rules, My account, the sign-in page, the dealer's console, the admin's report,
audit and dealers pages, the page not found and several tables at once. A round is
played with the keyboard alone, every control it reaches showing its focus ring, and a
screen reader hears each card as it turns, the result and the payout; the roads tell
Banker, Player and Tie by their letters."""

from __future__ import annotations

import pathlib

from playwright.sync_api import Locator, Page, expect

from tests.server.harness import PASSWORD, Server
from tests.web.axe import violations
from tests.web.casino import (
    SETTLED,
    money,
    new_name,
    open_table,
    place,
    register,
    result_panel,
    shoot,
    sign_in,
    sign_out,
    spot,
    token,
)
from tests.web.test_states import RECORD_ANNOUNCED, announced

TABLES = [
    (1, "Punto Banco", "banker", "25.00"),
    (2, "RedGreen", "red", "25.00"),
    (3, "Mini RedGreen", "green", "5.00"),
    (4, "Lo-Ball", "main", "5.00"),
]


class Findings:
    """Each state's violations, gathered so one run names every page that has any."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.found: dict[str, list[str]] = {}

    def check(self, where: str) -> None:
        self.page.wait_for_function(SETTLED)  # a card half turned is no state a person reads
        self.found[where] = violations(self.page)

    def assert_none(self) -> None:
        bad = {where: lines for where, lines in self.found.items() if lines}
        report = "\n".join(f"{where}: {len(lines)}\n  " + "\n  ".join(lines)
                           for where, lines in bad.items())  # fmt: skip
        assert not bad, report


def test_every_page_and_state_has_no_serious_violation(
    casino: Server, page: Page, other: Page, screenshots: pathlib.Path
) -> None:
    seen = Findings(page)
    page.goto(f"{casino.url}/sign-in")
    expect(page.get_by_role("button", name="Register")).to_be_visible()
    seen.check("sign-in")
    register(page, casino.url)
    seen.check("lobby")

    for table_id, name, bet, amount in TABLES:
        page.goto(f"{casino.url}/")
        open_table(page, table_id, name)
        page.get_by_role("button", name="Take a seat").click()
        expect(page.locator(".seat.mine")).to_have_count(1)
        place(page, bet, amount)
        seen.check(f"{name}, betting")
        page.get_by_role("button", name="Deal").click()
        if name == "RedGreen":
            expect(page.get_by_text("Only you see these cards")).to_be_visible(timeout=15_000)
            seen.check(f"{name}, the peek")
            page.get_by_role("button", name="Hand the cards back").click()
        if name == "Mini RedGreen":
            choose = page.get_by_role("button", name="Set Green first")
            expect(choose).to_be_visible(timeout=15_000)
            seen.check(f"{name}, the choice")
            choose.click()
            turn = page.get_by_role("button", name="Turn them all")
            expect(turn).to_be_visible(timeout=15_000)
            seen.check(f"{name}, the squeeze")
            turn.click()
        result_panel(page)
        seen.check(f"{name}, result")

    for path, heading in (("/history", "My last rounds"), ("/rules/redgreen", None),
                          ("/account", "My account: limits and breaks"), ("/multi?tables=1,2,3,4", None),
                          ("/no/such/page", "Page not found")):  # fmt: skip
        page.goto(f"{casino.url}{path}")
        if heading:
            expect(page.get_by_role("heading", name=heading, level=1)).to_be_visible()
        page.wait_for_load_state("networkidle")
        seen.check(path)

    dealer = casino.player(role="dealer")
    sign_in(other, casino.url, dealer.name)
    live = casino.live_table()
    other.get_by_role("link", name=f"Dealer console, table {live}").click()
    expect(other.get_by_role("button", name="No more bets")).to_be_visible()
    staff = Findings(other)
    staff.check("dealer console")
    admin = casino.player(role="admin")
    sign_out(other)
    sign_in(other, casino.url, admin.name)
    for path in ("/admin/report", "/admin/audit", "/admin/dealers"):
        other.goto(f"{casino.url}{path}")
        other.wait_for_load_state("networkidle")
        staff.check(path)
    seen.found.update(staff.found)
    seen.assert_none()


FOCUS_RING = """(el) => {
  const drawn = el.matches("input[type=radio]") ? el.nextElementSibling : el; // a chip's ring is on its face
  const style = getComputedStyle(drawn);
  return el.matches(":focus-visible") && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
}"""
"""Whether the focused control shows the keyboard's focus ring (:focus-visible, 2 px at least)."""


def tab_to(page: Page, control: Locator, key: str = "Tab", most: int = 60) -> None:
    """Press Tab (or Shift+Tab) until ``control`` has the focus, as a keyboard user moves
    through the page; the control must show its focus ring there."""
    for _ in range(most):
        page.keyboard.press(key)
        if control.evaluate("(el) => el === document.activeElement"):
            assert control.evaluate(FOCUS_RING), f"no focus ring on {control}"
            return
    raise AssertionError(f"{control} not reached with {key} in {most} presses")


def card_name(code: str) -> str:
    ranks = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}
    suits = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
    return f"{ranks.get(code[:-1], code[:-1])} of {suits[code[-1]]}"


def test_a_round_is_played_by_keyboard_alone_and_heard_card_by_card(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    page.goto(f"{casino.url}/sign-in")
    tab_to(page, page.get_by_label("Username"))
    page.keyboard.type(new_name())
    tab_to(page, page.get_by_label("Password"))
    page.keyboard.type(PASSWORD)
    tab_to(page, page.get_by_role("button", name="Register"))
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Tables")).to_be_visible(timeout=20_000)

    lobby_link = page.locator('li[data-table-id="1"]').get_by_role(
        "link", name="Punto Banco", exact=True
    )
    tab_to(page, lobby_link)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Punto Banco", level=1)).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()
    page.evaluate(RECORD_ANNOUNCED)
    tab_to(page, page.get_by_role("button", name="Take a seat"))
    page.keyboard.press("Enter")
    expect(page.locator(".seat.mine")).to_have_count(1)

    tab_to(page, page.get_by_role("radio", name="Chip 1.00"), key="Shift+Tab")
    page.keyboard.press("ArrowRight")  # the next chip in the group: 5.00
    expect(page.get_by_role("radio", name="Chip 5.00")).to_be_checked()
    assert page.get_by_role("radio", name="Chip 5.00").evaluate(FOCUS_RING)
    tab_to(page, spot(page, "banker"), key="Shift+Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#stake-banker")).to_have_text("Your bet 5.00")
    announced(page, "Bet accepted")
    tab_to(page, page.get_by_role("button", name="Player", exact=True))
    page.keyboard.press("Space")
    expect(page.locator("#stake-player")).to_have_text("Your bet 5.00")
    shoot(page, screenshots, "keyboard-focus-ring")
    tab_to(page, page.get_by_role("button", name="Deal"))
    page.keyboard.press("Enter")

    panel = result_panel(page)
    record = casino.client(token(page)).get(f"/api/rounds/{panel.get_attribute('data-round-id')}")
    cards = record.json()["cards"]
    for hand, name in (("player", "Player"), ("banker", "Banker")):
        for n, code in enumerate(cards[hand], start=1):
            announced(page, f"{name}'s card {n}: {card_name(code)}.")
    headline = panel.get_by_role("heading").inner_text()
    paid = sum(bet["payout_cents"] for bet in record.json()["bets"])
    net = paid - 1000
    said = {True: f"You won {money(net)}.", False: f"You lost {money(-net)}."}
    announced(page, f"{headline}. {said[net > 0] if net else 'Your 10.00 is returned.'}")

    # The roads tell Banker, Player and Tie by letters, not by colour alone.
    letter = {"banker": "B", "player": "P", "tie": "T"}[record.json()["result"]["winner"]]
    expect(page.locator(".road-bead-plate .bead-letter")).to_have_text([letter])
    if letter != "T":
        expect(page.locator(".road-big-road .ring-letter")).to_have_text([letter])
    shoot(page, screenshots, "keyboard-round-heard")
    page.goto(f"{casino.url}/")
    expect(page.locator('li[data-table-id="1"] .table-road .ring-letter')).to_have_text(
        [letter] if letter != "T" else []
    )
