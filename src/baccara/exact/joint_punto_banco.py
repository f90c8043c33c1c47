"""The joint distribution of a Punto Banco coup: the winner and both pair bets together.

Every wager at a Punto Banco table is on the same coup, so the five bets are five
functions of one deal and the house's win on a round depends on the joint law of
(winner, Player pair, Banker pair) — twelve cells. The sample space is the
analysis's: ordered sequences of six cards from the shoe (:mod:`baccara.exact.punto_banco`).

The winner reads card *values* and the pairs read *ranks* (10, J, Q and K all count
0 but a 10 and a King are no pair), so the count keeps ranks for the four-card
opening and values after it:

* each of the 13⁴ ordered rank openings (Player, Banker, Player, Banker) is drawn in
  ∏_r n_r·(n_r − 1)·… ways (falling factorials of the rank counts) and fixes both
  pair flags and both two-card scores;
* its fifth and sixth cards are counted by value from what is left — v₅ then v₆ in
  m_v₅·(m_v₆ − [v₅ = v₆]) ways — and the 10⁴-entry outcome table
  (:func:`~baccara.exact.punto_banco.outcome_table`) names the winner of each.

Every fifth and sixth card is counted whether or not the coup draws it, as in the
analysis, so the twelve counts add up to the analysis's total, their winner
marginals are :func:`~baccara.exact.punto_banco.count_winners` and their pair
marginals :func:`~baccara.exact.punto_banco.pair_sequences` (tests prove it, and
prove the whole joint equal to dealing every sequence of small shoes through
:func:`~baccara.games.punto_banco.deal_coup`). Per opening the counts fit in int64;
the sum over openings is taken in Python integers, so any shoe is exact.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from baccara.cards import Card, Rank, ShoeSpec, Suit, composition
from baccara.exact.coup_facts import falling
from baccara.exact.joint_model import SpotModel
from baccara.exact.punto_banco import (
    WINNER_CODES,
    cards_of_value,
    outcome_table,
)
from baccara.games.punto_banco import Bet, PuntoBancoRules, Winner, deal_coup, spot_net

Cell = tuple[Winner, bool, bool]
"""(winner, Player pair, Banker pair)."""

CELLS: tuple[Cell, ...] = tuple(
    (winner, player_pair, banker_pair)
    for winner in WINNER_CODES
    for player_pair in (False, True)
    for banker_pair in (False, True)
)

_RANKS = len(Rank)
_VALUE_OF_RANK = np.array([rank.baccarat_value for rank in Rank], dtype=np.intp)


@functools.cache
def _rank_openings() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int64]]:
    """The 13⁴ ordered rank openings as rank indices (0 = Ace), and ranks held per opening."""
    openings = np.indices((_RANKS,) * 4).reshape(4, -1).T.astype(np.intp)
    held = np.zeros((len(openings), _RANKS), dtype=np.int64)
    for column in range(4):
        np.add.at(held, (np.arange(len(openings)), openings[:, column]), 1)
    return openings, held


def joint_counts(shoe: ShoeSpec) -> dict[Cell, int]:
    """Ordered six-card sequences of ``shoe`` in each (winner, Player pair, Banker pair) cell."""
    per_rank = composition(shoe).per_rank
    per_value = np.array(cards_of_value(shoe), dtype=np.int64)
    openings, held = _rank_openings()
    # Ways to draw each opening's ranks in order: ∏ n_r (n_r − 1)… over the ranks it holds.
    ways_table = np.array(
        [[falling(n, k) for k in range(5)] for n in per_rank], dtype=np.int64
    )  # (13, 5); at most (4·100)⁴ for the largest shoe, inside int64
    ways = ways_table[np.arange(_RANKS), held].prod(axis=1)
    values = _VALUE_OF_RANK[openings]
    held_values = np.zeros((len(openings), 10), dtype=np.int64)
    for column in range(4):
        np.add.at(held_values, (np.arange(len(openings)), values[:, column]), 1)
    left = per_value - held_values  # negative only where ways is 0
    later = left[:, :, None] * (left[:, None, :] - np.eye(10, dtype=np.int64))
    player = (values[:, 0] + values[:, 2]) % 10
    banker = (values[:, 1] + values[:, 3]) % 10
    called = outcome_table()[player, banker]  # (openings, 10, 10) winner codes
    player_pair = openings[:, 0] == openings[:, 2]
    banker_pair = openings[:, 1] == openings[:, 3]
    counts: dict[Cell, int] = {}
    exact_ways = ways.astype(object)
    for code, winner in enumerate(WINNER_CODES):
        per_opening = np.where(called == code, later, 0).sum(axis=(1, 2))
        for pp, bp in itertools.product((False, True), repeat=2):
            mask = (player_pair == pp) & (banker_pair == bp)
            counts[(winner, pp, bp)] = int(
                np.dot(exact_ways[mask], per_opening[mask].astype(object))
            )
    return {cell: counts[cell] for cell in CELLS}


def _representative(rank: Rank) -> Card:
    return Card(rank, Suit.SPADES)


def joint_counts_by_rules(shoe: ShoeSpec) -> dict[Cell, int]:
    """The plain way: every ordered sequence of six ranks through :func:`deal_coup`.

    Each rank sequence is weighted by the ordered ways to draw it from the shoe
    (falling factorials per rank); the coup reads the cards it needs and its winner
    and pairs name the cell. Slow and obvious on purpose: for shoes of a few ranks.
    """
    per_rank = composition(shoe).per_rank
    present = [rank for rank in Rank if per_rank[rank - 1]]
    result: Counter[Cell] = Counter()
    for ranks in itertools.product(present, repeat=6):
        weight = math.prod(falling(per_rank[r - 1], n) for r, n in Counter(ranks).items())
        if weight:
            coup = deal_coup(_representative(rank) for rank in ranks)
            result[(coup.winner, coup.player_pair, coup.banker_pair)] += weight
    return {cell: result[cell] for cell in CELLS}


def cell_pays(rules: PuntoBancoRules) -> tuple[tuple[Fraction, ...], ...]:
    """What each bet (in :class:`Bet` order) returns per unit staked in each cell.

    Banker and Player win at their odds, push (0) on a tie and lose (−1) otherwise;
    the Tie and each pair bet win at their odds or lose.
    """

    def pays(cell: Cell) -> tuple[Fraction, ...]:
        winner, player_pair, banker_pair = cell

        def side(bet: Bet, wins: Winner) -> Fraction:
            if winner is Winner.TIE:
                return Fraction(0)
            return rules.odds(bet) if winner is wins else Fraction(-1)

        def yes_no(bet: Bet, won: bool) -> Fraction:
            return rules.odds(bet) if won else Fraction(-1)

        by_bet = {
            Bet.BANKER: side(Bet.BANKER, Winner.BANKER),
            Bet.PLAYER: side(Bet.PLAYER, Winner.PLAYER),
            Bet.TIE: yes_no(Bet.TIE, winner is Winner.TIE),
            Bet.PLAYER_PAIR: yes_no(Bet.PLAYER_PAIR, player_pair),
            Bet.BANKER_PAIR: yes_no(Bet.BANKER_PAIR, banker_pair),
        }
        return tuple(by_bet[bet] for bet in Bet)

    return tuple(pays(cell) for cell in CELLS)


def model_from_counts(rules: PuntoBancoRules, counts: dict[Cell, int]) -> SpotModel:
    """The round model of a joint distribution (a full shoe's, or a test's small shoe)."""
    return SpotModel.of(
        [bet.value for bet in Bet], [counts[cell] for cell in CELLS], cell_pays(rules)
    )


@functools.lru_cache(maxsize=32)
def round_model(rules: PuntoBancoRules) -> SpotModel:
    """Every Punto Banco round under ``rules``: one coup from ``rules.decks`` full decks.

    A table with side bets, or under a rule set whose lines change a win's pay, needs
    more of the coup than the twelve cells: its model's cells are the coup's facts
    (:func:`facts_model`)."""
    if rules.sidebets or rules.variant.banker or rules.variant.player:
        return facts_model(rules)
    return model_from_counts(rules, joint_counts(rules.decks))


def facts_model(rules: PuntoBancoRules, shoe: ShoeSpec | None = None) -> SpotModel:
    """The round model over the coup's facts: every bet the table takes, side bets and
    all, is a function of them (:func:`~baccara.games.punto_banco.spot_net`), so their
    joint law is the exact counts of the facts (:mod:`baccara.exact.coup_facts`), read
    at ranks at least (the pair bets read them) and at the 52 cards if a bet reads suits."""
    from baccara.exact.coup_bets import level_of
    from baccara.exact.coup_facts import Level, fact_counts

    levels = {level_of(spot, rules) for spot in rules.bet_ids}
    level = Level.CARDS if Level.CARDS in levels else Level.RANKS
    counts = fact_counts(rules.decks if shoe is None else shoe, level)
    cells = list(counts)
    spots = rules.bet_ids
    pays = [[spot_net(spot, facts, rules) for spot in spots] for facts in cells]
    return SpotModel.of(spots, [counts[facts] for facts in cells], pays)
