"""Signing out in the browser revokes the token on the casino, not only in the page; the
table's socket opens with a one-time ticket, never with the token in its URL; and
signing out everywhere, from the account page, signs out every other browser too."""

from __future__ import annotations

import pathlib

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.server.harness import Server
from tests.web.casino import open_table, register, shoot, sign_in, token


def signed_in_as(server: Server, bearer: str) -> int:
    """The status ``GET /api/me`` answers the token: 200 while it is good, 401 once revoked."""
    return httpx.get(
        f"{server.url}/api/me", headers={"Authorization": f"Bearer {bearer}"}
    ).status_code


def test_signing_out_revokes_the_token_and_the_table_connects_with_a_ticket(
    casino: Server, page: Page
) -> None:
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    name = register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    first = token(page)
    tables = [url for url in sockets if "/ws/tables/" in url]
    assert tables and all("ticket=" in url for url in tables)  # the lobby's feed needs none
    assert all(first not in url and "token" not in url for url in sockets)

    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in", exact=True)).to_be_visible()
    assert signed_in_as(casino, first) == 401  # the casino refuses it, wherever a copy is

    sign_in(page, casino.url, name)
    page.goto(f"{casino.url}/")
    open_table(page, 1, "Punto Banco")  # the new token's ticket opens the table's socket
    assert token(page) != first and signed_in_as(casino, token(page)) == 200


def test_signing_out_everywhere_signs_out_the_other_browser(
    casino: Server, page: Page, browser: Browser, screenshots: pathlib.Path
) -> None:
    name = register(page, casino.url)
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        elsewhere = other.new_page()
        sign_in(elsewhere, casino.url, name)
        elsewhere.goto(f"{casino.url}/")
        open_table(elsewhere, 1, "Punto Banco")
        theirs = token(elsewhere)

        page.goto(f"{casino.url}/account")
        panel = page.get_by_role("region", name="Sign-in")
        expect(panel.get_by_role("button", name="Sign out everywhere")).to_be_visible()
        shoot(page, screenshots, "account-sign-in")
        panel.get_by_role("button", name="Sign out everywhere").click()
        expect(page.get_by_role("link", name="Sign in", exact=True)).to_be_visible()

        # The other browser's table socket is closed (4401), and it signs out too.
        expect(elsewhere.get_by_role("link", name="Sign in", exact=True)).to_be_visible(
            timeout=20_000
        )
        assert signed_in_as(casino, theirs) == 401
    finally:
        other.close()


def test_a_new_password_from_the_account_page_keeps_this_browser_signed_in(
    casino: Server, page: Page
) -> None:
    name = register(page, casino.url)
    before = token(page)
    page.goto(f"{casino.url}/account")
    page.get_by_label("Current password").fill("not the password")
    page.get_by_label("New password").fill("a brand new password")
    page.get_by_role("button", name="Change password").click()
    expect(page.locator("#password-message")).to_contain_text("wrong")
    assert signed_in_as(casino, before) == 200  # nothing changed

    page.get_by_label("Current password").fill("correct horse battery")
    page.get_by_role("button", name="Change password").click()
    expect(page.locator("#password-message")).to_contain_text("Your password is changed")
    assert signed_in_as(casino, before) == 401
    assert signed_in_as(casino, token(page)) == 200
    page.goto(f"{casino.url}/")
    open_table(page, 1, "Punto Banco")
    page.get_by_role("button", name="Sign out").click()
    answer = httpx.post(f"{casino.url}/api/auth/login",
                        json={"username": name, "password": "a brand new password"})  # fmt: skip
    assert answer.status_code == 200
