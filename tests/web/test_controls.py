"""The controls players expect at a table: Undo takes back the last chip, Double doubles
every bet of the round, Rebet repeats the last round's (betplan.js plans each, checked
against the limits, the step, the cap and the balance before any request, and a refusal
says it in money); the countdown from the moment betting opens; "Place your bets", "No
more bets" and "Bet accepted" on the felt and to screen readers (announce.js); the other
players' bets as each spot's share, by the largest remainder (shares.js); and a
player's chips on one spot merged into one line."""

from __future__ import annotations

import pathlib
import re
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.server.harness import Server
from tests.web.casino import (
    DESKTOP,
    PHONE,
    balance,
    money,
    open_table,
    place,
    register,
    result_panel,
    sign_in,
    spot,
)
from tests.web.node import in_node, module


def run(name: str, body: str, *args: Any) -> Any:
    """Run ``body`` (JavaScript with ``m``, the module, and ``args`` in scope) in Node, in English."""
    return in_node(f"const m = await import({module(name)});", body, args)


# --- the shares, by the largest remainder --------------------------------------------------


@pytest.mark.parametrize(
    ("cents", "expected"),
    [
        ({"banker": 2600, "player": 1300, "tie": 300}, {"banker": 62, "player": 31, "tie": 7}),
        ({"banker": 100, "player": 100, "tie": 100}, {"banker": 34, "player": 33, "tie": 33}),
        ({"banker": 1, "player": 1, "tie": 1, "player-pair": 0},
         {"banker": 34, "player": 33, "tie": 33, "player-pair": 0}),
        # a tie of remainders goes to the larger amount, then to the spot listed first
        ({"banker": 2500, "player": 1200, "tie": 300}, {"banker": 63, "player": 30, "tie": 7}),
        ({"banker": 1, "player": 2}, {"banker": 33, "player": 67}),
        ({"banker": 500_000, "player": 0}, {"banker": 100, "player": 0}),
        ({"banker": 0, "player": 0}, {"banker": 0, "player": 0}),
        ({"a": 1, "b": 1, "c": 1, "d": 1, "e": 1, "f": 1, "g": 1},
         {"a": 15, "b": 15, "c": 14, "d": 14, "e": 14, "f": 14, "g": 14}),
        ({"banker": 99_999_999, "player": 1}, {"banker": 100, "player": 0}),
    ],
)  # fmt: skip
def test_shares_are_whole_percent_by_the_largest_remainder(
    cents: dict[str, int], expected: dict[str, int]
) -> None:
    found = run("shares.js", "return m.shares(args[0]);", cents)
    assert found == expected
    assert sum(found.values()) == (100 if any(cents.values()) else 0)


def test_shares_of_any_amounts_add_up_to_100_and_stay_within_one_point() -> None:
    import random

    rng = random.Random(2026)
    cases = [{f"s{i}": rng.choice([0, rng.randint(1, 10**7)]) for i in range(rng.randint(1, 9))}
             for _ in range(300)]  # fmt: skip
    found = run("shares.js", "return args[0].map((c) => m.shares(c));", cases)
    for case, got in zip(cases, found, strict=True):
        total = sum(case.values())
        assert sum(got.values()) == (100 if total else 0), case
        for key, amount in case.items():
            exact = 100 * amount / total if total else 0
            assert abs(got[key] - exact) < 1, (case, key)


# --- the plans of Undo, Double and Rebet ---------------------------------------------------

LIMITS = {"min": 100, "max": 50_000, "step": 100, "cap": 20}


def bets(*pairs: tuple[str, int]) -> list[dict[str, Any]]:
    return [{"bet_id": f"b{i}", "spot": s, "amount_cents": c} for i, (s, c) in enumerate(pairs)]


@pytest.mark.parametrize(
    ("mine", "balance", "placed", "limits", "expected"),
    [
        (bets(("banker", 2500), ("tie", 500)), 100_000, 2, LIMITS,
         {"bets": [{"spot": "banker", "amount_cents": 2500}, {"spot": "tie", "amount_cents": 500}],
          "total": 3000}),
        # two chips on one spot are doubled as one bet: the spot's total
        (bets(("banker", 500), ("banker", 500)), 100_000, 2, LIMITS,
         {"bets": [{"spot": "banker", "amount_cents": 1000}], "total": 1000}),
        (bets(("banker", 10_000), ("player", 10_000)), 15_000, 2, LIMITS,
         {"refusal": "Double needs 200.00; your balance is 150.00"}),
        (bets(("banker", 30_000)), 100_000, 1, LIMITS,
         {"refusal": "Double would put 600.00 on banker, over this table's maximum of 500.00 a spot"}),
        (bets(("banker", 500), ("tie", 500)), 100_000, 19, LIMITS,
         {"refusal": "Double needs 2 more bets and this round takes 1 more from you (at most 20 a round)"}),
        ([], 100_000, 0, LIMITS, {"refusal": "Double has no bet of yours on this round to double"}),
        # a balance the page does not know yet: the casino checks it
        (bets(("banker", 500)), None, 1, LIMITS,
         {"bets": [{"spot": "banker", "amount_cents": 500}], "total": 500}),
    ],
)  # fmt: skip
def test_double_is_planned_within_the_limits_the_cap_and_the_balance(
    mine: list[dict[str, Any]], balance: int | None, placed: int, limits: dict[str, int],
    expected: dict[str, Any],
) -> None:  # fmt: skip
    assert (
        run("betplan.js", "return m.planDouble(...args);", mine, limits, balance, placed)
        == expected
    )


@pytest.mark.parametrize(
    ("mine", "limits", "expected"),
    [
        (bets(("banker", 500), ("player", 100), ("banker", 100)), LIMITS,
         {"betId": "b2", "spot": "banker", "amount_cents": 100}),
        (bets(("banker", 500)), LIMITS, {"betId": "b0", "spot": "banker", "amount_cents": 500}),
        # an add-on under the minimum, on a spot that holds the minimum without it
        (bets(("banker", 200), ("banker", 100)), {**LIMITS, "min": 200},
         {"betId": "b1", "spot": "banker", "amount_cents": 100}),
        ([], LIMITS, {"refusal": "Undo has no bet of yours on this round to take back"}),
    ],
)  # fmt: skip
def test_undo_takes_back_the_newest_chip(
    mine: list[dict[str, Any]], limits: dict[str, int], expected: dict[str, Any]
) -> None:
    assert run("betplan.js", "return m.planUndo(...args);", mine, limits) == expected


def test_undo_never_leaves_less_than_the_minimum_on_a_spot() -> None:
    """The casino refuses a take-back that leaves a spot under the minimum; the plan says
    so first, in money (bets placed in order never come to it: this log is made up)."""
    mine = bets(("banker", 100), ("banker", 150))
    rest = run("betplan.js", "return m.planUndo(args[0], args[1]);", mine, {**LIMITS, "min": 200})
    assert rest == {
        "refusal": "Undo would leave 1.00 on banker, under this table's minimum of 2.00 a spot"
    }


@pytest.mark.parametrize(
    ("last", "mine", "balance", "expected"),
    [
        ([{"spot": "banker", "amount_cents": 3000}, {"spot": "tie", "amount_cents": 500}], [],
         3500, {"bets": [{"spot": "banker", "amount_cents": 3000},
                         {"spot": "tie", "amount_cents": 500}], "total": 3500}),
        ([{"spot": "banker", "amount_cents": 10_000}, {"spot": "tie", "amount_cents": 500}], [],
         5000, {"refusal": "Rebet needs 105.00; your balance is 50.00"}),
        ([{"spot": "banker", "amount_cents": 150}], [], 5000,
         {"refusal": "Rebet would bet 1.50 on banker, not a multiple of this table's bet step of 1.00"}),
        ([{"spot": "banker", "amount_cents": 60_000}], [], 100_000,
         {"refusal": "Rebet would put 600.00 on banker, over this table's maximum of 500.00 a spot"}),
        ([{"spot": "dragon", "amount_cents": 500}], [], 5000,
         {"refusal": "Rebet cannot place dragon: it is not a bet at this table"}),
        ([], [], 5000, {"refusal": "Rebet has no earlier bets at this table to place again"}),
        ([{"spot": "banker", "amount_cents": 500}], bets(("tie", 100)), 5000,
         {"refusal": "Rebet places the last round's bets on an empty layout, and you have bets on this round"}),
    ],
)  # fmt: skip
def test_rebet_is_planned_whole_or_refused_in_money(
    last: list[dict[str, Any]], mine: list[dict[str, Any]], balance: int, expected: dict[str, Any]
) -> None:
    spots = ["banker", "player", "tie"]
    found = run("betplan.js", "return m.planRebet(...args);", last, mine, LIMITS, balance, 0, spots)
    assert found == expected


def test_payouts_are_merged_per_spot() -> None:
    def paid(bet_id: str, spot: str, stake: int, won: int, commission: int = 0) -> dict[str, Any]:
        return {"bet_id": bet_id, "player": "ann", "seat": 1, "spot": spot, "stake": stake,
                "result": "win" if won > 0 else "lose", "won": won, "returned": stake + won if won > 0 else 0,
                "commission": commission}  # fmt: skip

    merged = run("betplan.js", "return m.mergedPayouts(args[0]);",
                 [paid("a", "banker", 1000, 950, 50), paid("b", "tie", 100, -100),
                  paid("c", "banker", 1000, 950, 50)])  # fmt: skip
    assert [(p["spot"], p["stake"], p["returned"], p["commission"], p["chips"]) for p in merged] == [
        ("banker", 2000, 3900, 100, 2), ("tie", 100, 0, 0, 1)]  # fmt: skip


# --- at the table ----------------------------------------------------------------------------


def announced(page: Page) -> Any:
    return expect(page.locator("#announcer[aria-live='polite']"))


def test_undo_takes_back_the_last_chip_and_bets_are_announced(casino: Server, page: Page) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    start = balance(page)
    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_disabled()  # nothing to take back yet
    place(page, "banker", "5.00")
    # The newest words said (a round opening in the same moment goes before them).
    announced(page).to_have_text(re.compile(r"(^| )Bet accepted$"))
    expect(page.locator(".stage > .callout")).to_have_text("Bet accepted")
    place(page, "banker", "1.00")
    place(page, "player", "5.00")
    expect(page.get_by_label("Balance")).to_have_text(money(start - 1100))

    undo.click()
    expect(page.locator("#stake-player")).to_have_text("")
    expect(page.locator("#stake-banker")).to_have_text("Your bet 6.00")
    undo.click()
    expect(page.locator("#stake-banker")).to_have_text("Your bet 5.00")  # the 1.00 chip
    expect(page.get_by_label("Balance")).to_have_text(money(start - 500))
    assert page.locator(".table-bets li.mine").inner_text().endswith("Banker 5.00")


def test_double_doubles_every_bet_and_a_short_balance_is_said_in_money(
    casino: Server, page: Page
) -> None:
    name = register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    place(page, "banker", "25.00")
    place(page, "tie", "5.00")
    start = balance(page)
    page.get_by_role("button", name="Double").click()
    expect(page.locator("#stake-banker")).to_have_text("Your bet 50.00")
    expect(page.locator("#stake-tie")).to_have_text("Your bet 10.00")
    expect(page.get_by_label("Balance")).to_have_text(money(start - 3000))
    mine = page.locator(".table-bets li.mine .what")
    expect(mine).to_have_text("Banker 50.00 · Tie 10.00")  # merged per spot

    admin = casino.player(role="admin")
    down = admin.http.post(f"/api/admin/wallets/{name}/adjust",
                           json={"amount_cents": 5000 - (start - 3000), "reason": "test: down to 50"})  # fmt: skip
    assert down.status_code == 200, down.text
    expect(page.get_by_label("Balance")).to_have_text("50.00")
    page.get_by_role("button", name="Double").click()
    expect(page.locator("#table-notice")).to_have_text("Double needs 60.00; your balance is 50.00.")
    expect(page.locator("#stake-banker")).to_have_text("Your bet 50.00")  # nothing was placed
    expect(page.get_by_label("Balance")).to_have_text("50.00")


def test_the_countdown_runs_from_the_moment_betting_opens(casino: Server, page: Page) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    timer = page.get_by_role("timer")
    expect(timer).to_have_text("")  # nobody seated: the round waits for a player
    page.get_by_role("button", name="Take a seat").click()
    expect(timer).to_have_text(re.compile(r"^\d+ s$"))  # before any bet
    expect(page.locator(".phase")).to_have_text("Place your bets")
    announced(page).to_have_text("Place your bets")
    first = int(timer.inner_text().split()[0])
    assert 55 <= first <= 60  # the casino's betting time is 60 s
    place(page, "banker", "5.00")
    later = int(timer.inner_text().split()[0])
    assert later <= first  # the bet did not start the clock again
    page.get_by_role("button", name="Deal").click()  # alone at the table: dealt at once
    announced(page).to_have_text(re.compile("No more bets|Place your bets"))
    result_panel(page)


def test_a_live_tables_countdown_runs_from_the_opening_for_player_and_dealer(
    casino: Server, page: Page, other: Page
) -> None:
    live = casino.live_table()
    dealer = casino.player(role="dealer")
    sign_in(other, casino.url, dealer.name)
    other.get_by_role("link", name=f"Dealer console, table {live}").click()
    console = other.get_by_role("timer")
    expect(other.get_by_role("button", name="No more bets")).to_be_disabled()
    expect(console).to_have_text("")  # nobody seated: the round waits for a player

    register(page, casino.url)
    open_table(page, live, "Punto Banco")
    page.get_by_role("button", name="Take a seat").click()
    expect(page.get_by_role("timer")).to_have_text(re.compile(r"^\d+ s$"))  # before any bet
    expect(console).to_have_text(re.compile(r"^Betting closes in \d+ s$"))
    seconds = int(console.inner_text().split()[-2])
    assert 55 <= seconds <= 60  # the casino's betting time is 60 s
    expect(console).not_to_have_text(f"Betting closes in {seconds} s", timeout=3_000)


def test_other_players_bets_show_as_shares_and_my_chips_merge(casino: Server, page: Page) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    page.get_by_role("button", name="Take a seat").click()
    bob = casino.player()
    assert bob.sit(1).status_code == 200
    for bet, cents in (("banker", 2500), ("banker", 100), ("player", 1300), ("tie", 300)):
        assert bob.bet(1, bet, cents).status_code == 201
    expect(page.locator("#others-banker")).to_have_text("Others 62 %")
    expect(page.locator("#others-player")).to_have_text("Others 31 %")
    expect(page.locator("#others-tie")).to_have_text("Others 7 %")
    expect(page.locator("#others-banker")).to_have_attribute("title", "Other players: 26.00")
    place(page, "banker", "5.00")  # mine do not count in the others' shares
    place(page, "banker", "5.00")
    expect(page.locator("#others-banker")).to_have_text("Others 62 %")
    expect(page.locator("#stake-banker")).to_have_text("Your bet 10.00")

    page.get_by_role("button", name="Deal").click()
    assert bob.http.post("/api/tables/1/deal").status_code == 200
    panel = result_panel(page)
    rows = panel.locator(".payouts tbody tr")
    expect(rows).to_have_count(1)  # two chips on Banker: one line
    expect(rows.first.locator("th")).to_have_text("Banker")
    expect(rows.first.locator("td").first).to_have_text("10.00")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_controls_fit_the_felt(casino: Server, page: Page, size: ViewportSize) -> None:
    page.set_viewport_size(size)
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    spot(page, "banker").click()
    expect(page.locator("#stake-banker")).to_have_text("Your bet 1.00")
    felt = page.locator(".felt").bounding_box()
    assert felt is not None
    seat = page.locator(".actions .seat-tag")
    expect(seat).to_have_text("Seat 1")
    tag = seat.bounding_box()
    assert tag is not None and tag["width"] >= 40, tag  # said on one line, not squeezed
    for name in ("Undo", "Double", "Rebet", "Clear", "Deal"):
        button = page.get_by_role("button", name=name, exact=True)
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box is not None and box["width"] >= 40 and box["height"] >= 32, (name, box)
        assert felt["x"] <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"] + 0.5
        assert button.evaluate("(b) => b.scrollWidth <= b.clientWidth"), (
            f"{name}: its word overflows"
        )
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    shots = pathlib.Path("/tmp/shots-controls")
    shots.mkdir(exist_ok=True)
    page.screenshot(path=str(shots / f"controls-{size['width']}.png"), full_page=True)
