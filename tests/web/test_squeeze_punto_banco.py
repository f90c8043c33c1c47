"""A Punto Banco table with the squeeze, in the browser: the highest bettor on Player, then on
Banker, squeezes their side's cards (third cards too, each alone), and the page follows the
table's turns to the result."""

from __future__ import annotations

import pathlib

from playwright.sync_api import Page, expect

from tests.server.harness import Server
from tests.web.casino import result_panel, shoot
from tests.web.test_squeeze import squeezing  # noqa: F401  (the two-minute squeeze casino)

PAGE_TOKEN = "localStorage.setItem('baccara.token', {token!r})"


def test_each_side_is_squeezed_by_its_highest_bettor_and_played_to_the_result(
    squeezing: Server,  # noqa: F811
    page: Page,
    screenshots: pathlib.Path,
) -> None:
    casino = squeezing
    admin = casino.player(role="admin")
    made = admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 100,
                           "max_bet_cents": 10_000, "squeeze": True})  # fmt: skip
    assert made.status_code == 201, made.text
    table_id = int(made.json()["id"])
    ann = casino.player()
    page.add_init_script(PAGE_TOKEN.format(token=ann.token))
    page.goto(f"{casino.url}/tables/{table_id}")
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()
    assert ann.sit(table_id).status_code == 200
    assert ann.bet(table_id, "player", 500).status_code == 201
    assert ann.bet(table_id, "banker", 200).status_code == 201
    ann.http.post(f"/api/tables/{table_id}/deal")

    player_cards = page.locator('.hand-player svg.squeeze-card[data-squeeze="mine"]')
    expect(player_cards).to_have_count(2, timeout=20_000)  # Player's two, Ann's to squeeze
    expect(page.locator('.hand-banker svg.squeeze-card[data-squeeze="mine"]')).to_have_count(0)
    card = player_cards.first
    card.focus()
    for _ in range(3):
        card.press("ArrowDown")  # bent up from the bottom by the keys
    assert int(card.get_attribute("data-lift") or 0) > 0
    shoot(page, screenshots, "squeeze-punto-banco")
    card.press("Enter")  # turned over
    expect(page.locator(".hand-player svg.squeeze-card")).to_have_count(1)

    result = page.locator("section.result")
    turn = page.get_by_role("button", name="Turn them all")
    for _ in range(120):  # Player's last card, Banker's two, and each third card alone
        if result.is_visible():
            break
        if turn.is_visible():
            turn.click()
        page.wait_for_timeout(250)
    result_panel(page)
    played = ann.http.get("/api/me/history").json()[0]["round_id"]
    events = ann.http.get(f"/api/rounds/{played}").json()["events"]
    offered = [e for e in events if e["kind"] == "squeeze-offered"]
    assert [e["hand"] for e in offered][:2] == ["player", "banker"]
    assert all(e["player"] == ann.name for e in offered)
    assert [e["kind"] for e in events].count("squeeze-ended") == len(offered)
