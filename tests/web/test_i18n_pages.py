"""The player's own pages and the staff's read in Chinese, Simplified and Traditional:
the account (limits, reality check, self-exclusion), My rounds with its provably-fair
check, the rules, the dealer's console and the back office (report, audit, dealers).
Nothing but the brand, card codes, hashes and the names people chose is left in Latin
letters, and the words a Chinese player looks for are there."""

from __future__ import annotations

import pathlib
import uuid

from playwright.sync_api import Page, expect

from tests.server.harness import Server
from tests.web.casino import register, shoot, sign_in, sign_out, token
from tests.web.latin import latin_words
from tests.web.test_history import play_bets

WORDS = {
    "zh-Hans": {
        "account": ["输额上限", "现实提醒", "暂停游戏"],
        "history": ["可验证公平", "结算相符", "验证"],
        "rules": ["规则与庄家优势", "庄家优势", "例牌"],
        "dealer": ["荷官控制台", "停止下注", "下一张"],
        "admin": ["营运报表", "审计记录与钱包", "荷官与作废"],  # report, audit, dealers
    },
    "zh-Hant": {
        "account": ["輸額上限", "現實提醒", "暫停遊戲"],
        "history": ["可驗證公平", "結算相符", "驗證"],
        "rules": ["規則與莊家優勢", "莊家優勢", "例牌"],
        "dealer": ["荷官控制台", "停止下注", "下一張"],
        "admin": ["營運報表", "審計記錄與錢包", "荷官與作廢"],
    },
}


KEPT = ("UTC", "SHA", "Shackleford", "z")
"""What every language writes alike on these pages: the time standard, the hash's name, and
the analyst a rule document quotes."""


def english_left(page: Page, names: list[str], root: str = "main") -> list[tuple[str, str]]:
    page.wait_for_load_state("networkidle")
    return latin_words(page, [*names, *KEPT], root)


def choose(page: Page, code: str) -> None:
    page.locator("#language").select_option(code)
    expect(page.locator("html")).to_have_attribute("lang", code)


def sign_in_as(page: Page, url: str, name: str) -> None:
    """Sign out and in as someone else, through the English forms the helpers know."""
    choose(page, "en")
    sign_out(page)
    sign_in(page, url, name)


def test_the_players_and_the_staffs_pages_read_in_chinese(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    name = register(page, casino.url)
    http = casino.client(token(page))
    play_bets(http, 1, [("banker", 1000), ("player", 500)])
    admin, dealer = casino.player(role="admin"), casino.player(role="dealer")
    live = casino.live_table()
    http.post(f"/api/tables/{live}/seat", json={})
    placed = http.post(f"/api/tables/{live}/bets", json={"bet": "banker", "amount_cents": 2500},
                       headers={"Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
    assert placed.status_code == 201, placed.text
    assert dealer.http.post(f"/api/tables/{live}/close-betting").status_code == 200
    assert dealer.http.post(f"/api/tables/{live}/cards", json={"cards": ["9S"]}).status_code == 200
    people = [name, admin.name, dealer.name]
    for code, words in WORDS.items():
        choose(page, code)
        page.goto(f"{casino.url}/account")
        expect(page.locator("#played-today")).to_be_visible()
        for word in words["account"]:
            expect(page.locator("main")).to_contain_text(word)
        assert english_left(page, people) == []
        page.locator("#exclusion-days").select_option("365")
        page.locator(".exclusion button[type=submit]").click()
        expect(page.locator("#exclusion-confirm")).to_be_visible()
        assert english_left(page, people, "#exclusion-confirm") == []
        page.keyboard.press("Escape")
        shoot(page, screenshots, f"i18n-account-{code}")

        page.goto(f"{casino.url}/history")
        article = page.locator("article.recall").last  # the settled round; the live one is in play
        article.locator(".verify-box").locator("..").get_by_role("button").click()
        expect(article.locator(".verify-result")).to_have_attribute("data-verified", "true")
        article.locator("details").first.evaluate("(d) => { d.open = true; }")
        for word in words["history"]:
            expect(page.locator("main")).to_contain_text(word)
        assert english_left(page, people) == []
        shoot(page, screenshots, f"i18n-history-{code}")

        for path in ("/rules/punto-banco?table=1", "/rules/redgreen", "/rules/lo-ball"):
            page.goto(f"{casino.url}{path}")
            expect(page.locator("table.edges")).to_be_visible()
            assert english_left(page, people) == [], path
        page.goto(f"{casino.url}/rules/punto-banco")
        for word in words["rules"]:
            expect(page.locator("main")).to_contain_text(word)
        shoot(page, screenshots, f"i18n-rules-{code}")

    sign_in_as(page, casino.url, admin.name)
    for code, words in WORDS.items():
        choose(page, code)
        pages = {"report": "#report-tables", "audit": "#audit-trail tbody tr", "dealers": "#roster"}
        for (path, shown), heading in zip(pages.items(), words["admin"], strict=True):
            page.goto(f"{casino.url}/admin/{path}")
            expect(page.locator(shown).first).to_be_visible()
            expect(page.locator("h1")).to_have_text(heading)
            assert english_left(page, people) == [], path
            shoot(page, screenshots, f"i18n-admin-{path}-{code}")

    sign_in_as(page, casino.url, dealer.name)
    for code, words in WORDS.items():
        choose(page, code)
        page.goto(f"{casino.url}/dealer/{live}")
        expect(page.locator("#next-needed")).not_to_be_empty()
        for word in words["dealer"]:
            expect(page.locator("main")).to_contain_text(word)
        assert english_left(page, people) == []
        shoot(page, screenshots, f"i18n-dealer-{code}")
