"""The squeeze's card (web/js/squeeze.js) in a casino page: bent up by the mouse, by a
finger (pointer events of pointerType touch) and by the keyboard, turned over past its
threshold, by a tap or by Enter; a watcher's card bends as the bends arrive and holds no
face; and with reduced motion asked for, a flip and a squeeze are drawn at once."""

from __future__ import annotations

import itertools
import json
import pathlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.server.harness import Clock, Server, running
from tests.web.casino import SETTLED, open_table, place, register, result_panel, shoot
from tests.web.conftest import casino_settings

MOUNT = """async (specs) => {
  const sq = await import("/static/js/squeeze.js");
  const cards = await import("/static/js/cards.js");
  const box = document.createElement("div");
  box.className = "hands squeeze-bench";
  document.querySelector("main").replaceChildren(box);
  window.bench = { sq, cards, cards_: [], bends: [], turns: [] };
  specs.forEach(([code, name], i) => {
    const card = sq.squeezeCard({
      code,
      onBend: (corner, lift) => window.bench.bends.push([name, corner, lift]),
      onTurn: () => window.bench.turns.push(name),
    });
    card.element.id = name;
    box.append(card.element);
    window.bench.cards_.push(card);
  });
}"""
"""Mount squeeze cards ([code or null, id] each) in the page's main, recording their bends
and turns in ``window.bench``."""


def mount(page: Page, casino: Server, specs: list[tuple[str | None, str]]) -> None:
    page.goto(f"{casino.url}/")
    page.get_by_role("heading", name="Tables").wait_for()
    page.evaluate(MOUNT, specs)


def lift(page: Page, card: str) -> int:
    return int(page.get_attribute(f"#{card}", "data-lift") or -1)


def box(page: Page, card: str) -> Any:
    found = page.locator(f"#{card}").bounding_box()
    assert found is not None
    return found


def pointer(page: Page, card: str, kind: str, x: float, y: float, pointer_type: str) -> None:
    """One pointer event at (x, y) of the page, on the card (it bubbles to the window)."""
    page.evaluate(
        """([card, kind, x, y, type]) => document.getElementById(card).dispatchEvent(new PointerEvent(kind,
            { bubbles: true, cancelable: true, pointerId: 7, pointerType: type, isPrimary: true,
              clientX: x, clientY: y, button: 0, buttons: kind === "pointerup" ? 0 : 1 }))""",
        [card, kind, x, y, pointer_type],
    )


def test_a_card_is_squeezed_by_the_mouse_a_finger_and_the_keyboard(
    page: Page, casino: Server
) -> None:
    mount(
        page,
        casino,
        [("9H", "mouse"), ("KS", "finger"), ("7D", "keys"), ("AS", "tap"), (None, "watched")],
    )
    assert page.locator("#mouse .suit").count() > 0  # the squeezer's face is underneath
    # The mouse takes the bottom-right corner and pulls it up and left: the card bends.
    b = box(page, "mouse")
    page.mouse.move(b["x"] + b["width"] - 3, b["y"] + b["height"] - 3)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] * 0.6, b["y"] + b["height"] * 0.6, steps=5)
    halfway = lift(page, "mouse")
    assert 100 < halfway < 850
    assert page.get_attribute("#mouse", "data-corner") == "br"
    assert page.evaluate("window.bench.turns") == []
    bends = page.evaluate("window.bench.bends")
    assert bends and all(name == "mouse" and corner == "br" for name, corner, _ in bends)
    assert bends[-1][2] == halfway
    # Let go halfway: it stays bent; pulled past the threshold and let go, it turns over.
    page.mouse.up()
    assert page.evaluate("window.bench.turns") == []
    page.mouse.move(b["x"] + b["width"] * 0.6, b["y"] + b["height"] * 0.6)
    page.mouse.down()
    page.mouse.move(b["x"] - b["width"] * 0.6, b["y"] - b["height"] * 0.6, steps=8)
    page.mouse.up()
    assert page.evaluate("window.bench.turns") == ["mouse"]
    page.wait_for_function("() => document.getElementById('mouse').classList.contains('turned')")
    assert page.get_attribute("#mouse", "aria-label") == "9 of Hearts"
    assert lift(page, "mouse") == 1000

    # A finger on the left side, pressed and held: the card lifts by itself while held.
    b = box(page, "finger")
    x, y = b["x"] + 2, b["y"] + b["height"] / 2
    pointer(page, "finger", "pointerdown", x, y, "touch")
    page.wait_for_function("() => Number(document.getElementById('finger').dataset.lift) > 150")
    pointer(page, "finger", "pointerup", x, y, "touch")
    held = lift(page, "finger")
    assert page.get_attribute("#finger", "data-corner") == "l"
    page.wait_for_timeout(200)
    assert lift(page, "finger") == held  # let go: it stops where it was
    # A finger drags another card from its top side downwards (not the held one: on a
    # loaded machine its hold may have lifted its flap over the top side's middle).
    b = box(page, "tap")
    pointer(page, "tap", "pointerdown", b["x"] + b["width"] / 2, b["y"] + 2, "touch")
    pointer(
        page, "tap", "pointermove", b["x"] + b["width"] / 2, b["y"] + b["height"] * 0.4, "touch"
    )
    assert page.get_attribute("#tap", "data-corner") == "t"
    assert 100 < lift(page, "tap") < 850
    pointer(page, "tap", "pointerup", b["x"] + b["width"] / 2, b["y"] + b["height"] * 0.4, "touch")
    assert "tap" not in page.evaluate("window.bench.turns")
    # A tap, however, turns a card over at once, bent or not.
    page.evaluate(
        """([x, y]) => { const card = document.getElementById("tap");
            for (const kind of ["pointerdown", "pointerup"]) card.dispatchEvent(new PointerEvent(kind,
              { bubbles: true, pointerId: 8, pointerType: "touch", isPrimary: true, clientX: x, clientY: y }))}""",
        [b["x"] + 30, b["y"] + 30],
    )
    # (A loaded machine may let the held card lift past squeeze.js's TURN_AT, 850, before
    # it is let go: let go there, it is turned over, as the page's rule says.)
    turned = ["finger"] if held >= 850 else []
    assert page.evaluate("window.bench.turns") == ["mouse", *turned, "tap"]

    # The keyboard: the card takes focus; the arrow keys peel it from that side; Enter turns it.
    page.focus("#keys")
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    assert page.get_attribute("#keys", "data-corner") == "b"
    assert lift(page, "keys") == 375
    assert page.get_attribute("#keys", "aria-valuenow") == "38"
    page.keyboard.press("ArrowRight")  # another side: it lies flat and lifts there
    assert (page.get_attribute("#keys", "data-corner"), lift(page, "keys")) == ("r", 125)
    page.keyboard.press("Enter")
    assert page.evaluate("window.bench.turns") == ["mouse", "tap", "keys"]

    # A watcher's card follows the bends it is told of, smoothed, and never has a face.
    page.evaluate("window.bench.cards_[4].follow('tl', 400)")
    page.wait_for_function("() => document.getElementById('watched').dataset.lift === '400'")
    assert page.get_attribute("#watched", "data-corner") == "tl"
    page.evaluate("window.bench.cards_[4].follow('tl', 700)")
    page.wait_for_timeout(30)
    assert 400 < lift(page, "watched") <= 700  # eased, not jumped
    watched = page.locator("#watched")
    assert watched.locator(".suit, text").count() == 0
    assert watched.get_attribute("aria-label") == "Face-down card"
    # The table exposes it: its face is peeled on from where it was bent.
    page.evaluate("window.bench.cards_[4].reveal('QD')")
    page.wait_for_function("() => document.getElementById('watched').classList.contains('turned')")
    assert watched.get_attribute("aria-label") == "Queen of Diamonds"


def test_the_throttle_sends_at_most_fifteen_bends_a_second_and_the_last(
    page: Page, casino: Server
) -> None:
    mount(page, casino, [])
    sent = page.evaluate("""async () => {
      const sent = [];
      const bends = window.bench.sq.throttle((m) => sent.push([performance.now(), m]), 15);
      const start = performance.now();
      for (let i = 0; performance.now() - start < 1000; i += 1) {
        bends.push(i);
        await new Promise((r) => setTimeout(r, 4));
      }
      bends.push("last");
      await new Promise((r) => setTimeout(r, 150));
      return sent;
    }""")
    assert 10 <= len(sent) <= 17
    assert sent[-1][1] == "last"
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(sent)]
    assert min(gaps) >= 1000 / 15 - 2


def test_reduced_motion_turns_and_squeezes_at_once(page: Page, casino: Server) -> None:
    mount(page, casino, [("8C", "mine"), (None, "watched")])
    flip = "() => { const c = window.bench.cards.cardSvg('5H', 'reveal'); document.querySelector('main').append(c); return c.getAnimations().length; }"
    assert page.evaluate(flip) == 1  # a card turned over flips, as a rule
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(flip) == 0
    page.evaluate("window.bench.cards_[1].follow('br', 600)")
    assert lift(page, "watched") == 600  # at once: no easing between bends
    page.focus("#mine")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    assert page.evaluate("document.getElementById('mine').classList.contains('turned')")
    assert lift(page, "mine") == 1000
    assert page.evaluate(SETTLED)
    assert (
        page.evaluate(
            "document.getAnimations().filter((a) => a.playState === 'running' && !a.effect?.target?.closest?.('.bar')).length"
        )
        == 0
    )


MINI = 3
"""The default Mini RedGreen table: its highest bettor squeezes the hand set second."""


@pytest.fixture
def squeezing(tmp_path: pathlib.Path, clock: Clock) -> Iterator[Server]:
    """A casino whose squeezes last two minutes: a busy machine's test never races their timer."""
    settings = casino_settings(f"sqlite:///{tmp_path / 'casino.db'}", squeeze_seconds=120.0)
    with running(settings, clock) as server:
        yield server


def frames(page: Page) -> list[dict[str, Any]]:
    """Every message the page's table socket receives, parsed, in order."""
    got: list[dict[str, Any]] = []

    def opened(socket: Any) -> None:
        if "/ws/tables/" in socket.url:
            socket.on(
                "framereceived", lambda frame: frame != "pong" and got.append(json.loads(frame))
            )

    page.on("websocket", opened)
    return got


def events(received: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The round's events among the messages, snapshots' and batches' alike, in order."""
    out: list[dict[str, Any]] = []
    for message in received:
        if message.get("type") == "events":
            out += message["events"]
        elif message.get("type") == "snapshot" and message.get("round"):
            out += message["round"]["events"]
    return out


def test_one_squeezes_and_the_table_sees_the_back_bend_and_no_face(
    squeezing: Server, page: Page, other: Page, screenshots: pathlib.Path
) -> None:
    casino = squeezing
    squeezer_heard = frames(page)
    watcher_heard = frames(other)
    register(page, casino.url)
    register(other, casino.url)
    open_table(page, MINI, "Mini RedGreen")
    open_table(other, MINI, "Mini RedGreen")
    page.get_by_role("button", name="Take a seat").click()
    place(page, "green", "5.00")
    page.get_by_role("button", name="Deal").click()
    page.get_by_role("button", name="Set Green first").click(timeout=15_000)

    # Red, set second, is the squeezer's to squeeze: their cards have faces, the table's backs.
    mine = page.locator('.hand-red svg.squeeze-card[data-squeeze="mine"]')
    expect(mine).to_have_count(3, timeout=20_000)
    watched = other.locator('.hand-red svg.squeeze-card[data-squeeze="watching"]')
    expect(watched).to_have_count(3)
    expect(other.locator(".phase")).to_contain_text("is squeezing Red's cards")
    expect(other.locator(".countdown")).to_have_text(re.compile(r"\d+ s"))
    first = mine.first
    position = first.get_attribute("data-position")
    name = (first.get_attribute("aria-label") or "").split(":")[0]  # "Jack of Spades: squeeze it"
    b = first.bounding_box()
    assert b is not None and position is not None
    page.mouse.move(b["x"] + b["width"] - 3, b["y"] + b["height"] - 3)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] * 0.45, b["y"] + b["height"] * 0.5, steps=10)
    lifted = int(first.get_attribute("data-lift") or 0)
    assert lifted > 250
    page.mouse.up()  # let go: it stays bent where it was
    twin = other.locator(f'svg.squeeze-card[data-position="{position}"]')
    expect(twin).to_have_attribute(
        "data-lift", str(lifted), timeout=5_000
    )  # the last bend, eased to
    assert twin.get_attribute("data-corner") == "br"
    assert other.locator(".hand-red svg.squeeze-card .suit").count() == 0
    shoot(page, screenshots, "squeeze-squeezer")
    shoot(other, screenshots, "squeeze-watcher")

    # Taken again by its flap and pulled on past the threshold: the card is turned, for everyone.
    b = first.bounding_box()
    assert b is not None
    page.mouse.move(b["x"] + b["width"] * 0.5, b["y"] + b["height"] * 0.55)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] * 0.3, b["y"] - b["height"] * 1.4, steps=6)
    page.mouse.up()
    expect(other.locator(f'.hand-red [aria-label="{name}"]')).to_have_count(1, timeout=10_000)
    page.get_by_role("button", name="Turn them all").click()
    result_panel(other)

    # What the watcher's socket carried: bends with no face, and every card of the squeeze
    # hidden from it until its card-exposed.
    bends = [m for m in watcher_heard if m.get("type") == "bend"]
    assert bends and all(
        set(m) == {"type", "table_id", "round_id", "position", "corner", "lift"} for m in bends
    )
    assert not [
        m for m in squeezer_heard if m.get("type") == "bend"
    ]  # the squeezer's own are not sent back
    seen = events(watcher_heard)
    offered = next(e for e in seen if e["kind"] == "squeeze-offered")
    exposed: set[str] = set()
    for event in seen:
        if event["kind"] == "card-exposed":
            exposed.add(event["position"])
        if event["kind"] == "peeked":
            assert event["cards"] is None
        if event["kind"] == "card-dealt" and event["position"] in offered["positions"]:
            assert event["item"] is None
    assert exposed >= set(offered["positions"])
    faces = next(e for e in events(squeezer_heard) if e["kind"] == "peeked" and e["cards"])["cards"]
    for message in watcher_heard:  # nor anything else it was sent: the bends, the seats…
        if message.get("type") not in ("events", "snapshot"):
            assert not any(f'"{code}"' in json.dumps(message) for code in faces), message
