"""The live dealer's console in Chromium: the dealer calls no more bets and types the cards
as they are dealt; the player's browser turns each card as it is entered; the console
pays and collects each seat (per side at RedGreen), voids a misdeal, and watches a
continuous shoe's exact edges."""

from __future__ import annotations

import pathlib
import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.server.harness import ONE_DECK_SHOE, Server, wait_for
from tests.web.casino import (
    PHONE,
    balance,
    money,
    open_table,
    place,
    register,
    result_panel,
    settled_amounts,
    shoot,
    sign_in,
    visible_cards,
)

FITS = """() => [...document.querySelectorAll('.settlement table')].map((table) => {
  const panel = table.closest('.panel');
  const cell = table.querySelector('thead th:last-child').getBoundingClientRect();
  return { table: [table.scrollWidth, table.clientWidth], panel: [panel.scrollWidth, panel.clientWidth],
           settlement: [panel.querySelector('.settlement').scrollWidth, panel.querySelector('.settlement').clientWidth],
           commissionRight: cell.right, panelRight: panel.getBoundingClientRect().right };
})"""


def assert_fits(page: Page) -> None:
    """Pay and collect fits its panel at desktop width: no column behind a scroll bar."""
    tables = page.evaluate(FITS)
    assert tables, "no settlement table"
    for fit in tables:
        assert fit["table"][0] <= fit["table"][1], fit
        assert fit["settlement"][0] <= fit["settlement"][1], fit
        assert fit["panel"][0] <= fit["panel"][1], fit
        assert fit["commissionRight"] <= fit["panelRight"], fit


@pytest.fixture
def dealer_page(other: Page) -> Page:
    return other


def test_a_dealer_deals_a_live_round_and_voids_a_misdeal(
    casino: Server, page: Page, dealer_page: Page, screenshots: pathlib.Path
) -> None:
    live = casino.live_table()
    dealer = casino.player(role="dealer")
    sign_in(dealer_page, casino.url, dealer.name)
    dealer_page.get_by_role("link", name=f"Dealer console, table {live}").click()
    expect(
        dealer_page.get_by_role("heading", name="Dealer console · Punto Banco, table 5")
    ).to_be_visible()

    ann = register(page, casino.url)
    open_table(page, live, "Punto Banco")
    page.get_by_role("button", name="Take a seat").click()
    start = balance(page)
    place(page, "player", "25.00")
    place(page, "banker", "5.00")
    expect(dealer_page.locator(".dealer-bets")).to_contain_text("Player 25.00 · Banker 5.00")
    expect(dealer_page.locator(".dealer-bets")).to_contain_text(ann)

    dealer_page.get_by_role("button", name="No more bets").click()
    expect(dealer_page.locator("#next-needed")).to_contain_text("Next: Player card 1")
    entry = dealer_page.get_by_label("Card")
    expect(entry).to_be_focused()
    dealer_page.keyboard.type("9s")  # taken as soon as it is typed
    expect(page.locator('section[data-hand="player"]').get_by_role("img")).to_have_count(1)
    assert visible_cards(page.locator('section[data-hand="player"]')) == ["9 of Spades"]
    expect(dealer_page.locator("#next-needed")).to_contain_text("Next: Banker card 1")
    dealer_page.keyboard.type("2h")
    dealer_page.keyboard.type("kd")
    expect(dealer_page.locator("#next-needed")).to_contain_text("Next: Banker card 2")
    dealer_page.keyboard.type("3c")

    settlement = dealer_page.locator(".settlement")
    expect(settlement).to_contain_text("Player wins, 9 to 5 · natural")
    row = settlement.locator('tr[data-seat="1"]')
    expect(row.locator(".pay")).to_have_text("25.00")
    expect(row.locator(".collect")).to_have_text("5.00")
    result_panel(page)
    assert visible_cards(page.locator('section[data-hand="player"]')) == [
        "9 of Spades",
        "King of Diamonds",
    ]
    assert visible_cards(page.locator('section[data-hand="banker"]')) == [
        "2 of Hearts",
        "3 of Clubs",
    ]
    assert_fits(dealer_page)
    staked, returned, net = settled_amounts(page)
    assert (staked, returned, net) == (3000, 5000, 2000)
    expect(page.get_by_label("Balance")).to_have_text(money(start + 2000))

    # A misdeal: the dealer voids the next round with a reason; every bet comes back.
    place(page, "banker", "5.00")
    expect(page.get_by_label("Balance")).to_have_text(money(start + 1500))
    dealer_page.get_by_role("button", name="No more bets").click()
    expect(dealer_page.get_by_label("Card")).to_be_enabled()
    dealer_page.get_by_label("Card").fill("as")
    expect(dealer_page.locator("#next-needed")).to_contain_text("Next: Banker card 1")
    dealer_page.get_by_label("Reason").fill("a card was exposed")
    dealer_page.get_by_role("button", name="Void round").click()
    expect(page.locator("section.result h2")).to_have_text(
        "Round voided: a card was exposed. Every bet is refunded."
    )
    expect(page.get_by_label("Balance")).to_have_text(money(start + 2000))
    expect(dealer_page.locator(".settlement")).to_contain_text("Refund every bet: 5.00")
    expect(dealer_page.locator("#void-message")).to_have_text(
        re.compile(r"^Round #\d+ voided: every bet refunded\.$")
    )
    shoot(dealer_page, screenshots, "dealer-console")


def test_redgreen_is_paid_per_side_for_its_two_protecting_dealers(
    casino: Server, dealer_page: Page
) -> None:
    admin = casino.player(role="admin")
    made = admin.http.post("/api/tables", json={
        "game": "redgreen", "min_bet_cents": 100, "max_bet_cents": 10_000, "mode": "live"})  # fmt: skip
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    dealer = casino.player(role="dealer")
    sign_in(dealer_page, casino.url, dealer.name)
    dealer_page.goto(f"{casino.url}/dealer/{table_id}")
    expect(dealer_page.get_by_role("button", name="No more bets")).to_be_visible()
    left, right = casino.player(), casino.player()
    assert left.sit(table_id, 2).status_code == 200 and right.sit(table_id, 9).status_code == 200
    round_id = left.http.get(f"/api/tables/{table_id}").json()["round_id"]
    left.bet(table_id, "red", 2000)
    right.bet(table_id, "green", 1000)
    expect(dealer_page.locator(".dealer-bets")).to_contain_text(right.name)
    dealer_page.get_by_role("button", name="No more bets").click()
    # Red K K 5, Green 9 4 2: typed all at once, then Enter.
    dealer_page.get_by_label("Card").fill("ks kh 5d 9c 4c 2s")
    dealer_page.get_by_label("Card").press("Enter")
    expect(dealer_page.locator("#next-needed")).to_have_text("No card is wanted now.")
    assert left.http.post(f"/api/rounds/{round_id}/peek/done").status_code == 200
    wait_for(lambda: left.http.get(f"/api/rounds/{round_id}").json()["state"] == "settled")

    settlement = dealer_page.locator(".settlement")
    expect(settlement.locator('[data-side="left"] caption')).to_contain_text(
        "Left side (seats 1–6)"
    )
    expect(settlement.locator('[data-side="right"] caption')).to_contain_text(
        "Right side (seats 7–12)"
    )
    record = left.http.get(f"/api/rounds/{round_id}").json()
    assert record["result"]["winner"] == "red"  # Red K | K 5 (Kings split) beats Green 4 | 9 2
    paid = {b["seat"]: b["payout_cents"] for b in record["bets"]}
    assert paid == {2: 3900, 9: 0}  # 20.00 on Red paid 19:20 (1.00 commission); Green lost
    left_row = settlement.locator('[data-side="left"] tr[data-seat="2"]')
    right_row = settlement.locator('[data-side="right"] tr[data-seat="9"]')
    expect(left_row.locator(".pay")).to_have_text("19.00")
    expect(left_row.locator(".commission")).to_have_text("1.00")
    expect(left_row.locator(".collect")).to_have_text("—")
    expect(right_row.locator(".collect")).to_have_text("10.00")
    expect(right_row.locator(".pay")).to_have_text("—")
    expect(settlement.locator('[data-side="left"] [data-total="pay"]')).to_have_text("19.00")
    expect(settlement.locator('[data-side="right"] [data-total="collect"]')).to_have_text("10.00")
    assert_fits(dealer_page)
    hands = dealer_page.locator(".felt-panel")
    expect(hands.locator('section[data-hand="red"] .house-way')).to_have_text(
        f"House way: {record['result']['red']['rule']}"
    )


def test_the_surveillance_panel_shows_a_continuous_shoes_exact_edges(
    casino: Server, dealer_page: Page, screenshots: pathlib.Path
) -> None:
    admin = casino.player(role="admin")
    made = admin.http.post("/api/tables", json=ONE_DECK_SHOE)
    table_id = made.json()["id"]
    dealer = casino.player(role="dealer")
    sign_in(dealer_page, casino.url, dealer.name)
    dealer_page.goto(f"{casino.url}/dealer/{table_id}")
    panel = dealer_page.locator(".surveillance")
    expect(panel).to_contain_text("52 cards left, 0 dealt")
    full = dealer.http.get(f"/api/tables/{table_id}/shoe").json()
    for bet in full["bets"]:
        expect(panel.locator(f'tr[data-bet="{bet["bet"]}"] code')).to_have_text(
            bet["house_edge_exact"]
        )

    ann = casino.player()
    ann.sit(table_id)
    ann.bet(table_id, "player", 500, key=uuid.uuid4().hex)
    dealer_page.get_by_role("button", name="No more bets").click()
    dealer_page.get_by_label("Card").fill("9s 2h kd 3c")
    dealer_page.get_by_label("Card").press("Enter")
    expect(panel).to_contain_text("48 cards left, 4 dealt")
    after = dealer.http.get(f"/api/tables/{table_id}/shoe").json()
    banker = next(b for b in after["bets"] if b["bet"] == "banker")
    expect(panel.locator('tr[data-bet="banker"] code')).to_have_text(banker["house_edge_exact"])
    shoot(dealer_page, screenshots, "dealer-surveillance")
    assert banker["house_edge_exact"] != next(
        b for b in full["bets"] if b["bet"] == "banker")["house_edge_exact"]  # fmt: skip


def test_a_dealer_types_lo_ball_tiles_and_dice(casino: Server, dealer_page: Page) -> None:
    admin = casino.player(role="admin")
    made = admin.http.post("/api/tables", json={
        "game": "lo-ball", "min_bet_cents": 100, "max_bet_cents": 10_000, "mode": "live"})  # fmt: skip
    table_id = made.json()["id"]
    dealer = casino.player(role="dealer")
    sign_in(dealer_page, casino.url, dealer.name)
    dealer_page.goto(f"{casino.url}/dealer/{table_id}")
    ann = casino.player()
    ann.sit(table_id)
    round_id = ann.http.get(f"/api/tables/{table_id}").json()["round_id"]
    ann.bet(table_id, "hi-card", 1000)
    dealer_page.get_by_role("button", name="No more bets").click()
    expect(dealer_page.locator("#next-needed")).to_contain_text("Next: Dealer tile 1")
    for tile in ("12", "2-3", "45"):  # the dealer's three, as typed: taken when complete
        dealer_page.get_by_label("Tile", exact=True).press_sequentially(tile)
    expect(dealer_page.locator("#next-needed")).to_contain_text("Next: Seat 1 tile 1")
    dealer_page.get_by_label("Tile", exact=True).fill("11 77 36")
    dealer_page.get_by_label("Tile", exact=True).press("Enter")
    expect(dealer_page.locator("#next-needed")).to_contain_text("Next: Die 1")  # 1-1 and 7-7 held
    for die in "235":
        dealer_page.get_by_label("Die", exact=True).press_sequentially(die)
    wait_for(lambda: ann.http.get(f"/api/rounds/{round_id}").json()["state"] == "settled")
    # The page draws the layout and the settlement from the same events: once it shows the
    # pay, the last die is on the layout too (the socket may deliver it after the API).
    expect(dealer_page.locator('.settlement tr[data-seat="1"] .pay')).to_have_text("70.00")
    layout = dealer_page.locator(".felt-panel")
    assert visible_cards(layout.locator('section[data-hand="seat1"]')) == [
        "Tile 1-1", "Tile 7-7", "Tile 3-6"]  # fmt: skip
    assert visible_cards(layout.locator('section[data-hand="dice"]')) == [
        "Die showing 2", "Die showing 3", "Die showing 5"]  # fmt: skip


COVERED = """(panel) => [...panel.querySelectorAll('button, input, a')].filter((e) => e.offsetParent)
  .filter((e) => { const r = e.getBoundingClientRect();
                   const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                   return !(hit && (hit === e || e.contains(hit))); })
  .map((e) => e.textContent || e.id)"""


def test_the_console_on_a_phone_stacks_pay_and_collect_and_covers_no_control(
    casino: Server, dealer_page: Page
) -> None:
    dealer = casino.player(role="dealer")
    sign_in(dealer_page, casino.url, dealer.name)
    dealer_page.set_viewport_size(PHONE)
    live = casino.live_table()
    dealer_page.goto(f"{casino.url}/dealer/{live}")
    ann, bob = casino.player(), casino.player()
    assert ann.sit(live, 1).status_code == 200 and bob.sit(live, 2).status_code == 200
    ann.bet(live, "banker", 10_000)
    bob.bet(live, "player", 2_500)
    expect(dealer_page.locator(".dealer-bets")).to_contain_text(bob.name)

    # What the console has to say is said in the panel it concerns, over nothing else.
    round_panel = dealer_page.locator(".round-panel")
    dealer_page.get_by_role("button", name="Void round").click()
    expect(dealer_page.locator("#void-message")).to_have_text("Say why the round is voided.")
    expect(dealer_page.get_by_label("Reason")).to_be_focused()
    for panel in (round_panel, dealer_page.locator(".void-panel")):
        panel.evaluate("e => e.scrollIntoView({ block: 'center' })")
        assert panel.evaluate(COVERED) == []
    assert dealer_page.locator("#toasts .toast").count() == 0

    dealer_page.get_by_role("button", name="No more bets").click()
    dealer_page.get_by_label("Card").fill("2s kd 3h 7c 9d")  # Player 4, Banker 7
    dealer_page.get_by_label("Card").press("Enter")
    settlement = dealer_page.locator(".settlement")
    expect(settlement).to_contain_text("Banker wins, 7 to 4")
    # One card a seat: the seat and its player, then Pay, Collect and Commission by name.
    first = settlement.locator('tr[data-seat="1"]')
    expect(first.locator(".commission")).to_have_text("5.00")
    expect(first.locator(".pay")).to_have_text("95.00")
    assert (
        first.locator(".commission").evaluate("e => getComputedStyle(e, '::before').content")
        == '"Commission"'
    )
    for cell in (
        first.locator(".pay"),
        first.locator(".commission"),
        settlement.locator('tr[data-seat="2"] .collect'),
    ):
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert dealer_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert settlement.evaluate("e => e.scrollWidth <= e.clientWidth")
    round_panel.evaluate("e => e.scrollIntoView({ block: 'center' })")
    assert round_panel.evaluate(COVERED) == []
