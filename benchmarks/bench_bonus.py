"""Bonus distribution, 7 decks: the rank-multiset count against the face-by-face enumeration."""

from __future__ import annotations

from baccara.cards import ShoeComposition
from baccara.exact import bonus
from baccara.exact.bonus_enumeration import category_counts_by_enumeration
from benchmarks.timing import Row, best_of


def run() -> list[Row]:
    shoe = ShoeComposition.standard(7)
    baseline = best_of(lambda: category_counts_by_enumeration(shoe), repeat=1)

    def cold() -> None:
        bonus._rank_tables.cache_clear()
        bonus._category_counts.cache_clear()
        bonus.category_counts(shoe)

    def warm() -> None:
        bonus._category_counts.cache_clear()
        bonus.category_counts(shoe)

    return [
        Row(
            "bonus distribution, 7 decks, first call",
            best_of(cold, repeat=3),
            "face enumeration",
            baseline,
        ),
        Row(
            "bonus distribution, 7 decks, new shoe composition",
            best_of(warm, repeat=10),
            "face enumeration",
            baseline,
        ),
    ]
