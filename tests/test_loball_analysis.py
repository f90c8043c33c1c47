"""Exact Lo-Ball analysis: the seed's published edges, first principles, and fast == plain.

Published house edges (seed 001, "ANALYSIS"): main wager 2.56 %, Lo-Card and Hi-Card
3.57 %, to two decimals. First-principles figures are derived in each docstring.
"""

from __future__ import annotations

import hashlib
import json
import math
from fractions import Fraction
from itertools import combinations

import pytest

from baccara import analyze
from baccara.exact import loball
from baccara.games.loball import Bet, MainOutcome, points
from baccara.money import BetResult
from baccara.render.analysis import analysis_renderable
from baccara.tiles import TILE_SET
from tests.helpers import percent

GRID_SHA256 = "bf5480c1e2914ef63677c9dc4f183162033831b81a7dba696555d60917005513"


def test_published_house_edges() -> None:
    a = analyze("lo-ball")
    assert round(percent(a.bet("main").house_edge), 2) == 2.56
    assert round(percent(a.bet("lo-card").house_edge), 2) == 3.57
    assert round(percent(a.bet("hi-card").house_edge), 2) == 3.57
    for bet in ("main", "lo-card", "hi-card"):
        published = a.bet(bet).published
        assert published is not None, f"{bet}: the seed's figure is shown beside ours"
        assert round(percent(published.house_edge), 2) == round(percent(a.bet(bet).house_edge), 2)


def test_the_whole_points_grid_is_pinned() -> None:
    """The 28 × 28 grid of (player points, dealer points) counts over all 7,534,800 pairs,
    pinned by the SHA-256 of its JSON after it was proven equal to the plain enumeration
    (below); the main wager's outcome counts follow from it."""
    grid = [list(row) for row in loball.points_grid()]
    assert hashlib.sha256(json.dumps(grid).encode()).hexdigest() == GRID_SHA256
    assert loball.main_counts() == {
        MainOutcome.WIN_BONUS: 204_050,
        MainOutcome.WIN: 3_381_218,
        MainOutcome.PLAY_BONUS: 34_500,
        MainOutcome.LOSE: 3_915_032,
    }


def test_lo_card_by_first_principles() -> None:
    """Each of the 28 tiles is equally likely to be any given one of the player's 3, the
    dealer's 3 or the 3 exposed: win, push and "dealer holds it" are 3/28 each, so the
    edge at 7:1 is 1 − (7·3 + 0·3 + 22)/28 ... = (22 − 21)/28 = 1/28."""
    lo = analyze("lo-ball").bet("lo-card")
    assert lo.total == math.comb(28, 3) * math.comb(25, 3) * math.comb(22, 3)
    assert lo.outcome("win").probability == Fraction(3, 28)
    assert lo.outcome("push (exposed)").probability == Fraction(3, 28)
    assert lo.outcome("lose (dealer holds it)").probability == Fraction(3, 28)
    assert lo.house_edge == Fraction(1, 28)


def test_dice_by_first_principles() -> None:
    """Totals 3–10 are half of 216 rolls (108); without 1-1-1 that is 107 for 4–10, and
    without 2-2-2 and 3-3-3, 105 wins. Edge (111 − 105)/216 = 1/36; Dice-Hi by symmetry."""
    a = analyze("lo-ball")
    for bet in ("dice-lo", "dice-hi"):
        assert a.bet(bet).outcome("win").count == 105
        assert a.bet(bet).house_edge == Fraction(1, 36)


def test_play_bonus_count_by_first_principles() -> None:
    """27 points need the six numbers 2–7 once each: the 5·3·1 = 15 ways to pair them into
    three tiles. Any of the C(25,3) = 2300 dealer hands goes with each: 34,500 pairs."""
    main = analyze("lo-ball").bet("main")
    assert main.total == math.comb(28, 3) * math.comb(25, 3) == 7_534_800
    assert main.outcome("play-bonus (27 points)").count == 15 * 2300
    assert loball.points_distribution()[27] == 15
    assert sum(loball.points_distribution()) == math.comb(28, 3)


def test_vector_points_equal_the_rules_on_every_hand() -> None:
    """All 3,276 hands: the numpy points equal ``games.loball.points``."""
    hands = loball.all_hands()
    assert len(hands) == math.comb(28, 3)
    expected = [points([TILE_SET[i] for i in row]) for row in hands.tolist()]
    assert loball.vector_points(hands).tolist() == expected


@pytest.mark.slow
def test_fast_main_count_equals_the_plain_enumeration_over_all_hands() -> None:
    """Every one of the 7,534,800 (dealer, player) pairs through the rules."""
    counts, grid = loball.count_main_by_rules()
    assert counts == loball.main_counts()
    assert [list(row) for row in loball.points_grid()] == grid


def test_fast_tile_counts_equal_the_plain_rules() -> None:
    plain = loball.count_tile_bets_by_rules()
    assert plain[Bet.LO_CARD] == loball.tile_counts() == plain[Bet.HI_CARD]


def test_fast_dice_counts_equal_every_roll() -> None:
    for bet in (Bet.DICE_LO, Bet.DICE_HI):
        assert loball.dice_counts(bet) == loball.count_dice_by_rules(bet)


def test_seat_counts_for_every_table_size() -> None:
    """With n players a seat's Lo-Card wins when 1-1 is in its 3 positions (3·27 of the
    756 placements of 1-1 and 7-7) and pushes when it is in the 3 exposed (another 81)."""
    for players in range(1, 8):
        per_seat, orderings = loball.tile_bets_by_seat(players)
        assert orderings == math.factorial(26)
        assert len(per_seat) == players
        for counts in per_seat:
            for bet in ("lo-card", "hi-card"):
                got = counts[bet]
                assert (got[BetResult.WIN], got[BetResult.PUSH]) == (81, 81)
                assert got[BetResult.LOSE] == 756 - 162


def test_no_table_size_changes_any_edge() -> None:
    a = analyze("lo-ball")
    rows = loball.seat_invariance(loball.LoBallRules())
    assert [n for n, _ in rows] == list(range(1, 8))
    for _, edges in rows:
        for bet in Bet:
            assert edges[bet] == {a.bet(bet.value).house_edge}
    shown = a.table("seated-players")
    assert [row[-1] for row in shown.rows] == ["yes"] * 7


def test_win_bonus_option_moves_the_edge_by_its_count() -> None:
    """Raising the Win-bonus from 3:2 to 2:1 returns an extra 1/2 on each 0-point win."""
    base = analyze("lo-ball").bet("main")
    richer = analyze("lo-ball", **{"win-bonus-pays": "2"}).bet("main")
    wins = base.outcome("win-bonus (0 points)")
    assert base.house_edge - richer.house_edge == Fraction(wins.count, wins.total) / 2
    assert richer.published is None  # the seed's figure is for 3:2 only
    assert analyze("lo-ball", lo_hi_pays=8).bet("lo-card").house_edge == -Fraction(2, 28)


def test_player_versus_dealer_table_adds_up_to_the_main_return() -> None:
    a = analyze("lo-ball")
    rows = a.table("player-versus-dealer").rows
    assert sum(int(r[1]) + int(r[2]) + int(r[3]) for r in rows) == 7_534_800
    assert sum((Fraction(r[4]) for r in rows), Fraction(0)) == -a.bet("main").house_edge
    # The player wins exactly when the dealer has more: the Win and Win-bonus counts.
    won = loball.main_counts()
    assert sum(int(r[1]) for r in rows) == won[MainOutcome.WIN] + won[MainOutcome.WIN_BONUS]


def test_json_shape_has_every_bet_and_the_tables() -> None:
    data = analyze("lo-ball").to_dict()
    assert [b["bet"] for b in data["bets"]] == [b.value for b in Bet]
    assert set(data["tables"]) == {"points", "player-versus-dealer", "grid", "seated-players"}
    grid = data["tables"]["grid"]
    assert len(grid["rows"]) == 28 and len(grid["columns"]) == 29
    assert sum(sum(row[1:]) for row in grid["rows"]) == 7_534_800


def test_the_points_distribution_counts_hands_directly() -> None:
    """An independent count: for every hand of three tiles, its points, tallied."""
    tally = [0] * 28
    for hand in combinations(TILE_SET, 3):
        tally[points(hand)] += 1
    assert loball.points_distribution() == tally


@pytest.mark.parametrize("name", ["points of one hand", "house edge of every seat"])
def test_render_shows_the_tables(name: str) -> None:
    from rich.console import Console

    console = Console(width=100, record=True)
    console.print(analysis_renderable(analyze("lo-ball")))
    assert name in console.export_text()
