"""Honest states in Chromium: what the page says when things are not as they should be.

- a round voided by the dealer, or refunded as the casino restarted, is announced at the
  table with the amount returned, not a silent change of balance;
- a table that does not exist, or has closed, says so with a link to the lobby and is
  not asked for again;
- an unknown URL is the casino's own "Page not found" (status 404), and an unknown route
  of the page's own router the same view;
- the browser going offline is said in a banner, and its end too;
- a visitor signed out watches a table — the round as everyone sees it, never a hand
  dealt face down — counts among its watchers in the lobby, and is offered a sign-in to
  play instead of the chips.

Screenshots at desktop and phone size are left in tests/web/screenshots/.
"""

from __future__ import annotations

import contextlib
import pathlib
import threading
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from playwright.sync_api import BrowserContext, Error, Page, WebSocket, expect

from baccara.server.app import create_app
from tests.server.harness import PASSWORD, Clock, Server, Uvicorn, free_port
from tests.web.casino import (
    balance,
    money,
    new_name,
    open_table,
    place,
    register,
    result_panel,
    shoot,
    sign_in,
    sign_out,
    visible_cards,
)
from tests.web.conftest import casino_settings

VOID_REASON = "a card was exposed out of turn"


RECORD_ANNOUNCED = """() => {
  window.announced = [];
  const watch = () => {
    const region = document.getElementById("announcer");
    if (!region) return setTimeout(watch, 50);
    new MutationObserver(() => { if (region.textContent) window.announced.push(region.textContent); })
      .observe(region, { childList: true, characterData: true, subtree: true });
  };
  watch();
}"""
"""Keep every text the page's live region is given, in ``window.announced``: a later one
(the next round's "Place your bets") may replace it on screen, once it has been read."""
VOIDED = "Round voided — your 25.00 is refunded."


def announced(page: Page, text: str) -> None:
    page.wait_for_function(
        "(text) => window.announced.some((said) => said.includes(text))", arg=text
    )


def table_sockets(page: Page) -> list[str]:
    """The table WebSockets the page opens from now on, by URL."""
    opened: list[str] = []

    def seen(socket: WebSocket) -> None:
        if "/ws/tables/" in socket.url:
            opened.append(socket.url)

    page.on("websocket", seen)
    return opened


def test_a_round_voided_by_the_dealer_is_announced_with_the_amount_refunded(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    live = casino.live_table()
    dealer = casino.player(role="dealer")
    register(page, casino.url)
    open_table(page, live, "Punto Banco")
    page.get_by_role("button", name="Take a seat").click()
    start = balance(page)
    place(page, "player", "25.00")
    expect(page.get_by_label("Balance")).to_have_text(money(start - 2500))
    page.evaluate(RECORD_ANNOUNCED)
    round_id = dealer.http.get(f"/api/tables/{live}").json()["round_id"]
    voided = dealer.http.post(f"/api/rounds/{round_id}/void", json={"reason": VOID_REASON})
    assert voided.status_code == 200, voided.text

    panel = result_panel(page)
    expect(panel.locator(".refund")).to_have_text("Your 25.00 is refunded to your balance.")
    expect(panel.locator(".refund")).to_have_attribute("data-refunded", "2500")
    expect(panel.get_by_role("heading")).to_contain_text(f"Round voided: {VOID_REASON}")
    expect(panel).not_to_contain_text("You had no bet")
    announced(page, VOIDED)
    expect(page.locator("#announcer")).to_have_attribute("aria-live", "polite")
    expect(page.get_by_label("Balance")).to_have_text(money(start))
    shoot(page, screenshots, "states-voided")


@contextlib.contextmanager
def casino_on(url: str, port: int, clock: Clock) -> Iterator[Server]:
    """The casino on ``port`` (as ``running`` does it, on a port the test keeps), stopped
    gracefully at the end as a real one is: the rounds open for bets are voided."""
    settings = casino_settings(url)
    app = create_app(settings, clock)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = Uvicorn(config)
    thread = threading.Thread(target=server.serve_then_say, daemon=True)
    thread.start()
    if not server.up.wait(timeout=30) or not server.started:
        raise RuntimeError("the casino server did not start")
    try:
        yield Server(f"http://127.0.0.1:{port}", settings, app)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        assert not thread.is_alive(), "the casino server did not stop within 30 s"


def test_a_round_refunded_as_the_casino_restarted_is_announced(
    tmp_path: pathlib.Path, clock: Clock, page: Page
) -> None:
    url, port = f"sqlite:///{tmp_path / 'casino.db'}", free_port()
    with casino_on(url, port, clock) as first:
        register(page, first.url)
        open_table(page, 1, "Punto Banco")
        page.get_by_role("button", name="Take a seat").click()
        start = balance(page)
        place(page, "banker", "25.00")
        expect(page.get_by_label("Balance")).to_have_text(money(start - 2500))
        page.evaluate(RECORD_ANNOUNCED)
    expect(page.get_by_role("status").filter(has_text="Reconnecting")).to_be_visible()
    with casino_on(url, port, clock):
        expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible(timeout=30_000)
        panel = result_panel(page)
        expect(panel.locator(".refund")).to_have_text("Your 25.00 is refunded to your balance.")
        expect(panel.get_by_role("heading")).to_contain_text("Round voided")
        expect(panel).not_to_contain_text("You had no bet")
        announced(page, VOIDED)
        expect(page.get_by_label("Balance")).to_have_text(money(start))


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_a_table_that_does_not_exist_or_has_closed_says_so(
    casino: Server, page: Page, screenshots: pathlib.Path, signed_in: bool
) -> None:
    admin = casino.player(role="admin")
    assert admin.http.delete("/api/tables/4").status_code == 204
    if signed_in:
        register(page, casino.url)
    sockets = table_sockets(page)
    page.goto(f"{casino.url}/tables/99")
    expect(page.get_by_role("heading", name="Table 99 does not exist", level=1)).to_be_visible()
    expect(page.get_by_text("Joining the table")).to_have_count(0)
    assert len(sockets) == 1
    with pytest.raises(Error):  # refused for good: no socket is opened again
        page.wait_for_event("websocket", timeout=2_000)
    assert len(sockets) == 1
    if not signed_in:
        shoot(page, screenshots, "states-no-such-table")

    page.goto(f"{casino.url}/tables/4")
    expect(page.get_by_role("heading", name="This table is closed", level=1)).to_be_visible()
    assert len(sockets) == 2
    page.get_by_role("link", name="Back to the lobby").click()
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()
    expect(page.locator('li[data-table-id="4"]')).to_have_count(0)


def test_an_unknown_url_is_the_casinos_own_page_not_found(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    answer = page.goto(f"{casino.url}/no/such/page")
    assert answer is not None and answer.status == 404
    assert "script-src 'self'" in answer.headers["content-security-policy"]  # the casino's own
    expect(page.get_by_role("heading", name="Page not found", level=1)).to_be_visible()
    expect(
        page.get_by_role("navigation", name="Casino").get_by_role("link", name="Lobby")
    ).to_be_visible()
    expect(page.get_by_text("There is no page at /no/such/page in this casino.")).to_be_visible()
    shoot(page, screenshots, "states-page-not-found")
    page.get_by_role("link", name="Back to the lobby").click()
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()

    # A path the server serves the page for, which the page's router does not know.
    page.evaluate(
        "history.pushState({}, '', '/rules/'); dispatchEvent(new PopStateEvent('popstate'))"
    )
    expect(page.get_by_role("heading", name="Page not found", level=1)).to_be_visible()

    api = httpx.get(f"{casino.url}/api/no-such-thing", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.json() == {"error": "http", "detail": "Not Found"}
    asked = httpx.get(f"{casino.url}/no/such/page", headers={"Accept": "application/json"})
    assert asked.status_code == 404 and asked.json()["error"] == "http"


def test_going_offline_is_said_in_a_banner(
    casino: Server, context: BrowserContext, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    banner = page.locator("#offline-banner")
    expect(banner).to_be_hidden()
    context.set_offline(True)
    expect(banner).to_be_visible()
    expect(banner).to_have_text(
        "You are offline: what you see may be out of date, and nothing you do reaches the"
        " casino until your connection is back."
    )
    expect(banner).to_have_attribute("role", "status")
    shoot(page, screenshots, "states-offline")
    context.set_offline(False)
    expect(banner).to_be_hidden()
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible(timeout=30_000)


def test_a_visitor_signed_out_watches_a_table_and_is_offered_a_sign_in(
    casino: Server, page: Page, other: Page, screenshots: pathlib.Path
) -> None:
    ann = casino.player("ann" + new_name()[:6])
    assert ann.sit(1).status_code == 200
    other.goto(casino.url)
    watching = other.locator('li[data-table-id="1"] [data-fact="watching"]')
    expect(watching).to_have_text("0")

    page.goto(f"{casino.url}/tables/1")
    expect(page.get_by_role("heading", name="Punto Banco", level=1)).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()
    expect(watching).to_have_text("1")
    expect(page.get_by_role("link", name="Sign in to play")).to_be_visible()
    expect(page.get_by_role("radio")).to_have_count(0)  # no chips
    expect(page.get_by_role("button", name="Take a seat")).to_have_count(0)
    expect(page.get_by_role("button", name="Sit at seat 2")).to_be_disabled()
    expect(page.get_by_role("button", name="Banker", exact=True)).to_be_disabled()
    expect(page.get_by_label("Balance")).to_have_text("—")

    assert ann.bet(1, "banker", 500).status_code == 201
    bets = page.locator(f'.table-bets li[data-player="{ann.name}"]')
    expect(bets).to_contain_text(f"{ann.name} · seat 1")
    expect(bets).to_contain_text("Banker 5.00")
    expect(page.locator("#stake-banker")).to_have_text("")  # none of it the watcher's
    shoot(page, screenshots, "states-watching")

    page.get_by_role("link", name="Sign in to play").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    name = casino.player().name
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{casino.url}/tables/1")
    expect(page.get_by_role("radio", name="Chip 1.00")).to_be_visible()
    expect(page.get_by_role("link", name="Sign in to play")).to_have_count(0)


def test_a_watcher_never_sees_the_peeking_bettors_hand(casino: Server, page: Page) -> None:
    high, low = casino.player(), casino.player()
    assert high.sit(2).status_code == low.sit(2).status_code == 200
    page.goto(f"{casino.url}/tables/2")
    expect(page.get_by_role("status").filter(has_text="Live")).to_be_visible()
    assert low.bet(2, "red", 500).status_code == 201
    assert high.bet(2, "green", 5000).status_code == 201
    low.http.post("/api/tables/2/deal")
    high.http.post("/api/tables/2/deal")
    expect(page.locator(".phase")).to_contain_text(f"{high.name} is looking at", timeout=15_000)
    green = page.locator('section[data-hand="green"]')
    expect(green.get_by_role("img")).to_have_count(3)
    assert visible_cards(green) == [f"Face-down card, squeezed by {high.name}"] * 3
    expect(page.get_by_role("button", name="Hand the cards back")).to_have_count(0)
    round_id = high.http.get("/api/tables/2").json()["round_id"]
    assert high.http.post(f"/api/rounds/{round_id}/peek/done").status_code == 200
    result_panel(page)  # turned for everyone at last
    assert not any(card.startswith("Face-down card") for card in visible_cards(green))


def test_signing_in_from_the_sign_in_page_goes_where_it_was_asked_to(
    casino: Server, page: Page
) -> None:
    name = casino.player().name
    page.goto(f"{casino.url}/sign-in?next=//elsewhere.example/")
    sign_in(page, casino.url, name)  # no next: to the lobby
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()
    sign_out(page)
    page.goto(f"{casino.url}/sign-in?next=//elsewhere.example/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()  # never off the casino
    assert page.url.startswith(casino.url)
