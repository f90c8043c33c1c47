"""The table holds still: a round's result shows over the cards, never between them and
the bet spots, so nothing the player taps next moves; the cards take a place kept for
them; chips and labels on a spot do not cover each other on a phone; and what cannot be
used now (a chip above the balance, a spot while betting is closed, Deal before a bet)
looks it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.server.harness import Server
from tests.web.casino import (
    DESKTOP,
    PHONE,
    SETTLED,
    open_table,
    place,
    register,
    result_panel,
    settled_amounts,
    spot,
    token,
)

LIVE = 5
"""The default live Punto Banco table, 5.00 to 1,000.00."""

SHIFTS = """() => {
  window.layoutShifts = [];
  const from = performance.now();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.startTime < from) continue; // the page's loading is not the round
      window.layoutShifts.push({
        value: entry.value, recent: entry.hadRecentInput,
        sources: (entry.sources || []).map((s) => {
          const n = s.node;
          const what = n && n.nodeType === 1 ? `${n.tagName.toLowerCase()}.${[...n.classList].join(".")}` : String(n && n.nodeName);
          return `${what} ${JSON.stringify(s.previousRect)} -> ${JSON.stringify(s.currentRect)}`;
        }),
      });
    }
  }).observe({ type: "layout-shift", buffered: true });
}"""
"""Records every layout shift of the page from now on, those right after a tap included
(the usual measure leaves them out, and a jump under the finger is the one that hurts)."""

SHIFTED = "() => window.layoutShifts"

TABLES = [
    (1, "Punto Banco", [("banker", "5.00"), ("player-pair", "1.00")]),
    (2, "RedGreen", [("red", "25.00"), ("bonus", "1.00")]),
    (3, "Mini RedGreen", [("green", "5.00"), ("bonus", "1.00")]),
]
SIZES = {"desktop": DESKTOP, "phone": PHONE}


def shifted(page: Page) -> list[Any]:
    """Every layout shift recorded since SHIFTS ran."""
    return list(page.evaluate(SHIFTED))


def play_through_the_decisions(page: Page, name: str) -> None:
    """The highest bettor's part of a RedGreen round: hand the peeked cards back, or
    choose the hand that is set first and turn the other's cards at once rather than
    wait out the squeeze."""
    if name == "RedGreen":
        page.get_by_role("button", name="Hand the cards back").click(timeout=15_000)
    if name == "Mini RedGreen":
        page.get_by_role("button", name="Set Green first").click(timeout=15_000)
        page.get_by_role("button", name="Turn them all").click(timeout=15_000)


@pytest.mark.parametrize("size", SIZES, ids=list(SIZES))
@pytest.mark.parametrize(("table_id", "name", "bets"), TABLES, ids=[t[1] for t in TABLES])
def test_a_whole_round_moves_nothing_on_the_page(
    casino: Server, page: Page, table_id: int, name: str, bets: list[tuple[str, str]], size: str
) -> None:
    width, height = SIZES[size]["width"], SIZES[size]["height"]
    page.set_viewport_size({"width": width, "height": height})
    register(page, casino.url)
    open_table(page, table_id, name)
    expect(page.locator(".table-bets")).to_have_text("No bets yet.")
    page.evaluate(SHIFTS)
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator(".seat.mine")).to_have_count(1)
    for bet, amount in bets:
        place(page, bet, amount)
    page.get_by_role("button", name="Deal").click()
    expect(page.locator(".table-bets li.mine .ready")).to_be_visible()
    page.screenshot(path=f"/tmp/shots-steady/{table_id}-{size}-ready.png")
    play_through_the_decisions(page, name)
    result_panel(page)
    settled_amounts(page)
    page.screenshot(path=f"/tmp/shots-steady/{table_id}-{size}-result.png")
    first, amount = bets[0]
    place(page, first, amount)
    expect(page.locator("section.result")).to_be_hidden()
    page.screenshot(path=f"/tmp/shots-steady/{table_id}-{size}-next.png")
    shifts = shifted(page)
    assert shifts == [], "\n".join(f"{s['value']:.4f} {s['recent']} {s['sources']}" for s in shifts)


def on_the_felt(page: Page, bet: str) -> tuple[float, float, float, float]:
    """Where a spot is on the felt (the page's header is not the table's to keep still)."""
    box, felt = spot(page, bet).bounding_box(), page.locator(".felt").bounding_box()
    assert box and felt
    return (box["x"] - felt["x"], box["y"] - felt["y"], box["width"], box["height"])


def test_the_result_is_over_the_cards_readable_and_leaves_the_spots_clear(
    casino: Server, page: Page
) -> None:
    for width, height in ((DESKTOP["width"], DESKTOP["height"]), (PHONE["width"], PHONE["height"])):
        page.set_viewport_size({"width": width, "height": height})
        register(page, casino.url)
        open_table(page, 1, "Punto Banco")
        for bet, amount in (
            ("banker", "5.00"),
            ("player", "1.00"),
            ("tie", "1.00"),
            ("player-pair", "1.00"),
        ):
            place(page, bet, amount)
        before = on_the_felt(page, "banker")
        page.get_by_role("button", name="Deal").click()
        panel = result_panel(page)
        settled_amounts(page)
        box, cards = panel.bounding_box(), page.locator(".hands-area").bounding_box()
        assert box and cards and before
        assert (box["y"], box["height"]) == (
            cards["y"],
            cards["height"],
        )  # over the cards, no taller
        for bet in ("banker", "player", "tie", "player-pair", "banker-pair"):
            spot_box = spot(page, bet).bounding_box()
            assert spot_box and spot_box["y"] >= box["y"] + box["height"]  # never over a spot
        assert on_the_felt(page, "banker") == before  # the spots did not move
        # The headline and the balance change first; every bet's line within reach.
        expect(panel.locator("h2")).to_be_in_viewport()
        expect(panel.locator(".net")).to_be_in_viewport()
        rows = panel.locator(".payouts tbody tr")
        expect(rows).to_have_count(4)
        for row in rows.all():
            row.scroll_into_view_if_needed()
            expect(row).to_be_in_viewport()
            inside = row.bounding_box()
            shown = panel.bounding_box()
            assert inside and shown
            assert (
                shown["y"] - 1 <= inside["y"]
                and inside["y"] + inside["height"] <= shown["y"] + shown["height"] + 1
            )
        assert on_the_felt(page, "banker") == before
        page.get_by_role("button", name="Sign out").click()
        expect(page.get_by_role("link", name="Sign in")).to_be_visible()


LABEL_AND_STACK = """(button) => {
  const rect = (r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
  const range = document.createRange();
  range.selectNodeContents(button.querySelector(".spot-name"));
  const words = [...range.getClientRects()].map(rect);
  const chips = [...button.querySelectorAll(".chip-stack > *")].map((e) => rect(e.getBoundingClientRect()));
  return { words, chips };
}"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


@pytest.mark.parametrize(("table_id", "name", "bets"), [
    (1, "Punto Banco", ["player-pair", "banker-pair", "tie", "player", "banker"]),
    (2, "RedGreen", ["bonus", "red", "green"]),
])  # fmt: skip
def test_on_a_phone_the_chips_on_a_spot_leave_its_name_readable(
    casino: Server, page: Page, table_id: int, name: str, bets: list[str]
) -> None:
    page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
    register(page, casino.url)
    open_table(page, table_id, name)
    for bet in bets:
        place(page, bet, "100.00")  # a tall stack: 100 is one chip, so 100 more makes two
    for bet in bets:
        place(page, bet, "25.00")
        found = spot(page, bet).evaluate(LABEL_AND_STACK)
        assert found["words"] and len(found["chips"]) >= 3, found
        for word in found["words"]:
            for chip in found["chips"]:
                assert not _overlap(word, chip), f"{bet}: the chips cover its name: {word} {chip}"
    page.screenshot(path="/tmp/shots-steady/chips-phone.png")


def test_a_chip_worth_more_than_the_balance_cannot_be_chosen_until_it_is_covered(
    casino: Server, page: Page
) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")  # chips 1, 5, 25, 100, 500; balance 1,000.00
    chip = page.get_by_role("radio", name="Chip 500.00")
    place(page, "banker", "500.00")  # 500.00 left: the 500 chip is still covered
    expect(chip).to_be_enabled()
    expect(chip).to_be_checked()
    place(page, "player", "1.00")  # 499.00 left
    expect(chip).to_be_disabled()
    assert chip.locator("xpath=..").evaluate("(e) => getComputedStyle(e).cursor") == "not-allowed"
    expect(page.get_by_role("radio", name="Chip 100.00")).to_be_enabled()
    face = chip.locator("xpath=../span")
    assert float(face.evaluate("(e) => getComputedStyle(e).opacity")) < 0.5

    place(page, "tie", "100.00")  # in hand: 100; 399.00 left
    page.get_by_role("radio", name="Chip 100.00").check()
    page.get_by_role("button", name="Clear").click()
    expect(page.get_by_label("Balance")).to_have_text("1,000.00")
    expect(chip).to_be_enabled()  # back when the balance allows
    chip.check()
    expect(chip).to_be_checked()


STYLE = """(e) => { const s = getComputedStyle(e);
  return { opacity: Number(s.opacity), cursor: s.cursor, background: s.backgroundColor, color: s.color,
           filter: s.filter }; }"""


def _luminance(css: str) -> float:
    """The relative luminance of an rgb()/rgba() colour, alpha taken as a share of it."""
    parts = [
        float(p) for p in css[css.index("(") + 1 : css.index(")")].replace("/", ",").split(",")
    ]
    r, g, b = (p / 255 for p in parts[:3])
    alpha = parts[3] if len(parts) > 3 else 1.0
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) * alpha


def test_what_cannot_be_used_now_looks_it(casino: Server, page: Page) -> None:
    for width, height in ((DESKTOP["width"], DESKTOP["height"]), (PHONE["width"], PHONE["height"])):
        page.set_viewport_size({"width": width, "height": height})
        register(page, casino.url)
        open_table(page, 1, "Punto Banco")
        deal = page.get_by_role("button", name="Deal")
        expect(deal).to_be_disabled()  # no bet yet
        idle = deal.evaluate(STYLE)
        banker = spot(page, "banker")
        expect(banker).to_have_attribute("aria-disabled", "false")
        open_look = banker.evaluate(STYLE)
        assert open_look["cursor"] == "pointer" and open_look["opacity"] == 1
        place(page, "banker", "5.00")
        expect(deal).to_be_enabled()
        ready = deal.evaluate(STYLE)
        # Disabled, Deal is muted: a darker face and dimmer ink than when it can be pressed.
        assert (
            _luminance(idle["background"]) * idle["opacity"]
            < _luminance(ready["background"]) * ready["opacity"] / 3
        )
        assert _luminance(idle["color"]) * idle["opacity"] < 0.6
        assert idle["cursor"] == "not-allowed"

        # Betting closed: the spots look it until the next round opens. At the live table,
        # where the round waits for its dealer's cards, however fast the machine deals.
        page.get_by_role("link", name="Lobby").click()
        open_table(page, LIVE, "Punto Banco")
        place(page, "banker", "5.00")
        croupier = casino.player(role="dealer")
        assert croupier.http.post(f"/api/tables/{LIVE}/close-betting").status_code == 200
        expect(banker).to_have_attribute("aria-disabled", "true")
        expect(banker).to_be_disabled()
        page.wait_for_function(SETTLED)  # the muting's transition over
        closed = banker.evaluate(STYLE)
        assert closed["cursor"] == "not-allowed" and closed["opacity"] < 0.9
        round_id = croupier.http.get(f"/api/tables/{LIVE}").json()["round_id"]
        voided = croupier.http.post(f"/api/rounds/{round_id}/void", json={"reason": "a test"})
        assert voided.status_code == 200, voided.text
        expect(banker).to_have_attribute("aria-disabled", "false")  # the next round takes bets

        http = casino.client(token(page))
        assert http.post("/api/me/self-exclusion", json={"days": 1}).status_code == 200
        page.reload()  # excluded: the spots say so
        expect(page.locator("#table-notice")).to_contain_text("No bets: you have excluded yourself")
        expect(banker).to_have_attribute("aria-disabled", "true")
        assert banker.evaluate(STYLE)["cursor"] == "not-allowed"
        page.get_by_role("button", name="Sign out").click()
        expect(page.get_by_role("link", name="Sign in")).to_be_visible()


def test_the_result_folds_away_to_show_the_cards_and_opens_again(
    casino: Server, page: Page
) -> None:
    for width, height in ((DESKTOP["width"], DESKTOP["height"]), (PHONE["width"], PHONE["height"])):
        page.set_viewport_size({"width": width, "height": height})
        register(page, casino.url)
        open_table(page, 1, "Punto Banco")
        place(page, "banker", "5.00")
        before = on_the_felt(page, "banker")
        page.get_by_role("button", name="Deal").click()
        panel = result_panel(page)
        cards = page.locator('section[data-hand="player"] [role=img]').first
        open_box = panel.bounding_box()
        assert open_box
        page.get_by_role("button", name="See the cards").click()
        fold = page.get_by_role("button", name="Show the result")
        expect(fold).to_have_attribute("aria-expanded", "false")
        expect(panel.locator("h2")).to_be_visible()  # the headline and balance change stay
        expect(panel.locator(".net")).to_be_visible()
        expect(panel.locator(".payouts")).to_be_hidden()
        strip, card = panel.bounding_box(), cards.bounding_box()
        assert strip and card and strip["height"] < open_box["height"] / 2
        middle = card["y"] + card["height"] / 2
        assert not strip["y"] <= middle <= strip["y"] + strip["height"]  # the cards show
        page.screenshot(path=f"/tmp/shots-steady/folded-{width}.png")
        assert on_the_felt(page, "banker") == before  # nothing below moved
        fold.click()
        expect(page.get_by_role("button", name="See the cards")).to_have_attribute(
            "aria-expanded", "true"
        )
        expect(panel.locator(".payouts")).to_be_visible()
        page.get_by_role("button", name="Sign out").click()
        expect(page.get_by_role("link", name="Sign in")).to_be_visible()
