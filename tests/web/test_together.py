"""Two people at one table, each in their own browser: each sees the other's bets as they
are placed, and at RedGreen the peek is seen by the highest bettor alone."""

from __future__ import annotations

import pathlib
import re

from playwright.sync_api import Page, expect

from tests.server.harness import Server
from tests.web.casino import (
    balance,
    money,
    open_table,
    place,
    register,
    result_panel,
    settled_amounts,
    visible_cards,
)

CARD_NAME = re.compile(r"^(Ace|King|Queen|Jack|\d+) of (Spades|Hearts|Diamonds|Clubs)$")


def test_each_player_sees_the_others_bets(casino: Server, page: Page, other: Page) -> None:
    ann = register(page, casino.url)
    bob = register(other, casino.url)
    for who in (page, other):
        open_table(who, 1, "Punto Banco")
        who.get_by_role("button", name="Take a seat").click()
        expect(who.locator(".seat.mine")).to_have_count(1)
    expect(page.locator('li.seat[data-seat="2"]')).to_contain_text(bob)
    expect(other.locator('li.seat[data-seat="1"]')).to_contain_text(ann)

    place(page, "banker", "25.00")
    ann_on_bob = other.locator(f'.table-bets li[data-player="{ann}"]')
    expect(ann_on_bob).to_contain_text("Banker 25.00")
    expect(other.locator("#others-banker")).to_have_text("Others 100 %")  # the others' share
    expect(other.locator("#stake-banker")).to_have_text("")

    place(other, "player", "5.00")
    place(other, "tie", "1.00")
    expect(page.locator(f'.table-bets li[data-player="{bob}"]')).to_contain_text(
        "Player 5.00 · Tie 1.00"
    )
    expect(page.locator("#others-player")).to_have_text("Others 83 %")  # 5.00 of bob's 6.00
    expect(page.locator("#others-tie")).to_have_text("Others 17 %")

    before = {"ann": balance(page) + 2500, "bob": balance(other) + 600}
    ready = other.locator(f'.table-bets li[data-player="{ann}"] .ready')
    expect(ready).to_be_hidden()  # its place kept, unseen and unsaid, until she is
    page.get_by_role("button", name="Deal").click()
    expect(ready).to_be_visible()
    expect(ready).to_have_text("ready")
    expect(page.get_by_text("Waiting for the other players")).to_be_visible()
    other.get_by_role("button", name="Deal").click()
    for who, name in ((page, "ann"), (other, "bob")):
        result_panel(who)
        staked, returned, _ = settled_amounts(who)
        expect(who.get_by_label("Balance")).to_have_text(money(before[name] - staked + returned))
    # Both saw the same cards.
    for hand in ("player", "banker"):
        selector = f'section[data-hand="{hand}"]'
        assert visible_cards(page.locator(selector)) == visible_cards(other.locator(selector))


def test_the_peek_is_the_highest_bettors_alone(
    casino: Server, page: Page, other: Page, screenshots: pathlib.Path
) -> None:
    ann = register(page, casino.url)
    register(other, casino.url)
    for who in (page, other):
        open_table(who, 2, "RedGreen")
        who.get_by_role("button", name="Take a seat").click()
    place(page, "red", "25.00")
    place(other, "green", "5.00")
    place(other, "bonus", "100.00")  # the Bonus does not count towards the peek
    page.get_by_role("button", name="Deal").click()
    other.get_by_role("button", name="Deal").click()

    red_ann = page.locator('section[data-hand="red"]')
    red_bob = other.locator('section[data-hand="red"]')
    expect(red_ann.get_by_text("Only you see these cards")).to_be_visible(timeout=15_000)
    expect(red_bob.get_by_text(f"{ann} is looking at Red")).to_be_visible()
    mine = red_ann.locator('svg.squeeze-card[data-squeeze="mine"]')  # hers to squeeze
    expect(mine).to_have_count(3)
    seen = [(card.get_attribute("aria-label") or "").split(":")[0] for card in mine.all()]
    assert len(seen) == 3 and all(CARD_NAME.match(name) for name in seen)
    assert visible_cards(red_bob) == [f"Face-down card, squeezed by {ann}"] * 3
    assert visible_cards(other.locator('section[data-hand="green"]')) == ["Face-down card"] * 3
    expect(other.get_by_role("button", name="Hand the cards back")).to_have_count(0)
    # Nothing in the other browser's page holds the cards' faces.
    for name in seen:
        assert name not in other.content()

    page.screenshot(path=str(screenshots / "peek-highest-bettor.png"))
    other.screenshot(path=str(screenshots / "peek-everyone-else.png"))
    page.get_by_role("button", name="Hand the cards back").click()
    result_panel(page)
    result_panel(other)
    front_back = other.locator('section[data-hand="red"] .front, section[data-hand="red"] .back')
    assert sorted(visible_cards(front_back)) == sorted(seen)
