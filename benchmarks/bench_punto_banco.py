"""Punto Banco exact analysis: the fast count against the plain recursive enumeration."""

from __future__ import annotations

from baccara import analyze
from baccara.exact import punto_banco
from benchmarks.timing import Row, best_of


def run() -> list[Row]:
    baseline = best_of(lambda: punto_banco.count_by_rules(8), repeat=1)

    def cold() -> None:
        punto_banco.outcome_table.cache_clear()
        punto_banco._opening_groups.cache_clear()
        analyze("punto-banco", decks=8)

    return [
        Row(
            "punto-banco analysis, 8 decks, first call", best_of(cold), "plain recursion", baseline
        ),
        Row(
            "punto-banco analysis, 8 decks, warm",
            best_of(lambda: analyze("punto-banco", decks=8), repeat=20),
            "plain recursion",
            baseline,
        ),
    ]
