"""Punto Banco's joint distribution of (winner, Player pair, Banker pair), proven three ways:

* its marginals are the analysis's own counts (``count_winners``, ``pair_sequences``)
  for full and depleted shoes;
* it equals the plain enumeration of every rank sequence through ``deal_coup``;
* on small shoes, dealing every ordered sequence of physical cards and settling the
  wagers with the live ``settle_bet`` gives exactly the model's mean and variance.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from baccara.cards import Card, ShoeComposition, parse_cards
from baccara.exact import punto_banco
from baccara.exact.joint_punto_banco import (
    CELLS,
    joint_counts,
    joint_counts_by_rules,
    model_from_counts,
    round_model,
)
from baccara.games.punto_banco import Bet, PuntoBancoRules, Winner, deal_coup, settle_bet
from tests.helpers import shoe_of


def _one_short(decks: int, card: str) -> ShoeComposition:
    return ShoeComposition.standard(decks).without(Card.parse(card))


SHOES = {
    "1 deck": ShoeComposition.standard(1),
    "6 decks": ShoeComposition.standard(6),
    "8 decks": ShoeComposition.standard(8),
    "8 decks less a queen": _one_short(8, "QH"),
    "8 decks less a six": _one_short(8, "6C"),
    "a few ranks": ShoeComposition.of(shoe_of("A 5 9 10 K 8", 3)),
}


@pytest.mark.parametrize("shoe", SHOES.values(), ids=SHOES.keys())
def test_marginals_are_the_analysis_counts(shoe: ShoeComposition) -> None:
    joint = joint_counts(shoe)
    assert sum(joint.values()) == punto_banco.sequences(shoe)
    winners = punto_banco.count_winners(shoe)
    for winner in Winner:
        assert sum(n for (w, _, _), n in joint.items() if w is winner) == winners[winner]
    pairs = punto_banco.pair_sequences(shoe)
    assert sum(n for (_, pp, _), n in joint.items() if pp) == pairs
    assert sum(n for (_, _, bp), n in joint.items() if bp) == pairs


def test_eight_decks_pinned() -> None:
    """The 12 cells for the seed's shoe, pinned once proven by the tests in this file."""
    joint = joint_counts(8)
    assert joint == joint_counts(ShoeComposition.standard(8))
    assert [joint[cell] for cell in CELLS] == [
        1_906_634_336_174_080,
        177_294_219_300_864,
        134_327_962_841_088,
        12_261_764_276_224,
        1_961_806_209_310_720,
        136_819_378_110_464,
        181_199_148_797_952,
        12_427_830_218_752,
        411_103_725_690_880,
        31_366_077_902_848,
        29_952_563_675_136,
        3_205_059_204_352,
    ]


PLAIN_SHOES = {
    "six ranks, three each": ShoeComposition.of(shoe_of("A 5 9 10 K 8", 3)),
    "tens and faces, four each": ShoeComposition.of(shoe_of("10 J Q K 6 7", 4)),
    "five ranks, one short": ShoeComposition.of(shoe_of("2 3 4 5 6", 3)).without(Card.parse("3H")),
}


@pytest.mark.parametrize("shoe", PLAIN_SHOES.values(), ids=PLAIN_SHOES.keys())
def test_fast_joint_equals_every_rank_sequence_through_the_rules(shoe: ShoeComposition) -> None:
    assert joint_counts(shoe) == joint_counts_by_rules(shoe)


WAGERS = (
    (Bet.BANKER, 2000),
    (Bet.PLAYER, 700),
    (Bet.TIE, 300),
    (Bet.PLAYER_PAIR, 100),
    (Bet.BANKER_PAIR, 100),
    (Bet.BANKER, 100),
)
"""Banker stakes in whole units, so 19:20 (or 24:25) pays whole cents and no rounding enters."""


def _dealt_by_hand(cards: list[Card], rules: PuntoBancoRules) -> tuple[Fraction, Fraction]:
    """Mean and variance of the house's win over every ordered six of the physical cards,
    each coup dealt by ``deal_coup`` and every wager settled by ``settle_bet``."""
    total = first = second = 0
    for sequence in itertools.permutations(cards, 6):
        coup = deal_coup(sequence)
        win = sum(stake - settle_bet(bet, stake, coup, rules).returned for bet, stake in WAGERS)
        total += 1
        first += win
        second += win * win
    assert total == math.perm(len(cards), 6)
    mean = Fraction(first, total)
    return mean, Fraction(second, total) - mean**2


@pytest.mark.parametrize(
    ("cards", "rules"),
    [
        ("AS AH 5D 9C KS KH 8D 4C", PuntoBancoRules()),
        pytest.param(
            "QS QH 10D 7C 7S 2H 6D 3C",
            PuntoBancoRules(commission=Fraction(4), tie_pays=Fraction(9)),
            marks=pytest.mark.slow,
        ),
    ],
    ids=["eight cards", "eight cards, 4 % and 9:1"],
)
def test_every_deal_of_a_small_shoe_settled_live_gives_the_model(
    cards: str, rules: PuntoBancoRules
) -> None:
    dealt = parse_cards(cards.split())
    model = model_from_counts(rules, joint_counts(ShoeComposition.of(dealt)))
    wagers = [(None, bet.value, stake) for bet, stake in WAGERS]
    mean, variance = _dealt_by_hand(dealt, rules)
    assert model.house_mean(wagers) == mean
    assert model.house_variance(wagers) == variance


@pytest.mark.slow
def test_every_deal_of_ten_cards_settled_live_gives_the_model() -> None:
    dealt = parse_cards(["AS", "AH", "5D", "9C", "KS", "KH", "8D", "4C", "4D", "JS"])
    rules = PuntoBancoRules()
    model = model_from_counts(rules, joint_counts(ShoeComposition.of(dealt)))
    wagers = [(None, bet.value, stake) for bet, stake in WAGERS]
    assert (model.house_mean(wagers), model.house_variance(wagers)) == _dealt_by_hand(dealt, rules)


def test_the_seed_shoe_model_is_kept_per_rules() -> None:
    rules = PuntoBancoRules()
    assert round_model(rules) is round_model(PuntoBancoRules())
    assert round_model(PuntoBancoRules(decks=6)) is not round_model(rules)
