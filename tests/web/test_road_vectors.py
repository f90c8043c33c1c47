"""RedGreen's and Lo-Ball's roads (web/js/gameroadlogic.js, through gameroads.js, what the
pages use), run in Node against vectors: the big road of Red, Green and pushes with its
three-of-a-kind marks, the counts, and the outcomes of results the engine settles — every
fact read again here from the engine's own rules, not from the result's words."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from baccara.cards import parse_cards
from baccara.games import GAMES, loball
from baccara.games import redgreen as rules_of
from baccara.games.bonus import best_category
from baccara.games.paytable import DEFAULT_PAYTABLE
from baccara.games.redgreen import HouseRule, RedGreenRules
from baccara.randomness import SecureRandom
from baccara.table.procedures.base import Wager
from baccara.table.procedures.loball import PROCEDURE as LO_BALL
from baccara.table.procedures.redgreen import PROCEDURE as REDGREEN
from baccara.tiles import Tile
from tests.web.node import JS, in_node, module

FACTS = [{"id": spec.id, **spec.public_facts()} for spec in GAMES.values()]
"""Every game's facts, as GET /api/games serves them and the pages learn them first."""


def run(body: str, *args: Any) -> Any:
    """Run ``body`` (JavaScript with ``roads`` and ``args`` in scope) in Node, the games'
    facts learnt as a page learns them; its return value."""
    prelude = (f"const roads = await import({module('gameroads.js')});\n"
               f"(await import({module('layouts.js')})).learnGames({json.dumps(FACTS)});")  # fmt: skip
    return in_node(prelude, body, args)


def big_road(sequence: str) -> list[list[dict[str, Any]]]:
    found = run("return roads.redGreenBigRoad(roads.parseRedGreen(args[0]));", sequence)
    assert isinstance(found, list)
    return found


@pytest.mark.parametrize(
    ("sequence", "columns"),
    [
        ("R R G G G R", "RR GGG R"),
        ("G P P R P G G", "G R GG"),
        ("P P R G", "R G"),
        ("R R R R R R R R G", "RRRRRRRR G"),
        ("P P P", ""),
    ],
)
def test_the_big_road_is_red_and_green_streaks_and_pushes_take_no_cell(
    sequence: str, columns: str
) -> None:
    road = big_road(sequence)
    assert " ".join("".join(e["winner"][0].upper() for e in c) for c in road) == columns
    pushes = sequence.count("P")  # each push is counted on one cell, none is lost
    assert sum(e["pushes"] + e["pushesBefore"] for c in road for e in c) == (pushes if road else 0)


def test_pushes_mark_the_cell_before_them_or_the_first_cell() -> None:
    road = big_road("P R P P G P")
    assert [[(e["pushesBefore"], e["pushes"]) for e in c] for c in road] == [[(1, 2)], [(0, 1)]]


def test_a_three_of_a_kind_marks_its_round_and_the_cell_a_push_of_it_falls_on() -> None:
    road = big_road("R* R G P* G R")
    assert [[e["trips"] for e in c] for c in road] == [[True, False], [True, False], [False]]
    assert [[e["trips"] for e in c] for c in big_road("P* G")] == [[True]]


def test_a_long_streak_turns_right_on_the_grid_as_punto_bancos_does() -> None:
    cells = run(
        """const { place } = await import(args[0]);
        return place(roads.redGreenBigRoad(roads.parseRedGreen('G G G G G G G G R'))).map((c) => [c.x, c.y]);""",
        (JS / "roads.js").as_uri(),
    )  # fmt: skip
    assert cells == [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [1, 5], [2, 5], [1, 0]]


def test_the_counts_and_shares_of_red_green_push_and_bonus_hits() -> None:
    stats = run("return roads.redGreenStatistics(roads.parseRedGreen(args[0]));",
                "R R+ G P R* G G G P+ R")  # fmt: skip
    assert stats == {"rounds": 10, "red": 4, "green": 4, "push": 2, "trips": 1, "bonus": 2,
                     "longest": {"red": 2, "green": 3}}  # fmt: skip


def test_redgreen_outcomes_are_the_engines_results_read_again() -> None:
    """300 deals of few ranks (three of a kind is common), settled by the engine; the roads'
    winner, three-of-a-kind hands and Bonus hit against the engine's own house way and
    Bonus hand. A voided round (no result) takes no bead."""
    rng = random.SystemRandom()
    rules = RedGreenRules()
    records, expected = [], []
    for i in range(300):
        codes = [rng.choice(["A", "K", "3", "2"]) + rng.choice("SHDC") for _ in range(6)]
        dealt = {f"{hand}.{j}": codes[3 * h + j] for h, hand in enumerate(("red", "green"))
                 for j in range(3)}  # fmt: skip
        result, _ = REDGREEN.settle(dealt, [Wager("r", "ann", 1, "red", 100)], [], rules)
        records.append({"round_id": i + 1, "nonce": i + 1, "state": "settled",
                        "result": json.loads(json.dumps(result))})  # fmt: skip
        round_ = rules_of.round_from_cards(parse_cards(codes[:3]), parse_cards(codes[3:]), rules)
        trips = [name for name, s in (("red", round_.red), ("green", round_.green))
                 if s.rule is HouseRule.THREE_OF_A_KIND]  # fmt: skip
        category = best_category((*round_.red_cards, *round_.green_cards))
        expected.append([i + 1, round_.winner.value, trips, category in DEFAULT_PAYTABLE.pays])
    records.insert(5, {"round_id": 999, "nonce": 999, "state": "voided", "result": None})
    for game in ("redgreen", "redgreen-mini"):
        found = run(
            """return roads.outcomesFor(args[0], args[1]).map((o) => [o.round, o.winner, o.trips, o.bonusHit]);""",
            game, records,
        )  # fmt: skip
        assert found == expected
    assert any(e[2] for e in expected) and any(e[3] for e in expected)
    assert {e[1] for e in expected} == {"red", "green", "push"}


def lo_ball_rounds(count: int) -> tuple[list[dict[str, Any]], list[list[Any]]]:
    """``count`` Lo-Ball rounds dealt and settled by the engine, one to seven seats, with
    what the roads should say of each, read from the tiles."""
    rng = random.SystemRandom()
    records, expected = [], []
    for i in range(count):
        seats = sorted(rng.sample(range(1, 8), 1 + i % 7))
        dealt = dict(LO_BALL.deal(SecureRandom(), seats, loball.LoBallRules()))
        wagers = [Wager(f"m{s}", f"p{s}", s, "main", 100) for s in seats]
        result, _ = LO_BALL.settle(dealt, wagers, seats, loball.LoBallRules())
        records.append({"round_id": i + 1, "nonce": i + 1, "state": "settled",
                        "result": json.loads(json.dumps(result))})  # fmt: skip
        hands = {s: [dealt[f"seat{s}.{j}"] for j in range(3)] for s in seats}
        dealer = loball.points(Tile.parse(dealt[f"dealer.{j}"]) for j in range(3))
        points = {s: loball.points(Tile.parse(t) for t in hands[s]) for s in seats}
        won = sum(1 for s in seats if points[s] < dealer and points[s] != 27)
        exposed = [dealt[p] for p in dealt if p.startswith("exposed.")]

        def call(tile: str, exposed: list[str] = exposed) -> str:
            return "held" if not exposed else "exposed" if tile in exposed else "unseen"

        dice = [int(dealt[f"dice.{j}"]) for j in range(3)]
        dice_call = "triple" if len(set(dice)) == 1 else "lo" if sum(dice) <= 10 else "hi"
        outcome = "players" if won == len(seats) else "dealer" if won == 0 else "split"
        expected.append([i + 1, dealer, won, len(seats), outcome, call("1-1"), call("7-7"),
                         sum(dice), dice_call])  # fmt: skip
    return records, expected


def test_lo_ball_outcomes_are_the_engines_results_read_again() -> None:
    """Dealer's points, hands won, the Lo-Card and Hi-Card tiles' fate and the dice, for 200
    rounds the engine dealt and settled."""
    records, expected = lo_ball_rounds(200)
    found = run(
        """return roads.outcomesFor('lo-ball', args[0]).map((o) => [o.round, o.dealer, o.won,
          o.seats.length, o.result, o.lo, o.hi, o.diceTotal, o.diceCall]);""",
        records,
    )  # fmt: skip
    assert found == expected
    assert {e[5] for e in expected} >= {"held", "unseen"}


def test_lo_ball_counts() -> None:
    records, expected = lo_ball_rounds(120)
    stats = run("return roads.loBallStatistics(roads.outcomesFor('lo-ball', args[0]));", records)
    assert stats["rounds"] == 120
    assert stats["players"] + stats["split"] + stats["dealer"] == 120
    assert stats["players"] == sum(1 for e in expected if e[4] == "players")
    assert stats["handsWon"] == sum(e[2] for e in expected)
    assert stats["hands"] == sum(e[3] for e in expected)
    assert stats["loExposed"] == sum(1 for e in expected if e[5] == "exposed")
    assert stats["bothHeld"] == sum(1 for e in expected if e[5] == "held")
    assert (stats["diceLo"], stats["diceHi"], stats["triple"]) == tuple(
        sum(1 for e in expected if e[8] == c) for c in ("lo", "hi", "triple")
    )
    assert stats["dealerPoints"] == pytest.approx(sum(e[1] for e in expected) / 120)


def test_the_dice_calls_at_their_edges() -> None:
    calls = run("return args[0].map((d) => roads.diceCall(d));",
                [[1, 1, 2], [3, 3, 4], [3, 4, 4], [6, 6, 5], [1, 1, 1], [6, 6, 6], [5, 5, 5]])  # fmt: skip
    assert calls == ["lo", "lo", "hi", "hi", "triple", "triple", "triple"]


def test_which_games_keep_roads_and_a_game_without_outcomes() -> None:
    """The registry says every game keeps roads; a game the casino has not described
    keeps none and has no outcomes."""
    found = run(
        """return [['punto-banco', 'redgreen', 'redgreen-mini', 'lo-ball', 'poker'].map(roads.keepsRoads),
          roads.outcomesFor('poker', [{ round_id: 1, result: { winner: 'red' } }]),
          roads.outcomesFor('punto-banco', [{ round_id: 7, result: { winner: 'tie', player_pair: true } }])
            .map((o) => [o.round, o.winner, o.playerPair])];"""
    )  # fmt: skip
    assert found == [[True, True, True, True, False], [], [[7, "tie", True]]]


def test_a_game_the_pages_never_heard_of_draws_the_roads_of_its_felt() -> None:
    """Roads follow the facts: a fifth game whose two hands are set keeps RedGreen's roads,
    and one whose facts say it keeps none keeps none."""
    fifth = {**next(f for f in FACTS if f["id"] == "redgreen"), "id": "blue-yellow"}
    plain = {**fifth, "id": "plain", "roads": False}
    found = run(
        """const layouts = await import(args[0]);
        layouts.learnGames(args[1]);
        const rounds = [{ round_id: 1, result: { winner: 'green', red: { rule: 'three of a kind' }, green: { rule: 'pair in back' },
          bonus_category: 'full_house' } }];
        return [roads.keepsRoads('blue-yellow'), roads.keepsRoads('plain'),
          roads.outcomesFor('blue-yellow', rounds).map((o) => [o.winner, o.trips, o.bonusHit])];""",
        (JS / "layouts.js").as_uri(), [fifth, plain],
    )  # fmt: skip
    assert found == [True, False, [["green", ["red"], True]]]


def test_a_bonus_hit_is_a_hand_the_shipped_paytable_pays() -> None:
    """A table opened over the API deals the shipped paytable (the only one a table's
    options can name), so the roads' Bonus hits are its paying hands, no more, no less."""
    paying = run("return [...roads.BONUS_PAYS].sort();")
    assert paying == sorted(c.value for c, pays in DEFAULT_PAYTABLE.pays.items() if pays > 0)
