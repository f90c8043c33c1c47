"""Betting at a table as a player does it: the first chip already in hand, the countdown
from the moment betting opens (the first player seated), Clear taking the round's bets back, Rebet placing the last
round's bets again — all of them or, when the balance or a limit does not allow it,
none — and chips coloured by their value, the same at every table."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.server.harness import Server
from tests.web.casino import (
    balance,
    money,
    open_table,
    place,
    register,
    result_panel,
    spot,
    token,
)


def test_the_first_chip_is_in_hand_so_one_click_on_a_spot_bets_it(
    casino: Server, page: Page
) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")  # limits 1.00 – 500.00
    expect(page.get_by_role("radio", name="Chip 1.00")).to_be_checked()
    before = balance(page)
    spot(page, "banker").click()
    expect(page.locator("#stake-banker")).to_have_text("Your bet 1.00")
    expect(page.get_by_label("Balance")).to_have_text(money(before - 100))

    page.get_by_role("link", name="Lobby").click()
    open_table(page, 5, "Punto Banco")  # the live table: 5.00 – 1,000.00
    expect(page.get_by_role("radio", name="Chip 5.00")).to_be_checked()
    spot(page, "player").click()
    expect(page.locator("#stake-player")).to_have_text("Your bet 5.00")
    expect(page.get_by_label("Balance")).to_have_text(money(before - 600))


def test_the_countdown_starts_with_the_first_player_seated_and_counts_down(
    casino: Server, page: Page
) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    timer = page.get_by_role("timer")
    expect(page.locator(".phase")).to_have_text("Place your bets")
    expect(timer).to_have_text("")  # nobody seated, no clock: the table waits for a player
    expect(page.locator(".status-bar .bar")).not_to_have_class(re.compile("running"))

    spot(page, "banker").click()  # takes a seat, which starts the countdown, then bets
    expect(timer).to_have_text(re.compile(r"^\d+ s$"))
    expect(page.locator(".phase")).to_have_text("Betting closes in")
    expect(page.locator(".status-bar .bar")).to_have_class(re.compile("running"))
    first = int(timer.inner_text().split()[0])
    assert 57 <= first <= 60  # the casino's betting time is 60 s
    expect(timer).not_to_have_text(f"{first} s", timeout=3_000)
    assert int(timer.inner_text().split()[0]) < first


def test_clear_takes_the_rounds_bets_back(casino: Server, page: Page) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    before = balance(page)
    place(page, "banker", "25.00")
    place(page, "tie", "5.00")
    place(page, "banker", "5.00")
    expect(page.get_by_label("Balance")).to_have_text(money(before - 3500))
    expect(page.locator("#stake-banker")).to_have_text("Your bet 30.00")

    page.get_by_role("button", name="Clear").click()
    for bet in ("banker", "tie"):
        expect(page.locator(f"#stake-{bet}")).to_have_text("")
        expect(spot(page, bet).locator(".chip-stack")).to_have_count(0)
    expect(page.get_by_label("Balance")).to_have_text(money(before))
    expect(page.locator(".table-bets")).to_have_text("No bets yet.")
    expect(page.get_by_role("button", name="Clear")).to_be_disabled()
    expect(page.get_by_role("button", name="Deal")).to_be_disabled()
    http = casino.client(token(page))
    assert http.get("/api/me").json()["balance_cents"] == before
    round_id = http.get("/api/tables/1").json()["round_id"]
    assert http.get(f"/api/rounds/{round_id}").json()["bets"] == []


def play_a_round(page: Page, bets: list[tuple[str, str]]) -> int:
    """Bet, deal, see the result: the balance after the round, once the header shows it."""
    start = balance(page)
    for bet, amount in bets:
        place(page, bet, amount)
    page.get_by_role("button", name="Deal").click()
    result_panel(page)
    net = page.locator("section.result .net")
    expect(net).to_be_visible()
    after = (
        start
        - int(net.get_attribute("data-staked") or 0)
        + int(net.get_attribute("data-returned") or 0)
    )
    expect(page.get_by_label("Balance")).to_have_text(money(after))
    expect(page.get_by_role("button", name="Rebet")).to_be_enabled()
    return after


def test_rebet_places_the_last_rounds_bets_again(casino: Server, page: Page) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    page.get_by_role("button", name="Take a seat").click()
    expect(page.get_by_role("button", name="Rebet")).to_be_disabled()  # nothing to repeat yet
    after = play_a_round(page, [("banker", "25.00"), ("player-pair", "5.00"), ("banker", "5.00")])

    page.get_by_role("button", name="Rebet").click()
    expect(page.locator("#stake-banker")).to_have_text("Your bet 30.00")
    expect(page.locator("#stake-player-pair")).to_have_text("Your bet 5.00")
    expect(page.get_by_label("Balance")).to_have_text(money(after - 3500))
    expect(page.get_by_role("button", name="Rebet")).to_be_disabled()  # once a round
    http = casino.client(token(page))
    assert http.get("/api/me").json()["balance_cents"] == after - 3500
    round_id = http.get("/api/tables/1").json()["round_id"]
    placed = {
        (b["bet"], b["amount_cents"]) for b in http.get(f"/api/rounds/{round_id}").json()["bets"]
    }
    assert placed == {("banker", 3000), ("player-pair", 500)}


def test_rebet_is_refused_whole_when_the_balance_is_short(casino: Server, page: Page) -> None:
    name = register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    after = play_a_round(page, [("banker", "100.00"), ("tie", "5.00")])
    admin = casino.player(role="admin")
    debit = admin.http.post(f"/api/admin/wallets/{name}/adjust",
                            json={"amount_cents": 50 * 100 - after, "reason": "test: down to 50"})  # fmt: skip
    assert debit.status_code == 200, debit.text
    expect(page.get_by_label("Balance")).to_have_text("50.00")

    page.get_by_role("button", name="Rebet").click()
    expect(page.locator("#table-notice")).to_have_text("Rebet needs 105.00; your balance is 50.00.")
    expect(page.locator("#stake-banker")).to_have_text("")
    expect(page.locator("#stake-tie")).to_have_text("")
    assert casino.client(token(page)).get("/api/me").json()["balance_cents"] == 5000
    place(page, "tie", "5.00")  # a bet the balance allows is taken, and the refusal goes
    expect(page.locator("#table-notice")).to_be_hidden()


def test_a_rebet_refused_part_way_leaves_none_of_it(casino: Server, page: Page) -> None:
    """The loss limit has room for one of the two bets: the one placed is taken back."""
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    after = play_a_round(page, [("banker", "5.00"), ("player", "5.00")])
    http = casino.client(token(page))
    lost = http.get("/api/me/protections").json()["limits"]["day"]["net_loss_cents"]
    assert lost in (0, 25)  # Banker and Player, 5.00 each: at most the commission is lost
    limit = http.put("/api/me/limits", json={"period": "day", "loss_limit_cents": lost + 700})
    assert limit.status_code == 200, limit.text

    page.get_by_role("button", name="Rebet").click()
    expect(page.locator("#table-notice")).to_contain_text("Rebet refused: your daily loss limit is")
    expect(page.locator("#table-notice")).to_contain_text("2.00 of room is left.")
    expect(page.locator("#stake-banker")).to_have_text("")
    expect(page.locator("#stake-player")).to_have_text("")
    expect(page.get_by_label("Balance")).to_have_text(money(after))
    round_id = http.get("/api/tables/1").json()["round_id"]
    assert http.get(f"/api/rounds/{round_id}").json()["bets"] == []
    assert http.get("/api/me").json()["balance_cents"] == after


def chip_colour(page: Page, amount: str) -> str:
    face = page.get_by_role("radio", name=f"Chip {amount}").locator("xpath=following-sibling::span")
    colour = face.evaluate("e => getComputedStyle(e).backgroundColor")
    assert isinstance(colour, str)
    return colour


def test_chips_are_coloured_by_their_value_at_every_table(casino: Server, page: Page) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")
    rack = {amount: chip_colour(page, amount) for amount in ("1.00", "5.00", "25.00", "100.00")}
    assert len(set(rack.values())) == 4  # 1 white, 5 red, 25 green, 100 black
    assert rack["25.00"] != rack["100.00"]

    # On a spot, the stack shows the chips the bet is made of: 25.00 is a green chip,
    # 100.00 a black one, 130.00 a black, a green and a red.
    place(page, "banker", "25.00")
    place(page, "player", "100.00")
    discs = (
        "e => [...e.querySelectorAll('.stack-disc')].map(d => getComputedStyle(d).backgroundColor)"
    )
    assert spot(page, "banker").locator(".chips-on").evaluate(discs) == [rack["25.00"]]
    assert spot(page, "player").locator(".chips-on").evaluate(discs) == [rack["100.00"]]
    place(page, "tie", "25.00")
    place(page, "tie", "100.00")
    place(page, "tie", "5.00")
    assert spot(page, "tie").locator(".chips-on").evaluate(discs) == [
        rack["100.00"], rack["25.00"], rack["5.00"]]  # fmt: skip
    expect(spot(page, "tie").locator(".stack-label")).to_have_text("130")

    # The 5 chip is red at the 5.00-minimum table too, where it comes first in the rack.
    page.get_by_role("link", name="Lobby").click()
    open_table(page, 5, "Punto Banco")
    expect(page.get_by_role("radio", name="Chip 5.00")).to_be_checked()
    assert chip_colour(page, "5.00") == rack["5.00"]
    assert chip_colour(page, "25.00") == rack["25.00"]
    assert chip_colour(page, "100.00") == rack["100.00"]
