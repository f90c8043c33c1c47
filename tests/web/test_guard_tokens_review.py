"""A new password from the account page keeps the browser signed in, even in another tab
whose table socket the change closed: that tab's late 401 for the old token never takes
the new token the account tab saved, and its table connects again with the new one."""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page, Route, expect

from tests.server.harness import PASSWORD, Server
from tests.web.casino import open_table, register, token, wait_until


def test_a_new_password_never_signs_out_the_tab_whose_socket_it_closed(
    casino: Server, page: Page, context: BrowserContext
) -> None:
    register(page, casino.url)
    old = token(page)
    table = context.new_page()
    sockets: list[str] = []
    # The table's sockets: the lobby's own feed (/ws/lobby) opens and closes on the way.
    table.on("websocket", lambda ws: "/ws/tables/" in ws.url and sockets.append(ws.url))
    table.goto(f"{casino.url}/")
    open_table(table, 1, "Punto Banco")
    assert len(sockets) == 1

    # The table tab's question "who is signed in?" is held, and so is the new token on
    # its way to the account tab, until the table tab has asked: the 401 for the old
    # token then comes after the new one is saved, as it may on a busy network.
    asked: list[Route] = []
    holding = [True]
    table.route("**/api/me", lambda route: asked.append(route) if holding[0] else route.continue_())
    answers: list[Route] = []
    page.route("**/api/me/password", lambda route: answers.append(route))

    page.goto(f"{casino.url}/account")
    page.get_by_label("Current password").fill(PASSWORD)
    page.get_by_label("New password").fill("a brand new password")
    page.get_by_role("button", name="Change password").click()
    wait_until(page, lambda: bool(answers))
    changed = answers[0].fetch()  # the casino changes the password and closes the socket
    assert changed.status == 200
    wait_until(table, lambda: bool(asked))
    answers[0].fulfill(response=changed)
    expect(page.locator("#password-message")).to_contain_text("Your password is changed")
    new = token(page)
    assert new != old
    holding[0] = False
    for route in asked:
        route.continue_()  # answered 401: the old token is revoked

    wait_until(table, lambda: len(sockets) >= 2)  # the table connects again, with the new token
    expect(table.get_by_role("status").filter(has_text="Live")).to_be_visible()
    expect(table.get_by_role("button", name="Sign out")).to_be_visible()
    assert token(table) == token(page) == new
