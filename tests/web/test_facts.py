"""The pages draw every game from the facts GET /api/games serves (the registry's
``GameSpec.public_facts``): bet spots, their names and rows, hands, seats a side, what is
dealt, the bets charged commission. Served other facts, the pages follow them; and no
script but the rules code keeps a table of facts by game id, so a fifth game needs no
change to the front end beyond its rules."""

from __future__ import annotations

import copy
import pathlib
import re
from typing import Any

from playwright.sync_api import Page, Route, expect

import baccara
from baccara.games import game_ids
from tests.server.harness import Server
from tests.web.casino import register, shoot

WEB = pathlib.Path(baccara.__file__).parent / "web"

RULES_CODE = {"settlement.js", "fair.js"}
"""The scripts that re-deal a round from its seeds and settle it again by the game's
rules, as the Python rules modules and kernels do: rules code, keyed by the game whose
rules it implements. No other script may name a game."""


def test_no_script_but_the_rules_code_names_a_game() -> None:
    ids = "|".join(re.escape(g) for g in sorted(game_ids(), key=len, reverse=True))
    named = re.compile(rf"""["'`]({ids})["'`]|(?<![\w.-])({ids})\s*:(?!\w)""")
    scripts = sorted((WEB / "js").rglob("*.js"))
    assert len(scripts) > 20
    found = [
        f"{path.relative_to(WEB)}:{n}: {line.strip()[:100]}"
        for path in scripts
        if path.name not in RULES_CODE
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if named.search(line)
    ]
    assert not found, "per-game facts belong in the registry:\n" + "\n".join(found)
    for gone in ("SEATS_PER_SIDE", "SEAT_REQUIRED", "HAND_NAMES", "COMMISSION = {"):
        assert not [p for p in scripts if gone in p.read_text()], gone


def _other_facts(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The casino's games with Punto Banco's spots and hands renamed, Tie moved to a row
    of its own, a spot added, and a fifth game the pages have never heard of."""
    punto = next(g for g in games if g["id"] == "punto-banco")
    dragon = copy.deepcopy(punto)
    names = {"player": "Punto", "banker": "Banco", "tie": "Égalité"}
    for spot in punto["spots"]:
        spot["name"] = names.get(spot["bet"], spot["name"])
        if spot["bet"] == "tie":
            spot["row"] = 3
    punto["spots"].append({"bet": "lucky-six", "name": "Lucky Six", "row": 1})
    punto["hands"] = [{"hand": "player", "name": "Punto"}, {"hand": "banker", "name": "Banco"}]
    ids = {"banker": "dragon", "player": "tiger"}
    dragon.update(
        id="dragon-tiger",
        name="Dragon Tiger",
        brief="One card to the Dragon, one to the Tiger; the higher wins.",
        hands=[{"hand": "dragon", "name": "Dragon"}, {"hand": "tiger", "name": "Tiger"}],
        spots=[{"bet": "dragon", "name": "Dragon", "row": 1}, {"bet": "tie", "name": "Tie", "row": 1},
               {"bet": "tiger", "name": "Tiger", "row": 1}],
        commission_on=["dragon"],
        bets=[{**b, "bet": ids.get(b["bet"], b["bet"])} for b in punto["bets"]
              if b["bet"] in ("banker", "player", "tie")],
    )  # fmt: skip
    return [*games, dragon]


def test_the_pages_follow_the_facts_the_casino_serves(
    casino: Server, page: Page, screenshots: pathlib.Path
) -> None:
    def other_facts(route: Route) -> None:
        route.fulfill(json=_other_facts(route.fetch().json()))

    def other_labels(route: Route) -> None:
        rules = route.fetch().json()
        rules["option_labels"]["tie_pays"] = "Égalité pays"
        route.fulfill(json=rules)

    page.route("**/api/games", other_facts)
    page.route("**/api/tables/1/rules", other_labels)
    register(page, casino.url)
    page.goto(f"{casino.url}/tables/1")
    felt = page.locator(".felt")
    for name in ("Punto", "Banco", "Lucky Six", "Player Pair"):
        expect(felt.get_by_role("button", name=name, exact=True)).to_be_visible()
    expect(felt.locator(".spot-row.row-3 [data-bet=tie] .spot-name")).to_have_text("Égalité")
    expect(felt.locator(".spot-row.row-1 [data-bet]")).to_have_count(3)
    expect(felt.get_by_role("region", name="Punto", exact=True)).to_be_visible()
    expect(felt.get_by_role("region", name="Banco", exact=True)).to_be_visible()
    expect(page.locator(".felt-scored-hands")).to_be_visible()
    shoot(page, screenshots, "facts-table")

    page.goto(f"{casino.url}/rules/punto-banco")
    expect(page.locator('tr[data-bet="tie"] th')).to_have_text("Égalité")
    page.goto(f"{casino.url}/rules/punto-banco?table=1")
    expect(page.locator('[data-rule="commission"] dt')).to_have_text(
        "Commission on a winning Banco"
    )
    expect(page.locator('[data-rule="tie_pays"] dt')).to_have_text("Égalité pays")
    expect(page.locator('[data-rule="pair_pays"] dt')).to_have_text(
        "Player Pair and Banker Pair pay"
    )

    page.goto(f"{casino.url}/rules/dragon-tiger")
    expect(page.get_by_role("heading", name="Dragon Tiger: rules and house edges")).to_be_visible()
    expect(page.get_by_role("link", name="Dragon Tiger", exact=True)).to_have_attribute(
        "aria-current", "page"
    )
    rows = page.locator("table.edges tbody tr th")
    expect(rows).to_have_text(["Dragon", "Tiger", "Tie"])
    shoot(page, screenshots, "facts-rules-dragon-tiger")
