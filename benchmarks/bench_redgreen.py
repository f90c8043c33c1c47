"""RedGreen exact analysis: the vectorised count against the plain enumeration, 7 decks."""

from __future__ import annotations

from baccara import analyze
from baccara.analysis import redgreen
from baccara.games.redgreen import RedGreenRules
from benchmarks.timing import Row, best_of


def run() -> list[Row]:
    rules = RedGreenRules()
    baseline = best_of(lambda: redgreen.count_by_rules(rules), repeat=1)

    def cold() -> None:
        redgreen.settings.cache_clear()
        redgreen.outcome_matrix.cache_clear()
        redgreen._held.cache_clear()
        analyze("redgreen", decks=7)

    return [
        Row("redgreen analysis, 7 decks, first call", best_of(cold), "plain enumeration", baseline),
        Row(
            "redgreen analysis, 7 decks, warm",
            best_of(lambda: analyze("redgreen", decks=7), repeat=20),
            "plain enumeration",
            baseline,
        ),
    ]
