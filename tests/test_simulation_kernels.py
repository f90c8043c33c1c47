"""The compiled kernels deal exactly what the plain rules code deals, round by round.

Each test replays the kernel's shoe with the plain twin of its generator
(:class:`XoshiroRandom` and :class:`Pile`) and calls every round with the rules code
the live tables use — ``deal_coup``, ``deal_round`` and ``best_category``,
``round_from_stack`` — then requires every bet's outcome to be the kernel's.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from baccara.cards import Card, Rank, Suit, standard_deck
from baccara.games.bonus import CATEGORIES, best_category
from baccara.games.paytable import Paytable
from baccara.sim.dealer import BLOCK_ROUNDS
from baccara.sim.kernels.pile import Pile
from baccara.sim.kernels.plain import plain_rounds
from baccara.sim.kernels.redgreen import bonus_categories
from baccara.sim.kernels.rng import XoshiroRandom, block_state, draws_below
from baccara.sim.runs import RoundOutcomes, deal_outcomes

SEEDS = (0, 1, 20240601)


def test_generator_matches_the_reference_xoshiro256starstar() -> None:
    """The first outputs of xoshiro256** from state (1, 2, 3, 4), as the authors' C code gives."""
    rng = XoshiroRandom(np.array([1, 2, 3, 4], dtype=np.uint64))
    assert [rng.next_u64() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


def test_compiled_draws_equal_the_plain_generator() -> None:
    """Bounds near 2**32 reject often; every draw, rejected or not, must line up."""
    bounds = np.array([1, 2, 6, 28, 416, 3 * 2**30, 2**32 - 1] * 300, dtype=np.int64)
    compiled = draws_below(block_state(5, 3), bounds)
    plain = XoshiroRandom(block_state(5, 3))
    assert compiled.tolist() == [plain.randbelow(int(n)) for n in bounds]
    assert all(0 <= v < n for v, n in zip(compiled.tolist(), bounds.tolist(), strict=True))


def test_pile_deals_every_card_once() -> None:
    pile = Pile(standard_deck() * 2, XoshiroRandom(block_state(9, 0)))
    dealt = [pile.draw() for _ in range(104)]
    assert sorted(dealt, key=repr) == sorted(standard_deck() * 2, key=repr)


def _replay(dealt: RoundOutcomes, seed: int, block: int = 0, **plain: Any) -> None:
    """Every round of ``dealt`` (one block) equals the plain round, bet by bet, by name."""
    rounds = plain_rounds(dealt.game, seed, block, len(dealt.codes), **plain)
    for i, (codes, names) in enumerate(zip(dealt.codes.tolist(), rounds, strict=True)):
        assert tuple(dealt.outcomes[j][c] for j, c in enumerate(codes)) == names, f"round {i}"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("decks", "shoe", "penetration"),
    [(8, "reshuffle", 0.8), (1, "continuous", 0.75), (6, "continuous", 1.0)],
)
def test_punto_banco_kernel_deals_as_the_rules(
    seed: int, decks: int, shoe: str, penetration: float
) -> None:
    dealt = deal_outcomes(
        "punto-banco", 3000, seed, shoe=shoe, penetration=penetration, decks=decks
    )
    _replay(dealt, seed, continuous=shoe == "continuous", penetration=penetration, decks=decks)


GENEROUS = Paytable.from_toml(
    'name = "generous"\n[pays]\nstraight_flush = 50\nflush = 5\nthree_of_a_kind = 3\n'
    "two_pair = 1\npair = 0\n"
)
"""A paytable with a push (pair) and a paying two pair, to exercise the outcome mapping."""


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("options", "shoe", "penetration"),
    [
        ({}, "reshuffle", 0.8),
        ({"split_aces": False, "split_kings_unless": "Q", "paytable": GENEROUS}, "reshuffle", 0.8),
        ({"decks": 1}, "continuous", 0.9),
    ],
)
def test_redgreen_kernel_deals_as_the_rules(
    seed: int, options: dict[str, Any], shoe: str, penetration: float
) -> None:
    for game in ("redgreen", "redgreen-mini"):
        dealt = deal_outcomes(game, 2000, seed, shoe=shoe, penetration=penetration, **options)
        _replay(dealt, seed, continuous=shoe == "continuous", penetration=penetration, **options)


@pytest.mark.parametrize("seed", SEEDS)
def test_loball_kernel_deals_as_the_rules(seed: int) -> None:
    _replay(deal_outcomes("lo-ball", 3000, seed), seed)


def test_blocks_are_seeded_apart_and_join_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """With 100-round blocks, a 350-round run is blocks 0–3, each from a full shoe."""
    from baccara.sim import dealer

    monkeypatch.setattr(dealer, "BLOCK_ROUNDS", 100)
    dealt = deal_outcomes("punto-banco", 350, 11)
    for block in range(4):
        part = dealt.codes[block * 100 : (block + 1) * 100]
        _replay(RoundOutcomes(dealt.game, dealt.bets, dealt.outcomes, part), 11, block)
    assert BLOCK_ROUNDS == 1 << 20


def _six_card_classes() -> tuple[npt.NDArray[np.int8], list[list[Card]]]:
    """Six-card hands covering every way suits can matter to the best five.

    Suits change a category only through a five of one suit. So for every one of the
    18,564 multisets of six ranks: suits spread so no suit holds five; all six in one
    suit; and five in one suit with the sixth, of each rank in turn, in another.
    """
    deck = standard_deck()
    hands: list[list[Card]] = []
    suits = list(Suit)
    for ranks in itertools.combinations_with_replacement(list(Rank), 6):
        hands.append([Card(r, suits[i % 4]) for i, r in enumerate(ranks)])
        hands.append([Card(r, Suit.SPADES) for r in ranks])
        for odd in sorted(set(ranks)):
            rest = list(ranks)
            rest.remove(odd)
            hands.append([*(Card(r, Suit.SPADES) for r in rest), Card(odd, Suit.HEARTS)])
    index = {card: i for i, card in enumerate(deck)}
    return np.array([[index[c] for c in hand] for hand in hands], dtype=np.int8), hands


@pytest.mark.slow
def test_bonus_evaluator_equals_best_category_on_every_class_of_hand() -> None:
    """Exhaustive: every rank multiset under every suit pattern that can make a flush."""
    indices, hands = _six_card_classes()
    compiled = bonus_categories(indices).tolist()
    plain = [CATEGORIES.index(best_category(hand)) for hand in hands]
    mismatches = [
        (hands[i], CATEGORIES[c], CATEGORIES[p])
        for i, (c, p) in enumerate(zip(compiled, plain, strict=True))
        if c != p
    ]
    assert not mismatches[:5]
    assert len(hands) > 18_564 * 3
