"""Take the web casino's pictures in docs/images again, from a real session.

Run by hand after a change to the pages (``python -m scripts.screenshots``), then look
at every picture before committing them. It starts a casino on a fresh SQLite database
in a temporary folder, with its default tables, and drives Debian's Chromium through
Playwright as players and a dealer would, through the pages and the public API:

    web-punto-banco.png        Punto Banco after a round, the roads of the rounds before
    web-punto-banco-phone.png  the same table on a phone, bets on the spots, the countdown
    web-redgreen.png           RedGreen in the peek: the highest bettor sees the hand backed
    web-redgreen-mini.png      Mini RedGreen after a round, the chosen hand set first
    web-lo-ball.png            Lo-Ball after a round
    web-dealer.png             the dealer's console after a live round: each seat's pay,
                               collection and commission

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


def settle(page: Page) -> None:
    """Wait for the round's result and the balance it leaves."""
    result_panel(page)
    expect(page.locator("section.result .net")).to_be_visible()


def warm_up_roads(server: Server, rounds: int) -> None:
    """Rounds at Punto Banco before the picture, so its roads have something to show."""
    other = server.player()
    assert other.sit(1).status_code == 200
    for _ in range(rounds):
        round_id = other.http.get("/api/tables/1").json()["round_id"]
        other.bet(1, random.choice(["banker", "player"]), 100)
        other.http.post("/api/tables/1/deal")
        wait_for(lambda r=round_id: other.http.get(f"/api/rounds/{r}").json()["state"] == "settled")
    other.http.delete("/api/tables/1/seat")


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
    place(page, "banker", "100.00")
    place(page, "banker", "25.00")
    place(page, "banker", "5.00")
    place(page, "tie", "5.00")
    page.wait_for_timeout(1500)  # the countdown has begun
    save(page, folder / "web-punto-banco-phone.png")
    page.get_by_role("button", name="Clear").click()
    expect(page.locator("#stake-banker")).to_have_text("")
    page.set_viewport_size(DESKTOP)


def redgreen(page: Page, folder: pathlib.Path) -> None:
    page.get_by_role("link", name="Lobby").click()
    open_table(page, 2, "RedGreen")
    place(page, "red", "100.00")
    place(page, "red", "25.00")
    place(page, "bonus", "5.00")
    page.get_by_role("button", name="Deal").click()
    red = page.locator('section[data-hand="red"]')
    expect(red.get_by_text("Only you see these cards")).to_be_visible(timeout=15_000)
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
    """A live round at table 5: three players bet, the dealer types the cards — Player
    2♠ 3♥ then 9♦ (4), Banker K♦ 7♣ (7) — and pays and collects each seat."""
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
        for seat, (player, theirs) in enumerate(zip(players, bets, strict=True), start=1):
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
            redgreen(page, folder)
            redgreen_mini(page, folder)
            lo_ball(page, folder)
            context.close()
            dealer(server, browser, folder)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
