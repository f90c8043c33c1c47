"""Last-game recall in Chromium: the player's last ten rounds with their steps, wagers,
wins and balances; Verify re-deals each from its revealed seeds in the browser and
settles it again from those cards (a live round from its dealer's cards); a log, a call
or a payout that was tampered with does not verify, and the page names what differs;
the client seed made by the browser on the first visit can be seen and changed, and
cuts the shoe."""

from __future__ import annotations

import json
import pathlib
import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from tests.server.harness import Server, fresh_sqlite, running, wait_for
from tests.web.casino import money, register, shoot, token
from tests.web.conftest import casino_settings

GAMES = {1: ("punto-banco", "banker"), 2: ("redgreen", "red"), 3: ("redgreen-mini", "green"),
         4: ("lo-ball", "main")}  # fmt: skip


@pytest.fixture
def quick(tmp_path: pathlib.Path, migrated_sqlite: pathlib.Path) -> Iterator[Server]:
    """A casino that turns its cards without a pause: rounds played through the API."""
    url = fresh_sqlite(migrated_sqlite, tmp_path)
    with running(casino_settings(url, reveal_delay_ms=0)) as s:
        yield s


def play_round(http: httpx.Client, table_id: int, bet: str, cents: int) -> dict[str, Any]:
    """Sit if need be, bet, deal, peek, choose or squeeze as the highest bettor, wait for
    the end."""
    return play_bets(http, table_id, [(bet, cents)])


def play_bets(http: httpx.Client, table_id: int, bets: list[tuple[str, int]]) -> dict[str, Any]:
    """:func:`play_round` with several bets, one on each spot named."""
    http.post(f"/api/tables/{table_id}/seat", json={})
    round_id = http.get(f"/api/tables/{table_id}").json()["round_id"]
    for bet, cents in bets:
        placed = http.post(f"/api/tables/{table_id}/bets", json={"bet": bet, "amount_cents": cents},
                           headers={"Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
        assert placed.status_code == 201, placed.text
    http.post(f"/api/tables/{table_id}/deal")

    def over() -> dict[str, Any] | None:
        data: dict[str, Any] = http.get(f"/api/rounds/{round_id}").json()
        if data["state"] == "peek":
            http.post(f"/api/rounds/{round_id}/peek/done")
        if data["state"] == "choosing":
            http.post(f"/api/rounds/{round_id}/choose", json={"hand": "green"})
        if data["state"] == "squeeze":  # turned at once, not left for the squeeze's timer
            http.post(f"/api/tables/{table_id}/squeeze/done")
        return data if data["state"] == "settled" else None

    return dict(wait_for(over))


def test_the_last_ten_rounds_each_verified_in_the_browser(
    quick: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, quick.url)
    http = quick.client(token(page))
    made = http.get("/api/me/client-seed").json()["client_seed"]
    assert re.fullmatch(r"[0-9a-f]{32}", made), made  # made in the browser on the first visit

    page.goto(f"{quick.url}/history")
    expect(page.locator("#client-seed-current")).to_have_text(made)
    page.get_by_label("Client seed", exact=True).fill("my own cut 7")
    page.get_by_role("button", name="Save seed").click()
    expect(page.locator("#client-seed-current")).to_have_text("my own cut 7")
    assert http.get("/api/me/client-seed").json()["client_seed"] == "my own cut 7"

    records = [play_round(http, 1, "player", 100 + 20 * i) for i in range(8)]  # on the 0.20 step
    records += [play_round(http, t, GAMES[t][1], 500) for t in (2, 3, 4)]
    assert all(r["client_seed"] == "my own cut 7" for r in records)  # the player's cut

    page.goto(f"{quick.url}/history")
    articles = page.locator("article.recall")
    expect(articles).to_have_count(10)
    shown = [int(a.get_attribute("data-round-id") or 0) for a in articles.all()]
    assert shown == [r["id"] for r in reversed(records)][:10]  # newest first, ten of them

    history = {h["round_id"]: h for h in http.get("/api/me/history").json()}
    for article in articles.all():
        round_id = int(article.get_attribute("data-round-id") or 0)
        entry = history[round_id]
        balances = article.locator(".balances dd")
        expect(balances.nth(0)).to_have_text(money(entry["balance_before_cents"]))
        expect(balances.nth(1)).to_have_text(money(entry["balance_after_cents"]))
        wager = entry["wagers"][0]
        expect(article.locator(".payouts tbody tr")).to_contain_text(money(wager["payout_cents"]))
        steps = article.locator(".steps li")
        expect(steps.first).to_contain_text("opened")
        expect(steps.filter(has_text="No more bets")).to_contain_text(
            "cut with client seed “my own cut 7”"
        )
        expect(steps.last).to_contain_text("Settled:")
        article.get_by_role("button", name="Verify").click()
        verdict = article.locator(".verify-result")
        expect(verdict).to_have_attribute("data-verified", "true")
        expect(verdict.locator(".verdict")).to_contain_text(
            "matches the re-deal from the revealed seeds"
        )
    shoot(page, screenshots, "history")


def test_a_tampered_log_or_seed_does_not_verify(quick: Server, page: Page) -> None:
    register(page, quick.url)
    http = quick.client(token(page))
    play_round(http, 1, "banker", 1000)

    def tamper(route: Route) -> None:
        rounds = route.fetch().json()
        events = rounds[0]["events"]
        first = next(e for e in events if e["kind"] == "card-dealt")
        first["item"] = "AS" if first["item"] != "AS" else "KS"
        route.fulfill(json=rounds)

    page.route("**/api/me/history*", tamper)
    page.goto(f"{quick.url}/history")
    article = page.locator("article.recall").first
    article.get_by_role("button", name="Verify").click()
    verdict = article.locator(".verify-result")
    expect(verdict).to_have_attribute("data-verified", "false")
    expect(verdict.locator(".checks .fail")).to_contain_text("1 do not match")
    expect(verdict.locator(".checks .pass").first).to_contain_text("the hash published")

    page.unroute("**/api/me/history*")

    def other_seed(route: Route) -> None:
        rounds = route.fetch().json()
        rounds[0]["server_seed"] = "11" * 32
        route.fulfill(body=json.dumps(rounds), content_type="application/json")

    page.route("**/api/me/history*", other_seed)
    page.reload()
    article = page.locator("article.recall").first
    article.get_by_role("button", name="Verify").click()
    verdict = article.locator(".verify-result")
    expect(verdict).to_have_attribute("data-verified", "false")
    expect(verdict.locator(".checks li").first).to_have_class("fail")


EVERY_SPOT = {
    1: ["banker", "player", "tie", "player-pair", "banker-pair"],
    2: ["red", "green", "bonus"],
    3: ["red", "green", "bonus"],
    4: ["main", "lo-card", "hi-card", "dice-lo", "dice-hi"],
    6: ["banker", "player", "tie", "player-pair", "banker-pair", "dragon-7", "panda-8"],
}
"""A bet on every spot of the electronic tables: Punto Banco, RedGreen, Mini RedGreen, Lo-Ball,
and EZ Baccarat with its side bets."""


def play_live(quick: Server, http: httpx.Client, cards: list[str]) -> None:
    """A live round: the player bets Banker and Player, the dealer deals ``cards``."""
    dealer = quick.player(role="dealer")
    live = quick.live_table()  # the live Punto Banco table, whose dealer enters the cards
    http.post(f"/api/tables/{live}/seat", json={})
    for bet in ("banker", "player"):
        placed = http.post(f"/api/tables/{live}/bets", json={"bet": bet, "amount_cents": 1000},
                           headers={"Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
        assert placed.status_code == 201, placed.text
    assert dealer.http.post(f"/api/tables/{live}/close-betting").status_code == 200
    dealt = dealer.http.post(f"/api/tables/{live}/cards", json={"cards": cards})
    assert dealt.status_code == 200 and dealt.json()["needs"] == [], dealt.text


def test_verify_settles_a_real_round_of_each_game_again(
    quick: Server, page: Page, screenshots: pathlib.Path
) -> None:
    """A round of every game with a bet on every spot, and a live round: Verify, in the
    browser, re-deals each (a live one has no seeds) and settles it again from the cards
    and the table's rules, and finds the call and every payout what the casino paid."""
    register(page, quick.url)
    http = quick.client(token(page))
    for table_id, spots in EVERY_SPOT.items():
        play_bets(http, table_id, [(spot, 1000) for spot in spots])
    play_live(quick, http, ["9S", "2H", "KD", "3C"])  # Player 9 against 5: a natural
    page.goto(f"{quick.url}/history")
    articles = page.locator("article.recall")
    expect(articles).to_have_count(6)
    for article, bets in zip(articles.all(), [2, 7, 5, 3, 3, 5], strict=True):  # newest first
        article.get_by_role("button", name="Verify").click()
        verdict = article.locator(".verify-result")
        expect(verdict).to_have_attribute("data-verified", "true")
        expect(verdict).to_have_attribute("data-settled", "true")
        expect(verdict.locator(".checks li").last).to_have_text(
            f"✔ The settlement matches: {bets} bets, the call and every payout, settled again"
            " here from the cards and the table's rules"
        )
    live = articles.first.locator(".verify-result")
    expect(live.locator(".verdict")).to_contain_text("dealt in the order the rules deal them")
    expect(live.locator(".checks li").first).to_contain_text("a live round has no seeds")
    articles.nth(1).scroll_into_view_if_needed()
    shoot(page, screenshots, "history-settlement")


def test_a_tampered_call_or_payout_is_named_on_the_verify_page(
    quick: Server, page: Page, screenshots: pathlib.Path
) -> None:
    """The cards are the seeds' own, but the record calls the other side the winner, pays
    the Banker bet a cent more, and its ledger paid the Player bet a whole unit more:
    Verify names each, the record's value beside the one the rules give, in red."""
    register(page, quick.url)
    http = quick.client(token(page))
    play_bets(http, 1, [("banker", 1000), ("player", 1000)])
    entry = http.get("/api/me/history").json()[0]
    paid = next(e for e in entry["events"] if e["kind"] == "round-settled")
    winner = paid["result"]["winner"]
    other = "player" if winner == "banker" else "banker"
    banker = next(p for p in paid["payouts"] if p["spot"] == "banker")
    player = next(w for w in entry["wagers"] if w["bet"] == "player")

    def tamper(route: Route) -> None:
        rounds = route.fetch().json()
        settled = next(e for e in rounds[0]["events"] if e["kind"] == "round-settled")
        settled["result"]["winner"] = other
        next(p for p in settled["payouts"] if p["spot"] == "banker")["won"] += 1
        next(w for w in rounds[0]["wagers"] if w["bet"] == "player")["payout_cents"] += 100
        route.fulfill(json=rounds)

    page.route("**/api/me/history*", tamper)
    page.goto(f"{quick.url}/history")
    article = page.locator("article.recall").first
    article.get_by_role("button", name="Verify").click()
    verdict = article.locator(".verify-result")
    expect(verdict).to_have_attribute("data-verified", "false")
    expect(verdict).to_have_attribute("data-settled", "false")
    expect(verdict).to_have_class(re.compile(r"\bfailed\b"))
    expect(verdict.locator(".checks > li.pass")).to_have_count(3)  # the seed and every card
    expect(verdict.locator(".checks > li.fail")).to_contain_text(
        "The settlement differs from the record (3):"
    )
    expect(verdict.locator(".differences li")).to_have_text([
        f"The call, winner: the record says {other}, the rules give {winner}",
        f"Banker (yours) · won: the record says {money(banker['won'] + 1)},"
        f" the rules give {money(banker['won'])}",
        f"Player (yours) · paid by the ledger: the record says"
        f" {money(player['payout_cents'] + 100)}, the rules give {money(player['payout_cents'])}",
    ])  # fmt: skip
    shoot(page, screenshots, "history-tampered")


def test_a_tampered_call_in_words_or_side_totals_is_named(quick: Server, page: Page) -> None:
    """RedGreen's first version: the record's call in words, the commission its left-side
    protecting dealer kept, and a field the rules do not give at all are each named, as
    ``baccara verify`` names them; nothing in the record is passed over unchecked."""
    register(page, quick.url)
    http = quick.client(token(page))
    play_bets(http, 2, [("red", 1000), ("green", 1000)])
    entry = http.get("/api/me/history").json()[0]
    result = next(e for e in entry["events"] if e["kind"] == "round-settled")["result"]
    call, kept = result["call"], result["sides"]["left"]["commission"]

    def tamper(route: Route) -> None:
        rounds = route.fetch().json()
        settled = next(e for e in rounds[0]["events"] if e["kind"] == "round-settled")
        settled["result"]["call"] = "Red wins"
        settled["result"]["sides"]["left"]["commission"] += 1
        settled["result"]["jackpot"] = 1
        route.fulfill(json=rounds)

    page.route("**/api/me/history*", tamper)
    page.goto(f"{quick.url}/history")
    article = page.locator("article.recall").first
    article.get_by_role("button", name="Verify").click()
    verdict = article.locator(".verify-result")
    expect(verdict).to_have_attribute("data-verified", "false")
    expect(verdict).to_have_attribute("data-settled", "false")
    expect(verdict.locator(".differences li")).to_have_text([
        f"The call, in words: the record says Red wins, the rules give {call}",
        f"The call, the left-side dealer's commission: the record says {money(kept + 1)},"
        f" the rules give {money(kept)}",
        "The call, jackpot: the record says 1, the rules give nothing",
    ])  # fmt: skip


def big_road(winners: list[str]) -> list[list[str]]:
    """The big road's columns, ties left out (the reference the page is checked against)."""
    columns: list[list[str]] = []
    for w in winners:
        if w == "T":
            continue
        if columns and columns[-1][0] == w:
            columns[-1].append(w)
        else:
            columns.append([w])
    return columns


def derived_road(columns: list[list[str]], k: int) -> list[str]:
    out = []
    for c, column in enumerate(columns):
        for r in range(len(column)):
            if r == 0 and c >= k + 1:
                out.append("R" if len(columns[c - 1]) == len(columns[c - 1 - k]) else "B")
            elif r > 0 and c >= k:
                out.append("B" if len(columns[c - k]) == r else "R")
    return out


def test_the_roads_drawn_at_the_table_are_the_tables_results(
    quick: Server, page: Page, screenshots: pathlib.Path
) -> None:
    register(page, quick.url)
    http = quick.client(token(page))
    for i in range(24):
        play_round(http, 1, ("banker", "player", "tie")[i % 3], 100)
    page.goto(f"{quick.url}/tables/1")
    results = http.get("/api/tables/1/rounds").json()
    winners = [{"banker": "B", "player": "P", "tie": "T"}[r["result"]["winner"]] for r in results]
    assert len(winners) == 24
    expect(page.locator("svg.road-bead-plate")).to_have_attribute("data-letters", " ".join(winners))
    columns = big_road(winners)
    expect(page.locator("svg.road-big-road")).to_have_attribute(
        "data-letters", " ".join("".join(c) for c in columns)
    )
    for k in (1, 2, 3):
        expect(page.locator(f"svg.road-derived-{k}")).to_have_attribute(
            "data-letters", " ".join(derived_road(columns, k))
        )
    stats = page.locator(".stats")
    expect(stats.locator('[data-stat="rounds"]')).to_have_text("24")
    expect(stats.locator('[data-stat="banker"]')).to_contain_text(f"{winners.count('B')} · ")
    expect(stats.locator('[data-stat="tie"]')).to_contain_text(f"{winners.count('T')} · ")
    cells, marked = 0, set()  # a tie marks the cell before it (the first cell, if none yet)
    for w in winners:
        if w == "T":
            marked.add(max(cells - 1, 0))
        else:
            cells += 1
    expect(page.locator("svg.road-big-road .ring")).to_have_count(cells)
    expect(page.locator("svg.road-big-road .tie-line")).to_have_count(len(marked))
    expect(page.locator("#pays-banker")).to_have_text("0.95 to 1")  # from the exact analysis
    shoot(page, screenshots, "roads")
