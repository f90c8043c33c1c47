"""The Lo-Ball table's worst round, counted: how often one round pays the most it can.

Every seat bets the maximum on every spot. The round that pays the most has every seat's
main wager at its best-paying outcome, 1-1 and 7-7 in seats' hands (the holders win the
Lo-Card and the Hi-Card) when those pay, and the dice on a side that pays; the dice are
rolled apart from the tiles, so their part is a factor the caller multiplies in.

The tiles' part is counted here. Which hands can make the best main outcome, and against
which dealers, is read from the rules' own ``main_outcome`` for every pair of points. At
the default pays the best is the Win-bonus — a hand of 0 points against a dealer above
0 — and a Play-bonus raised above it is 27 points against any dealer: 91 and 15 of the
3,276 hands, few enough to list the deals. Every set of ``n`` disjoint such hands is
listed once (by increasing index), kept when 1-1 and 7-7 are among them if they must
be, and multiplied by the dealer hands the tiles left allow against all of its hands
and by the ``n!`` orders of the seats. A full table takes a few seconds.

When a plain win pays as much as the best (an operator raising its pay to the bonus's),
every hand below the dealer's points makes it: thousands of hands, too many sets to
list. :func:`worst_tiles_probability` then answers ``None`` and the sheet shows a bound,
saying so.

Tests compare the count with every deal of small tile sets settled by the game's rules,
and with an ordered count of the full set's deals seat by seat.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np

from baccara.errors import BaccaraError
from baccara.exact.loball import vector_points
from baccara.exact.stakes import won_at_stake
from baccara.games.loball import (
    HAND_SIZE,
    HI_TILE,
    LO_TILE,
    MAX_POINTS,
    LoBallRules,
    MainOutcome,
    check_players,
    main_outcome,
)
from baccara.tiles import TILE_SET

ALL_TILES: tuple[int, ...] = tuple(range(len(TILE_SET)))
"""Every tile's index in :data:`~baccara.tiles.TILE_SET`: the set a round is dealt from."""

LISTED = 200
"""The most hands that can make the best main outcome for the deals to be listed (at the
default pays 91; a plain win at the bonus's pay brings thousands)."""


def best_main_outcomes(rules: LoBallRules, max_bet_cents: int) -> frozenset[MainOutcome]:
    """The main outcomes that pay the most at ``max_bet_cents``, in cents as paid; none
    when no outcome pays anything (the main wager then takes no part in the worst round)."""
    won = {o: won_at_stake(max_bet_cents, rules.main_pays(o)) for o in MainOutcome}
    top = max(won.values())
    return frozenset(o for o, cents in won.items() if cents == top) if top > 0 else frozenset()


def worst_tiles_probability(
    rules: LoBallRules, max_bet_cents: int, seats: int, in_play: tuple[int, ...] = ALL_TILES
) -> Fraction | None:
    """The probability that the tiles of one round make the worst round for ``seats``
    seats (every seat's main wager at its best pay, the Lo-Card and Hi-Card won when they
    pay), dealt from the tiles ``in_play`` (indices into ``TILE_SET``; tests use fewer).
    ``None`` when the best main outcome is a plain win, whose deals are too many to list."""
    seats = check_players(seats)
    best = best_main_outcomes(rules, max_bet_cents)
    held = won_at_stake(max_bet_cents, rules.lo_hi_pays) > 0
    return _probability(best, held, seats, tuple(sorted(set(in_play))))


@functools.cache
def _probability(
    best: frozenset[MainOutcome], held: bool, seats: int, in_play: tuple[int, ...]
) -> Fraction | None:
    tiles = len(in_play)
    dealt = HAND_SIZE * (seats + 1)
    if tiles < dealt:
        raise BaccaraError(f"{tiles} tiles cannot deal a dealer and {seats} seats")
    deals = math.perm(tiles, dealt) // math.factorial(HAND_SIZE) ** (seats + 1)
    decisive = _bits(in_play, (LO_TILE, HI_TILE)) if held else 0
    if held and bin(decisive).count("1") < 2:
        return Fraction(0)  # a set without 1-1 or 7-7 never pays the Lo-Card or Hi-Card
    if not best:  # only 1-1 and 7-7 matter: both among the seats' 3n positions of m
        k = bin(decisive).count("1")
        return Fraction(math.comb(HAND_SIZE * seats, k), math.comb(tiles, k))
    against = _dealers(best)  # each seat's points → the dealer's points it makes the best
    hands = _hands(in_play)
    chosen = [(mask, p) for mask, p in hands if against[p]]
    if len(chosen) > LISTED:
        return None
    sets: Counter[tuple[int, frozenset[int]]] = Counter()
    _disjoint_sets(chosen, seats, sets)
    every = sum(1 << i for i in in_play)
    refused: dict[frozenset[int], list[int]] = {}  # dealer hands some seat's points lose to
    good = 0
    for (used, seen), count in sets.items():
        if used & decisive != decisive:
            continue
        if seen not in refused:
            allowed = frozenset.intersection(*(against[p] for p in seen))
            refused[seen] = [mask for mask, d in hands if d not in allowed]
        left = every & ~used
        dealers = math.comb(bin(left).count("1"), HAND_SIZE)
        dealers -= sum(1 for mask in refused[seen] if mask & left == mask)
        good += count * dealers
    return Fraction(good * math.factorial(seats), deals)


def _dealers(best: frozenset[MainOutcome]) -> dict[int, frozenset[int]]:
    """For each seat's points, the dealer's points against which its main wager ends in
    ``best``, by the rules' ``main_outcome``: {0: 1…27} for the Win-bonus, {27: 0…27} for
    the Play-bonus, empty for points that never make it."""
    values = range(MAX_POINTS + 1)
    return {p: frozenset(d for d in values if main_outcome(d, p) in best) for p in values}


def _bits(in_play: tuple[int, ...], tiles: tuple[object, ...]) -> int:
    """The tiles among ``in_play`` as bits of their indices."""
    return sum(1 << i for i in in_play if TILE_SET[i] in tiles)


@functools.cache
def _hands(in_play: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Every hand of the tiles in play as (bits, points)."""
    combos = list(itertools.combinations(in_play, HAND_SIZE))
    scored = vector_points(np.array(combos, dtype=np.intp)).tolist()
    return tuple((sum(1 << i for i in hand), p) for hand, p in zip(combos, scored, strict=True))


def _disjoint_sets(
    hands: list[tuple[int, int]], size: int, found: Counter[tuple[int, frozenset[int]]]
) -> None:
    """Tally every set of ``size`` pairwise disjoint ``hands`` by the tiles it uses and
    the points its hands score."""

    def extend(start: int, left: int, used: int, seen: frozenset[int]) -> None:
        if left == 0:
            found[used, seen] += 1
            return
        for i in range(start, len(hands) - left + 1):
            mask, p = hands[i]
            if not mask & used:
                extend(i + 1, left - 1, used | mask, seen | {p})

    extend(0, size, 0, frozenset())
