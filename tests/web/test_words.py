"""The words a player reads: money as money, counts with their plural, refusals worded from
their code and figures, a hand's score only once it means something, a void as a refund,
and the Bonus hand named only when it pays."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from tests.server.harness import Player, Server
from tests.web.casino import (
    DESKTOP,
    PHONE,
    choose_chip,
    open_table,
    place,
    register,
    result_panel,
    shoot,
    spot,
    token,
)

WORDS = "async ([name, ...args]) => (await import('/static/js/words.js'))[name](...args)"
LAYOUTS = "async ([name, ...args]) => (await import('/static/js/layouts.js'))[name](...args)"


def words(page: Page, name: str, *args: Any) -> Any:
    return page.evaluate(WORDS, [name, *args])


@pytest.fixture
def lobby(casino: Server, page: Page) -> Page:
    register(page, casino.url)
    return page


def test_counts_take_their_plural_and_numbers_their_separators(lobby: Page) -> None:
    assert [words(lobby, "points", n) for n in (0, 1, 2, 27)] == [
        "0 points", "1 point", "2 points", "27 points"
    ]  # fmt: skip
    assert words(lobby, "count", "words.bets", 1) == "1 bet"
    assert words(lobby, "count", "words.rounds", 12_500) == "12,500 rounds"
    assert words(lobby, "number", 1_234_567) == "1,234,567"
    assert words(lobby, "resultWord", "push", True) == "refunded"
    assert [words(lobby, "resultWord", r) for r in ("win", "lose", "push", None)] == [
        "won", "lost", "push", "open"
    ]  # fmt: skip


REFUSALS = [
    ("over_limit", {"spot": "banker-pair", "total_cents": 1_020_000, "min_cents": 500, "max_cents": 1_000_000},
     "the total on Banker Pair would be 10,200.00; this table takes 5.00 to 10,000.00 a spot"),
    ("under_minimum", {"spot": "player", "left_cents": 60, "min_cents": 100},
     "that would leave 0.60 on Player, under the table minimum of 1.00"),
    ("bet_step", {"amount_cents": 123_450, "step_cents": 20, "lower_cents": 123_440, "higher_cents": None},
     "a stake of 1,234.50 is not a multiple of this table's bet step, 0.20: bet 1,234.40"),
    ("too_many_bets", {"cap": 1},
     "at most 1 bet a player in one round (a bet taken back counts): add to a spot with a larger stake instead"),
    ("insufficient_funds", {"balance_cents": 123_456, "needed_cents": 200_000},
     "your balance is 1,234.56; 2,000.00 is needed"),
    ("loss_limit", {"period": "week", "limit_cents": 150_000, "room_cents": 0},
     "your weekly loss limit is 1,500.00: this bet could take you past it; 0.00 of room is left"),
]  # fmt: skip


@pytest.mark.parametrize(("code", "params", "text"), REFUSALS)
def test_a_refusal_is_worded_from_its_code_and_figures(
    lobby: Page, code: str, params: dict[str, Any], text: str
) -> None:
    error = {"code": code, "params": params, "detail": "the server's own words"}
    assert words(lobby, "refusal", error, "punto-banco") == text


def test_a_refusal_without_figures_keeps_the_servers_words(lobby: Page) -> None:
    plain = {"code": "invalid_bet", "params": None, "detail": "unknown bet 'blue'"}
    assert words(lobby, "refusal", plain, "punto-banco") == "unknown bet 'blue'"
    garbled = {"code": "over_limit", "params": {"spot": "banker"}, "detail": "the detail"}
    assert words(lobby, "refusal", garbled, "punto-banco") == "the detail"


def test_the_table_words_a_limit_refusal_from_its_figures_at_both_sizes(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, casino.url)
    open_table(page, 1, "Punto Banco")  # 1.00 to 500.00 a spot
    http = casino.client(token(page))
    assert http.post("/api/tables/1/seat", json={}).status_code == 200  # the page's own seat
    placed = http.post("/api/tables/1/bets", json={"bet": "banker", "amount_cents": 50_000},
                       headers={"Idempotency-Key": "words-1"})  # fmt: skip
    assert placed.status_code == 201, placed.text
    expect(page.locator("#stake-banker")).to_have_text("Your bet 500.00")
    answers: list[dict[str, Any]] = []

    def reworded(route: Route) -> None:  # the server's detail replaced: the page must not need it
        answer = route.fetch()
        body = answer.json()
        answers.append(body)
        route.fulfill(response=answer, body=json.dumps({**body, "detail": "see params"}))

    page.route("**/api/tables/1/bets", reworded)
    choose_chip(page, "1.00")
    notice = page.locator("#table-notice")
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        # Each refusal answered before the next (the notice reads the same both times) and
        # before the page closes: a reply still in the route when it did failed the next test.
        with page.expect_response("**/api/tables/1/bets"):
            spot(page, "banker").click()
        expect(notice).to_have_text(
            "Bet refused: the total on Banker would be 501.00; this table takes 1.00 to 500.00 a spot."
        )
        expect(notice).to_be_in_viewport()
    assert len(answers) == 2
    assert answers[0]["error"] == "over_limit" and answers[0]["params"]["total_cents"] == 50_100
    expect(page.locator("#stake-banker")).to_have_text("Your bet 500.00")  # nothing changed
    shoot(page, screenshots, "words-limit-refusal")


def _live_round(casino: Server, page: Page) -> tuple[Player, int]:
    live = casino.live_table()
    dealer = casino.player(role="dealer")
    register(page, casino.url)
    open_table(page, live, "Punto Banco")
    page.get_by_role("button", name="Take a seat").click()
    place(page, "player", "25.00")
    assert dealer.http.post(f"/api/tables/{live}/close-betting").status_code == 200
    return dealer, live


def test_a_hand_shows_no_score_until_its_first_two_cards_are_face_up(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    dealer, live = _live_round(casino, page)
    player = page.locator('section[data-hand="player"]')
    banker = page.locator('section[data-hand="banker"]')

    def deal(*cards: str) -> int:
        answer = dealer.http.post(f"/api/tables/{live}/cards", json={"cards": list(cards)})
        return int(answer.status_code)

    assert deal("8S") == 200
    expect(player.get_by_role("img")).to_have_count(1)
    expect(player.locator(".score")).to_have_count(0)  # a lone 8 is no natural
    assert deal("2H") == 200
    expect(banker.get_by_role("img")).to_have_count(1)
    expect(banker.locator(".score")).to_have_count(0)
    expect(player.locator(".score")).to_have_count(0)
    shoot(page, screenshots, "words-one-card-each")
    assert deal("KD") == 200
    expect(player.locator(".score")).to_have_text("8")
    expect(banker.locator(".score")).to_have_count(0)
    assert deal("3C") == 200
    expect(banker.locator(".score")).to_have_text("5")
    expect(result_panel(page).locator("h2")).to_have_text("Player wins, 8 to 5 · natural")


def test_a_voided_bet_reads_refunded_at_the_table_and_in_the_history(
    casino: Server, page: Page
) -> None:
    dealer, live = _live_round(casino, page)
    round_id = dealer.http.get(f"/api/tables/{live}").json()["round_id"]
    voided = dealer.http.post(f"/api/rounds/{round_id}/void", json={"reason": "a card fell"})
    assert voided.status_code == 200, voided.text
    row = result_panel(page).locator("tbody tr")
    expect(row.locator("td").nth(1)).to_have_text("refunded")
    expect(row.locator("td").nth(1)).to_have_attribute("data-result", "push")
    page.goto(f"{casino.url}/history")
    recall = page.locator(f'article[data-round-id="{round_id}"]')
    expect(recall.locator("table.payouts tbody td").nth(1)).to_have_text("refunded")
    expect(recall).not_to_contain_text("push")


def _headline(page: Page, round_: dict[str, Any], me: str = "ann", seat: int | None = 1) -> str:
    text = page.evaluate(LAYOUTS, ["headline", round_, me, seat])
    assert isinstance(text, str)
    return text


def test_lo_ball_headlines_count_points_with_their_plural(lobby: Page) -> None:
    result: dict[str, Any] = {"dealer_points": 1, "dice": [1, 2, 4], "dice_total": 7,
              "seats": {"1": {"points": 1, "main": "win-bonus"}}}  # fmt: skip
    round_ = {"game": "lo-ball", "settled": {"result": result, "payouts": []}}
    assert (
        _headline(lobby, round_) == "Dealer 1 point · your 1 point: won, Win-bonus · dice 1-2-4 (7)"
    )
    result["dealer_points"], result["seats"]["1"] = 12, {"points": 0, "main": "lose"}
    assert _headline(lobby, round_) == "Dealer 12 points · your 0 points: lost · dice 1-2-4 (7)"


def _bonus(game: str, category: str, payouts: list[dict[str, Any]]) -> dict[str, Any]:
    result = {"winner": "red", "bonus_category": category, "call": "…"}
    return {"game": game, "settled": {"result": result, "payouts": payouts}}


@pytest.mark.parametrize("game", ["redgreen", "redgreen-mini"])
def test_the_redgreen_headline_names_the_bonus_hand_only_when_it_pays(
    lobby: Page, game: str
) -> None:
    lost = {"spot": "bonus", "player": "ann", "stake": 500, "won": -500, "returned": 0}
    won = {"spot": "bonus", "player": "ann", "stake": 500, "won": 2000, "returned": 2500}
    assert _headline(lobby, _bonus(game, "pair", [lost])) == "Red wins"
    assert _headline(lobby, _bonus(game, "pair", [])) == "Red wins"  # the paytable pays no pair
    assert _headline(lobby, _bonus(game, "three_of_a_kind", [won])) == (
        "Red wins · the Bonus pays: three of a kind"
    )
    assert _headline(lobby, _bonus(game, "flush", [])) == "Red wins · the Bonus pays: flush"


def test_the_audit_trail_writes_counts_and_amounts_as_a_person_reads_them(lobby: Page) -> None:
    details = {
        "rounds": 12_345,
        "round_id": 12_345,
        "refund_cents": 123_456,
        "stakes_cents": 250_000,
    }
    text = lobby.evaluate(
        "async (d) => (await import('/static/js/pages/audit.js')).detailsText(d)", details
    )
    assert text == "rounds 12,345 · round id 12345 · refund 1,234.56 · stakes 2,500.00"
