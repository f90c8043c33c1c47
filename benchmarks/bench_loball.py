"""Lo-Ball exact analysis: the fast counts against the plain enumeration through the rules."""

from __future__ import annotations

from baccara import analyze
from baccara.exact import loball
from baccara.games.loball import Bet, LoBallRules
from benchmarks.timing import Row, best_of


def plain() -> None:
    loball.count_main_by_rules()
    loball.count_tile_bets_by_rules()
    for bet in (Bet.DICE_LO, Bet.DICE_HI):
        loball.count_dice_by_rules(bet)


def clear() -> None:
    for cached in (loball.all_hands, loball.hand_points, loball.points_grid):
        cached.cache_clear()


def run() -> list[Row]:
    baseline = best_of(plain, repeat=1)
    rules = LoBallRules()

    def five_bets_cold() -> None:
        clear()
        loball.bet_analyses(rules)

    def everything_cold() -> None:
        clear()
        loball.tile_bets_by_seat.cache_clear()
        analyze("lo-ball")

    return [
        Row(
            "lo-ball five bets, first call", best_of(five_bets_cold), "plain enumeration", baseline
        ),
        Row(
            "lo-ball five bets, warm",
            best_of(lambda: loball.bet_analyses(rules), repeat=20),
            "plain enumeration",
            baseline,
        ),
        Row(
            "lo-ball full analysis with tables and 1–7 seat proof, first call",
            best_of(everything_cold),
            "plain enumeration",
            baseline,
        ),
    ]
