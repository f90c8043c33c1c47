"""The casino's front door read in Chinese, Simplified and Traditional: the sign-in page,
the lobby with every table's state and last results, the roads of each game on its table
page, the screen of several tables, a table that does not exist and the casino's own 404
page. A first visit reads in the language its browser asks for (a context's locale sends
its Accept-Language), and nothing but the brand, figures and the player's own name is
left in Latin letters."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.harness import PASSWORD, Server, running
from tests.web.casino import DESKTOP, Watch, new_name, shoot
from tests.web.conftest import casino_settings
from tests.web.latin import latin_words
from tests.web.test_history import play_round

PUNTO_BANCO, REDGREEN, LO_BALL = 1, 2, 4


@dataclass(frozen=True)
class Reading:
    """What a page in one script of Chinese says, by the words a player looks for."""

    locale: str
    sign_in: list[str]
    lobby: list[str]
    roads: dict[int, list[str]]
    multi: str
    missing: str
    not_found: str


WORDS = {
    "zh-Hans": Reading(
        "zh-CN", ["登录开始游戏", "用户名", "注册"], ["牌桌", "限红", "真人荷官", "使用八副牌"],
        {PUNTO_BANCO: ["珠盘路", "大眼仔", "庄问路"], REDGREEN: ["红", "三条"], LO_BALL: ["庄家点数", "围骰"]},
        "多桌同玩", "99 号桌不存在", "找不到页面",
    ),
    "zh-Hant": Reading(
        "zh-TW", ["登入開始遊戲", "使用者名稱", "註冊"], ["牌桌", "限紅", "真人荷官", "使用八副牌"],
        {PUNTO_BANCO: ["珠盤路", "曱甴路", "莊問路"], REDGREEN: ["紅", "三條"], LO_BALL: ["莊家點數", "圍骰"]},
        "多桌同玩", "99 號桌不存在", "找不到頁面",
    ),
}  # fmt: skip


@pytest.fixture
def quick(tmp_path: pathlib.Path) -> Iterator[Server]:
    """A casino that turns its cards without a pause, a few rounds played at three tables."""
    with running(casino_settings(f"sqlite:///{tmp_path / 'i18n.db'}", reveal_delay_ms=0)) as s:
        http = s.player().http
        for table_id, bet in ((PUNTO_BANCO, "banker"), (REDGREEN, "red"), (LO_BALL, "main")):
            for _ in range(3):
                play_round(http, table_id, bet, 100)
        yield s


def chinese_page(browser: Browser, watch: Watch, locale: str) -> Page:
    page = browser.new_context(
        locale=locale, viewport={"width": DESKTOP["width"], "height": DESKTOP["height"]}
    ).new_page()
    watch.attach(page)
    return page


def shows(page: Page, words: list[str]) -> None:
    for word in words:
        expect(page.locator("main")).to_contain_text(word)


def test_the_lobby_its_roads_and_the_sign_in_read_in_chinese(
    quick: Server, browser: Browser, watch: Watch, screenshots: pathlib.Path
) -> None:
    for code, words in WORDS.items():
        page = chinese_page(browser, watch, words.locale)
        page.goto(f"{quick.url}/sign-in")
        expect(page.locator("html")).to_have_attribute("lang", code)
        shows(page, words.sign_in)
        assert latin_words(page) == []
        shoot(page, screenshots, f"i18n-sign-in-{code}")

        name = new_name()
        page.locator("#username").fill(name)
        page.locator("#password").fill(PASSWORD)
        page.locator("button[value=register]").click()
        expect(page.locator("#sign-out")).to_be_visible(timeout=20_000)
        expect(page.locator(".table-road .mini-roads")).to_have_count(3)
        shows(page, words.lobby)
        page.wait_for_load_state("networkidle")
        # EZ百家乐: the rule set's name, as Chinese tables print it.
        assert latin_words(page, [name, "EZ"]) == []
        shoot(page, screenshots, f"i18n-lobby-{code}")

        for table_id, expected in words.roads.items():
            page.goto(f"{quick.url}/tables/{table_id}")
            board = page.locator("section.scoreboard")
            expect(board.locator(".stats [data-stat=rounds]")).to_have_text("3")
            for word in expected:
                expect(board).to_contain_text(word)
            assert latin_words(page, root="section.scoreboard") == []
            board.screenshot(path=str(screenshots / f"i18n-roads-table-{table_id}-{code}.png"))

        page.goto(f"{quick.url}/multi?tables={PUNTO_BANCO}")
        expect(page.locator("h1")).to_have_text(words.multi)
        expect(page.locator(".multi-tile")).to_have_count(1)
        assert latin_words(page, root=".multi-head") == []
        shoot(page, screenshots, f"i18n-multi-{code}")

        page.goto(f"{quick.url}/tables/99")
        expect(page.get_by_role("heading", level=1)).to_have_text(words.missing)
        assert latin_words(page, [name], root="main") == []

        answer = page.goto(f"{quick.url}/nowhere")
        assert answer is not None and answer.status == 404
        expect(page.get_by_role("heading", level=1)).to_have_text(words.not_found)
        assert latin_words(page, [name, "nowhere"]) == []
        shoot(page, screenshots, f"i18n-not-found-{code}")
        page.context.close()
