"""Searching integer Bonus paytables for a target house edge.

A designer names the edge the house wants (say 4 %) and, optionally, the least hit
frequency players should see; the search lists integer paytables, pays never rising
as the category falls, whose edge is nearest the target. The return of a paytable is
linear in its pays, so the search splits the categories in two groups — the rare
top (royal flush to four of a kind) and the common rest — enumerates each group's
pays from designer-friendly menus, and joins them by sorted search on the return.
Every listed table is then re-evaluated exactly with Fractions.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from baccara.errors import InvalidOption
from baccara.exact.bonus import bonus_bet
from baccara.exact.model import BetAnalysis
from baccara.games.bonus import Category
from baccara.games.paytable import Paytable
from baccara.options import percent_text

LOSE = -1
"""A menu entry meaning the category does not pay."""

RARE: tuple[tuple[Category, tuple[int, ...]], ...] = (
    (Category.ROYAL_FLUSH, (250, 500, 750, 800, 1000, 2000, 2500)),
    (Category.STRAIGHT_FLUSH, (50, 75, 100, 150, 200, 250)),
    (Category.FIVE_OF_A_KIND, (25, 40, 50, 75, 100, 150)),
    (Category.FOUR_OF_A_KIND, tuple(range(5, 61))),
)
COMMON: tuple[tuple[Category, tuple[int, ...]], ...] = (
    (Category.FULL_HOUSE, tuple(range(2, 21))),
    (Category.FLUSH, tuple(range(2, 21))),
    (Category.STRAIGHT, tuple(range(2, 21))),
    (Category.THREE_OF_A_KIND, (LOSE, *range(1, 9))),
    (Category.TWO_PAIR, (LOSE, 1, 2, 3)),
    (Category.PAIR, (LOSE, 1)),
)


@dataclass(frozen=True)
class Design:
    """One candidate paytable and its exact figures."""

    paytable: Paytable
    bet: BetAnalysis

    @property
    def house_edge(self) -> Fraction:
        return self.bet.house_edge


def _grid(
    menus: Sequence[tuple[Category, tuple[int, ...]]],
) -> npt.NDArray[np.int64]:
    """Every choice of pays from the menus that never rises down the ranking."""
    rows = [
        combo
        for combo in itertools.product(*(menu for _, menu in menus))
        if all((b == LOSE) or (a != LOSE and a >= b) for a, b in itertools.pairwise(combo))
    ]
    return np.array(rows, dtype=np.int64)


def design_paytables(
    counts: dict[Category, int],
    target_edge: Fraction,
    *,
    min_hit: Fraction = Fraction(0),
    top: int = 5,
) -> list[Design]:
    """The ``top`` integer paytables whose exact house edge is nearest ``target_edge``."""
    if not Fraction(-1) < target_edge < Fraction(1):
        raise InvalidOption("target-edge", f"must be between -100% and 100%, got {target_edge}")
    if not 0 <= min_hit < 1:
        raise InvalidOption("min-hit", f"must be in [0, 100%), got {min_hit}")
    if top < 1:
        raise InvalidOption("top", f"must be at least 1, got {top}")
    total = sum(counts.values())
    rare, common = _grid(RARE), _grid(COMMON)
    p_rare = np.array([counts[c] / total for c, _ in RARE])
    p_common = np.array([counts[c] / total for c, _ in COMMON])
    # Return per unit = Σ p·(pay + 1) − 1 over paying categories (a losing one adds 0).
    gain_rare = (np.where(rare == LOSE, 0, rare + 1) * p_rare).sum(axis=1)
    gain_common = (np.where(common == LOSE, 0, common + 1) * p_common).sum(axis=1)
    hit_rare = ((rare != LOSE) * p_rare).sum(axis=1)
    hit_common = ((common != LOSE) * p_common).sum(axis=1)
    wanted = 1 - float(target_edge)
    order = np.argsort(gain_common)
    sorted_gain = gain_common[order]
    width = 4 * top
    candidates: list[tuple[float, int, int]] = []
    for i in range(len(rare)):
        middle = int(np.searchsorted(sorted_gain, wanted - gain_rare[i]))
        for j in order[max(0, middle - width) : middle + width]:
            if common[j, 0] > rare[i, -1]:  # a full house may not outpay four of a kind
                continue
            if hit_rare[i] + hit_common[j] < float(min_hit):
                continue
            candidates.append((abs(gain_rare[i] + gain_common[j] - wanted), i, int(j)))
    candidates.sort()
    designs: list[Design] = []
    for _, i, j in candidates[: 20 * top]:
        pays = {
            category: Fraction(int(pay))
            for (category, _), pay in zip((*RARE, *COMMON), (*rare[i], *common[j]), strict=True)
            if pay != LOSE
        }
        table = Paytable(name=f"edge {percent_text(target_edge, 2)} design", pays=pays)
        designs.append(Design(table, bonus_bet(counts, table)))
    designs = [d for d in designs if d.bet.hit_frequency >= min_hit]
    designs.sort(
        key=lambda d: (abs(d.house_edge - target_edge), -d.bet.hit_frequency, d.bet.std_dev)
    )
    return designs[:top]
