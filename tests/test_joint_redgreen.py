"""RedGreen's joint distribution of (call, Bonus category), proven three ways:

* its call marginal is ``count_outcomes`` and its category marginal 20 ×
  ``category_counts`` (every six-card set is dealt in its C(6,3) = 20 splits), for the
  seed's shoe, house-way variants and a depleted shoe;
* on small shoes it equals dealing every Red hand and every Green hand of the
  physical cards through the rules (``round_from_cards``, ``best_category``);
* on small shoes, settling every deal's wagers with the live ``settle_bet`` gives
  exactly the model's mean and variance.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from baccara.cards import Card, ShoeComposition, parse_cards
from baccara.exact import bonus
from baccara.exact.joint_redgreen import (
    CELLS,
    SPLITS,
    joint_counts,
    joint_counts_by_rules,
    model_from_counts,
    splits_by_call,
)
from baccara.exact.redgreen import count_outcomes, deals
from baccara.games.bonus import Category
from baccara.games.paytable import Paytable
from baccara.games.redgreen import Bet, RedGreenRules, Winner, round_from_cards, settle_bet

RULES = {
    "seed": RedGreenRules(),
    "kings never split": RedGreenRules(split_kings=False),
    "aces never split, 6 decks": RedGreenRules(decks=6, split_aces=False),
}


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_marginals_are_the_analysis_counts(rules: RedGreenRules) -> None:
    joint = joint_counts(rules)
    assert sum(joint.values()) == deals(rules.decks)
    called = count_outcomes(rules)
    for call in Winner:
        assert sum(n for (c, _), n in joint.items() if c is call) == called[call]
    categories = bonus.category_counts(ShoeComposition.standard(rules.decks))
    for category in Category:
        assert sum(n for (_, k), n in joint.items() if k is category) == 20 * categories[category]


def test_a_depleted_shoe_has_the_analysis_marginals() -> None:
    rules = RedGreenRules()
    shoe = ShoeComposition.standard(7).without(Card.parse("AS")).without(Card.parse("KH"))
    joint = joint_counts(rules, shoe)
    called = count_outcomes(rules, shoe.per_rank)
    for call in Winner:
        assert sum(n for (c, _), n in joint.items() if c is call) == called[call]
    categories = bonus.category_counts(shoe)
    for category in Category:
        assert sum(n for (_, k), n in joint.items() if k is category) == 20 * categories[category]


def test_every_multiset_has_twenty_splits_and_red_green_mirror() -> None:
    """Swapping Red and Green is a bijection of the 20 splits, so per rank multiset Red
    wins in as many splits as Green."""
    by_call = splits_by_call(RedGreenRules())
    assert len(SPLITS) == math.comb(6, 3) == 20
    assert (by_call.sum(axis=1) == 20).all()
    assert (by_call[:, 0] == by_call[:, 1]).all()


SMALL_SHOES = {
    # A royal and a straight flush in hearts, trips of 2s, pairs of Aces and Kings.
    "flushes and trips": "AH KH QH JH 10H 9H 2S 2D 2C AS KD",
    # Two decks' worth of a few cards: a flush holding the same card twice, five of a kind.
    "copies": "AH AH AS AS AD KH KH 5C 5C 9D 9D 2H",
}


@pytest.mark.parametrize("cards", SMALL_SHOES.values(), ids=SMALL_SHOES.keys())
def test_fast_joint_equals_every_deal_through_the_rules(cards: str) -> None:
    shoe = ShoeComposition.of(parse_cards(cards.split()))
    for rules in (RedGreenRules(), RedGreenRules(split_aces=False)):
        assert joint_counts(rules, shoe) == joint_counts_by_rules(rules, shoe)


TABLE = Paytable(
    name="small-shoe",
    pays={
        Category.ROYAL_FLUSH: Fraction(500),
        Category.STRAIGHT_FLUSH: Fraction(100),
        Category.FIVE_OF_A_KIND: Fraction(50),
        Category.FULL_HOUSE: Fraction(7),
        Category.FLUSH: Fraction(5),
        Category.THREE_OF_A_KIND: Fraction(3),
        Category.TWO_PAIR: Fraction(0),
    },
)
"""Pays on the categories the small shoes make; a two pair pushes (pays 0)."""


def test_every_deal_of_a_small_shoe_settled_live_gives_the_model() -> None:
    cards = parse_cards(SMALL_SHOES["flushes and trips"].split())
    rules = RedGreenRules(paytable=TABLE)
    wagers = ((Bet.RED, 2000), (Bet.GREEN, 700), (Bet.BONUS, 300), (Bet.RED, 100))
    total = first = second = 0
    for red in itertools.combinations(range(len(cards)), 3):
        rest = [p for p in range(len(cards)) if p not in red]
        for green in itertools.combinations(rest, 3):
            round_ = round_from_cards([cards[p] for p in red], [cards[p] for p in green], rules)
            win = sum(
                stake - settle_bet(bet, stake, round_, rules).returned for bet, stake in wagers
            )
            total += 1
            first += win
            second += win * win
    mean = Fraction(first, total)
    model = model_from_counts(rules, joint_counts(rules, ShoeComposition.of(cards)))
    as_wagers = [(seat, bet.value, stake) for seat, (bet, stake) in enumerate(wagers, 1)]
    assert model.house_mean(as_wagers) == mean
    assert model.house_variance(as_wagers) == Fraction(second, total) - mean**2


def test_cells_are_every_call_with_every_category() -> None:
    assert len(CELLS) == 3 * len(Category)
