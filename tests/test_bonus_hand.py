"""The Bonus hand: best five of Red's and Green's six cards, ranked as the issue lists.

Expectations are written from the category definitions, hand by hand.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccara.cards import Card, Rank, Suit, parse_cards
from baccara.errors import InvalidCards
from baccara.games.bonus import CATEGORIES, Category, best_category, five_card_category


def hand(text: str) -> list[Card]:
    return parse_cards(text.split())


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("AS KS QS JS 10S 2H", Category.ROYAL_FLUSH),
        ("9S KS QS JS 10S AS", Category.ROYAL_FLUSH),  # six suited in a row: the royal is best
        ("9H 10H JH QH KH KD", Category.STRAIGHT_FLUSH),
        ("AD 2D 3D 4D 5D 5S", Category.STRAIGHT_FLUSH),  # the wheel, suited
        ("7C 7C 7D 7H 7S 2S", Category.FIVE_OF_A_KIND),  # multi-deck: two 7♣
        ("7C 7D 7H 7S KS KD", Category.FOUR_OF_A_KIND),
        ("KH KH 9H 9H 9H 2C", Category.FULL_HOUSE),  # suited full house counts as full house
        ("QS QD QH 4C 4C 4S", Category.FULL_HOUSE),  # two trips
        ("QS QD QH 4C 4D 2S", Category.FULL_HOUSE),
        ("AS AS 9S 5S 2S 3D", Category.FLUSH),  # a flush holding the same card twice
        ("2H 4H 6H 8H 10H 3H", Category.FLUSH),
        ("2H 3H 4H 5H 7H 6D", Category.FLUSH),  # flush beats the straight it also makes
        ("AS 2D 3H 4C 5S 9D", Category.STRAIGHT),  # wheel
        ("10S JD QH KC AS 2D", Category.STRAIGHT),  # broadway
        ("5S 6D 7H 8C 9S 10D", Category.STRAIGHT),  # six in a row
        ("8S 8D 8H 2C 5S JD", Category.THREE_OF_A_KIND),
        ("8S 8D 3H 3C 5S 5D", Category.TWO_PAIR),  # three pairs play as two pair
        ("8S 8D 3H 3C 5S JD", Category.TWO_PAIR),
        ("8S 8D 3H 4C 5S JD", Category.PAIR),
        ("KS QD 3H 4C 5S 7D", Category.HIGH_CARD),
        ("QS KD AH 2C 3S 8D", Category.HIGH_CARD),  # straights do not wrap around the Ace
    ],
)
def test_best_five_of_six(cards: str, category: Category) -> None:
    assert best_category(hand(cards)) is category


def test_categories_rank_in_the_issues_order() -> None:
    assert [c.value for c in CATEGORIES] == [
        "royal_flush", "straight_flush", "five_of_a_kind", "four_of_a_kind", "full_house",
        "flush", "straight", "three_of_a_kind", "two_pair", "pair", "high_card",
    ]  # fmt: skip
    assert [c.strength for c in CATEGORIES] == list(range(10, -1, -1))


@pytest.mark.parametrize("count", [0, 5, 7])
def test_wrong_number_of_cards_is_refused(count: int) -> None:
    with pytest.raises(InvalidCards):
        best_category([Card(Rank.ACE, Suit.SPADES)] * count)
    if count != 5:
        with pytest.raises(InvalidCards):
            five_card_category([Card(Rank.ACE, Suit.SPADES)] * count)


card_strategy = st.builds(Card, st.sampled_from(list(Rank)), st.sampled_from(list(Suit)))


@given(st.lists(card_strategy, min_size=6, max_size=6), st.permutations(list(Suit)), st.randoms())
def test_category_ignores_card_order_and_suit_names(
    cards: list[Card], suits: list[Suit], random: object
) -> None:
    rename = dict(zip(Suit, suits, strict=True))
    renamed = [Card(c.rank, rename[c.suit]) for c in cards]
    shuffled = list(renamed)
    random.shuffle(shuffled)  # type: ignore[attr-defined]
    assert best_category(shuffled) is best_category(cards)


@given(st.lists(card_strategy, min_size=6, max_size=6))
def test_best_is_at_least_every_five(cards: list[Card]) -> None:
    best = best_category(cards)
    for skip in range(6):
        five = cards[:skip] + cards[skip + 1 :]
        assert five_card_category(five).strength <= best.strength
