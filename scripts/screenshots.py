"""Take the web casino's pictures in docs/images again, from a real session.

Run by hand after a change to the pages (``python -m scripts.screenshots``), then look
at every picture before committing them. It starts a casino on a fresh SQLite database
in a temporary folder, with its default tables, and drives Debian's Chromium through
Playwright as players and a dealer would, through the pages and the public API:

    web-punto-banco.png        Punto Banco after a round: the result over the cards, the
                               roads of the rounds before (…-result-phone.png on a phone)
    web-result-folded.png      the same result folded away to a strip, the cards seen
    web-punto-banco-phone.png  the same table on a phone, bets on the spots, the countdown
    web-controls.png           Double pressed beside another player: the others' shares
                               of each spot, "Bet accepted", the session in the header
    web-controls-phone.png     Double refused in money, on a phone
    web-roads-redgreen.png     RedGreen's and Lo-Ball's roads after a few rounds (and
    web-roads-lo-ball.png      …-phone.png); web-lobby.png the lobby live with miniatures
    web-watching.png           a table watched signed out ("Sign in to play")
    web-voided.png             a live round voided by its dealer, the refund announced
    web-no-such-table.png      /tables/99; web-page-not-found.png an unknown address;
    web-offline.png            a table with the browser offline
    web-multi.png              two tables at once, each after a round (…-phone.png)
    web-redgreen.png           RedGreen in the peek: the highest bettor squeezes the hand backed
    web-redgreen-mini.png      Mini RedGreen after a round, the chosen hand set first
    web-lo-ball.png            Lo-Ball after a round
    web-dealer.png             the dealer's console after a live round: each seat's pay,
                               collection and commission
    web-zh-hans-<game>.png     each table after a round in Simplified Chinese, and
    web-zh-hant-<game>.png     in Traditional Chinese (…-phone.png on a phone)

The electronic tables deal at random, so no two runs give the same cards. Each picture
is kept as a PNG of at most 256 colours, which keeps it small.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import tempfile
import uuid

from PIL import Image
from playwright.sync_api import Browser, Page, expect, sync_playwright
from tests.server.harness import Player, Server, running, wait_for
from tests.web.casino import (
    CHROMIUM,
    DESKTOP,
    LAUNCH_ARGS,
    PHONE,
    open_table,
    place,
    register,
    result_panel,
    sign_in,
)

from baccara.server.settings import Settings

IMAGES = pathlib.Path(__file__).resolve().parent.parent / "docs" / "images"
LIVE = 5
"""The default live Punto Banco table, 5.00 to 1,000.00."""


def settings(database: pathlib.Path) -> Settings:
    """Timers for a person at a browser: betting closes by Deal long before its timer. The
    players it signs up all come from this host, beyond the limit one address has."""
    return Settings(
        database_url=f"sqlite:///{database}",
        sign_ups_per_hour=1000,
        sign_ups_per_day=1000,
        betting_seconds=60.0,
        peek_seconds=60.0,
        choose_seconds=60.0,
        reveal_delay_ms=120,  # type: ignore[call-arg]
    )


def save(page: Page, path: pathlib.Path, *, full_page: bool = True) -> None:
    """The page as it stands, once the last card has turned, in at most 256 colours."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(600)
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    with Image.open(path) as shot:
        colours = shot.convert("RGB")
    palette = colours.quantize(256, method=Image.Quantize.FASTOCTREE)  # keeps a chip's rare colour
    colours.quantize(palette=palette, dither=Image.Dither.FLOYDSTEINBERG).save(path, optimize=True)
    print(f"{path}: {path.stat().st_size // 1024} KB")


def both(page: Page, path: pathlib.Path) -> None:
    """The page at desktop size as ``path``, and on a phone as ``…-phone.png``."""
    save(page, path)
    page.set_viewport_size(PHONE)
    save(page, path.with_name(f"{path.stem}-phone.png"))
    page.set_viewport_size(DESKTOP)


def play_rounds(server: Server, table_id: int, bets: list[str], rounds: int) -> None:
    """Rounds at a table by another player through the API, so its roads have something
    to show: a peek handed back at once, Red chosen first at Mini RedGreen."""
    other = server.player()
    assert other.sit(table_id).status_code == 200
    for _ in range(rounds):
        round_id = other.http.get(f"/api/tables/{table_id}").json()["round_id"]
        assert other.bet(table_id, random.choice(bets), 100).status_code == 201
        deal_out(other, table_id, round_id, "red")
    other.http.delete(f"/api/tables/{table_id}/seat")


def deal_out(player: Player, table_id: int, round_id: int, first: str) -> None:
    """Deal the round the player bet on and play it out: the peek handed back and a
    squeeze's cards turned at once, ``first`` the hand set first at Mini RedGreen."""
    player.http.post(f"/api/tables/{table_id}/deal")

    def over() -> bool:
        state = player.http.get(f"/api/rounds/{round_id}").json()["state"]
        if state == "peek":
            player.http.post(f"/api/rounds/{round_id}/peek/done")
        elif state == "squeeze":
            player.http.post(f"/api/tables/{table_id}/squeeze/done")
        elif state == "choosing":
            player.http.post(f"/api/rounds/{round_id}/choose", json={"hand": first})
        return bool(state == "settled")

    wait_for(over)


def settle(page: Page) -> None:
    """Wait for the round's result and the balance it leaves."""
    result_panel(page)
    expect(page.locator("section.result .net")).to_be_visible()


def warm_up_roads(server: Server, rounds: int) -> None:
    """Rounds at Punto Banco before the picture, so its roads have something to show."""
    play_rounds(server, 1, ["banker", "player"], rounds)


def punto_banco(server: Server, page: Page, folder: pathlib.Path) -> None:
    warm_up_roads(server, 26)
    open_table(page, 1, "Punto Banco")
    page.get_by_role("button", name="Take a seat").click()
    place(page, "banker", "25.00")
    place(page, "player-pair", "5.00")
    page.get_by_role("button", name="Deal").click()
    settle(page)
    save(page, folder / "web-punto-banco.png")
    page.set_viewport_size(PHONE)
    save(page, folder / "web-punto-banco-result-phone.png")
    page.set_viewport_size(DESKTOP)
    page.get_by_role("button", name="See the cards").click()
    save(page, folder / "web-result-folded.png")
    page.get_by_role("button", name="Show the result").click()

    page.set_viewport_size(PHONE)
    place(page, "banker", "100.00")
    place(page, "banker", "25.00")
    place(page, "banker", "5.00")
    place(page, "tie", "5.00")
    page.wait_for_timeout(1500)  # the countdown has begun
    save(page, folder / "web-punto-banco-phone.png")
    page.get_by_role("button", name="Clear").click()
    expect(page.locator("#stake-banker")).to_have_text("")
    page.set_viewport_size(DESKTOP)


def controls(server: Server, page: Page, folder: pathlib.Path) -> None:
    """Another player's bets beside ours at Punto Banco, then Double; then a Double the
    balance cannot cover, on a phone."""
    other = server.player()
    assert other.sit(1).status_code == 200
    for spot, cents in (("banker", 2_600), ("player", 1_300), ("tie", 300)):
        assert other.bet(1, spot, cents).status_code == 201
    place(page, "banker", "25.00")
    place(page, "banker", "5.00")
    page.get_by_role("button", name="Double").click()
    expect(page.locator("#stake-banker")).to_contain_text("60.00")
    expect(page.locator("#others-banker")).to_have_text("Others 62 %")
    save(page, folder / "web-controls.png")
    page.get_by_role("button", name="Clear").click()
    expect(page.locator("#stake-banker")).to_have_text("")
    other.http.delete("/api/tables/1/bets")
    other.http.delete("/api/tables/1/seat")

    page.set_viewport_size(PHONE)
    balance = float(page.get_by_label("Balance").inner_text().replace(",", ""))
    staked = 0
    while staked <= balance / 2:  # more on the felt than is left: Double cannot be paid
        spots = ("banker", "player", "tie", "player-pair", "banker-pair")  # doubled, each
        place(page, spots[staked // 100 % 5], "100.00")  # stays within 500.00 a spot
        staked += 100
    page.get_by_role("button", name="Double").click()
    expect(page.locator("#table-notice")).to_contain_text("Double needs")
    save(page, folder / "web-controls-phone.png")
    page.get_by_role("button", name="Clear").click()
    expect(page.locator("#stake-banker")).to_have_text("")
    page.set_viewport_size(DESKTOP)


def roads(server: Server, page: Page, folder: pathlib.Path) -> None:
    """RedGreen's and Lo-Ball's roads after rounds at their tables, and the lobby."""
    play_rounds(server, 2, ["red", "green"], 14)
    play_rounds(server, 4, ["main"], 10)
    play_rounds(server, 3, ["red", "green"], 6)
    page.get_by_role("link", name="Lobby").click()
    expect(page.locator('[data-table-id="4"] [data-fact="road"] *').first).to_be_visible()
    both(page, folder / "web-lobby.png")
    open_table(page, 2, "RedGreen")
    both(page, folder / "web-roads-redgreen.png")
    page.get_by_role("link", name="Lobby").click()
    open_table(page, 4, "Lo-Ball")
    both(page, folder / "web-roads-lo-ball.png")


def states(server: Server, browser: Browser, page: Page, folder: pathlib.Path) -> None:
    """Watching signed out, a voided live round, a table and a page that are not there,
    and the browser offline."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        visitor = context.new_page()
        visitor.goto(f"{server.url}/tables/1")
        expect(visitor.get_by_role("link", name="Sign in to play")).to_be_visible()
        both(visitor, folder / "web-watching.png")
        visitor.goto(f"{server.url}/tables/99")
        expect(visitor.get_by_text("Table 99 does not exist")).to_be_visible()
        both(visitor, folder / "web-no-such-table.png")
        visitor.goto(f"{server.url}/no/such/page")
        expect(visitor.get_by_role("heading", name="Page not found")).to_be_visible()
        both(visitor, folder / "web-page-not-found.png")
    finally:
        context.close()

    page.get_by_role("link", name="Lobby").click()
    open_table(page, LIVE, "Punto Banco")
    place(page, "banker", "25.00")
    croupier = server.player(role="dealer")
    round_id = croupier.http.get(f"/api/tables/{LIVE}").json()["round_id"]
    voided = croupier.http.post(f"/api/rounds/{round_id}/void",
                                json={"reason": "a card fell off the table"})  # fmt: skip
    assert voided.status_code == 200, voided.text
    expect(page.locator("section.result")).to_contain_text("refunded")
    both(page, folder / "web-voided.png")

    page.context.set_offline(True)
    expect(page.get_by_text("offline", exact=False).first).to_be_visible()
    save(page, folder / "web-offline.png")
    page.context.set_offline(False)


def multi(page: Page, folder: pathlib.Path) -> None:
    """Punto Banco and Lo-Ball on one screen, a round played at each."""
    page.get_by_role("link", name="Lobby").click()
    open_table(page, 1, "Punto Banco")
    page.get_by_role("link", name="Add table").click()
    page.get_by_label("Table to add").select_option("4")
    page.get_by_role("button", name="Add table").click()
    for table_id, spot, name in ((1, "banker", "Banker"), (4, "main", "Main")):
        tile = page.locator(f'.multi-tile[data-table-id="{table_id}"]')
        expect(tile.get_by_role("status").filter(has_text="Live")).to_be_visible(timeout=20_000)
        tile.get_by_role("radio", name="Chip 5.00").check()
        tile.get_by_role("button", name=name, exact=True).click()
        expect(page.locator(f"#t{table_id}-stake-{spot}")).to_contain_text("5.00")
    for table_id in (1, 4):
        tile = page.locator(f'.multi-tile[data-table-id="{table_id}"]')
        tile.get_by_role("button", name="Deal").click()
    for table_id in (1, 4):
        tile = page.locator(f'.multi-tile[data-table-id="{table_id}"]')
        expect(tile.locator("section.result")).to_be_visible(timeout=30_000)
    both(page, folder / "web-multi.png")


def redgreen(page: Page, folder: pathlib.Path) -> None:
    page.get_by_role("link", name="Lobby").click()
    open_table(page, 2, "RedGreen")
    place(page, "red", "100.00")
    place(page, "red", "25.00")
    place(page, "bonus", "5.00")
    page.get_by_role("button", name="Deal").click()
    red = page.locator('section[data-hand="red"]')
    expect(red.get_by_text("Only you see these cards")).to_be_visible(timeout=15_000)
    card = red.get_by_role("slider").first  # the squeeze: the first card bent up, by keys
    card.focus()
    for _ in range(5):
        card.press("ArrowDown")
    save(page, folder / "web-redgreen.png")
    page.get_by_role("button", name="Hand the cards back").click()
    settle(page)


def redgreen_mini(page: Page, folder: pathlib.Path) -> None:
    page.get_by_role("link", name="Lobby").click()
    open_table(page, 3, "Mini RedGreen")
    place(page, "green", "25.00")
    place(page, "bonus", "1.00")
    page.get_by_role("button", name="Deal").click()
    page.get_by_role("button", name="Set Green first").click()
    settle(page)
    save(page, folder / "web-redgreen-mini.png")


def lo_ball(page: Page, folder: pathlib.Path) -> None:
    page.get_by_role("link", name="Lobby").click()
    open_table(page, 4, "Lo-Ball")
    place(page, "main", "25.00")
    place(page, "hi-card", "5.00")
    place(page, "dice-lo", "5.00")
    page.get_by_role("button", name="Deal").click()
    settle(page)
    save(page, folder / "web-lo-ball.png")


def dealer(server: Server, browser: Browser, folder: pathlib.Path) -> None:
    """A live round at table 5, seat 1 the pictures' player's since the void: three more
    players bet, the dealer types the cards — Player 2♠ 3♥ then 9♦ (4), Banker K♦ 7♣ (7)
    — and pays and collects each seat."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    try:
        croupier = server.player(role="dealer")
        sign_in(page, server.url, croupier.name)
        page.goto(f"{server.url}/dealer/{LIVE}")
        expect(page.get_by_role("button", name="No more bets")).to_be_visible()
        players: list[Player] = [server.player(f"{name}{uuid.uuid4().hex[:4]}")
                                 for name in ("ann", "bob", "carla")]  # fmt: skip
        bets = [[("banker", 10_000)], [("player", 2_500), ("tie", 500)],
                [("banker", 2_500), ("player-pair", 500)]]  # fmt: skip
        for seat, (player, theirs) in enumerate(zip(players, bets, strict=True), start=2):
            assert player.sit(LIVE, seat).status_code == 200
            for spot, cents in theirs:
                assert player.bet(LIVE, spot, cents).status_code == 201
        expect(page.locator(".dealer-bets")).to_contain_text(players[-1].name)
        page.get_by_role("button", name="No more bets").click()
        page.get_by_label("Card").fill("2s kd 3h 7c 9d")
        page.get_by_label("Card").press("Enter")
        expect(page.locator(".settlement")).to_contain_text("Banker wins")
        save(page, folder / "web-dealer.png")
    finally:
        context.close()


CHINESE = {"zh-Hans": "zh-CN", "zh-Hant": "zh-TW"}
"""The casino's Chinese locales, each with a browser locale that asks for it."""
TABLES = {1: ("punto-banco", ["banker", "player"]), 2: ("redgreen", ["red", "green"]),
          3: ("redgreen-mini", ["red", "green"]), 4: ("lo-ball", ["main"])}  # fmt: skip
"""Each electronic table, its game and the bets a picture's player places there."""


def chinese(server: Server, browser: Browser, folder: pathlib.Path) -> None:
    """Each table after a round, read in Simplified and in Traditional Chinese: a player
    whose browser asks for the language (the first visit follows Accept-Language), their
    bets placed and the round dealt through the API while their page watches."""
    for code, browser_locale in CHINESE.items():
        player = server.player()
        context = browser.new_context(viewport=DESKTOP, locale=browser_locale)
        context.add_init_script(f"localStorage.setItem('baccara.token', {player.token!r})")
        page = context.new_page()
        try:
            for table_id, (game, bets) in TABLES.items():
                page.goto(f"{server.url}/tables/{table_id}")
                expect(page.locator("html")).to_have_attribute("lang", code)
                assert player.sit(table_id).status_code == 200
                for bet in bets:
                    assert player.bet(table_id, bet, 2_500).status_code == 201
                round_id = player.http.get(f"/api/tables/{table_id}").json()["round_id"]
                deal_out(player, table_id, round_id, "green")
                settle(page)
                both(page, folder / f"web-{code.lower()}-{game}.png")
                player.http.delete(f"/api/tables/{table_id}/seat")
        finally:
            context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=IMAGES, help="where to write them")
    folder: pathlib.Path = parser.parse_args().out
    folder.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as temp,
        running(settings(pathlib.Path(temp) / "casino.db")) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS
        )
        try:
            context = browser.new_context(viewport=DESKTOP)
            page = context.new_page()
            register(page, server.url)
            punto_banco(server, page, folder)
            multi(page, folder)  # while the player's seat at table 1 is fresh
            page.get_by_role("link", name="Lobby").click()
            open_table(page, 1, "Punto Banco")
            controls(server, page, folder)
            redgreen(page, folder)
            redgreen_mini(page, folder)
            lo_ball(page, folder)
            roads(server, page, folder)
            states(server, browser, page, folder)
            context.close()
            dealer(server, browser, folder)
            chinese(server, browser, folder)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
