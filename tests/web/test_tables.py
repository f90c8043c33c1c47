"""Each game at its table in Chromium: register, sit, bet with chips, deal, see the cards
and the result, and the balance after the round equal the balance before it, less the
stakes, plus what the round returned. Screenshots of each table at desktop and phone
size are left in tests/web/screenshots/."""

from __future__ import annotations

import pathlib
import re

import pytest
from playwright.sync_api import Page, expect

from tests.server.harness import Server
from tests.web.casino import (
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
    visible_cards,
)

GAMES = [
    (1, "punto-banco", "Punto Banco", [("banker", "5.00"), ("tie", "1.00"), ("player-pair", "1.00")]),
    (2, "redgreen", "RedGreen", [("red", "25.00"), ("bonus", "1.00"), ("red", "5.00")]),
    (3, "redgreen-mini", "Mini RedGreen", [("green", "5.00"), ("red", "1.00"), ("bonus", "1.00")]),
    (4, "lo-ball", "Lo-Ball", [("main", "5.00"), ("lo-card", "1.00"), ("hi-card", "1.00"), ("dice-hi", "1.00")]),
]  # fmt: skip
RECORD_FACES = """() => {
  window.faceCounts = [];
  const area = document.querySelector('.hands-area');
  new MutationObserver(() => {
    const names = [...area.querySelectorAll('[role=img]')].map((e) => e.getAttribute('aria-label'));
    const up = names.filter((n) => /^(Tile |Die showing|.* of )/.test(n)).length;
    if (window.faceCounts.at(-1) !== up) window.faceCounts.push(up);
  }).observe(area, { childList: true, subtree: true });
}"""
CARD_NAME = r"^(Ace|King|Queen|Jack|\d+) of (Spades|Hearts|Diamonds|Clubs)$"


@pytest.mark.parametrize(("table_id", "game", "name", "bets"), GAMES, ids=[g[1] for g in GAMES])
def test_a_round_at_each_table(
    casino: Server, page: Page, screenshots: pathlib.Path,
    table_id: int, game: str, name: str, bets: list[tuple[str, str]],
) -> None:  # fmt: skip
    register(page, casino.url)
    open_table(page, table_id, name)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator(".seat.mine")).to_have_count(1)
    before = balance(page)
    assert before == 100_000
    staked = 0
    for bet, amount in bets:
        place(page, bet, amount)
        staked += cents(amount)
    expect(page.get_by_label("Balance")).to_have_text(money(before - staked))
    page.evaluate(RECORD_FACES)
    page.get_by_role("button", name="Deal").click()

    if game == "redgreen":  # the highest bettor sees the hand they backed, then hands it back
        red = page.locator('section[data-hand="red"]')
        expect(red.get_by_text("Only you see these cards")).to_be_visible(timeout=15_000)
        assert all(re.match(CARD_NAME, c) for c in visible_cards(red))
        assert visible_cards(page.locator('section[data-hand="green"]')) == ["Face-down card"] * 3
        page.get_by_role("button", name="Hand the cards back").click()
    if game == "redgreen-mini":  # the highest bettor sets Green first, then squeezes Red
        page.get_by_role("button", name="Set Green first").click()
        page.get_by_role("button", name="Turn them all").click(timeout=20_000)

    panel = result_panel(page)
    shown_staked, returned, net = settled_amounts(page)
    assert shown_staked == staked and net == returned - staked
    expect(page.get_by_label("Balance")).to_have_text(money(before - staked + returned))
    assert balance(page) == before - staked + returned

    # The page's account of the round is the server's.
    round_id = panel.get_attribute("data-round-id")
    record = casino.client(token(page)).get(f"/api/rounds/{round_id}").json()
    assert record["state"] == "settled"
    assert sum(b["payout_cents"] for b in record["bets"]) == returned
    assert sum(b["amount_cents"] for b in record["bets"]) == staked
    assert (
        casino.client(token(page)).get("/api/me").json()["balance_cents"]
        == before - staked + returned
    )

    hands = page.locator(".hands-area")
    if game == "punto-banco":
        for hand in ("player", "banker"):
            drawn = visible_cards(page.locator(f'section[data-hand="{hand}"]'))
            assert drawn == [_card_name(c) for c in record["cards"][hand]]
        assert len(page.locator(".road-bead-plate .bead").all()) == 1
    elif game.startswith("redgreen"):
        for hand in ("red", "green"):
            box = page.locator(f'section[data-hand="{hand}"]')
            setting = record["result"][hand]
            assert visible_cards(box.locator(".front")) == [_card_name(setting["front"])]
            assert visible_cards(box.locator(".back")) == [_card_name(c) for c in setting["back"]]
            expect(box.locator(".house-way")).to_have_text(f"House way: {setting['rule']}")
        if game == "redgreen-mini":
            expect(page.locator('section[data-hand="green"] .chosen-note')).to_contain_text(
                "highest bettor"
            )
    else:
        assert visible_cards(page.locator('section[data-hand="dealer"]')) == [
            f"Tile {t}" for t in record["cards"]["dealer"]]  # fmt: skip
        assert visible_cards(page.locator('section[data-hand="dice"]')) == [
            f"Die showing {d}" for d in record["cards"]["dice"]]  # fmt: skip
    assert "Face-down" not in " ".join(visible_cards(hands))

    # The cards were turned as the events came: one by one at Punto Banco, both hands at
    # once at RedGreen (after the peek), the chosen hand then the squeezed one, turned all
    # at once, at Mini RedGreen, hand by hand at Lo-Ball.
    faces = page.evaluate("window.faceCounts")
    total = len(visible_cards(hands))
    if game == "redgreen-mini":  # the squeeze's cards, turned at once, may come in two messages
        assert 3 in faces and faces[-1] == 6 and faces == sorted(faces), faces
    else:
        steps = {
            "punto-banco": list(range(1, total + 1)),
            "redgreen": [3, 6],
            "lo-ball": list(range(3, total + 1, 3)),
        }[game]
        assert faces[-len(steps) :] == steps, faces

    for svg in page.locator("svg.tile").all():  # Lo-Ball tiles are twice as long as wide
        box = svg.bounding_box()
        assert box is not None and abs(box["height"] / box["width"] - 2) < 0.05
    shoot(page, screenshots, f"table-{game}")


def _card_name(code: str) -> str:
    ranks = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack"}
    suits = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
    return f"{ranks.get(code[:-1], code[:-1])} of {suits[code[-1]]}"
