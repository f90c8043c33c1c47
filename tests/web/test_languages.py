"""Choosing a language: a first visit reads the language its browser asks for, a player
who picks another in the header keeps it — on reload, and in another browser once signed in."""

from __future__ import annotations

import pathlib

from playwright.sync_api import Browser, Page, expect

from tests.server.harness import PASSWORD, Server
from tests.web.casino import DESKTOP, Watch, register, shoot


def nav(page: Page, name: str) -> None:
    expect(
        page.get_by_role("navigation").get_by_role("link", name=name, exact=True)
    ).to_be_visible()


def test_a_first_visit_follows_the_browser_and_a_choice_follows_the_player(
    casino: Server, page: Page, browser: Browser, watch: Watch, screenshots: pathlib.Path
) -> None:
    url = casino.url
    name = register(page, url)  # an English browser: the casino in English
    nav(page, "Lobby")
    assert page.evaluate("document.documentElement.lang") == "en"

    page.get_by_label("Language").select_option("zh-Hans")
    nav(page, "大厅")
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    page.reload()  # remembered in this browser
    nav(page, "大厅")
    expect(page.get_by_label("语言")).to_have_value("zh-Hans")
    shoot(page, screenshots, "language-zh-hans-header")

    taiwan = browser.new_context(viewport=DESKTOP, locale="zh-TW")  # Accept-Language: zh-TW
    elsewhere = browser.new_context(viewport=DESKTOP, locale="en-US")
    try:
        first = taiwan.new_page()
        watch.attach(first)
        first.goto(f"{url}/")
        nav(first, "大廳")  # Traditional, as Taiwan reads
        expect(first.get_by_label("語言")).to_have_value("zh-Hant")

        other = elsewhere.new_page()
        watch.attach(other)
        other.goto(f"{url}/sign-in")
        nav(other, "Lobby")  # signed out, an English browser reads English
        other.get_by_label("Username").fill(name)
        other.get_by_label("Password").fill(PASSWORD)
        other.get_by_role("button", name="Sign in").click()
        nav(other, "大厅")  # signed in: the player's own choice, kept by the casino
        expect(other.get_by_label("语言")).to_have_value("zh-Hans")

        other.get_by_label("语言").select_option("en")
        nav(other, "Lobby")
        page.reload()  # the first browser signs in with the casino's copy: English now
        nav(page, "Lobby")
    finally:
        taiwan.close()
        elsewhere.close()
