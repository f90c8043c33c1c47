"""The RedGreen Bonus side bet: the best five of the six community cards.

Red's three cards and Green's three make a six-card hand; the Bonus pays on the best
five-card poker hand among them. A seven-deck shoe makes hands a single deck cannot:
five of a kind, a flush holding the same card twice, and five cards that are both a
flush and a full house (which count as the higher category, the full house).

:func:`best_category` is the plain evaluator the live table settles with; the exact
analysis in :mod:`baccara.exact.bonus` is proven equal to it over every hand of
small shoes.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from baccara.cards import Card
from baccara.errors import InvalidCards


class Category(enum.Enum):
    """Poker categories from the highest down; values are the ids paytables use."""

    ROYAL_FLUSH = "royal_flush"
    STRAIGHT_FLUSH = "straight_flush"
    FIVE_OF_A_KIND = "five_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    PAIR = "pair"
    HIGH_CARD = "high_card"

    @property
    def strength(self) -> int:
        """Higher is better: royal flush 10 … high card 0."""
        return _STRENGTH[self]

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


CATEGORIES: tuple[Category, ...] = tuple(Category)
"""All categories, highest first."""

_STRENGTH = {category: len(CATEGORIES) - 1 - i for i, category in enumerate(CATEGORIES)}

STRAIGHTS: tuple[frozenset[int], ...] = tuple(
    frozenset(((low + i - 1) % 13) + 1 for i in range(5)) for low in range(1, 11)
)
"""The ten straights as sets of rank numbers (Ace = 1): A-2-3-4-5 up to 10-J-Q-K-A."""

ROYAL: frozenset[int] = frozenset({10, 11, 12, 13, 1})


def rank_category(ranks: Sequence[int]) -> Category:
    """The category five ranks make on their own, suits ignored (no flushes)."""
    return _rank_category(tuple(sorted(ranks)))


@functools.cache
def _rank_category(ranks: tuple[int, ...]) -> Category:
    counts = sorted(Counter(ranks).values(), reverse=True)
    if counts[0] == 5:
        return Category.FIVE_OF_A_KIND
    if counts[0] == 4:
        return Category.FOUR_OF_A_KIND
    if counts[:2] == [3, 2]:
        return Category.FULL_HOUSE
    if len(counts) == 5 and frozenset(ranks) in STRAIGHTS:
        return Category.STRAIGHT
    if counts[0] == 3:
        return Category.THREE_OF_A_KIND
    if counts[:2] == [2, 2]:
        return Category.TWO_PAIR
    if counts[0] == 2:
        return Category.PAIR
    return Category.HIGH_CARD


def five_card_category(cards: Sequence[Card]) -> Category:
    """The category of exactly five cards, flushes included."""
    if len(cards) != 5:
        raise InvalidCards(f"a poker hand has five cards, got {len(cards)}")
    ranks = [int(c.rank) for c in cards]
    by_rank = rank_category(ranks)
    if len({c.suit for c in cards}) != 1:
        return by_rank
    if by_rank is Category.STRAIGHT:
        return Category.ROYAL_FLUSH if frozenset(ranks) == ROYAL else Category.STRAIGHT_FLUSH
    # A suited hand is at least a flush; a multi-deck flush can also be a full house
    # or better, and then it counts as that higher category.
    return by_rank if by_rank.strength > Category.FLUSH.strength else Category.FLUSH


def best_category(cards: Iterable[Card]) -> Category:
    """The best five-card category among six cards (Red's three and Green's three).

    >>> from baccara.cards import parse_cards
    >>> best_category(parse_cards("AS AS AS AS AS 2H".split())).value
    'five_of_a_kind'
    >>> best_category(parse_cards("KH KH 9H 9H 9H 2C".split())).value
    'full_house'
    """
    hand = list(cards)
    if len(hand) != 6:
        raise InvalidCards(f"the Bonus hand is Red's and Green's six cards, got {len(hand)}")
    return max(
        (five_card_category(five) for five in itertools.combinations(hand, 5)),
        key=lambda category: category.strength,
    )
