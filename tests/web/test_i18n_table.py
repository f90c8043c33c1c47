"""A table read in Chinese, Simplified and Traditional, at every game: the felt, the bet
spots, the seats, the round's steps (a peek, a choice of hand) and its result, with the
call composed in the page from the cards, not the casino's English line. Nothing but
the brand, card codes, tiles, hashes and the player's own name is left in Latin letters,
and the words a Chinese player looks for are there."""

from __future__ import annotations

import pathlib
import re

from playwright.sync_api import Page, expect

from tests.server.harness import Server
from tests.web.casino import register, result_panel, shoot
from tests.web.latin import latin_words

KEPT = ["SHA", "Enter"]
"""Written alike in every language: the hash's name (SHA-256) beside the round's seed hash,
and the name on a key of the keyboard (the squeeze's help)."""

ROUNDS = [
    # (language, table, its game's name, the spot bet on, words the page must show)
    ("zh-Hans", 1, "百家乐", "banker", ["庄", "闲", "和", "庄对", "请下注", "您的下注", "派彩"]),
    ("zh-Hans", 2, "红绿百家乐", "red", ["红", "绿", "奖金", "左侧", "庄家规则", "奖金牌型"]),
    ("zh-Hant", 3, "迷你紅綠百家樂", "green", ["紅", "綠", "獎金", "先擺牌", "您的下注"]),
    ("zh-Hant", 4, "骨牌小點百家樂", "main", ["莊家", "主注", "骰子", "明牌", "號座位"]),
]

WIN = {"zh-Hans": "赢", "zh-Hant": "贏"}


def choose(page: Page, code: str) -> None:
    page.locator("#language").select_option(code)
    expect(page.locator("html")).to_have_attribute("lang", code)


def play_out(page: Page, kept: list[str]) -> list[str]:
    """Deal, then answer what the table asks of the highest bettor (hand the peeked cards
    back, choose the hand set first, turn the squeezed cards) until the result shows;
    the Latin words the page showed while it asked are returned."""
    page.locator(".actions .action.primary").click()
    panel = page.locator("section.result")
    left: list[str] = []
    for _ in range(120):
        if panel.is_visible():
            break
        asked = page.locator(".decision-box button").first
        if asked.is_visible():
            left += [text for text, _ in latin_words(page, kept)]
            asked.click()
        page.wait_for_timeout(500)
    result_panel(page)
    return left


def test_a_table_reads_in_chinese_at_every_game(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    name = register(page, casino.url)
    for code, table, game, bet, words in ROUNDS:
        choose(page, code)
        page.goto(f"{casino.url}/tables/{table}")
        expect(page.get_by_role("heading", name=game, level=1)).to_be_visible()
        expect(page.locator(".conn")).to_have_attribute("data-state", "live")
        page.locator(f".spot-{bet}").click()
        expect(page.locator(f"#stake-{bet}")).to_have_text(re.compile(r"^您的注 "))
        assert latin_words(page, [name, *KEPT]) == [], f"{code} table {table} while betting"
        assert play_out(page, [name, *KEPT]) == [], f"{code} table {table} asking"
        panel = result_panel(page)
        expect(panel.locator(".payouts")).to_be_visible()
        page.wait_for_timeout(1_000)  # the last cards turned, the roads drawn
        for word in words:
            expect(page.locator("main")).to_contain_text(word)
        # A winning spot's badge is drawn by CSS from the spot's word for it.
        expect(page.locator(".spot").first).to_have_attribute("data-badge", WIN[code])
        for won in page.locator('.spot[data-result="win"]').all():
            drawn = won.evaluate("(e) => getComputedStyle(e, '::after').content")
            assert drawn == f'"{WIN[code]}" / ""'  # drawn, with no words for a screen reader
        assert latin_words(page, [name, *KEPT]) == [], f"{code} table {table} settled"
        shoot(page, screenshots, f"i18n-table-{table}-{code}")
