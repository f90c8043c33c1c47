"""Exact Bonus distribution: three independent ways of counting agree, and match print.

Single-deck counts of the best five of six cards: Brian Alspach, "6-Card Poker
Probabilities" (Simon Fraser University, 17 January 2000): 20,358,520 hands; straight
flushes 4·47 + 36·46 = 1,844 (188 of them royal), four of a kind 13·C(48, 2) = 14,664,
full houses 165,984, flushes 205,792, straights 361,620, three of a kind 732,160, two
pair 2,532,816, one pair 9,730,740, high card 6,612,900.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from baccara.cards import Card, ShoeComposition, Suit, parse_cards
from baccara.exact.bonus import analyze_bonus_bet, bonus_bet, category_counts
from baccara.exact.bonus_enumeration import categories_of, category_counts_by_enumeration
from baccara.games.bonus import CATEGORIES, Category, best_category
from baccara.paytables import load_paytable

ALSPACH_SINGLE_DECK = {
    Category.ROYAL_FLUSH: 188,
    Category.STRAIGHT_FLUSH: 1_656,
    Category.FIVE_OF_A_KIND: 0,
    Category.FOUR_OF_A_KIND: 14_664,
    Category.FULL_HOUSE: 165_984,
    Category.FLUSH: 205_792,
    Category.STRAIGHT: 361_620,
    Category.THREE_OF_A_KIND: 732_160,
    Category.TWO_PAIR: 2_532_816,
    Category.PAIR: 9_730_740,
    Category.HIGH_CARD: 6_612_900,
}

SMALL_SHOES = {
    # Royal and straight flushes, suited repeats, four of a kind.
    "two decks of 9-A in two suits": parse_cards(
        [f"{r}{s}" for r in ["9", "10", "J", "Q", "K", "A"] for s in "SH"] * 2
    ),
    # Five of a kind, a suited full house, two trips.
    "triple aces and kings": parse_cards(
        ["AS", "AS", "AS", "AH", "AH", "KS", "KS", "KS", "QS", "JS", "10S", "2D", "2C", "3D"]
    ),
    # Wheels, six-card straights, flushes beside straights.
    "low cards": parse_cards(
        [f"{r}{s}" for r in ["A", "2", "3", "4", "5", "6"] for s in "SDC"] + ["7S", "7S"]
    ),
}


def _by_plain_rules(cards: list[Card]) -> dict[Category, int]:
    tally = Counter(best_category(six) for six in itertools.combinations(cards, 6))
    return {c: tally[c] for c in CATEGORIES}


def test_single_deck_matches_alspach() -> None:
    counts = category_counts(ShoeComposition.standard(1))
    assert counts == ALSPACH_SINGLE_DECK
    assert sum(counts.values()) == math.comb(52, 6) == 20_358_520


@pytest.mark.parametrize("decks", [1, 2, 3, 5, 7, 8, 12])
def test_counts_cover_every_six_card_subset(decks: int) -> None:
    assert sum(category_counts(ShoeComposition.standard(decks)).values()) == math.comb(
        52 * decks, 6
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SMALL_SHOES))
def test_fast_count_equals_the_live_evaluator_on_every_hand_of_small_shoes(name: str) -> None:
    """The dealing check: the evaluator the live table settles with, over all hands."""
    cards = SMALL_SHOES[name]
    expected = _by_plain_rules(cards)
    shoe = ShoeComposition.of(cards)
    assert category_counts(shoe) == expected
    assert category_counts_by_enumeration(shoe) == expected


@pytest.mark.slow
def test_small_shoes_reach_the_multi_deck_categories() -> None:
    seen = set()
    for cards in SMALL_SHOES.values():
        seen |= {c for c, n in _by_plain_rules(cards).items() if n}
    assert seen == set(CATEGORIES)


def test_vectorised_evaluator_equals_the_live_one_card_by_card() -> None:
    import numpy as np

    cards = SMALL_SHOES["triple aces and kings"]
    suits = list(Suit)
    hands = list(itertools.combinations(cards, 6))
    faces = np.array(
        [[(c.rank - 1) * 4 + suits.index(c.suit) for c in six] for six in hands], dtype=np.int16
    )
    faces.sort(axis=1)  # the evaluator reads repeated ranks as runs along sorted rows
    codes = categories_of(faces)
    assert [CATEGORIES[k] for k in codes.tolist()] == [best_category(six) for six in hands]


@pytest.mark.slow
def test_brute_force_over_all_single_deck_hands() -> None:
    """All 20,358,520 single-deck hands, each called from its actual cards."""
    assert category_counts_by_enumeration(ShoeComposition.standard(1)) == ALSPACH_SINGLE_DECK


@pytest.mark.slow
def test_seven_decks_by_an_independent_method() -> None:
    """All 36,288,252 multisets of six card faces, weighted by the physical hands behind them."""
    shoe = ShoeComposition.standard(7)
    assert category_counts_by_enumeration(shoe) == category_counts(shoe)


def test_depleted_shoe_is_counted_exactly() -> None:
    """Removing cards (as a count would) still counts every remaining subset."""
    full = ShoeComposition.standard(2)
    cards = full.cards()
    cards.remove(Card.parse("AS"))
    cards.remove(Card.parse("KH"))
    shoe = ShoeComposition.of(cards)
    counts = category_counts(shoe)
    assert sum(counts.values()) == math.comb(102, 6)


def test_default_paytable_bet() -> None:
    bet = analyze_bonus_bet(decks=7)
    counts = category_counts(ShoeComposition.standard(7))
    total = sum(counts.values())
    pays = {
        Category.ROYAL_FLUSH: 1000, Category.STRAIGHT_FLUSH: 200, Category.FIVE_OF_A_KIND: 100,
        Category.FOUR_OF_A_KIND: 25, Category.FULL_HOUSE: 9, Category.FLUSH: 8,
        Category.STRAIGHT: 8, Category.THREE_OF_A_KIND: 4,
    }  # fmt: skip
    expected_return = sum(
        (Fraction(counts[c], total) * (pays.get(c, -1)) for c in CATEGORIES), Fraction(0)
    )
    assert bet.house_edge == -expected_return
    assert [o.name for o in bet.outcomes] == [c.value for c in pays] + ["lose"]
    assert bet.hit_frequency == Fraction(sum(counts[c] for c in pays), total)


def test_for_one_basis_is_one_less_to_one() -> None:
    counts = category_counts(ShoeComposition.standard(7))
    to_one = load_paytable()
    from baccara.games.paytable import Paytable

    for_one = Paytable.from_toml(
        'basis = "for"\n[pays]\n'
        + "\n".join(f"{c.value} = {int(p) + 1}" for c, p in to_one.pays.items())
    )
    assert bonus_bet(counts, for_one).house_edge == bonus_bet(counts, to_one).house_edge
