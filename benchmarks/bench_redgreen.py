"""RedGreen Red/Green bets: the vectorised count against the plain enumeration, 7 decks.

The Bonus side bet has its own benchmark (bench_bonus).
"""

from __future__ import annotations

from baccara.exact import redgreen
from baccara.games.redgreen import RedGreenRules
from benchmarks.timing import Row, best_of


def run() -> list[Row]:
    rules = RedGreenRules()
    baseline = best_of(lambda: redgreen.count_by_rules(rules), repeat=1)

    def cold() -> None:
        redgreen.settings.cache_clear()
        redgreen.outcome_matrix.cache_clear()
        redgreen._held.cache_clear()
        redgreen.red_green_bets(rules)

    return [
        Row(
            "redgreen red/green bets, 7 decks, first call",
            best_of(cold),
            "plain enumeration",
            baseline,
        ),
        Row(
            "redgreen red/green bets, 7 decks, warm",
            best_of(lambda: redgreen.red_green_bets(rules), repeat=20),
            "plain enumeration",
            baseline,
        ),
    ]
