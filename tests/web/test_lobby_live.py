"""The lobby, live over its one WebSocket: each table's round state and countdown, a
result appearing without a reload, seats and watchers — and one socket, not one a table."""

from __future__ import annotations

import pathlib
import re
import time

from playwright.sync_api import Page, WebSocket, expect

from tests.server.harness import Player, Server
from tests.web.casino import register, shoot

SECONDS = re.compile(r"^(\d+) s$")


def wait_for(player: Player, round_id: int, states: tuple[str, ...], seconds: float = 30) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        state = str(player.http.get(f"/api/rounds/{round_id}").json()["state"])
        if state in states:
            return state
        time.sleep(0.1)
    raise AssertionError(f"round {round_id} did not reach {states}: {state}")


def round_of(player: Player, table_id: int) -> int:
    return int(player.http.get(f"/api/tables/{table_id}").json()["round_id"])


def test_the_lobby_shows_each_round_live_on_one_socket(casino: Server, page: Page) -> None:
    sockets: list[WebSocket] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    page.goto(casino.url)  # signed out: the lobby is anyone's to look at
    card = page.locator('li[data-table-id="1"]')
    state = card.locator('[data-fact="state"]')
    expect(state.locator(".phase")).to_have_text("Betting open")
    expect(state.locator(".countdown")).to_have_text("")

    ann = casino.player()
    assert ann.sit(1).status_code == 200
    expect(card.locator('[data-fact="seats"]')).to_have_text("1 of 7")
    first = round_of(ann, 1)
    expect(state.locator(".phase")).to_have_text("Place your bets")  # a seat starts the clock
    countdown = state.locator(".countdown")
    expect(countdown).to_have_text(SECONDS)
    start = int(SECONDS.match(countdown.inner_text()).group(1))  # type: ignore[union-attr]
    assert 55 <= start <= 60  # the table's 60 s, counted from the server's deadline
    expect(countdown).not_to_have_text(f"{start} s", timeout=3000)  # it ticks in the browser
    assert int(SECONDS.match(countdown.inner_text()).group(1)) < start  # type: ignore[union-attr]
    assert ann.bet(1, "banker", 1000).status_code == 201

    road = card.locator('[data-fact="road"]')
    expect(road).to_have_attribute("data-count", "0")
    assert ann.http.post("/api/tables/1/deal").status_code == 200
    wait_for(ann, first, ("settled",))
    expect(road).to_have_attribute("data-count", "1")  # the result, without a reload
    # the next round counts down from its opening: ann is still seated
    expect(state.locator(".phase")).to_have_text("Place your bets")
    expect(countdown).to_have_text(SECONDS)

    bob = casino.player()
    with casino.ws(1, bob.token):
        expect(card.locator('[data-fact="watching"]')).to_have_text("1")
    expect(card.locator('[data-fact="watching"]')).to_have_text("0")
    page.wait_for_timeout(500)
    assert [s.url for s in sockets] == [f"{casino.url.replace('http', 'ws')}/ws/lobby"]


def test_a_signed_in_lobby_opens_one_socket_too(casino: Server, page: Page) -> None:
    sockets: list[WebSocket] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    register(page, casino.url)
    expect(page.locator("li.table-card")).to_have_count(6)
    expect(page.locator('li[data-table-id="5"] [data-fact="state"] .phase')).to_have_text(
        "Betting open"
    )
    admin = casino.player(role="admin")
    made = admin.http.post("/api/tables", json={"game": "lo-ball", "min_bet_cents": 100,
                                                "max_bet_cents": 10_000})  # fmt: skip
    assert made.status_code == 201, made.text
    expect(page.locator("li.table-card")).to_have_count(7)  # opened: in the lobby at once
    assert admin.http.delete(f"/api/tables/{made.json()['id']}").status_code == 204
    expect(page.locator("li.table-card")).to_have_count(6)
    assert len([s for s in sockets if s.url.split("?")[0].endswith("/ws/lobby")]) == 1
    assert not [s for s in sockets if "/ws/tables/" in s.url]


def test_screenshots_of_tables_in_different_states(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    """Punto Banco counting down, RedGreen in its peek, Lo-Ball after rounds, the live
    table waiting for its dealer, Mini RedGreen watched."""
    ann, bob, cat, dan, eve = (casino.player() for _ in range(5))
    for player, table_id in ((ann, 1), (bob, 4), (cat, 2), (dan, 2), (eve, 5)):
        assert player.sit(table_id).status_code == 200
    for _ in range(6):  # a few results on the roads of Punto Banco and Lo-Ball
        for player, table_id, bet in ((ann, 1, "banker"), (bob, 4, "main")):
            round_id = round_of(player, table_id)
            assert player.bet(table_id, bet, 100).status_code == 201
            assert player.http.post(f"/api/tables/{table_id}/deal").status_code == 200
            wait_for(player, round_id, ("settled",))
    peeked = round_of(cat, 2)
    for player in (cat, dan):
        assert player.bet(2, "red", 500).status_code == 201
        player.http.post("/api/tables/2/deal")
    wait_for(cat, peeked, ("peek",))
    assert ann.bet(1, "player", 2500).status_code == 201
    assert eve.bet(5, "banker", 500).status_code == 201
    eve.http.post("/api/tables/5/deal")
    wait_for(eve, round_of(eve, 5), ("dealing",))
    with casino.ws(3, cat.token), casino.ws(3, dan.token):
        page.goto(casino.url)
        expect(page.locator('li[data-table-id="2"] .phase')).to_have_text("Peek")
        expect(page.locator('li[data-table-id="5"] .phase')).to_have_text("Dealer dealing")
        expect(page.locator('li[data-table-id="1"] .phase')).to_have_text("Place your bets")
        expect(page.locator('li[data-table-id="3"] [data-fact="watching"]')).to_have_text("2")
        expect(page.locator('li[data-table-id="4"] [data-fact="road"]')).to_have_attribute(
            "data-count", "6"
        )
        shoot(page, screenshots, "lobby-live")
    for player in (cat, dan):  # the peek ends, so that the casino stops without waiting
        player.http.post(f"/api/rounds/{peeked}/peek/done")
    wait_for(cat, peeked, ("settled",))


def test_the_feed_keeps_each_round_once_and_counts_down_on_the_servers_clock(
    casino: Server, page: Page
) -> None:
    """A change's rounds follow the kept ones once each (a reconnection's snapshot may
    repeat one), the last 60 kept; a deadline counts down from the server's time, not
    from this browser's clock."""
    page.goto(f"{casino.url}/rules/punto-banco")
    kept = page.evaluate(
        """async () => {
          const { merged } = await import('/static/js/lobbyfeed.js');
          const row = (nonce) => ({ round_id: nonce + 100, nonce, state: "settled", result: null });
          const few = merged([row(1), row(2)], [row(2), row(3)]).map((r) => r.nonce);
          const many = merged(Array.from({ length: 60 }, (_, i) => row(i + 1)), [row(61)]);
          return [few, many.length, many[0].nonce, many[59].nonce];
        }"""
    )
    assert kept == [[1, 2, 3], 60, 2, 61]
    left = page.evaluate(
        """async () => {
          const { LobbyFeed } = await import('/static/js/lobbyfeed.js');
          const feed = new LobbyFeed({ onChange() {} });
          const server = Date.now() / 1000 + 3600;  // the server's clock an hour ahead
          feed.dispatch({ type: "lobby", now: server, tables: [] });
          return feed.left(server + 20);
        }"""
    )
    assert 19 <= left <= 20
