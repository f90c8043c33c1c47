"""The roads of every game in the browser: a RedGreen and a Lo-Ball table draw their
scoreboards from the table's results, a round settled while the page is open joins them,
and the lobby shows each table's last results in miniature."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator, Page, Route, expect

from tests.server.harness import Server, fresh_sqlite, running
from tests.web.casino import register, shoot, token
from tests.web.conftest import casino_settings
from tests.web.test_history import play_round

PUNTO_BANCO, REDGREEN, MINI, LO_BALL = 1, 2, 3, 4
"""The default tables of a new casino."""
RG = {"red": "R", "green": "G", "push": "P"}
THREE = "three of a kind"


@pytest.fixture
def quick(tmp_path: pathlib.Path, migrated_sqlite: pathlib.Path) -> Iterator[Server]:
    """A casino that turns its cards without a pause: rounds played through the API."""
    url = fresh_sqlite(migrated_sqlite, tmp_path)
    with running(casino_settings(url, reveal_delay_ms=0)) as s:
        yield s


def results(http: httpx.Client, table_id: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = http.get(f"/api/tables/{table_id}/rounds").json()
    return [r["result"] for r in rows if r["result"]]


def redgreen_letters(found: list[dict[str, Any]]) -> str:
    """The bead plate's letters: R, G or P, a * after a round with a three of a kind."""
    return " ".join(RG[r["winner"]] + ("*" if THREE in (r["red"]["rule"], r["green"]["rule"]) else "")
                    for r in found)  # fmt: skip


def streaks(found: list[dict[str, Any]]) -> str:
    """The big road's columns of Red and Green (a push takes no cell)."""
    columns: list[str] = []
    for r in found:
        letter = RG[r["winner"]]
        if letter == "P":
            continue
        if columns and columns[-1][0] == letter:
            columns[-1] += letter
        else:
            columns.append(letter)
    return " ".join(columns)


def test_a_redgreen_table_draws_its_bead_plate_big_road_and_counts(
    quick: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, quick.url)
    http = quick.client(token(page))
    for _ in range(14):
        play_round(http, REDGREEN, "red", 100)
    found = results(http, REDGREEN)
    assert len(found) == 14
    page.goto(f"{quick.url}/tables/{REDGREEN}")
    board = page.locator("section.scoreboard-redgreen")
    expect(board.locator("svg.road-bead-plate")).to_have_attribute(
        "data-letters", redgreen_letters(found)
    )
    expect(board.locator("svg.road-big-road")).to_have_attribute("data-letters", streaks(found))
    winners = [r["winner"] for r in found]
    stats = board.locator(".stats")
    expect(stats.locator('[data-stat="rounds"]')).to_have_text("14")
    for name in ("red", "green", "push"):
        share = f"{100 * winners.count(name) / 14:.1f} %"
        expect(stats.locator(f'[data-stat="{name}"]')).to_have_text(
            f"{winners.count(name)} · {share}"
        )
    trips = sum(1 for r in found if THREE in (r["red"]["rule"], r["green"]["rule"]))
    expect(stats.locator('[data-stat="trips"]')).to_have_text(str(trips))
    expect(board.locator("svg.road-bead-plate .trips-mark")).to_have_count(trips)
    expect(board.locator("svg.road-bead-plate .bead")).to_have_count(14)
    expect(board.locator("svg.road-big-road .ring")).to_have_count(14 - winners.count("push"))

    play_round(http, REDGREEN, "green", 100)  # settled while the page is open: it joins
    expect(stats.locator('[data-stat="rounds"]')).to_have_text("15")
    expect(board.locator("svg.road-bead-plate")).to_have_attribute(
        "data-letters", redgreen_letters(results(http, REDGREEN))
    )
    shoot(page, screenshots, "roads-redgreen")


def test_a_mini_redgreen_table_keeps_the_same_roads(quick: Server, page: Page) -> None:
    """The highest bettor chooses the hand set first; the roads read the result alike."""
    register(page, quick.url)
    http = quick.client(token(page))
    for _ in range(4):
        play_round(http, MINI, "green", 100)
    found = results(http, MINI)
    page.goto(f"{quick.url}/tables/{MINI}")
    board = page.locator("section.scoreboard-redgreen")
    expect(board.locator("svg.road-bead-plate")).to_have_attribute(
        "data-letters", redgreen_letters(found)
    )
    expect(board.locator("svg.road-big-road")).to_have_attribute("data-letters", streaks(found))
    expect(board.locator('.stats [data-stat="rounds"]')).to_have_text("4")


def test_a_lo_ball_table_draws_each_rounds_dealer_points_tiles_and_dice(
    quick: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, quick.url)
    http = quick.client(token(page))
    for _ in range(9):
        play_round(http, LO_BALL, "main", 100)
    found = results(http, LO_BALL)
    page.goto(f"{quick.url}/tables/{LO_BALL}")
    board = page.locator("section.scoreboard-lo-ball")
    expect(board.locator("svg.road-dealer-plate")).to_have_attribute(
        "data-letters", " ".join(str(r["dealer_points"]) for r in found)
    )
    expect(board.locator("svg.road-dice-plate")).to_have_attribute(
        "data-letters", " ".join(str(r["dice_total"]) for r in found)
    )
    rows = board.locator("table.last-rounds tbody tr")
    expect(rows).to_have_count(8)  # the last eight, newest first
    newest = found[-1]
    seat = next(iter(newest["seats"].values()))
    won = "1 of 1" if seat["main"] in ("win", "win-bonus") else "0 of 1"
    cells = rows.first.locator("td")
    expect(cells.nth(0)).to_have_text("9")
    dealer = newest["dealer_points"]
    expect(cells.nth(1)).to_have_text(f"{dealer} point" if dealer == 1 else f"{dealer} points")
    expect(cells.nth(2)).to_have_text(won)
    held = not newest["exposed"]
    expect(cells.nth(3)).to_have_attribute(
        "data-call", "held" if held else "exposed" if "1-1" in newest["exposed"] else "unseen"
    )
    dice = "-".join(str(d) for d in newest["dice"])
    expect(cells.nth(5)).to_contain_text(f"{dice} ({newest['dice_total']})")
    stats = board.locator(".stats")
    expect(stats.locator('[data-stat="rounds"]')).to_have_text("9")
    hands_won = sum(
        1 for r in found for s in r["seats"].values() if s["main"] in ("win", "win-bonus")
    )
    expect(stats.locator('[data-stat="hands-won"]')).to_have_text(f"{hands_won} of 9")
    lo = sum(1 for r in found if sum(r["dice"]) <= 10 and len(set(r["dice"])) > 1)
    expect(stats.locator('[data-stat="dice-lo"]')).to_contain_text(f"{lo} · ")
    shoot(page, screenshots, "roads-lo-ball")


def test_the_lobby_shows_each_tables_last_results_in_miniature(
    quick: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, quick.url)
    http = quick.client(token(page))
    for _ in range(7):
        play_round(http, PUNTO_BANCO, "banker", 100)
        play_round(http, REDGREEN, "red", 100)
        play_round(http, LO_BALL, "main", 100)
    page.goto(quick.url)

    def card(table_id: int) -> Locator:
        return page.locator(f'li[data-table-id="{table_id}"] [data-fact="road"]')

    pb = [
        {"banker": "B", "player": "P", "tie": "T"}[r["winner"]] for r in results(http, PUNTO_BANCO)
    ]
    columns: list[str] = []
    for letter in pb:
        if letter == "T":
            continue
        if columns and columns[-1][0] == letter:
            columns[-1] += letter
        else:
            columns.append(letter)
    expect(card(PUNTO_BANCO).locator("svg.road-mini-big-road")).to_have_attribute(
        "data-letters", " ".join(columns)
    )
    rg = results(http, REDGREEN)
    expect(card(REDGREEN).locator("svg.road-mini-redgreen")).to_have_attribute(
        "data-letters", " ".join(RG[r["winner"]] for r in rg)
    )
    lb = results(http, LO_BALL)
    expect(card(LO_BALL).locator("svg.road-mini-lo-ball")).to_have_attribute(
        "data-letters", " ".join(f"{r['dealer_points']}/{r['dice_total']}" for r in lb)
    )
    expect(card(MINI).locator("svg")).to_have_count(0)  # no rounds yet: it says so
    expect(card(MINI)).to_have_attribute("data-count", "0")

    play_round(http, REDGREEN, "green", 100)  # the lobby follows without a reload
    expect(card(REDGREEN).locator("svg.road-mini-redgreen")).to_have_attribute(
        "data-letters", " ".join(RG[r["winner"]] for r in results(http, REDGREEN))
    )
    shoot(page, screenshots, "lobby-roads")


def test_roads_whose_first_fetch_fails_say_they_are_loading_and_come_with_the_next_try(
    quick: Server, page: Page
) -> None:
    register(page, quick.url)
    http = quick.client(token(page))
    for _ in range(2):
        play_round(http, REDGREEN, "red", 100)
    failed: list[str] = []

    def refuse_once(route: Route) -> None:
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.fulfill(status=503, json={"error": "busy", "detail": "the casino is busy"})

    page.route("**/api/tables/*/rounds?limit=200", refuse_once)
    page.goto(f"{quick.url}/tables/{REDGREEN}")
    expect(page.locator(".roads-area")).to_contain_text("Loading")
    board = page.locator("section.scoreboard-redgreen")
    expect(board.locator('.stats [data-stat="rounds"]')).to_have_text("2", timeout=15_000)
    assert len(failed) == 1


def test_roads_refused_are_not_asked_for_again(quick: Server, page: Page) -> None:
    """A 4xx (here 404: the table's rounds gone) is a refusal, not a passing failure: the
    page does not ask again every few seconds; it keeps saying the roads are loading."""
    register(page, quick.url)
    asked: list[str] = []

    def refuse(route: Route) -> None:
        asked.append(route.request.url)
        route.fulfill(status=404, json={"error": "no_such_table", "detail": "no table 2"})

    page.route("**/api/tables/*/rounds?limit=200", refuse)
    page.goto(f"{quick.url}/tables/{REDGREEN}")
    expect(page.locator(".roads-area")).to_contain_text("Loading")
    page.wait_for_timeout(4_000)  # past the 3 s a passing failure waits before its retry
    assert len(asked) == 1
