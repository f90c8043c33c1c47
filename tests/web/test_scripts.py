"""The browser's own code, run in Chromium against the project's vectors: the Punto Banco
roads (the issue's test vectors, ties, the dragon tail) and the provably-fair protocol
written again in JavaScript (the vectors of docs/provably-fair.md, and whole re-deals
compared with the Python engine's deals)."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import pytest
from playwright.sync_api import Page

from baccara.cards import Shoe
from baccara.fair import FairRandom
from baccara.table import Table, TableConfig
from baccara.table.autoplay import Plan, play
from tests.server.harness import Server

SEED = "00" * 31 + "07"
ROAD = "async ([name, ...args]) => (await import('/static/js/roads.js'))[name](...args)"


@pytest.fixture
def blank(casino: Server, page: Page) -> Page:
    page.goto(f"{casino.url}/rules/punto-banco")
    return page


def derived(page: Page, sequence: str, k: int) -> str:
    letters = page.evaluate(
        """async ([sequence, k]) => {
          const roads = await import('/static/js/roads.js');
          return roads.derivedRoad(roads.bigRoad(roads.parseSequence(sequence)), k).join(' ');
        }""",
        [sequence, k],
    )
    assert isinstance(letters, str)
    return letters


@pytest.mark.parametrize(
    ("sequence", "expected"),
    [
        ("B B P P P B P B B", {1: "R B B B R B", 2: "B B B", 3: "B R"}),
        ("B B B P B B B", {1: "B B R"}),
        ("P B B B B P P B", {1: "B R R B R B"}),
    ],
)
def test_the_derived_roads_follow_the_issues_vectors(
    blank: Page, sequence: str, expected: dict[int, str]
) -> None:
    for k, letters in expected.items():
        assert derived(blank, sequence, k) == letters
    # Ties never take a big-road cell, so they change no derived road.
    with_ties = sequence.replace(" ", " T ", 2) + " T"
    for k, letters in expected.items():
        assert derived(blank, with_ties, k) == letters


def test_ties_are_marked_on_the_cell_before_them(blank: Page) -> None:
    columns = blank.evaluate(
        """async () => {
          const roads = await import('/static/js/roads.js');
          return roads.bigRoad(roads.parseSequence('T B T B T T P'))
            .map((c) => c.map((e) => [e.winner[0].toUpperCase(), e.ties, e.tiesBefore]));
        }"""
    )
    assert columns == [[["B", 1, 1], ["B", 2, 0]], [["P", 0, 0]]]


def test_a_long_streak_turns_into_a_dragon_tail(blank: Page) -> None:
    cells = blank.evaluate(
        """async () => {
          const roads = await import('/static/js/roads.js');
          return roads.place(roads.bigRoad(roads.parseSequence('B B B B B B B B P P P P P P P')))
            .map(({x, y, entry}) => [x, y, entry.winner[0].toUpperCase()]);
        }"""
    )
    banker = [(x, y) for x, y, w in cells if w == "B"]
    player = [(x, y) for x, y, w in cells if w == "P"]
    assert banker == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5)]
    # The next column starts at column 1 and, blocked by the tail at row 5, turns at row 4.
    assert player == [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4), (3, 4)]


def fair(page: Page, body: str, args: Any = None) -> Any:
    """Run ``body`` (JavaScript, with ``fair`` the module and ``args`` the argument)."""
    return page.evaluate(
        f"async (args) => {{ const fair = await import('/static/js/fair.js'); {body} }}", args
    )


def test_the_javascript_protocol_meets_the_published_vectors(blank: Page) -> None:
    draws = fair(blank, """
        const stream = await fair.FairStream.create(args, 'alice', 3);
        const out = [];
        for (let i = 0; i < 5; i += 1) out.push(await stream.randbelow(3 * 2 ** 30));
        return [out, stream.rejected];""", SEED)  # fmt: skip
    assert draws == [[364100107, 1292888981, 977484433, 585849137, 983564999], 2]
    top = fair(
        blank,
        "return (await fair.shoe(await fair.FairStream.create(args, 'alice', 3), 8)).slice(0, 10);",
        SEED,
    )
    assert top == ["QC", "8C", "5S", "8S", "5H", "4C", "2D", "9D", "10S", "KH"]
    lo_ball = dict(
        fair(
            blank,
            "return fair.redeal({game: 'lo-ball', serverSeed: args, clientSeed: 'alice', nonce: 3, seats: [1, 2]});",
            SEED,
        )
    )
    assert [lo_ball[f"dealer.{i}"] for i in range(3)] == ["2-5", "2-7", "5-6"]
    assert [lo_ball[f"seat1.{i}"] for i in range(3)] == ["6-6", "1-6", "1-5"]
    assert [lo_ball[f"seat2.{i}"] for i in range(3)] == ["4-6", "7-7", "6-7"]
    assert [lo_ball[f"exposed.{i}"] for i in range(3)] == ["3-3", "5-7", "2-4"]
    assert [lo_ball[f"dice.{i}"] for i in range(3)] == ["4", "1", "2"]
    whole = fair(
        blank,
        "return fair.shoe(await fair.FairStream.create(args, 'bob', 3), 7);",
        SEED,
    )
    assert whole == [c.code for c in Shoe(7, FairRandom(bytes.fromhex(SEED), "bob", 3))]
    digest = fair(blank, "return fair.sha256Hex(fair.hexToBytes(args));", SEED)
    assert digest == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


@pytest.mark.parametrize("game", ["punto-banco", "redgreen", "redgreen-mini", "lo-ball"])
def test_the_javascript_re_deal_is_the_engines_deal(blank: Page, game: str) -> None:
    """Random seeds, client seeds and nonces: the browser deals what the table engine deals,
    position by position (Punto Banco's third-card rule, Lo-Ball's exposure rule)."""
    for _ in range(12):
        seed = secrets.token_bytes(32)
        client = secrets.token_hex(8)
        nonce = secrets.randbelow(10_000) + 1
        players = ("ann", "bob", "cy")[: 1 + secrets.randbelow(3)]
        table = Table(TableConfig(game, min_bet_cents=100, max_bet_cents=10_000), nonce=nonce - 1)
        round_ = play(
            table, Plan(players, 100, client_seed=client, choose="green"), server_seed=seed
        )
        seats = sorted(table.seats)
        dealt = fair(blank, "return fair.redeal(args);", {"game": game, "serverSeed": seed.hex(),
                     "clientSeed": client, "nonce": nonce, "seats": seats})  # fmt: skip
        assert [tuple(pair) for pair in dealt] == list(round_.dealt.items())
