"""A table's rules page says what rounding payouts down to the cent does at its minimum bet.

Known answer (``baccara analyze punto-banco --stake 0.25``): 19:20 on 0.25 pays 0.23, not
0.2375, and the Banker's edge at that stake is 2.4337 %, against 1.0579 % exactly.
"""

from __future__ import annotations

import pathlib

from playwright.sync_api import Page, expect

from baccara import analyze_at_stake
from tests.server.harness import Server
from tests.web.casino import shoot


def test_a_table_whose_minimum_is_rounded_shows_the_edge_there(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    admin = casino.player(role="admin")
    made = admin.http.post("/api/tables", json={"game": "punto-banco", "min_bet_cents": 25,
                                                "max_bet_cents": 10_000, "bet_step_cents": 1})  # fmt: skip
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    page.goto(f"{casino.url}/rules/punto-banco?table={table_id}")
    banker = page.locator('table.edges tr[data-bet="banker"]')
    at_min = analyze_at_stake("punto-banco", 25).bet("banker").house_edge
    expect(banker.locator(".at-min")).to_have_text(
        f"{100 * float(at_min):.4f} % at the 0.25 minimum"
    )
    expect(banker.locator(".at-min")).to_have_text("2.4337 % at the 0.25 minimum")
    expect(banker.locator(".edge")).to_have_text("1.0579 %")
    for bet in ("player", "tie", "player-pair", "banker-pair"):  # whole cents on 0.25
        expect(page.locator(f'tr[data-bet="{bet}"] .at-min')).to_have_count(0)
    note = page.locator(".rounding-note")
    expect(note).to_contain_text("a Banker win on 0.25 pays 0.23, not 0.2375")
    expect(note).to_contain_text("Stakes in multiples of 0.20 are paid in whole cents")
    expect(page.locator(".table-rules")).to_contain_text("limits 0.25 – 100.00 a spot.")
    shoot(page, screenshots, "rules-rounded-minimum")


def test_a_default_table_pays_whole_cents_and_says_so(casino: Server, page: Page) -> None:
    page.goto(f"{casino.url}/rules/lo-ball?table=4")
    expect(page.locator(".table-rules")).to_contain_text(
        "limits 1.00 – 500.00 a spot, in steps of 0.02"
    )
    expect(page.locator(".rounding-note")).to_have_text(
        "Stakes here go in steps of 0.02: every payout is whole cents, and every stake has the"
        " edges shown."
    )
    expect(page.locator(".at-min")).to_have_count(0)
