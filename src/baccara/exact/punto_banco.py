"""Exact analysis of Punto Banco, counted over ordered six-card sequences.

The sample space is the published one: every ordered sequence of six cards from a
full shoe (for 8 decks, 416·415·414·413·412·411 = 4,998,398,275,503,360), whether or
not the coup uses the fifth and sixth card. Because the drawing rules only read card
*values*, the outcome of a sequence depends on its six values alone, and the number
of card sequences behind a value sequence depends only on how many times each value
occurs in it. So the work splits in two:

* the outcome of a coup is fixed by the Player's and Banker's two-card scores and
  the values of the fifth and sixth cards: a 10⁴-entry table (:func:`outcome_table`)
  built once by the vectorised rules (:func:`winners`);
* the 10⁴ ordered four-card openings fall into a few thousand groups that share
  their values and scores; per shoe each group's card count is a product of
  falling factorials, summed in exact Python integers, so any shoe is exact.

A shoe is a number of full decks or any :class:`~baccara.cards.ShoeComposition` — a
depleted shoe, e.g. one card short to measure that card's effect
(:mod:`baccara.exact.removal`); the main bets read how many cards of each value
it holds, the pair bets how many of each rank.

:func:`count_by_rules` is the plain recursive enumeration through
:func:`~baccara.games.punto_banco.deal_coup`, and :func:`count_pairs_by_rules` the
plain enumeration of every opening through :class:`~baccara.games.punto_banco.Coup`;
tests prove both give the same counts as the fast ones, for full and depleted shoes,
and that :func:`winners` agrees with the rules on every value sequence.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from baccara.cards import Card, Rank, ShoeComposition, ShoeSpec, Suit, composition
from baccara.exact.coup_facts import falling, plain_coups
from baccara.exact.model import Analysis, BetAnalysis, Outcome, rules_summary
from baccara.exact.removal import EffectOfRemoval, by_rank
from baccara.games.punto_banco import (
    BANKER_DRAWS_UP_TO,
    Bet,
    Coup,
    PuntoBancoRules,
    Winner,
)
from baccara.options import fraction_text, plural

WINNER_CODES: tuple[Winner, ...] = (Winner.PLAYER, Winner.BANKER, Winner.TIE)
"""Index ``i`` of this tuple is the code :func:`winners` returns for that winner."""

_TABLEAU = np.array([BANKER_DRAWS_UP_TO[v] for v in range(10)], dtype=np.int8)


def winners(values: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int8]:
    """Call many coups at once from their card values.

    ``values`` has shape ``(n, 6)``: the values (0–9) of the first six cards out of the
    shoe, in dealing order. Returns one code per row, indexing :data:`WINNER_CODES`.
    """
    v = values.astype(np.int8, copy=False)
    p1, b1, p2, b2, c5, c6 = (v[:, i] for i in range(6))
    player = (p1 + p2) % 10
    banker = (b1 + b2) % 10
    natural = (player >= 8) | (banker >= 8)
    player_hits = ~natural & (player <= 5)
    player_final = np.where(player_hits, (player + c5) % 10, player)
    banker_hits = ~natural & np.where(player_hits, banker <= _TABLEAU[c5], banker <= 5)
    banker_third = np.where(player_hits, c6, c5)
    banker_final = np.where(banker_hits, (banker + banker_third) % 10, banker)
    codes = np.full(len(v), 2, dtype=np.int8)
    codes[player_final > banker_final] = 0
    codes[banker_final > player_final] = 1
    return codes


def all_value_sequences() -> npt.NDArray[np.int8]:
    """Every sequence of six card values, shape ``(10**6, 6)``, in lexicographic order."""
    grid = np.indices((10,) * 6, dtype=np.int8)
    return grid.reshape(6, -1).T.copy()


@functools.cache
def outcome_table() -> npt.NDArray[np.int8]:
    """Winner codes indexed by (Player's two-card score, Banker's, fifth card, sixth card).

    Those four numbers decide every coup, so this 10⁴-entry table is the whole of the
    drawing rules in a form the fast paths (analysis, simulation) can index.
    """
    player, banker, fifth, sixth = np.indices((10,) * 4, dtype=np.int8).reshape(4, -1)
    zeros = np.zeros_like(player)
    coups = np.stack([player, banker, zeros, zeros, fifth, sixth], axis=1)
    return winners(coups).reshape((10,) * 4)


@functools.cache
def opening_groups() -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.int64]
]:
    """The 10⁴ ordered four-card openings, grouped by (values held, Player score, Banker score).

    Returns ``(held, player, banker, openings)``: per group, how many of each value its
    four cards hold, the two scores, and how many ordered openings fall in it. Within a
    group the outcome of every fifth/sixth card is the same, and so is the number of
    card sequences behind each opening — which is what lets the count skip the 10⁶ loop.
    """
    first, second, third, fourth = np.indices((10,) * 4).reshape(4, -1)
    player = (first + third) % 10
    banker = (second + fourth) % 10
    held = np.zeros((len(first), 10), dtype=np.int64)
    for column in (first, second, third, fourth):
        held[np.arange(len(column)), column] += 1
    # How often each value occurs is at most 4, so base 5 packs the multiset exactly.
    packed = (held @ (5 ** np.arange(10, dtype=np.int64))) * 100 + player * 10 + banker
    _, index, openings = np.unique(packed, return_index=True, return_counts=True)
    return held[index], player[index], banker[index], openings.astype(np.int64)


def cards_of_value(shoe: ShoeSpec) -> tuple[int, ...]:
    """How many cards of each baccarat value (0–9) a shoe holds: tens and faces make 0.

    >>> cards_of_value(8)
    (128, 32, 32, 32, 32, 32, 32, 32, 32, 32)
    """
    if not isinstance(shoe, ShoeComposition):
        composition(shoe)  # validates the deck count
        return (16 * shoe,) + (4 * shoe,) * 9
    per_value = [0] * 10
    for rank, n in zip(Rank, shoe.per_rank, strict=True):
        per_value[rank.baccarat_value] += n
    return tuple(per_value)


def count_winners(shoe: ShoeSpec) -> dict[Winner, int]:
    """Ordered six-card sequences of ``shoe`` won by each side, exactly.

    For each opening group: (ordered openings) × (card sequences per opening, an exact
    product of falling factorials) × (fifth/sixth card pairs that give each winner,
    weighted by how many cards of those values are left).
    """
    per_value = cards_of_value(shoe)
    held, player, banker, openings = opening_groups()
    # A group whose opening needs more cards of a value than the shoe has is dealt in 0
    # ways (``falling`` is 0), so a negative count left over never reaches a total.
    left = np.array(per_value, dtype=np.int64) - held
    # Cards left for the fifth and then the sixth position (one fewer if the same value).
    later = left[:, :, None] * (left[:, None, :] - np.eye(10, dtype=np.int64))
    called = outcome_table()[player, banker]
    opening_ways = [
        math.prod(falling(per_value[v], times) for v, times in enumerate(row) if times)
        for row in held.tolist()
    ]
    counts = {}
    for code, winner in enumerate(WINNER_CODES):
        per_group = np.where(called == code, later, 0).sum(axis=(1, 2)) * openings
        counts[winner] = sum(
            ways * int(n) for ways, n in zip(opening_ways, per_group.tolist(), strict=True)
        )
    return counts


def sequences(shoe: ShoeSpec) -> int:
    """All ordered six-card sequences of the shoe: the analysis's sample space."""
    return falling(composition(shoe).total, 6)


def pair_sequences(shoe: ShoeSpec) -> int:
    """Ordered six-card sequences whose two cards of one hand share a rank.

    The hand's two cards are n_r·(n_r − 1) ordered ways for each rank r, and the
    other four positions any of the rest: the same count for the Player's hand and
    the Banker's.
    """
    shoe = composition(shoe)
    same_rank = sum(falling(n, 2) for n in shoe.per_rank)
    return same_rank * falling(shoe.total - 2, 4)


def _representative(value: int) -> Card:
    return Card(Rank(value) if value else Rank.TEN, Suit.SPADES)


def count_by_rules(shoe: ShoeSpec) -> dict[Winner, int]:
    """The plain way: deal every value sequence through the rules, recursively.

    Slow and obvious on purpose — it is what the fast count is proven against.
    """
    result: Counter[Winner] = Counter()
    for coup, ways in plain_coups([_representative(v) for v in range(10)], cards_of_value(shoe)):
        result[coup.winner] += ways
    return {w: result[w] for w in WINNER_CODES}


def count_pairs_by_rules(shoe: ShoeSpec) -> tuple[int, int]:
    """The plain way for the pair bets: every ordered opening of four ranks, through :class:`Coup`.

    Returns the six-card sequences that make a Player pair and a Banker pair. Each
    opening (Player, Banker, Player, Banker) is weighted by the ordered ways to draw
    its ranks, and by every fifth and sixth card, which a pair bet never reads.
    """
    per_rank = composition(shoe).per_rank
    rest = falling(sum(per_rank) - 4, 2)
    player_pairs = banker_pairs = 0
    for ranks in itertools.product(Rank, repeat=4):
        ways = math.prod(falling(per_rank[r - 1], n) for r, n in Counter(ranks).items())
        if not ways:
            continue
        p1, b1, p2, b2 = (Card(rank, Suit.SPADES) for rank in ranks)
        coup = Coup((p1, b1, p2, b2), (p1, p2), (b1, b2))
        player_pairs += ways * rest * coup.player_pair
        banker_pairs += ways * rest * coup.banker_pair
    return player_pairs, banker_pairs


def analyze(game_id: str, rules: PuntoBancoRules) -> Analysis:
    """Every bet of Punto Banco under ``rules``, exactly."""
    return Analysis(
        game=game_id,
        options=rules_summary(rules),
        bets=bet_analyses(rules),
        sample_space=f"ordered sequences of six cards from {plural(rules.decks, 'deck')}",
        notes=(
            f"Banker wins pay {fraction_text(rules.banker_pays)} to 1 "
            f"({fraction_text(rules.commission)} % commission); payouts in cents round down.",
        ),
    )


def effect_of_removal(game_id: str, rules: PuntoBancoRules) -> EffectOfRemoval:
    """One card of each rank taken from the full shoe, every bet's edge after."""
    return by_rank(
        game_id,
        rules_summary(rules),
        ShoeComposition.standard(rules.decks),
        lambda shoe: bet_analyses(rules, shoe),
        (
            f"One card of each rank taken from {plural(rules.decks, 'full deck')}; "
            "10, J, Q and K all count 0 and move the main bets alike.",
            "The pair bets do not move at all for one card: P(pair) = Σ n(n−1) / N(N−1) "
            "is unchanged when any one card of a balanced shoe goes.",
        ),
    )


def bet_analyses(
    rules: PuntoBancoRules, shoe: ShoeComposition | None = None
) -> tuple[BetAnalysis, ...]:
    """Every bet of the table dealt from ``shoe`` (by default ``rules.decks`` full decks):
    the five bets of the classic game, then the side bets the rules add.

    Under a rule set whose lines change a win's pay (EZ Baccarat, No-Commission) the
    Banker and Player bets are counted by the coup's facts too
    (:mod:`baccara.exact.coup_facts`), as every side bet is.
    """
    from baccara.exact.coup_bets import spot_analysis, with_citation

    dealt_from: ShoeSpec = rules.decks if shoe is None else shoe
    main = tuple(with_citation(a, rules, dealt_from) for a in _classic_analyses(rules, dealt_from))
    if not rules.sidebets and not rules.variant.banker and not rules.variant.player:
        return main

    by_facts = {
        spot: spot_analysis(spot, rules, dealt_from)
        for spot in rules.bet_ids
        if rules.sidebet(spot) is not None
        or (spot == Bet.BANKER.value and rules.variant.banker)
        or (spot == Bet.PLAYER.value and rules.variant.player)
    }
    ordered = [by_facts.pop(analysis.bet, analysis) for analysis in main]
    return (*ordered, *by_facts.values())


def _classic_analyses(rules: PuntoBancoRules, dealt_from: ShoeSpec) -> tuple[BetAnalysis, ...]:
    """The five bets whose pays no rule set's line changes, from the winners' counts."""
    total = sequences(dealt_from)
    won = count_winners(dealt_from)

    def side(bet: Bet, wins: Winner, loses: Winner) -> BetAnalysis:
        return BetAnalysis(
            bet.value,
            (
                Outcome("win", won[wins], total, rules.odds(bet)),
                Outcome("push", won[Winner.TIE], total, Fraction(0)),
                Outcome("lose", won[loses], total, Fraction(-1)),
            ),
        )

    def yes_no(bet: Bet, count: int) -> BetAnalysis:
        return BetAnalysis(
            bet.value,
            (
                Outcome("win", count, total, rules.odds(bet)),
                Outcome("lose", total - count, total, Fraction(-1)),
            ),
        )

    pairs = pair_sequences(dealt_from)
    return (
        side(Bet.BANKER, Winner.BANKER, Winner.PLAYER),
        side(Bet.PLAYER, Winner.PLAYER, Winner.BANKER),
        yes_no(Bet.TIE, won[Winner.TIE]),
        yes_no(Bet.PLAYER_PAIR, pairs),
        yes_no(Bet.BANKER_PAIR, pairs),
    )
