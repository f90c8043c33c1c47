"""Exact analysis of Baccarat RedGreen, counted over every deal of Red then Green.

The sample space is the seed's: three cards to Red from the full shoe, then three to
Green from what is left — C(364,3)·C(361,3) = 61,989,513,746,160 deals for seven
decks. The house way and the comparison read ranks only, so a deal's outcome is
fixed by the two hands' rank multisets (455 of them: C(15,3)), and the number of
deals behind a pair of multisets is a product of binomials, one per rank:
C(n_r, a_r)·C(n_r − a_r, b_r) for a shoe with n_r cards of rank r, Red holding a_r
of them and Green b_r.

:func:`count_outcomes` sets each of the 455 hands once through
:func:`~baccara.games.redgreen.house_way`, calls all 455² pairs from tables of the
parts of :func:`~baccara.games.redgreen.compare` (:func:`outcome_matrix`, proven equal
to ``compare`` on every pair), and sums the weights per Red hand with numpy in int64 (each row sum is
at most C(52·decks − 3, 3), far inside the range) before the final exact sum in
Python integers. :func:`count_by_rules` is the plain enumeration through
:func:`~baccara.games.redgreen.compare` with :func:`math.comb` weights; tests prove
the two equal for every house-way variant, and prove the plain one equal to dealing
every card of small shoes one by one.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from baccara.cards import Rank, ShoeComposition, ShoeSpec, composition
from baccara.exact.bonus import bonus_bet, category_counts
from baccara.exact.model import Analysis, BetAnalysis, Outcome, Published, rules_summary
from baccara.exact.removal import EffectOfRemoval, by_rank
from baccara.games.redgreen import (
    HAND_SIZE,
    Bet,
    RedGreenRules,
    Setting,
    Winner,
    compare,
    compare_backs,
    compare_fronts,
    house_way_of_ranks,
    pair_beats,
)
from baccara.options import fraction_text, plural

RankHand = tuple[Rank, Rank, Rank]

PUBLISHED = Published(
    house_edge=Fraction("0.017624"),
    source="seed 000, 7 decks",
    outcomes=(
        ("win", Fraction("0.352472")),
        ("push", Fraction("0.295057")),
        ("lose", Fraction("0.352472")),
    ),
)
"""The seed's analysis: either hand wins 35.2472 %, ties 29.5057 %; edge 35.2472 % × 5 %.

Each is the exact figure of the seed's rules, its cyclic ranking included, to the four
decimals it prints (exactly: a push in 18,290,427,641,136 of 61,989,513,746,160 deals,
an edge of 32514200971/1844926004350)."""

SEED_RULES = RedGreenRules()
"""The rules the seed's analysis was made for: its shoe, commission and house way."""

PUBLISHED_UNDER: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(RedGreenRules) if f.name != "paytable"
)
"""Every option that decides the Red and Green bets (all but the Bonus paytable): the
seed's figures are shown only when each of them is the seed's."""

RANK_HANDS: tuple[RankHand, ...] = tuple(
    (a, b, c) for a, b, c in combinations_with_replacement(Rank, HAND_SIZE)
)
"""The 455 distinct three-card hands when suits are ignored."""


def cards_per_rank(decks: int) -> tuple[int, ...]:
    """Cards of each rank (Ace first) in a full shoe: four per deck."""
    return (4 * decks,) * len(Rank)


@functools.cache
def settings(rules: RedGreenRules) -> tuple[Setting, ...]:
    """Every one of the 455 rank hands set by the house way, in :data:`RANK_HANDS` order."""
    return tuple(house_way_of_ranks(hand, rules) for hand in RANK_HANDS)


_CODES = {Winner.RED: 1, Winner.GREEN: -1, Winner.PUSH: 0}


def _part_table(
    keys: Sequence[object], call: Callable[[int, int], int]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.int8]]:
    """Each hand's class under one part of the comparison, and the part's result for every
    pair of classes: ``call(i, j)`` on a representative hand of each class."""
    classes: dict[object, int] = {}
    first: list[int] = []
    index = np.empty(len(keys), dtype=np.intp)
    for hand, key in enumerate(keys):
        if key not in classes:
            classes[key] = len(first)
            first.append(hand)
        index[hand] = classes[key]
    table = np.array([[call(i, j) for j in first] for i in first], dtype=np.int8)
    return index, table


@functools.cache
def outcome_matrix(rules: RedGreenRules) -> npt.NDArray[np.int8]:
    """Winner codes for every (Red hand, Green hand): +1 Red, −1 Green, 0 push.

    Built from the parts of :func:`~baccara.games.redgreen.compare`, the one comparison
    of set hands: the fronts through ``compare_fronts`` (13 ranks), the backs through
    ``compare_backs`` (91 kinds of back), three of a kind through ``pair_beats``, each
    called on every pair of classes; the ranking is a cycle (2-2 beats A-A only), which no
    per-hand key could express, so each part is a table of calls, not a key. The tables
    are combined as ``compare`` combines its parts; :func:`outcome_matrix_by_rules` calls
    ``compare`` itself on all 455² pairs, and the tests prove the two equal.
    """
    hands = settings(rules)
    trips = [h.three_of_a_kind for h in hands]
    front, by_front = _part_table(
        [h.front.rank for h in hands], lambda i, j: compare_fronts(hands[i], hands[j])
    )
    back, by_back = _part_table(
        [tuple(c.rank for c in h.back) for h in hands],
        lambda i, j: compare_backs(hands[i], hands[j], rules),
    )
    parts = np.sign(
        by_front[front[:, None], front[None, :]] + by_back[back[:, None], back[None, :]]
    )
    has_trips = np.array([t is not None for t in trips])
    ranked = [t for t in trips if t is not None]
    trip_calls = np.array(
        [[pair_beats(a, b, rules.deuces) for b in ranked] for a in ranked], dtype=np.int8
    )
    where = np.cumsum(has_trips) - 1  # row of each three of a kind among ``ranked``
    both = has_trips[:, None] & has_trips[None, :]
    one = has_trips[:, None] ^ has_trips[None, :]
    result = np.where(one, np.where(has_trips[:, None], 1, -1), parts)
    result = np.where(both, trip_calls[where[:, None], where[None, :]], result).astype(np.int8)
    result.flags.writeable = False
    return result


def outcome_matrix_by_rules(rules: RedGreenRules) -> npt.NDArray[np.int8]:
    """The same table the plain way: :func:`~baccara.games.redgreen.compare` on each of the
    455² pairs of set hands (about a second; what :func:`outcome_matrix` is proven against)."""
    hands = settings(rules)
    return np.array(
        [[_CODES[compare(red, green, rules)] for green in hands] for red in hands], dtype=np.int8
    )


@functools.cache
def _held() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp], npt.NDArray[np.int64]]:
    """Per rank hand: cards held of each rank (455, 13), and its ranks and their counts (455, 3).

    A hand with fewer than three ranks pads its rank list with its first rank held
    zero times; :func:`count_outcomes` gives padding a factor of 1.
    """
    held = np.zeros((len(RANK_HANDS), len(Rank)), dtype=np.int64)
    ranks = np.zeros((len(RANK_HANDS), HAND_SIZE), dtype=np.intp)
    times = np.zeros((len(RANK_HANDS), HAND_SIZE), dtype=np.int64)
    for row, hand in enumerate(RANK_HANDS):
        distinct = sorted(set(hand))
        for k in range(HAND_SIZE):
            rank = distinct[k] if k < len(distinct) else distinct[0]
            ranks[row, k] = rank.value - 1
            times[row, k] = hand.count(rank) if k < len(distinct) else 0
        for rank in hand:
            held[row, rank.value - 1] += 1
    return held, ranks, times


def _ways(per_rank: Sequence[int]) -> npt.NDArray[np.int64]:
    """Table ``[r, a, b]`` = C(n_r − a, b): ways to take ``b`` of rank r after ``a`` are gone."""
    table = np.zeros((len(per_rank), HAND_SIZE + 1, HAND_SIZE + 1), dtype=np.int64)
    for r, n in enumerate(per_rank):
        for a in range(HAND_SIZE + 1):
            for b in range(HAND_SIZE + 1):
                table[r, a, b] = math.comb(n - a, b) if n >= a else 0
    return table


def count_outcomes(
    rules: RedGreenRules, per_rank: Sequence[int] | None = None
) -> dict[Winner, int]:
    """Deals (Red's three cards, then Green's three) won by each side, exactly.

    ``per_rank`` overrides the shoe (cards of each rank, Ace first); by default it is
    ``rules.decks`` full decks. Green's ways after Red are its ways from the full
    shoe with the (at most three) ranks Red holds recounted:
    ∏_r C(n_r, b_r) ÷ ∏_{r∈Red} C(n_r, b_r) × ∏_{r∈Red} C(n_r − a_r, b_r), where
    the division is exact because the divisor is a factor of the dividend.
    """
    counts = tuple(cards_per_rank(rules.decks) if per_rank is None else per_rank)
    held, ranks, times = _held()
    ways = _ways(counts)
    red_ways = [
        math.prod(math.comb(counts[r], a) for r, a in enumerate(row) if a) for row in held.tolist()
    ]
    full = ways[np.arange(len(Rank)), 0, held].prod(axis=1)  # Green's ways, full shoe
    # [Red, k, Green]: Green's cards of Red's k-th rank (none for padding, so C(·, 0) = 1).
    green_held = held.T[ranks] * (times > 0)[:, :, None]
    before = ways[ranks[:, :, None], 0, green_held].prod(axis=1)
    after = ways[ranks[:, :, None], times[:, :, None], green_held].prod(axis=1)
    green = full[None, :] // np.maximum(before, 1) * after
    called = outcome_matrix(rules)
    per_red = {
        winner: np.where(called == code, green, 0).sum(axis=1).tolist()
        for code, winner in ((1, Winner.RED), (-1, Winner.GREEN))
    }
    per_red[Winner.PUSH] = (
        green.sum(axis=1) - per_red[Winner.RED] - per_red[Winner.GREEN]
    ).tolist()
    return {
        winner: sum(w * int(n) for w, n in zip(red_ways, rows, strict=True))
        for winner, rows in per_red.items()
    }


def count_by_rules(
    rules: RedGreenRules, per_rank: Sequence[int] | None = None
) -> dict[Winner, int]:
    """The plain way, as the seed describes its program: for every Red hand, every Green hand.

    Hands are rank multisets weighted by :func:`math.comb`; each pair is called by
    :func:`~baccara.games.redgreen.compare` on the house way's settings. Slow and
    obvious on purpose — it is what :func:`count_outcomes` is proven against.
    """
    counts = list(cards_per_rank(rules.decks) if per_rank is None else per_rank)
    result = dict.fromkeys(Winner, 0)
    set_hands = {hand: house_way_of_ranks(hand, rules) for hand in RANK_HANDS}
    for red_hand in RANK_HANDS:
        red_ways = 1
        for rank in set(red_hand):
            red_ways *= math.comb(counts[rank.value - 1], red_hand.count(rank))
        if red_ways == 0:
            continue
        for rank in red_hand:
            counts[rank.value - 1] -= 1
        for green_hand in RANK_HANDS:
            green_ways = 1
            for rank in set(green_hand):
                green_ways *= math.comb(max(counts[rank.value - 1], 0), green_hand.count(rank))
            if green_ways:
                winner = compare(set_hands[red_hand], set_hands[green_hand], rules)
                result[winner] += red_ways * green_ways
        for rank in red_hand:
            counts[rank.value - 1] += 1
    return result


def deals(shoe: ShoeSpec) -> int:
    """C(N, 3)·C(N − 3, 3) for a shoe of N cards (N = 52d): the analysis's sample space."""
    cards = composition(shoe).total
    return math.comb(cards, HAND_SIZE) * math.comb(cards - HAND_SIZE, HAND_SIZE)


def published_for(rules: RedGreenRules) -> Published | None:
    """The seed's figures, only when every rule that decides Red and Green is the seed's.

    Its win, push and lose are for seven decks set by its house way, its edge for a 5 %
    commission: another shoe, commission or house-way exception deals another game.

    >>> published_for(RedGreenRules.from_options(split_kings_unless="8")) is None
    True
    """
    if any(getattr(rules, name) != getattr(SEED_RULES, name) for name in PUBLISHED_UNDER):
        return None
    return PUBLISHED


def red_green_bets(
    rules: RedGreenRules, shoe: ShoeComposition | None = None
) -> tuple[BetAnalysis, ...]:
    """The Red and Green bets: win, push, lose, with the seed's figures beside them
    when the rules are the seed's (:func:`published_for`).

    ``shoe`` deals from a depleted shoe instead of ``rules.decks`` full decks (the
    seed's figures are then not shown: they are for the full shoe).
    """
    won = count_outcomes(rules, None if shoe is None else shoe.per_rank)
    total = deals(rules.decks if shoe is None else shoe)
    published = published_for(rules) if shoe is None else None

    def side(bet: Bet, wins: Winner, loses: Winner) -> BetAnalysis:
        return BetAnalysis(
            bet.value,
            (
                Outcome("win", won[wins], total, rules.winner_pays),
                Outcome("push", won[Winner.PUSH], total, Fraction(0)),
                Outcome("lose", won[loses], total, Fraction(-1)),
            ),
            published=published,
        )

    return (side(Bet.RED, Winner.RED, Winner.GREEN), side(Bet.GREEN, Winner.GREEN, Winner.RED))


def bonus_bets(
    rules: RedGreenRules, shoe: ShoeComposition | None = None
) -> tuple[BetAnalysis, ...]:
    """The Bonus side bet on the best five of the six cards, under the rules' paytable."""
    dealt_from = ShoeComposition.standard(rules.decks) if shoe is None else shoe
    return (bonus_bet(category_counts(dealt_from), rules.paytable),)


def bet_analyses(
    rules: RedGreenRules, shoe: ShoeComposition | None = None
) -> tuple[BetAnalysis, ...]:
    """Every bet — Red, Green, then the Bonus — dealt from ``shoe`` (by default a full one)."""
    return red_green_bets(rules, shoe) + bonus_bets(rules, shoe)


def analyze(game_id: str, rules: RedGreenRules) -> Analysis:
    """RedGreen and Mini RedGreen, every bet, exactly: the two versions deal the same cards."""
    return Analysis(
        game=game_id,
        options=rules_summary(rules),
        bets=bet_analyses(rules),
        sample_space=(
            f"deals of three cards to Red, then three to Green, from {plural(rules.decks, 'deck')};"
            " for the Bonus, the six-card subsets of the shoe (order does not matter to it)"
        ),
        notes=(
            f"House way: {rules.describe_house_way()}.",
            f"Bonus paytable {rules.paytable.name!r}: categories not listed lose.",
            f"Winning Red and Green bets pay {fraction_text(rules.winner_pays)} to 1 "
            f"({fraction_text(rules.commission)} % commission); payouts in cents round down.",
        ),
    )


def effect_of_removal(game_id: str, rules: RedGreenRules) -> EffectOfRemoval:
    """One card of each rank taken from the full shoe, every bet's edge after."""
    return by_rank(
        game_id,
        rules_summary(rules),
        ShoeComposition.standard(rules.decks),
        lambda shoe: bet_analyses(rules, shoe),
        (
            f"One card of each rank taken from {plural(rules.decks, 'full deck')} (a spade: the full "
            "shoe treats suits alike, so every suit gives the same edges).",
        ),
    )
