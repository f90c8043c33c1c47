"""The joint distribution of a RedGreen round: the call and the Bonus category together.

Red, Green and the Bonus are three functions of the same six cards, so the house's
win on a round depends on the joint law of (call, Bonus category) — 3 × 11 cells —
over the analysis's sample space, every deal of three cards to Red and then three to
Green (C(N,3)·C(N−3,3) = 20·C(N,6) deals for a shoe of N cards).

The count rests on one observation. A deal is a set of six physical cards and a
split of them into Red's three and Green's three; each six-card set comes with all
C(6,3) = 20 splits, equally often. The Bonus category is a function of the six
cards; the call is a function of the split, and the house way and the comparison
read ranks only, so the calls of the 20 splits depend only on the six cards' *rank
multiset*. Hence, summing over the 18,564 rank multisets R,

    deals(call c, category k) = Σ_R splits_R(c) · subsets_R(k)

where ``splits_R(c)`` counts the 20 splits of R called c (by
:func:`~baccara.exact.redgreen.outcome_matrix`, the house way in force) and
``subsets_R(k)`` counts the six-card subsets of the shoe with ranks R and category
k (:func:`~baccara.exact.bonus.counts_by_rank_multiset`, with its suited-five and
suited-six flush counting). Its call marginal is
:func:`~baccara.exact.redgreen.count_outcomes`, its category marginal 20 ×
:func:`~baccara.exact.bonus.category_counts`; tests prove both and prove the whole
table equal to dealing every Red and Green hand of small shoes through the rules.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from baccara.cards import Rank, ShoeComposition
from baccara.exact.bonus import counts_by_rank_multiset, rank_multisets
from baccara.exact.joint_model import SpotModel
from baccara.exact.redgreen import RANK_HANDS, outcome_matrix
from baccara.games.bonus import CATEGORIES, Category, best_category
from baccara.games.redgreen import HAND_SIZE, Bet, RedGreenRules, Winner, round_from_cards

Cell = tuple[Winner, Category]
"""(the call, the Bonus category of the six cards)."""

CALLS: tuple[Winner, ...] = (Winner.RED, Winner.GREEN, Winner.PUSH)
CELLS: tuple[Cell, ...] = tuple(itertools.product(CALLS, CATEGORIES))

SPLITS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations(range(2 * HAND_SIZE), HAND_SIZE))
"""The 20 ways to give three of six positions to Red (Green gets the other three)."""


@functools.cache
def _split_hands() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Per rank multiset and split: the index in :data:`RANK_HANDS` of Red's and Green's hand."""
    counts = rank_multisets()
    sixes = np.array(
        [np.repeat(np.arange(len(Rank)), row) for row in counts.tolist()], dtype=np.intp
    )  # (M, 6) rank indices, sorted, so every sub-triple is sorted too
    lookup = np.full((len(Rank),) * HAND_SIZE, -1, dtype=np.intp)
    for index, hand in enumerate(RANK_HANDS):
        lookup[tuple(rank.value - 1 for rank in hand)] = index
    red = np.stack([lookup[tuple(sixes[:, list(split)].T)] for split in SPLITS], axis=1)
    green = np.stack(
        [
            lookup[tuple(sixes[:, [p for p in range(2 * HAND_SIZE) if p not in split]].T)]
            for split in SPLITS
        ],
        axis=1,
    )
    return red, green


@functools.lru_cache(maxsize=32)
def splits_by_call(rules: RedGreenRules) -> npt.NDArray[np.int64]:
    """Per rank multiset, how many of its 20 splits are called Red, Green and push: (M, 3)."""
    red, green = _split_hands()
    called = outcome_matrix(rules)[red, green]
    return np.stack([(called == code).sum(axis=1) for code in (1, -1, 0)], axis=1).astype(np.int64)


def joint_counts(rules: RedGreenRules, shoe: ShoeComposition | None = None) -> dict[Cell, int]:
    """Deals (Red's three, then Green's three) in each (call, Bonus category) cell, exactly.

    ``shoe`` defaults to ``rules.decks`` full decks. The products are summed in
    Python integers: a row count can approach 2⁶³ for the largest shoes the Bonus
    counts, and twenty of them would not fit.
    """
    dealt_from = ShoeComposition.standard(rules.decks) if shoe is None else shoe
    by_category = counts_by_rank_multiset(dealt_from).astype(object)
    by_call = splits_by_call(rules).astype(object)
    table = by_call.T.dot(by_category)  # (3, 11) Python integers
    return {
        (call, category): int(table[i, k])
        for i, call in enumerate(CALLS)
        for k, category in enumerate(CATEGORIES)
    }


def joint_counts_by_rules(rules: RedGreenRules, shoe: ShoeComposition) -> dict[Cell, int]:
    """The plain way: every deal of physical cards, called by :class:`Round` and
    :func:`~baccara.games.bonus.best_category`. For shoes of a dozen cards."""
    cards = shoe.cards()
    result: Counter[Cell] = Counter()
    positions = range(len(cards))
    for red in itertools.combinations(positions, HAND_SIZE):
        rest = [p for p in positions if p not in red]
        for green in itertools.combinations(rest, HAND_SIZE):
            red_cards = [cards[p] for p in red]
            green_cards = [cards[p] for p in green]
            round_ = round_from_cards(red_cards, green_cards, rules)
            result[(round_.winner, best_category(red_cards + green_cards))] += 1
    assert sum(result.values()) == math.comb(len(cards), 3) * math.comb(len(cards) - 3, 3)
    return {cell: result[cell] for cell in CELLS}


def cell_pays(rules: RedGreenRules) -> tuple[tuple[Fraction, ...], ...]:
    """What Red, Green and the Bonus return per unit staked in each cell.

    Red and Green win at 1:1 less commission, push (0) when the call is a push and
    lose (−1) otherwise; the Bonus pays its category by the paytable or loses.
    """

    def side(call: Winner, bet: Winner) -> Fraction:
        if call is Winner.PUSH:
            return Fraction(0)
        return rules.winner_pays if call is bet else Fraction(-1)

    def pays(call: Winner, category: Category) -> tuple[Fraction, ...]:
        by_bet = {
            Bet.RED: side(call, Winner.RED),
            Bet.GREEN: side(call, Winner.GREEN),
            Bet.BONUS: rules.paytable.net(category),
        }
        return tuple(by_bet[bet] for bet in Bet)

    return tuple(pays(call, category) for call, category in CELLS)


def model_from_counts(rules: RedGreenRules, counts: dict[Cell, int]) -> SpotModel:
    """The round model of a joint distribution (a full shoe's, or a test's small shoe)."""
    return SpotModel.of(
        [bet.value for bet in Bet], [counts[cell] for cell in CELLS], cell_pays(rules)
    )


@functools.lru_cache(maxsize=32)
def round_model(rules: RedGreenRules) -> SpotModel:
    """Every RedGreen (and Mini RedGreen) round under ``rules``: one deal from the full shoe."""
    return model_from_counts(rules, joint_counts(rules))
