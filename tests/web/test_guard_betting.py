"""The table page's countdown is the engine's: when every seated bettor has asked to deal,
betting closes at the end of the minimum window, and the page counts down to that, not to
the betting timer. The browser's round (``round.js``) is fed the engine's own log, event
by event, and gives the deadline :meth:`Round.deadline` gives after each."""

from __future__ import annotations

import pathlib
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from baccara.randomness import SeededRandom
from baccara.table import Round, Table, TableConfig
from baccara.table.config import MIN_BETTING_SECONDS
from tests.server.harness import Server
from tests.web.casino import open_table, place, register, result_panel, shoot

DEADLINES = """async (events) => {
  const { RoundState } = await import('/static/js/round.js');
  const round = new RoundState({ id: 1, events: [] });
  return events.map((event) => { round.applyAll([event]); return round.deadline(); });
}"""


@pytest.fixture
def blank(casino: Server, page: Page) -> Page:
    page.goto(f"{casino.url}/rules/punto-banco")
    return page


def _engine_deadlines(round_: Round) -> list[float | None]:
    """The engine's deadline after each event of ``round_``'s betting, replayed."""
    out: list[float | None] = []
    for end in range(1, len(round_.events) + 1):
        out.append(Round.read(round_.events[:end]).deadline())
    return out


def _betting(table: Table) -> Round:
    """A round where one seated player bets and asks to deal at once, another bets later,
    takes the bet back (and so its deal), bets again and asks to deal."""
    table.sit("mallory")
    table.sit("victim")
    round_ = table.open_round(0.0, source=SeededRandom(3))
    table.place_bet("m1", "mallory", "banker", 100, now=0.5)
    table.request_deal("mallory", 0.5)
    table.place_bet("v1", "victim", "player", 100, now=2.0)
    table.request_deal("victim", 2.5)  # not yet everyone at the table: mallory is, cy is not
    round_.remove_bet("v1", "victim", 3.0)
    table.place_bet("v2", "victim", "player", 200, now=3.5)
    return round_


def test_the_pages_countdown_is_the_engines_deadline(blank: Page) -> None:
    table = Table(TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=10_000))
    table.last_bettors = frozenset({"cy"})  # who bet on the last round, from behind
    round_ = _betting(table)
    events: list[dict[str, Any]] = [event.to_dict() for event in round_.events]
    assert blank.evaluate(DEADLINES, events) == _engine_deadlines(round_)
    # the betting window opened with the round (players seated), 15 s; after the deal
    # asked for as the round opened: the minimum window's end, 5 s after the first bet
    assert _engine_deadlines(round_)[1:4] == [15.0, 15.0, 5.5]
    # a log written before either window: the page reads it as no window, the deal at once
    old = [{**e, "seq": seq}
           for seq, e in enumerate(e for e in events if e["kind"] != "betting-window")]  # fmt: skip
    del old[0]["min_betting_seconds"]
    assert blank.evaluate(DEADLINES, old)[2] == 0.5


def test_a_deal_with_another_player_seated_counts_down_the_window(
    casino: Server, page: Page, other: Page, screenshots: pathlib.Path
) -> None:
    """The betting timer here is a minute; one player's Deal, with another seated and not
    yet betting, leaves the window's few seconds on the page, and then the round is dealt."""
    register(page, casino.url)
    register(other, casino.url)
    for who in (page, other):
        open_table(who, 1, "Punto Banco")
        who.get_by_role("button", name="Take a seat").click()
        expect(who.locator(".seat.mine")).to_have_count(1)
    place(page, "banker", "1.00")
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_text("Waiting for the other players")).to_be_visible()
    left = int(re.sub(r"\D", "", page.get_by_role("timer").inner_text()))
    assert 0 < left <= MIN_BETTING_SECONDS
    shoot(page, screenshots, "guard-betting-window")
    result_panel(page, timeout=20_000)  # the window ran out: dealt and settled
