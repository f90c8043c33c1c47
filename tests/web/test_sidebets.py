"""EZ Baccarat in Chromium: the lobby names the table by its rule set and lists its side
bets; the table lays out Dragon 7 and Panda 8 above the game's spots, each with its pays,
and lists every pay line beside the felt; a Dragon 7 bet is settled and shown as the
casino paid it, and Verify settles the round again in the browser from its cards."""

from __future__ import annotations

import pathlib
import re

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import PASSWORD, Server
from tests.web.casino import (
    Watch,
    balance,
    money,
    new_name,
    open_table,
    register,
    result_panel,
    shoot,
    token,
)
from tests.web.latin import latin_words
from tests.web.test_i18n_lobby import chinese_page
from tests.web.test_i18n_table import KEPT

EZ = 6
"""The default EZ Baccarat table."""
THREE_CARD_SEVEN = ["KS", "2C", "QS", "2D", "5H", "3S"]
"""Player K Q 5 (5) against Banker 2 2 3 (7 on three cards): Dragon 7 wins, Banker pushes."""


def side_spot(page: Page, name: str) -> object:
    return page.get_by_role("button", name=name, exact=True)


def test_the_lobby_names_the_ez_table_and_its_side_bets(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, casino.url)
    card = page.locator(f'li[data-table-id="{EZ}"]')
    expect(card.get_by_role("link", name="EZ Baccarat", exact=True)).to_be_visible()
    expect(card.locator('[data-fact="sidebets"]')).to_have_text("Side bets: Dragon 7, Panda 8")
    expect(page.locator('li[data-table-id="1"] [data-fact="sidebets"]')).to_have_count(0)
    shoot(page, screenshots, "ez-baccarat-lobby")


def test_a_dragon_7_bet_at_the_ez_table_is_settled(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, casino.url)
    open_table(page, EZ, "EZ Baccarat")
    dragon = page.get_by_role("button", name="Dragon 7", exact=True)
    panda = page.get_by_role("button", name="Panda 8", exact=True)
    expect(dragon.locator(".pays")).to_have_text("40 to 1")
    expect(panda.locator(".pays")).to_have_text("25 to 1")
    # The side bets' row above the game's, the Banker paying even money at EZ Baccarat.
    expect(page.locator(".spot-row").first.locator(".spot")).to_have_count(2)
    expect(page.locator(".spot-row.row-side")).to_contain_text("Dragon 7")
    expect(page.locator("#pays-banker")).to_have_text("1 to 1")
    pays = page.locator(".table-pays")
    expect(pays.get_by_role("heading", name="Side bets and pays")).to_be_visible()
    expect(pays).to_contain_text("Banker — push: Banker total 7, Banker 3 cards")
    expect(pays).to_contain_text("40 to 1: Banker wins, Banker total 7, Banker 3 cards")
    expect(pays).to_contain_text("25 to 1: Player wins, Player total 8, Player 3 cards")

    before = balance(page)
    dragon.click()
    expect(page.locator("#stake-dragon-7")).to_have_text("Your bet 1.00")
    page.get_by_role("button", name="Deal").click()
    panel = result_panel(page)
    row = panel.locator("table.payouts tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("th")).to_have_text("Dragon 7")
    http = casino.client(token(page))
    entry = http.get("/api/me/history").json()[0]
    (wager,) = entry["wagers"]
    assert wager["bet"] == "dragon-7" and wager["amount_cents"] == 100
    assert wager["payout_cents"] in (0, 4100)
    result = entry["result"]
    three_card_seven = (
        result["winner"] == "banker"
        and len(result["banker"]) == 3
        and (result["banker_score"] == 7)
    )
    assert wager["payout_cents"] == (4100 if three_card_seven else 0)
    expect(row).to_have_attribute("data-returned", str(wager["payout_cents"]))
    expect(page.get_by_label("Balance")).to_have_text(money(before - 100 + wager["payout_cents"]))


def test_a_dragon_7_win_at_a_live_ez_table_and_its_verify(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    """A live EZ table (so the dealer deals a three-card 7): Dragon 7 pays 40 to 1, its spot
    lights up, the Banker bet pushes; My rounds verifies the round, side bet included."""
    admin = casino.player(role="admin")
    made = admin.http.post("/api/tables", json={"game": "punto-banco", "mode": "live",
                           "min_bet_cents": 100, "max_bet_cents": 50_000,
                           "options": {"variant": "ez", "sidebets": ["dragon-7", "panda-8", "big"]}})  # fmt: skip
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    dealer = casino.player(role="dealer")
    casino.assign(dealer, table_id)
    register(page, casino.url)
    page.goto(f"{casino.url}/tables/{table_id}")
    expect(page.get_by_role("heading", name="EZ Baccarat", level=1)).to_be_visible()
    expect(page.get_by_role("button", name="Big", exact=True).locator(".pays")).to_have_text(
        "0.54 to 1"
    )
    page.get_by_role("radio", name="Chip 5.00").check()
    page.get_by_role("button", name="Dragon 7", exact=True).click()
    expect(page.locator("#stake-dragon-7")).to_have_text("Your bet 5.00")
    page.get_by_role("button", name="Banker", exact=True).click()
    expect(page.locator("#stake-banker")).to_have_text("Your bet 5.00")
    before = balance(page)
    assert dealer.http.post(f"/api/tables/{table_id}/close-betting").status_code == 200
    dealt = dealer.http.post(f"/api/tables/{table_id}/cards", json={"cards": THREE_CARD_SEVEN})
    assert dealt.status_code == 200 and dealt.json()["state"] == "settled", dealt.text
    panel = result_panel(page)
    rows = {
        row.locator("th").inner_text(): row for row in panel.locator("table.payouts tbody tr").all()
    }
    expect(rows["Dragon 7"]).to_have_attribute("data-returned", "20500")  # 5.00 at 40 to 1, back
    expect(rows["Banker"]).to_have_attribute("data-returned", "500")  # a three-card 7 pushes
    expect(rows["Banker"].locator("td[data-result]")).to_have_attribute("data-result", "push")
    expect(page.get_by_role("button", name="Dragon 7", exact=True)).to_have_class(
        re.compile(r"\bwinner\b")
    )
    expect(page.get_by_role("button", name="Panda 8", exact=True)).not_to_have_class(
        re.compile(r"\bwinner\b")
    )
    expect(page.get_by_label("Balance")).to_have_text(money(before + 20500 + 500))
    shoot(page, screenshots, "ez-baccarat")

    page.goto(f"{casino.url}/history")
    article = page.locator("article.recall").first
    expect(article.locator(".payouts")).to_contain_text("Dragon 7")
    article.get_by_role("button", name="Verify").click()
    verdict = article.locator(".verify-result")
    expect(verdict).to_have_attribute("data-verified", "true")
    expect(verdict).to_have_attribute("data-settled", "true")


def test_the_rules_of_the_ez_table_give_each_side_bets_edge(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, casino.url)
    page.goto(f"{casino.url}/rules/punto-banco?table={EZ}")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"EZ Baccarat at table {EZ}: rules and house edges"
    )
    dragon = page.locator('tr[data-bet="dragon-7"]')
    expect(dragon.locator("th")).to_have_text("Dragon 7")
    expect(dragon.locator(".edge")).to_have_text("7.6113 %")
    expect(dragon).to_contain_text("Banker wins, Banker total 7, Banker 3 cards: 40 to 1")
    banker = page.locator('tr[data-bet="banker"]')
    expect(banker).to_contain_text("Banker total 7, Banker 3 cards: push")
    expect(page.locator('[data-rule="variant"] dd')).to_contain_text("EZ Baccarat")
    expect(page.locator('[data-rule="sidebets"] dd')).to_contain_text("Dragon 7, Panda 8")
    shoot(page, screenshots, "ez-baccarat-rules")


def test_the_ez_table_reads_in_chinese(
    casino: Server, browser: Browser, watch: Watch, screenshots: pathlib.Path
) -> None:
    """The side bets' names and every pay line come from the catalog's words, term by term:
    nothing but the rule set's own "EZ" is left in English."""
    page = chinese_page(browser, watch, "zh-CN")
    page.goto(f"{casino.url}/sign-in")
    name = new_name()
    page.locator("#username").fill(name)
    page.locator("#password").fill(PASSWORD)
    page.locator("button[value=register]").click()
    expect(page.locator("#sign-out")).to_be_visible(timeout=20_000)
    page.goto(f"{casino.url}/tables/{EZ}")
    expect(page.get_by_role("heading", name="EZ百家乐", level=1)).to_be_visible()
    expect(page.get_by_role("button", name="龙7", exact=True).locator(".pays")).to_have_text(
        "1 赔 40"
    )
    pays = page.locator(".table-pays")
    expect(pays).to_contain_text("边注与赔率")
    expect(pays).to_contain_text("1 赔 40：庄赢，庄7点，庄3张牌")
    expect(pays).to_contain_text("庄 — 退还本金：庄7点，庄3张牌")
    page.wait_for_load_state("networkidle")
    assert latin_words(page, [name, "EZ", *KEPT]) == []
    shoot(page, screenshots, "ez-baccarat-zh-hans")
