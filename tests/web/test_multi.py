"""Several tables at once (/multi): up to four compact tables on one screen, each with its
own chips, countdown, result and socket, and the one balance in the header that all of
them move — to the cent; side by side on a desktop, one under the other on a phone."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, Page, WebSocket, expect

from tests.server.harness import PASSWORD, Clock, Server
from tests.web.casino import DESKTOP, PHONE, SPOT_NAMES, balance, money, register, sign_out, token


def tile(page: Page, table_id: int) -> Locator:
    """The compact table of that id on the screen."""
    return page.locator(f'.multi-tile[data-table-id="{table_id}"]')


def live(page: Page, table_id: int, game_name: str) -> Locator:
    """Wait until the tile shows its table, live over its socket."""
    found = tile(page, table_id)
    expect(found.get_by_role("heading", name=game_name, level=2)).to_be_visible(timeout=20_000)
    expect(found.get_by_role("status").filter(has_text="Live")).to_be_visible()
    return found


def place_on(page: Page, table_id: int, bet: str, amount: str) -> None:
    """At one tile: select the chip, click the spot, wait until the tile shows the bet."""
    at = tile(page, table_id)
    stake = page.locator(f"#t{table_id}-stake-{bet}")
    before = stake.inner_text()
    at.get_by_role("radio", name=f"Chip {amount}").check()
    at.get_by_role("button", name=SPOT_NAMES[bet], exact=True).click()
    expect(stake).not_to_have_text(before, timeout=10_000)


def round_net(history: list[dict[str, Any]], table_id: int) -> tuple[int, int]:
    """(round id, net in cents) of the player's latest round at that table, from the API."""
    rounds = [r for r in history if r["table_id"] == table_id]
    assert rounds, f"no round at table {table_id} in the history"
    latest = max(rounds, key=lambda r: r["round_id"])
    assert latest["state"] == "settled", latest
    net = sum((w["payout_cents"] or 0) - w["amount_cents"] for w in latest["wagers"])
    return latest["round_id"], net


def test_two_tables_at_once_settle_and_the_header_balance_is_right_to_the_cent(
    casino: Server, page: Page
) -> None:
    register(page, casino.url)
    start = balance(page)
    sockets: list[WebSocket] = []
    page.on("websocket", lambda ws: sockets.append(ws) if "/ws/tables/" in ws.url else None)

    # From a table page, "Add table" leads to the screen of several, this table on it.
    page.goto(f"{casino.url}/tables/1")
    page.get_by_role("link", name="Add table").click()
    expect(page).to_have_url(re.compile(r"/multi\?tables=1$"))
    expect(page.get_by_role("heading", name="Several tables", level=1)).to_be_visible()
    live(page, 1, "Punto Banco")
    picker = page.get_by_label("Table to add")
    expect(picker.locator("option")).to_have_count(5)  # every open table but the one shown
    expect(picker.locator('option[value="4"]')).to_have_text(
        "Lo-Ball · table 4 · electronic · 1.00 – 500.00"
    )
    picker.select_option("4")
    page.get_by_role("button", name="Add table").click()
    expect(page).to_have_url(re.compile(r"/multi\?tables=1,4$"))
    live(page, 4, "Lo-Ball")

    place_on(page, 1, "banker", "5.00")
    place_on(page, 1, "player-pair", "1.00")
    place_on(page, 4, "main", "5.00")
    # Read out with the name of its table: the screen has several. (Words said within the
    # announcer's moment go together: the tile's "Place your bets" may come before.)
    expect(page.locator("#announcer")).to_have_text(re.compile(r"Lo-Ball, table 4: Bet accepted$"))
    expect(page.get_by_label("Balance")).to_have_text(money(start - 1100))
    # Each tile its own bets: the Punto Banco spot on tile 4 does not exist, tile 1 has no Main.
    expect(page.locator("#t1-stake-banker")).to_have_text("Your bet 5.00")
    expect(page.locator("#t4-stake-main")).to_have_text("Your bet 5.00")
    expect(tile(page, 1).get_by_role("button", name="Main", exact=True)).to_have_count(0)

    for table_id in (1, 4):
        tile(page, table_id).get_by_role("button", name="Deal").click()
    results = {}
    for table_id in (1, 4):
        result = tile(page, table_id).locator("section.result")
        expect(result).to_be_visible(timeout=30_000)
        results[table_id] = result

    history = casino.client(token(page)).get("/api/me/history").json()
    nets = {table_id: round_net(history, table_id) for table_id in (1, 4)}
    for table_id, (round_id, net) in nets.items():
        result = results[table_id]
        expect(result).to_have_attribute("data-round-id", str(round_id))
        expect(result.locator(".net")).to_have_attribute("data-net", str(net))
    expected = start + nets[1][1] + nets[4][1]
    expect(page.get_by_label("Balance")).to_have_text(money(expected))
    assert casino.client(token(page)).get("/api/me").json()["balance_cents"] == expected

    # Leaving the screen closes every table's socket.
    assert len({ws.url.split("?")[0] for ws in sockets}) == 2
    page.get_by_role("link", name="Lobby").click()
    expect(page.get_by_role("heading", name="Tables")).to_be_visible()
    for ws in sockets:
        if not ws.is_closed():
            ws.wait_for_event("close")


def test_on_a_phone_the_tables_stack_and_each_takes_bets(casino: Server, page: Page) -> None:
    register(page, casino.url)
    start = balance(page)
    page.set_viewport_size(DESKTOP)
    page.goto(f"{casino.url}/multi?tables=1,4")
    first, second = live(page, 1, "Punto Banco"), live(page, 4, "Lo-Ball")
    one, two = first.bounding_box(), second.bounding_box()
    assert one and two
    assert abs(one["y"] - two["y"]) < 1 and two["x"] >= one["x"] + one["width"]  # side by side

    page.set_viewport_size(PHONE)
    expect(page.get_by_role("heading", name="Lo-Ball", level=2)).to_be_visible()
    one, two = first.bounding_box(), second.bounding_box()
    assert one and two
    assert abs(one["x"] - two["x"]) < 1 and two["y"] >= one["y"] + one["height"]  # stacked
    for box in (one, two):
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    place_on(page, 4, "main", "5.00")  # the lower tile's chips and spots are within reach
    place_on(page, 1, "player", "1.00")
    expect(page.get_by_label("Balance")).to_have_text(money(start - 600))


def test_four_tables_at_most_and_a_removed_one_leaves_the_address_and_closes_its_socket(
    casino: Server, page: Page
) -> None:
    register(page, casino.url)
    sockets: list[WebSocket] = []
    page.on("websocket", lambda ws: sockets.append(ws) if "/ws/tables/" in ws.url else None)
    # A word and a repeat are no tables; a fifth is more than the screen holds.
    page.goto(f"{casino.url}/multi?tables=1,two,2,1,3,4,5")
    expect(page.locator(".multi-tile")).to_have_count(4)
    for table_id in (1, 2, 3, 4):
        expect(tile(page, table_id).get_by_role("status").filter(has_text="Live")).to_be_visible(
            timeout=20_000
        )
    expect(page.get_by_role("button", name="Add table")).to_be_disabled()
    expect(page.locator("#multi-message")).to_have_text(
        "4 tables are on screen, the most at once: remove one to add another."
    )
    expect(page).to_have_url(re.compile(r"/multi\?tables=1,2,3,4$"))

    two = next(ws for ws in sockets if "/ws/tables/2?" in ws.url)
    page.get_by_role("button", name=re.compile(r"^Remove .*table 2$")).click()
    expect(page.locator(".multi-tile")).to_have_count(3)
    expect(page).to_have_url(re.compile(r"/multi\?tables=1,3,4$"))
    if not two.is_closed():
        two.wait_for_event("close")
    assert [ws for ws in sockets if not ws.is_closed()] and all(
        "/ws/tables/2?" not in ws.url for ws in sockets if not ws.is_closed()
    )
    picker = page.get_by_label("Table to add")
    expect(picker).to_be_enabled()
    expect(picker.locator("option")).to_have_count(3)  # tables 2, 5 and 6
    picker.select_option("5")
    page.get_by_role("button", name="Add table").click()
    expect(page).to_have_url(re.compile(r"/multi\?tables=1,3,4,5$"))
    expect(tile(page, 5).get_by_role("status").filter(has_text="Live")).to_be_visible(
        timeout=20_000
    )

    page.reload()  # the address keeps the screen as it was
    expect(page.locator(".multi-tile")).to_have_count(4)
    expect(tile(page, 5).get_by_role("heading", name="Punto Banco", level=2)).to_be_visible()


def test_the_reality_check_is_answered_once_for_every_table_on_the_screen(
    casino: Server, page: Page, clock: Clock
) -> None:
    casino.casino.sessions.REALITY_POLL = 0.2
    register(page, casino.url)
    http = casino.client(token(page))
    http.put("/api/me/reality-check", json={"minutes": 5})
    placed = http.post("/api/tables/1/bets", json={"bet": "banker", "amount_cents": 500},
                       headers={"Idempotency-Key": "first-bet"})  # fmt: skip
    assert placed.status_code == 201  # the session starts with a bet
    page.goto(f"{casino.url}/multi?tables=1,4")
    live(page, 1, "Punto Banco")
    live(page, 4, "Lo-Ball")
    clock.advance(5 * 60 + 1)
    dialog = page.get_by_role("dialog", name="Reality check")
    expect(dialog.first).to_be_visible(timeout=20_000)
    dialog.first.get_by_role("button", name="Continue playing").click()
    expect(dialog).to_have_count(0)  # no second one left behind for the other table
    for table_id in (1, 4):
        expect(page.locator(f"#t{table_id}-table-notice")).to_be_hidden()
    # The first bet's round closed while the clock moved on, and is paid; then bets resume.
    expect(tile(page, 1).locator("section.result")).to_be_visible(timeout=30_000)
    place_on(page, 4, "main", "5.00")  # betting resumes at both
    place_on(page, 1, "player", "1.00")
    after = http.get("/api/me").json()["balance_cents"]
    expect(page.get_by_label("Balance")).to_have_text(money(after))


def test_a_table_past_the_players_socket_limit_says_so(casino: Server, page: Page) -> None:
    register(page, casino.url)
    page.goto(f"{casino.url}/multi?tables=1,2,3,4")
    second = page.context.new_page()  # the same player, a second tab: four more sockets
    second.goto(f"{casino.url}/multi?tables=1,2,3,4")
    for tab in (page, second):
        for table_id in (1, 2, 3, 4):
            expect(tile(tab, table_id).get_by_role("status").filter(has_text="Live")).to_be_visible(
                timeout=20_000
            )
    third = page.context.new_page()
    third.goto(f"{casino.url}/multi?tables=5")
    expect(tile(third, 5).get_by_role("alert")).to_have_text(
        "This table cannot open: 8 sockets open at once already: close a table's page first."
    )


def test_signing_in_on_the_way_keeps_the_tables_chosen(casino: Server, page: Page) -> None:
    name = register(page, casino.url)
    sign_out(page)
    page.goto(f"{casino.url}/multi?tables=4,1")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/multi\?tables=4,1$"))
    live(page, 4, "Lo-Ball")
    live(page, 1, "Punto Banco")
