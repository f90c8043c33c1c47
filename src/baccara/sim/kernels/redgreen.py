"""RedGreen dealt round after round in compiled code: Red, Green and the Bonus.

Three cards to Red, then three to Green, off the shoe. Red against Green is read
from the analysis's 455 × 455 matrix of calls (:func:`~baccara.exact.redgreen.outcome_matrix`,
every pair of rank hands set by the house way of the rules in force); the Bonus is
the best five of the six cards, evaluated here card by card.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np
import numpy.typing as npt

from baccara.cards import ShoeMode, Suit, standard_deck
from baccara.exact.redgreen import RANK_HANDS, outcome_matrix
from baccara.games.bonus import CATEGORIES, ROYAL, STRAIGHTS, Category
from baccara.games.redgreen import Bet, RedGreenRules
from baccara.sim.compiled import compiled, compiled_inline
from baccara.sim.dealer import Dealer
from baccara.sim.kernels.pile import draw, new_shoe, tally

BETS: tuple[str, ...] = tuple(b.value for b in Bet)
SIDE_OUTCOMES = ("win", "push", "lose")
ROUND_CARDS = 6

_DECK = standard_deck()
RANKS = np.array([int(c.rank) - 1 for c in _DECK], dtype=np.int8)
"""Rank of each card index, 0 (Ace) to 12 (King)."""
SUITS = np.array([list(Suit).index(c.suit) for c in _DECK], dtype=np.int8)


def _hand_index() -> npt.NDArray[np.int16]:
    """Row of :data:`RANK_HANDS` for three ranks in any order: ``[r1 * 169 + r2 * 13 + r3]``."""
    row_of = {tuple(sorted(int(r) - 1 for r in hand)): i for i, hand in enumerate(RANK_HANDS)}
    table = np.empty(13**3, dtype=np.int16)
    for a, b, c in product(range(13), repeat=3):
        table[a * 169 + b * 13 + c] = row_of[tuple(sorted((a, b, c)))]
    return table


HAND_INDEX = _hand_index()


def _mask(ranks: frozenset[int]) -> int:
    return sum(1 << (r - 1) for r in ranks)


STRAIGHT_MASKS = np.array([_mask(s) for s in STRAIGHTS], dtype=np.int64)
ROYAL_MASK = _mask(ROYAL)
_CODE = {category: i for i, category in enumerate(CATEGORIES)}
ROYAL_FLUSH, STRAIGHT_FLUSH, FIVE_OF_A_KIND, FOUR_OF_A_KIND = (
    _CODE[Category.ROYAL_FLUSH],
    _CODE[Category.STRAIGHT_FLUSH],
    _CODE[Category.FIVE_OF_A_KIND],
    _CODE[Category.FOUR_OF_A_KIND],
)
FULL_HOUSE, FLUSH, STRAIGHT, THREE_OF_A_KIND = (
    _CODE[Category.FULL_HOUSE],
    _CODE[Category.FLUSH],
    _CODE[Category.STRAIGHT],
    _CODE[Category.THREE_OF_A_KIND],
)
TWO_PAIR, PAIR, HIGH_CARD = (
    _CODE[Category.TWO_PAIR],
    _CODE[Category.PAIR],
    _CODE[Category.HIGH_CARD],
)


@compiled_inline
def _has_straight(mask: int) -> int:
    """ROYAL_FLUSH if the ranks hold 10-J-Q-K-A, STRAIGHT_FLUSH if another straight, else -1."""
    if mask & ROYAL_MASK == ROYAL_MASK:
        return ROYAL_FLUSH
    for straight in STRAIGHT_MASKS:
        if mask & straight == straight:
            return STRAIGHT_FLUSH
    return -1


@compiled
def bonus_category(cards: npt.NDArray[np.int8], counts: npt.NDArray[np.int8]) -> int:
    """The best five-card category of six card indices, as an index into ``CATEGORIES``.

    A lower index is a better category. ``counts`` is 13 zeros of scratch space, left
    zeroed. Ranks alone give five/four of a kind, full house, straight, three of a
    kind, two pair and pair; a five of one suit can only add a flush, straight flush
    or royal flush, so suits are looked at only when five or six cards share one.
    """
    mask = 0
    suit_counts = np.zeros(4, dtype=np.int8)
    for card in cards:
        counts[RANKS[card]] += 1
        mask |= 1 << RANKS[card]
        suit_counts[SUITS[card]] += 1
    most = 0
    pairs = 0
    trips = 0
    for r in range(13):
        c = counts[r]
        most = max(most, c)
        if c >= 2:
            pairs += 1
        if c >= 3:
            trips += 1
        counts[r] = 0
    if most >= 5:
        best = FIVE_OF_A_KIND
    elif most == 4:
        best = FOUR_OF_A_KIND
    elif most == 3 and pairs >= 2:
        best = FULL_HOUSE
    elif _has_straight(mask) >= 0:
        best = STRAIGHT
    elif most == 3:
        best = THREE_OF_A_KIND
    elif pairs >= 2:
        best = TWO_PAIR
    elif pairs == 1:
        best = PAIR
    else:
        best = HIGH_CARD
    for suit in range(4):
        if suit_counts[suit] >= 5:
            suited = 0
            for card in cards:
                if SUITS[card] == suit:
                    suited |= 1 << RANKS[card]
            flush = _has_straight(suited)
            best = min(best, FLUSH if flush < 0 else flush)
    return best


def bonus_outcome_map(rules: RedGreenRules) -> tuple[tuple[str, ...], npt.NDArray[np.int8]]:
    """The Bonus outcomes as the analysis lists them (paying categories, then ``lose``),
    and for each category the index of its outcome."""
    names = (*(c.value for c in rules.paytable.paying), "lose")
    index = {name: i for i, name in enumerate(names)}
    mapping = np.array([index.get(c.value, len(names) - 1) for c in CATEGORIES], dtype=np.int8)
    return names, mapping


@dataclass(frozen=True)
class Tables:
    """What the kernel reads for one set of rules."""

    calls: npt.NDArray[np.int8]
    bonus_map: npt.NDArray[np.int8]
    outcomes: tuple[tuple[str, ...], ...]


def tables(rules: RedGreenRules) -> Tables:
    names, mapping = bonus_outcome_map(rules)
    return Tables(outcome_matrix(rules), mapping, (SIDE_OUTCOMES, SIDE_OUTCOMES, names))


@compiled
def deal(
    state: npt.NDArray[np.uint64],
    shoe: npt.NDArray[np.int8],
    codes: npt.NDArray[np.int8],
    cut: int,
    continuous: bool,
    calls: npt.NDArray[np.int8],
    bonus_map: npt.NDArray[np.int8],
    tags: npt.NDArray[np.int16],
    shown: npt.NDArray[np.int32],
) -> None:
    """Deal ``len(codes)`` rounds into ``codes`` (rounds × 3: red, green, bonus).

    When ``shown`` has rows, a card counter's view before each round is written there:
    (running count of ``tags`` since the shuffle, cards left).
    """
    n = len(shoe)
    position = 0
    running = 0  # the count of the cards dealt since the shuffle, when a count is kept
    counting = shown.shape[0] > 0
    six = np.empty(ROUND_CARDS, dtype=np.int8)
    counts = np.zeros(13, dtype=np.int8)
    for i in range(codes.shape[0]):
        if not continuous or position >= cut or n - position < ROUND_CARDS:
            position = 0
            running = 0
        start = position
        if counting:
            shown[i, 0] = running
            shown[i, 1] = n - position
        for k in range(ROUND_CARDS):
            six[k] = draw(state, shoe, position + k)
        position += ROUND_CARDS
        red = HAND_INDEX[RANKS[six[0]] * 169 + RANKS[six[1]] * 13 + RANKS[six[2]]]
        green = HAND_INDEX[RANKS[six[3]] * 169 + RANKS[six[4]] * 13 + RANKS[six[5]]]
        call = calls[red, green]
        if call > 0:
            codes[i, 0], codes[i, 1] = 0, 2
        elif call < 0:
            codes[i, 0], codes[i, 1] = 2, 0
        else:
            codes[i, 0], codes[i, 1] = 1, 1
        codes[i, 2] = bonus_map[bonus_category(six, counts)]
        if counting:
            running += tally(shoe, start, position, tags)


@compiled
def bonus_categories(hands: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """:func:`bonus_category` of each row of six card indices (for the exhaustive test)."""
    result = np.empty(len(hands), dtype=np.int8)
    counts = np.zeros(13, dtype=np.int8)
    for i in range(len(hands)):
        result[i] = bonus_category(hands[i], counts)
    return result


def dealer(game_id: str, rules: RedGreenRules, shoe: ShoeMode, penetration: float) -> Dealer:
    """This kernel dealing ``rules.decks`` decks, reshuffled every round or to the cut card.

    RedGreen and Mini RedGreen deal the same cards in the same order and set them the
    same way — only who chooses the first hand to set differs — so the same seed gives
    the same rounds for both.
    """
    rule_tables = tables(rules)
    cut = round(52 * rules.decks * penetration)
    continuous = shoe is ShoeMode.CONTINUOUS

    def deal_block(
        state: npt.NDArray[np.uint64],
        codes: npt.NDArray[np.int8],
        tags: npt.NDArray[np.int16],
        shown: npt.NDArray[np.int32],
    ) -> None:
        shoe_cards = new_shoe(rules.decks)
        deal(
            state,
            shoe_cards,
            codes,
            cut,
            continuous,
            rule_tables.calls,
            rule_tables.bonus_map,
            tags,
            shown,
        )

    return Dealer(game_id, BETS, rule_tables.outcomes, deal_block)
