"""Effect of removal: every rank × every bet exactly, against the plain enumeration.

The plain baseline deals ONE depleted shoe (one 4 short) through the rules —
the recursive enumeration for the main bets and every opening for the pairs; the
fast table does all 13 ranks, so the true ratio is about 13 times the one shown.
"""

from __future__ import annotations

from baccara.cards import Card, ShoeComposition
from baccara.exact import punto_banco
from baccara.exact.removal import effect_of_removal
from benchmarks.timing import Row, best_of


def plain_one_rank() -> None:
    shoe = ShoeComposition.standard(8).without(Card.parse("4S"))
    punto_banco.count_by_rules(shoe)
    punto_banco.count_pairs_by_rules(shoe)


def run() -> list[Row]:
    baseline = best_of(plain_one_rank, repeat=1)
    label = "plain enumeration of one rank"

    def cold() -> None:
        punto_banco.outcome_table.cache_clear()
        punto_banco._opening_groups.cache_clear()
        effect_of_removal("punto-banco")

    return [
        Row("punto-banco effect of removal, 8 decks, 13 ranks × 5 bets, first call",
            best_of(cold), label, baseline),
        Row("punto-banco effect of removal, 8 decks, 13 ranks × 5 bets, warm",
            best_of(lambda: effect_of_removal("punto-banco"), repeat=10), label, baseline),
    ]  # fmt: skip
