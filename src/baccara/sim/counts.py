"""What a card count is worth: a count built from the exact effects of removal, played
through a continuous shoe by the real rules.

A counter gives each rank a tag proportional to how removing one card of that rank
moves the bettor's expectation on the bet (the exact effect of removal, with the sign
turned to the bettor's side), rounded to whole numbers no larger than the count's
*level*. Before each round the counter knows the running count of the cards dealt
since the shuffle and how many cards are left; the *true count* is the running count,
less what an average card would have added (so unbalanced tags work too), per deck
left. Rounds are grouped by true count; betting only when it reaches a threshold T
turns into a measurable gain, or, as for most baccarat bets, shows there is none.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from baccara.cards import Rank, ShoeMode, standard_deck
from baccara.errors import InvalidBet, InvalidOption
from baccara.options import as_int
from baccara.sim.dealer import DEFAULT_PENETRATION, blocks
from baccara.sim.runs import DealerSpec

BASE_LEVEL = 3
"""The level the count's thresholds and range are written for; others scale with it."""

MIN_LEVEL, MAX_LEVEL = 1, 10
"""A count's level, its largest tag: from a one-level count to a ten-level one."""

BASE_RANGE = 10
"""At :data:`BASE_LEVEL`, true counts are grouped by their floor, clipped to ±10."""

BASE_THRESHOLDS: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 8)
"""At :data:`BASE_LEVEL`, the true counts T at which "bet only at T or more" is measured."""

CUT_CARDS_FROM_END = 15
"""Where a count study cuts the shoe unless told otherwise: real baccarat shoes place the
cut card 14 to 16 cards from the end."""


def count_range(level: int) -> int:
    """How far true counts are grouped either side of 0: tags (and so true counts) scale
    with the level, so the range does too.

    >>> count_range(3), count_range(1), count_range(10)
    (10, 10, 34)
    """
    return max(BASE_RANGE, math.ceil(BASE_RANGE * level / BASE_LEVEL))


def thresholds(level: int) -> tuple[int, ...]:
    """The thresholds T for a count of this ``level``: the base ones scaled, whole, distinct.

    >>> thresholds(3), thresholds(1), thresholds(10)
    ((0, 1, 2, 3, 4, 5, 6, 8), (0, 1, 2, 3), (0, 3, 7, 10, 13, 17, 20, 27))
    """
    scaled = (math.floor(t * level / BASE_LEVEL + Fraction(1, 2)) for t in BASE_THRESHOLDS)
    return tuple(sorted(set(scaled)))


def cut_card_penetration(decks: int) -> float:
    """The share of a ``decks``-deck shoe dealt when the cut card sits 15 cards from the end.

    >>> round(cut_card_penetration(8), 4)
    0.9639
    """
    cards = 52 * decks
    return (cards - CUT_CARDS_FROM_END) / cards


@dataclass(frozen=True)
class CountSystem:
    """Tags per rank for one bet, from the exact effects of removal."""

    bet: str
    tags: Mapping[Rank, int]
    level: int

    @classmethod
    def from_effects(
        cls, bet: str, effects: Mapping[Rank, Fraction], level: int = 3
    ) -> CountSystem:
        """Scale the bettor's side of each effect so the largest is ``level``, then round."""
        level = as_int("level", level, MIN_LEVEL, MAX_LEVEL)
        bettor = {rank: -effect for rank, effect in effects.items()}
        largest = max(abs(v) for v in bettor.values())
        if largest == 0:
            raise InvalidOption("count", f"removing a card never moves {bet!r}: nothing to count")
        tags = {rank: round(value * level / largest) for rank, value in bettor.items()}
        return cls(bet, tags, level)

    @property
    def card_tags(self) -> npt.NDArray[np.int16]:
        """Tag of each card index, in :func:`~baccara.cards.standard_deck` order."""
        return np.array([self.tags[card.rank] for card in standard_deck()], dtype=np.int16)

    @property
    def mean_tag(self) -> Fraction:
        """The average tag of a card; zero for a balanced count."""
        return Fraction(sum(self.tags[r] for r in Rank), 13)


@dataclass
class _Buckets:
    """Per true-count group (−reach … +reach): rounds, and the sum and sum of squares of
    the bet's result."""

    reach: int
    rounds: npt.NDArray[np.int64] = field(init=False)
    total: npt.NDArray[np.float64] = field(init=False)
    squares: npt.NDArray[np.float64] = field(init=False)

    def __post_init__(self) -> None:
        size = 2 * self.reach + 1
        self.rounds = np.zeros(size, np.int64)
        self.total = np.zeros(size)
        self.squares = np.zeros(size)

    def add(self, group: npt.NDArray[np.intp], result: npt.NDArray[np.float64]) -> None:
        size = 2 * self.reach + 1
        self.rounds += np.bincount(group, minlength=size)
        self.total += np.bincount(group, weights=result, minlength=size)
        self.squares += np.bincount(group, weights=result * result, minlength=size)


@dataclass(frozen=True)
class Line:
    """Betting only at true count ``threshold`` or more (``None``: every round).

    ``mean`` and ``ci95`` are ``None`` when no round reached the threshold: there is
    no mean of nothing (and JSON has no NaN).
    """

    threshold: int | None
    share: float  # of rounds dealt on which the bet is made
    mean: float | None  # bettor's result per unit bet
    ci95: tuple[float, float] | None
    per_100_rounds: float  # units won per 100 rounds dealt, betting one unit when in


@dataclass(frozen=True)
class CountReport:
    game: str
    system: CountSystem
    penetration: float
    rounds: int
    seed: int
    seconds: float
    exact_edge: Fraction
    groups: tuple[tuple[int, int, float, float], ...]  # (true count, rounds, mean, half CI)
    lines: tuple[Line, ...]
    reach: int = BASE_RANGE
    """True counts beyond ±reach are grouped with ±reach."""
    behind_cut: int = 0
    """Cards left behind the cut card, never dealt."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bet": self.system.bet,
            "tags": {rank.symbol: tag for rank, tag in self.system.tags.items()},
            "level": self.system.level,
            "penetration": self.penetration,
            "cards_behind_cut": self.behind_cut,
            "rounds": self.rounds,
            "seed": self.seed,
            "seconds": self.seconds,
            "exact_house_edge_off_the_top": float(self.exact_edge),
            "true_counts": [
                {"true_count": tc, "rounds": n, "mean": mean, "ci95_half": half}
                for tc, n, mean, half in self.groups
            ],
            "strategies": [
                {
                    "bet_at_true_count_at_least": line.threshold,
                    "share_of_rounds": line.share,
                    "mean_per_unit": line.mean,
                    "mean_ci95": None if line.ci95 is None else list(line.ci95),
                    "units_per_100_rounds": line.per_100_rounds,
                }
                for line in self.lines
            ],
        }


def _line(
    buckets: _Buckets, keep: npt.NDArray[np.bool_], dealt: int, threshold: int | None
) -> Line:
    n = int(buckets.rounds[keep].sum())
    if n == 0:
        return Line(threshold, 0.0, None, None, 0.0)
    total = float(buckets.total[keep].sum())
    mean = total / n
    variance = max(float(buckets.squares[keep].sum()) / n - mean * mean, 0.0)
    half = 1.96 * math.sqrt(variance / n)
    return Line(threshold, n / dealt, mean, (mean - half, mean + half), 100 * total / dealt)


def simulate_count(
    game: str,
    bet: str,
    rounds: int,
    seed: int,
    *,
    penetration: float | None = None,
    level: int = BASE_LEVEL,
    **options: Any,
) -> CountReport:
    """Deal ``rounds`` rounds from a continuous shoe and measure the count for ``bet``.

    ``penetration`` is the share of the shoe dealt before the cut card; by default the
    cut card sits 15 cards from the end, as in a real baccarat shoe.
    """
    from baccara.exact import analyze
    from baccara.exact.removal import effect_of_removal

    full = analyze(game, **options)
    decks = full.options.get("decks")  # a game of tiles has no shoe: its kernel says so
    if penetration is None:
        penetration = cut_card_penetration(decks) if decks else DEFAULT_PENETRATION
    spec = DealerSpec.of(game, shoe=ShoeMode.CONTINUOUS, penetration=penetration, **options)
    dealer = spec.dealer()
    if bet not in dealer.bets:
        raise InvalidBet(f"unknown bet {bet!r} for {game}; bets are: {', '.join(dealer.bets)}")
    removal = effect_of_removal(game, **options)
    effects = {rank: removal.effect(rank.symbol, bet) for rank in Rank}
    system = CountSystem.from_effects(bet, effects, level)
    column = dealer.bets.index(bet)
    analysis = full.bet(bet)
    pays = np.array([float(analysis.outcome(name).pays) for name in dealer.outcomes[column]])
    tags = system.card_tags
    mean_tag = float(system.mean_tag)
    shoe_cards = 52 * int(full.options["decks"])
    reach = count_range(system.level)
    buckets = _Buckets(reach)
    start = time.perf_counter()
    for block, _, size in blocks(rounds):
        codes = np.empty((size, len(dealer.bets)), dtype=np.int8)
        shown = np.empty((size, 2), dtype=np.int32)
        dealer.deal_block(seed, block, codes, tags, shown)
        left = shown[:, 1].astype(np.float64)
        dealt = shoe_cards - left
        true_count = (shown[:, 0] - dealt * mean_tag) / (left / 52)
        group = (np.clip(np.floor(true_count), -reach, reach) + reach).astype(np.intp)
        buckets.add(group, pays[codes[:, column]])
    seconds = time.perf_counter() - start
    counts = np.arange(-reach, reach + 1)
    groups = []
    for i, tc in enumerate(counts.tolist()):
        n = int(buckets.rounds[i])
        if n:
            mean = float(buckets.total[i]) / n
            variance = max(float(buckets.squares[i]) / n - mean * mean, 0.0)
            groups.append((tc, n, mean, 1.96 * math.sqrt(variance / n)))
    lines = [_line(buckets, np.ones_like(counts, dtype=bool), rounds, None)]
    lines += [_line(buckets, counts >= t, rounds, t) for t in thresholds(system.level)]
    return CountReport(
        game=game,
        system=system,
        penetration=spec.penetration,
        rounds=rounds,
        seed=seed,
        seconds=seconds,
        exact_edge=analysis.house_edge,
        groups=tuple(groups),
        lines=tuple(lines),
        reach=reach,
        behind_cut=shoe_cards - round(shoe_cards * spec.penetration),
    )
