"""The casino's sounds: silent until the player turns sound on; then a chip placed, the
betting calls, the countdown's last five seconds, each card dealt and turned, and the
player's win, in that order; nothing while the page is in the background, and nothing
kept for when it comes back; sound and volume remembered for the player, by the casino,
in another browser too.

The page's sound module logs each sound it starts in ``window.__baccaraSoundLog`` when a
test has set it to an array; AudioContext is counted by wrapping its constructor."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.server.harness import Clock, Server, running
from tests.web.casino import (
    open_table,
    place,
    register,
    settled_amounts,
    shoot,
    sign_in,
    spot,
    token,
)
from tests.web.conftest import casino_settings

SHOTS = pathlib.Path("/tmp/shots-sound")
BETTING_SECONDS = 9.0
"""Long enough to place a chip before the countdown's last five seconds tick."""

LISTEN = """
window.__baccaraSoundLog = [];
window.__audioContexts = 0;
const Made = window.AudioContext;
window.AudioContext = class extends Made {
  constructor(...args) { super(...args); window.__audioContexts += 1; }
};
"""
HIDE = """() => {
  Object.defineProperty(document, "visibilityState", { get: () => "hidden", configurable: true });
  Object.defineProperty(document, "hidden", { get: () => true, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = """() => {
  delete document.visibilityState;
  delete document.hidden;
  document.dispatchEvent(new Event("visibilitychange"));
}"""


@pytest.fixture
def short_casino(tmp_path: pathlib.Path, clock: Clock) -> Iterator[Server]:
    """A casino whose betting closes by its timer a few seconds after the first seat."""
    url = f"sqlite:///{tmp_path / 'casino.db'}"
    with running(casino_settings(url, betting_seconds=BETTING_SECONDS), clock) as server:
        yield server


def played(page: Page) -> list[str]:
    log: Any = page.evaluate("window.__baccaraSoundLog")
    assert isinstance(log, list)
    return [str(name) for name in log]


def contexts(page: Page) -> int:
    return int(page.evaluate("window.__audioContexts"))


def sound_button(page: Page) -> Any:
    return page.get_by_role("button", name="Sound", exact=True)


def test_sound_is_off_then_follows_the_round_and_stays_silent_in_the_background(
    short_casino: Server, page: Page, context: BrowserContext, other: Page
) -> None:
    context.add_init_script(LISTEN)
    name = register(page, short_casino.url)
    open_table(page, 1, "Punto Banco")
    button, volume = sound_button(page), page.get_by_label("Volume")
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(volume).to_be_disabled()

    button.focus()
    page.keyboard.press("Tab")  # gestures while sound is off make no AudioContext
    page.mouse.click(5, 300)
    assert contexts(page) == 0 and played(page) == []

    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(button).to_have_attribute("data-ready", "true")
    assert contexts(page) == 1
    place(page, "banker", "5.00")  # seats the player: the betting timer starts
    expect(page.locator("section.result .net")).to_be_visible(timeout=30_000)
    _, _, net = settled_amounts(page)
    log = played(page)
    closed = log.index("bets-closed")
    assert sorted(log[:2]) == ["bets-open", "chip"], log
    assert log[2:closed] == ["tick"] * 5, log
    dealt = log[closed + 1 :]
    if "bets-open" in dealt:  # the next round opened since
        dealt = dealt[: dealt.index("bets-open")]
    cards = [sound for sound in dealt if sound != "win"]
    assert set(cards) == {"card", "flip"} and cards.count("card") >= 4 and cards.count("flip") >= 4
    assert cards.index("flip") > 0  # a card is dealt before one is turned
    assert dealt.count("win") == (1 if net > 0 else 0) and (net <= 0 or dealt[-1] == "win"), dealt
    shoot(page, SHOTS, "table-sound-on")

    expect(spot(page, "player")).to_be_enabled(timeout=20_000)  # the next round's betting
    page.evaluate(HIDE)
    page.evaluate("window.__baccaraSoundLog.length = 0")
    place(page, "player", "5.00")  # a chip and the next round's countdown, unheard
    page.wait_for_timeout(2_000)
    assert played(page) == []
    page.evaluate(SHOW)
    page.wait_for_timeout(500)
    assert "chip" not in played(page) and "bets-open" not in played(page)  # nothing kept

    volume.fill("25")
    player = short_casino.client(token(page))
    expected = {"sound": True, "volume": 25, "language": None}
    for _ in range(100):
        if player.get("/api/me/preferences").json() == expected:
            break
        page.wait_for_timeout(50)
    assert player.get("/api/me/preferences").json() == expected
    page.reload()
    expect(sound_button(page)).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_label("Volume")).to_have_value("25")
    assert contexts(page) == 0  # made again at the first gesture, not on load

    other.context.add_init_script(LISTEN)
    sign_in(other, short_casino.url, name)  # another browser: the casino's copy
    elsewhere = sound_button(other)
    expect(elsewhere).to_have_attribute("aria-pressed", "true")
    expect(other.get_by_label("Volume")).to_have_value("25")
    elsewhere.click()  # muted there: kept for the player
    expect(elsewhere).to_have_attribute("aria-pressed", "false")
    assert contexts(other) == 0 and played(other) == []
    for _ in range(100):
        if not player.get("/api/me/preferences").json()["sound"]:
            break
        other.wait_for_timeout(50)
    assert player.get("/api/me/preferences").json() == {**expected, "sound": False}
    page.reload()
    expect(sound_button(page)).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_label("Volume")).to_be_disabled()
    shoot(page, SHOTS, "lobby-sound-off")
