"""Double and Rebet place their bets one request at a time, all or none: a bet refused
part way has the ones placed before it taken back. When betting closes between the two,
a bet placed cannot be taken back any more, and the player is told what of the plan
stands on the round, in money, not only that it was refused."""

from __future__ import annotations

import json

from playwright.sync_api import Page, Route, expect

from tests.server.harness import Server
from tests.web.casino import balance, money, open_table, place, register

CLOSED = json.dumps({"error": "not_now", "detail": "betting is closed: the round is dealing"})
"""The casino's answer to a bet, or a bet taken back, once betting has closed."""


def close_betting_after_first_bet(page: Page, table_id: int) -> list[str]:
    """Let the next bet through; answer every bet after it, and every bet taken back, as
    the casino does once betting has closed. Returns the methods of the answered requests."""
    seen: list[str] = []

    def bets(route: Route) -> None:
        seen.append(route.request.method)
        if route.request.method == "POST" and seen.count("POST") == 1:
            route.continue_()
        else:
            route.fulfill(status=409, content_type="application/json", body=CLOSED)

    def taken_back(route: Route) -> None:
        seen.append(route.request.method)
        route.fulfill(status=409, content_type="application/json", body=CLOSED)

    page.route(f"**/api/tables/{table_id}/bets", bets)
    page.route(f"**/api/tables/{table_id}/bets/*", taken_back)
    return seen


def test_a_double_placed_in_part_says_what_stands(casino: Server, page: Page) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    place(page, "banker", "25.00")
    place(page, "tie", "5.00")
    start = balance(page)
    seen = close_betting_after_first_bet(page, 1)

    page.get_by_role("button", name="Double").click()
    notice = page.locator("#table-notice")
    expect(notice).to_contain_text("Double refused: betting is closed")
    expect(notice).to_contain_text("Banker 25.00 stands on this round")
    assert seen == ["POST", "POST", "DELETE"]  # the second bet refused, the first kept
    expect(page.locator("#stake-banker")).to_have_text("Your bet 50.00")
    expect(page.locator("#stake-tie")).to_have_text("Your bet 5.00")
    expect(page.get_by_label("Balance")).to_have_text(money(start - 2500))


def test_a_double_refused_whole_says_nothing_stands(casino: Server, page: Page) -> None:
    """Taken back in full, nothing of the Double stands, and the refusal says only why."""
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    place(page, "banker", "25.00")
    place(page, "tie", "5.00")
    start = balance(page)
    seen: list[str] = []

    def second_refused(route: Route) -> None:
        seen.append(route.request.method)
        if seen.count("POST") == 1:
            route.continue_()
        else:
            route.fulfill(status=409, content_type="application/json", body=CLOSED)

    page.route("**/api/tables/1/bets", second_refused)
    page.get_by_role("button", name="Double").click()
    notice = page.locator("#table-notice")
    expect(notice).to_have_text("Double refused: betting is closed: the round is dealing.")
    expect(page.locator("#stake-banker")).to_have_text("Your bet 25.00")  # taken back
    expect(page.get_by_label("Balance")).to_have_text(money(start))
