"""The pages themselves: served by the casino's own app under a strict Content-Security-
Policy, with no inline script or style; the lobby lists every table; each game's rules
page shows the house edges the exact analysis computes, as percentages and fractions."""

from __future__ import annotations

import pathlib
import re

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from baccara.exact import analyze
from baccara.server.http.pages import PAGES, WEB
from tests.server.harness import ONE_DECK_SHOE, PASSWORD, Server
from tests.web.casino import PHONE, register, shoot, wait_until


def test_every_page_is_the_shell_under_a_strict_policy(casino: Server) -> None:
    with httpx.Client(base_url=casino.url) as http:
        for path in ("/", "/sign-in", "/history", "/tables/2", "/multi", f"/dealer/{casino.live_table()}",
                     "/rules/lo-ball",
                     "/account", "/admin/report", "/admin/audit", "/admin/dealers"):  # fmt: skip
            answer = http.get(path)
            assert answer.status_code == 200 and answer.headers["content-type"].startswith(
                "text/html"
            )
            policy = answer.headers["content-security-policy"]
            assert "script-src 'self'" in policy and "style-src 'self'" in policy
            assert "unsafe" not in policy and "default-src 'self'" in policy
            assert '<script type="module" src="/static/js/main.js">' in answer.text
        script = http.get("/static/js/main.js")
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
        assert http.get("/static/casino.css").headers["content-type"].startswith("text/css")
        assert http.get("/static/js/nothing.js").status_code == 404
        assert http.get("/api/tables").status_code == 200  # the API is still the API
        assert http.get("/docs").status_code == 200
    assert len(PAGES) == 11


def test_the_front_end_has_no_inline_code_and_loads_nothing_from_elsewhere() -> None:
    html = (WEB / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)  # every script is a file
    assert not re.search(r"\sstyle=|\son[a-z]+=", html)
    files = [p for p in WEB.rglob("*") if p.suffix in (".js", ".css", ".html", ".svg")]
    assert len(files) > 15
    for path in files:
        text = path.read_text()
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), path
        if path.suffix == ".js":
            assert "innerHTML" not in text and "eval(" not in text and "new Function" not in text
            assert '"style"' not in text and "setAttribute('style'" not in text, path


def test_the_lobby_lists_every_table(casino: Server, page: Page, screenshots: pathlib.Path) -> None:
    bob = casino.player()
    bob.sit(2)
    register(page, casino.url)
    tables = page.locator("li.table-card")
    expect(tables).to_have_count(6)
    expected = {
        1: ("Punto Banco", "Electronic", "1.00 – 500.00", "0 of 7"),
        2: ("RedGreen", "Electronic", "1.00 – 500.00", "1 of 12"),
        3: ("Mini RedGreen", "Electronic", "1.00 – 500.00", "0 of 7"),
        4: ("Lo-Ball", "Electronic", "1.00 – 500.00", "0 of 7"),
        5: ("Punto Banco", "Live dealer", "5.00 – 1,000.00", "0 of 7"),
        6: ("EZ Baccarat", "Electronic", "1.00 – 500.00", "0 of 7"),
    }
    for table_id, (game, mode, limits, seats) in expected.items():
        card = page.locator(f'li[data-table-id="{table_id}"]')
        expect(card.get_by_role("link", name=game, exact=True)).to_have_attribute(
            "href", f"/tables/{table_id}"
        )
        expect(card.locator('[data-fact="mode"]')).to_have_text(mode)
        expect(card.locator('[data-fact="limits"]')).to_have_text(limits)
        expect(card.locator('[data-fact="seats"]')).to_have_text(seats)
    shoot(page, screenshots, "lobby")


@pytest.mark.parametrize("game", ["punto-banco", "redgreen", "redgreen-mini", "lo-ball"])
def test_each_rules_page_shows_the_exact_house_edges(
    casino: Server, page: Page, screenshots: pathlib.Path, game: str
) -> None:
    page.goto(f"{casino.url}/rules/{game}")
    rows = page.locator("table.edges tbody tr")
    analysis = analyze(game)
    expect(rows).to_have_count(len(analysis.bets))
    for bet in analysis.bets:
        row = page.locator(f'table.edges tr[data-bet="{bet.bet}"]')
        edge = bet.house_edge
        expect(row.locator(".exact")).to_have_text(f"{edge.numerator}/{edge.denominator}")
        expect(row.locator(".edge")).to_have_text(f"{100 * float(edge):.4f} %")
    if game == "punto-banco":
        expect(page.locator('tr[data-bet="banker"] .edge')).to_have_text("1.0579 %")
        expect(page.locator('tr[data-bet="tie"] .pays-list')).to_contain_text("Win: 8 to 1")
        expect(page.locator(".published")).to_have_count(0)  # seed 003 publishes nothing
    if game.startswith("redgreen"):
        # Seed 000's figures, to its own digits, and each the exact figure rounded.
        red = page.locator('tr[data-bet="red"] .published')
        expect(red.locator('[data-figure="push"]')).to_contain_text("Push 29.5057%")
        expect(red.locator('[data-figure="push"]')).to_contain_text("exactly 29.505680%")
        expect(red.locator('[data-figure="house edge"]')).to_contain_text("1.7624%")
        expect(red.locator('[data-agrees="true"]')).to_have_count(4)
        expect(page.locator('tr[data-bet="bonus"] .published')).to_have_count(0)
    if game == "lo-ball":
        main = page.locator('tr[data-bet="main"] .published [data-figure="house edge"]')
        expect(main).to_contain_text("House edge 2.56%")  # as seed 001 prints it
        expect(main).to_have_attribute("data-agrees", "true")
    shoot(page, screenshots, f"rules-{game}")


def test_a_tables_rules_page_shows_the_edges_of_that_tables_rules(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    """A one-deck continuous shoe links to its own rules, not the eight-deck defaults."""
    admin = casino.player(role="admin")
    made = admin.http.post("/api/tables", json=ONE_DECK_SHOE)
    table_id = made.json()["id"]
    register(page, casino.url)
    card = page.locator(f'li[data-table-id="{table_id}"]')
    expect(card.locator(".table-blurb")).to_have_text("Banker, Player or Tie; the pairs. One deck.")
    link = card.get_by_role("link", name=f"Rules & house edge: Punto Banco, table {table_id}")
    expect(link).to_have_attribute("href", f"/rules/punto-banco?table={table_id}")
    link.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Punto Banco at table {table_id}: rules and house edges"
    )
    decks = page.locator('[data-rule="decks"]')
    expect(decks.locator("dd")).to_have_text(re.compile(r"^1\s*this table$"))  # marked as changed
    expect(page.locator('[data-rule="commission"]')).not_to_have_class(re.compile("changed"))
    expect(page.locator(".shoe-note")).to_contain_text("cut card, at 75 %")
    expect(page.locator("table.edges caption")).to_have_text(
        f"Every bet, under table {table_id}'s rules"
    )
    one_deck, eight_decks = analyze("punto-banco", decks=1), analyze("punto-banco")
    for bet in one_deck.bets:
        edge = bet.house_edge
        row = page.locator(f'table.edges tr[data-bet="{bet.bet}"]')
        expect(row.locator(".exact")).to_have_text(f"{edge.numerator}/{edge.denominator}")
        expect(row.locator(".edge")).to_have_text(f"{100 * float(edge):.4f} %")
    assert one_deck.bet("banker").house_edge != eight_decks.bet("banker").house_edge
    shoot(page, screenshots, "rules-table")

    # The table's own page links there too; a table that does not exist has no rules.
    page.goto(f"{casino.url}/tables/{table_id}")
    page.locator(".table-facts").get_by_role("link", name="Rules").click()
    expect(page).to_have_url(f"{casino.url}/rules/punto-banco?table={table_id}")
    expect(page.locator('[data-rule="decks"]')).to_have_class(re.compile("changed"))
    with httpx.Client(base_url=casino.url) as http:
        assert http.get("/api/tables/999/rules").status_code == 404
        default = http.get("/api/tables/1/rules").json()
        assert default["changed"] == [] and default["rules"]["decks"] == 8


UNCOVERED = """() => {
  const top = document.querySelector('header.top').getBoundingClientRect().bottom;
  return [...document.querySelectorAll('main button, main input, main a')]
    .filter((e) => e.offsetParent)
    .map((e) => [e, e.getBoundingClientRect()])
    .filter(([, r]) => r.top >= top && r.bottom <= innerHeight)
    .filter(([e, r]) => { const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                          return !(hit && (hit === e || e.contains(hit))); })
    .map(([e]) => e.textContent || e.id);
}"""


def test_a_notice_stays_at_the_foot_of_a_phone_and_goes(casino: Server, page: Page) -> None:
    """A notice sits at the bottom of the screen, leaves room beneath the page's last
    control, goes by itself, goes at a tap, and no more than three are stacked."""
    page.set_viewport_size(PHONE)
    register(page, casino.url)
    page.get_by_role("link", name="My rounds").click()
    page.get_by_role("button", name="New random seed").click()
    toast = page.locator("#toasts .toast")
    expect(toast).to_have_count(1)
    expect(toast).to_contain_text("Client seed saved")
    box = toast.bounding_box()
    assert box is not None and box["y"] + box["height"] >= PHONE["height"] - 16
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate(UNCOVERED) == []

    toast.click()  # a tap dismisses it
    expect(toast).to_have_count(0)
    for _ in range(4):
        page.get_by_role("button", name="New random seed").click()
    expect(toast).to_have_count(3)
    expect(toast).to_have_count(0, timeout=10_000)  # and they go by themselves
    assert page.evaluate("document.body.classList.contains('has-toasts')") is False


COUNT_PUTS_READ = """(() => {
  window.putsRead = 0;
  const send = window.fetch;
  window.fetch = async (resource, options) => {
    const answer = await send(resource, options);
    if (options && options.method === "PUT") {
      const text = answer.text.bind(answer);
      answer.text = () => text().then((body) => {
        setTimeout(() => { window.putsRead += 1; });
        return body;
      });
    }
    return answer;
  };
})();"""
"""Counts the PUT answers the page has read, each once all that the page does on reading
it has run: that runs in the promise callbacks after the read, before the next task."""


def test_a_link_followed_while_signing_in_is_where_the_player_stays(
    casino: Server, page: Page
) -> None:
    """The header shows a signed-in player's links before signing in has finished (a new
    player's client seed is still being made). A player who follows one stays there: the
    sign-in page, left behind, does not send them on to where it was going."""
    name = casino.player().name  # no client seed yet: signing in ends by making one
    held: list[Route] = []

    def hold(route: Route) -> None:  # the PUT is the last step of signing in
        if route.request.method == "PUT":
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/me/client-seed", hold)
    page.add_init_script(COUNT_PUTS_READ)
    page.goto(f"{casino.url}/sign-in")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    # Signing in is in its last step: its PUT is sent, and held (on a loaded machine the
    # header can show before the page has sent it).
    wait_until(page, lambda: bool(held))
    page.get_by_role("link", name="My rounds").click()
    expect(page.get_by_role("heading", name="My last rounds")).to_be_visible()
    assert len(held) == 1
    with page.expect_response(lambda answer: answer.request.method == "PUT"):
        held[0].continue_()
    # The page has read the answer and done all that follows from it (where it navigated
    # away before the fix).
    page.wait_for_function("() => window.putsRead === 1")
    expect(page).to_have_url(f"{casino.url}/history")
    expect(page.get_by_role("heading", name="My last rounds")).to_be_visible()
