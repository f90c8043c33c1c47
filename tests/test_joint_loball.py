"""Lo-Ball's round variance: the seat moments proven piece by piece and as a whole.

* Lo-Card and Hi-Card: every placement of 1-1 and 7-7 in the shuffled set, dealt through
  ``round_from_stack`` for 1 to 7 seats, gives the model's moments within a seat and
  between any two seats — so the exposure rule and the table size change nothing;
* main × main between seats: the inclusion–exclusion count per dealer hand equals the
  direct count of disjoint pairs of seat hands, dealer by dealer;
* main × tile location: the fast table equals the plain enumeration on a smaller set;
* the whole: on sets of 10 and 12 tiles every round is dealt through the rules and the
  moments are exactly the model's;
* and Monte Carlo: rounds dealt and settled by the live rules code with several seats,
  at a fixed seed, agree with the exact mean and variance (and reject the variance that
  treats the bets as independent).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest

from baccara import analyze
from baccara.exact import joint_loball as joint
from baccara.exact.loball import main_counts
from baccara.games.loball import (
    HI_TILE,
    LO_TILE,
    MAX_PLAYERS,
    Bet,
    Hand,
    LoBallRules,
    MainOutcome,
    Round,
    deal_round,
    exposure_needed,
    main_outcome,
    points,
    round_from_stack,
    seat_main_outcome,
    settle_bet,
    tile_bet_result,
)
from baccara.money import BetResult
from baccara.randomness import SeededRandom
from baccara.tiles import TILE_SET, Tile

RULES = {
    "seed": LoBallRules(),
    "variant": LoBallRules(win_bonus_pays=Fraction(2), lo_hi_pays=Fraction(6)),
}

SMALL_SET = tuple(
    TILE_SET.index(Tile.parse(t))
    for t in ("1-1", "7-7", "1-2", "2-2", "2-3", "4-5", "6-7", "3-3", "1-7", "3-5")
)
"""Ten tiles holding 1-1 and 7-7, a 0-point hand (1-1 2-2 1-2) and a 27 (2-3 4-5 6-7)."""
LARGER_SET = tuple(sorted((*SMALL_SET, TILE_SET.index(Tile(4, 4)), TILE_SET.index(Tile(2, 6)))))


def _tile_pays(result: BetResult, rules: LoBallRules) -> Fraction:
    return {BetResult.WIN: rules.lo_hi_pays, BetResult.PUSH: Fraction(0)}.get(result, Fraction(-1))


def _seat_results(round_: Round, seat: int, rules: LoBallRules) -> tuple[Fraction, ...]:
    """(main, lo-card, hi-card) per unit staked, called by the rules."""
    return (
        rules.main_pays(seat_main_outcome(round_, seat)),
        _tile_pays(tile_bet_result(round_, seat, LO_TILE), rules),
        _tile_pays(tile_bet_result(round_, seat, HI_TILE), rules),
    )


class _Moments:
    """How often each (seat 1's results, seat 2's results) came up; the moments at the end."""

    def __init__(self) -> None:
        self.seen: Counter[tuple[tuple[Fraction, ...], tuple[Fraction, ...] | None]] = Counter()

    def add(self, mine: tuple[Fraction, ...], other: tuple[Fraction, ...] | None) -> None:
        self.seen[(mine, other)] += 1

    @property
    def rounds(self) -> int:
        return sum(self.seen.values())

    def mean(self) -> list[Fraction]:
        return [
            sum((n * mine[k] for (mine, _), n in self.seen.items()), Fraction(0)) / self.rounds
            for k in range(3)
        ]

    def second(self, across: bool) -> list[list[Fraction]]:
        def product(
            mine: tuple[Fraction, ...], other: tuple[Fraction, ...] | None, k: int, j: int
        ) -> Fraction:
            partner = other if across else mine
            assert partner is not None
            return mine[k] * partner[j]

        return [
            [
                sum(
                    (n * product(mine, other, k, j) for (mine, other), n in self.seen.items()),
                    Fraction(0),
                )
                / self.rounds
                for j in range(3)
            ]
            for k in range(3)
        ]


# --- Lo-Card and Hi-Card: all 28·27 placements, any table size -------------------------------


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_every_placement_of_1_1_and_7_7_for_every_table_size(rules: LoBallRules) -> None:
    """The other 26 tiles cannot change a tile bet, so the 756 placements of 1-1 and 7-7
    (each standing for 26! orderings) are the whole sample space of the tile bets. For
    every n and every pair of seats the moments are the model's, which do not know n."""
    model = joint.seat_moments(rules)
    others = [t for t in TILE_SET if t not in (LO_TILE, HI_TILE)]
    for players in range(1, MAX_PLAYERS + 1):
        seen: Counter[Placed] = Counter()
        for lo_at, hi_at in itertools.permutations(range(len(TILE_SET)), 2):
            stack: list[Tile | None] = [None] * len(TILE_SET)
            stack[lo_at], stack[hi_at] = LO_TILE, HI_TILE
            rest = iter(others)
            filled = [t if t is not None else next(rest) for t in stack]
            round_ = round_from_stack(filled, players, (1, 2, 3))
            seen[tuple(_seat_results(round_, s, rules)[1:] for s in range(1, players + 1))] += 1
        assert sum(seen.values()) == 28 * 27
        for k in (0, 1):
            assert _expected(seen, lambda r, k=k: r[0][k]) == model.mean[k + 1]
        for i, j in itertools.product(range(players), repeat=2):
            expected = model.within if i == j else model.across
            for k, m in itertools.product((0, 1), repeat=2):
                moment = _expected(seen, lambda r, i=i, j=j, k=k, m=m: r[i][k] * r[j][m])
                assert moment == expected[k + 1][m + 1], (players, i, j, k, m)


Placed = tuple[tuple[Fraction, Fraction], ...]
"""Every seat's (Lo-Card, Hi-Card) results for one placement of 1-1 and 7-7."""


def _expected(seen: Counter[Placed], value: Callable[[Placed], Fraction]) -> Fraction:
    total = sum(seen.values())
    return sum((n * value(results) for results, n in seen.items()), Fraction(0)) / total


# --- main × main between two seats ---------------------------------------------------------


def test_pair_counts_equal_the_direct_count_dealer_by_dealer() -> None:
    """For 17 dealer hands spread over the 3,276: every pair of hands avoiding the dealer
    is tested for disjointness and counted by the two outcomes, in plain integers."""
    counts = joint.main_pair_counts_by_dealer()
    hands = list(itertools.combinations(TILE_SET, 3))
    pts = np.array([points(h) for h in hands])
    masks = np.array([sum(1 << TILE_SET.index(t) for t in h) for h in hands])
    codes = np.array(
        [[list(MainOutcome).index(main_outcome(d, q)) for q in range(28)] for d in range(28)]
    )
    for d in range(0, len(hands), 199):
        seats = np.nonzero((masks & masks[d]) == 0)[0]
        disjoint = ((masks[seats, None] & masks[None, seats]) == 0).astype(np.float64)
        one_hot = np.eye(4)[codes[pts[d], pts[seats]]]
        # Whole numbers below 2300² ≪ 2⁵³: the floating-point product is exact.
        assert (one_hot.T @ disjoint @ one_hot == counts[d]).all(), hands[d]


def test_pair_counts_add_up_to_the_analysis() -> None:
    """Summing out the second seat leaves the analysis's main counts times the C(22,3)
    hands the second seat can hold; the table is symmetric."""
    pairs = joint.main_pair_counts()
    single = main_counts()
    for a, outcome in enumerate(joint.OUTCOMES):
        assert sum(pairs[a]) == single[outcome] * math.comb(22, 3)
        assert all(pairs[a][b] == pairs[b][a] for b in range(4))
    assert sum(map(sum, pairs)) == math.comb(28, 3) * math.comb(25, 3) * math.comb(22, 3)


# --- main × where 1-1 (7-7) lies -----------------------------------------------------------


@pytest.mark.parametrize("tile", [LO_TILE, HI_TILE], ids=str)
def test_main_by_tile_location_equals_the_plain_count(tile: Tile) -> None:
    in_play = tuple(sorted((*LARGER_SET, 9, 14)))  # 14 tiles
    tiles = [TILE_SET[i] for i in in_play]
    plain = {o: dict.fromkeys(joint.LOCATIONS, 0) for o in joint.OUTCOMES}
    for dealer in itertools.combinations(tiles, 3):
        for seat in itertools.combinations([t for t in tiles if t not in dealer], 3):
            where = "seat" if tile in seat else "dealer" if tile in dealer else "neither"
            plain[main_outcome(points(dealer), points(seat))][where] += 1
    fast = joint.main_tile_counts(tile, in_play)
    assert [[plain[o][w] for w in joint.LOCATIONS] for o in joint.OUTCOMES] == [
        list(row) for row in fast
    ]


def test_main_by_tile_location_on_the_full_set() -> None:
    """1-1 is in the seat's hand of C(27,2)·C(25,3) pairs, in the dealer's of as many;
    every row adds up to the analysis's count of that outcome."""
    single = main_counts()
    for tile in (LO_TILE, HI_TILE):
        table = joint.main_tile_counts(tile)
        assert [sum(row) for row in table] == [single[o] for o in joint.OUTCOMES]
        for column in (0, 1):
            assert sum(row[column] for row in table) == math.comb(27, 2) * math.comb(25, 3)


# --- the whole, on small sets, through the rules -------------------------------------------


def _dealt_moments(in_play: tuple[int, ...], players: int, rules: LoBallRules) -> _Moments:
    """Every (dealer, seats, exposed) deal of the tiles in play, called by the rules."""
    tiles = [TILE_SET[i] for i in in_play]
    moments = _Moments()

    def deal(rest: list[Tile], hands: list[Hand]) -> None:
        if len(hands) == players + 1:
            for exposed in itertools.combinations(rest, 3):
                seats = tuple(hands[1:])
                shown = exposed if exposure_needed(seats) else ()
                round_ = Round(hands[0], seats, shown, (1, 2, 3))
                results = [_seat_results(round_, s, rules) for s in range(1, players + 1)]
                moments.add(results[0], results[1] if players > 1 else None)
            return
        for hand in itertools.combinations(rest, 3):
            deal([t for t in rest if t not in hand], [*hands, Hand(hand)])

    deal(tiles, [])
    return moments


def _assert_model(moments: _Moments, in_play: tuple[int, ...], rules: LoBallRules) -> None:
    model = joint.seat_moments(rules, in_play)
    assert moments.mean() == list(model.mean)
    assert moments.second(across=False) == [list(row) for row in model.within]
    if any(other is not None for _, other in moments.seen):
        assert moments.second(across=True) == [list(row) for row in model.across]


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_one_seat_on_ten_tiles_through_the_rules(rules: LoBallRules) -> None:
    moments = _dealt_moments(SMALL_SET, 1, rules)
    assert moments.rounds == math.comb(10, 3) * math.comb(7, 3) * math.comb(4, 3)
    _assert_model(moments, SMALL_SET, rules)


@pytest.mark.slow
def test_two_seats_on_twelve_tiles_through_the_rules() -> None:
    rules = RULES["variant"]
    moments = _dealt_moments(LARGER_SET, 2, rules)
    assert moments.rounds == math.comb(12, 3) * math.comb(9, 3) * math.comb(6, 3)
    _assert_model(moments, LARGER_SET, rules)


# --- the dice -------------------------------------------------------------------------------


def test_dice_lo_and_hi_together_lose_only_on_a_triple() -> None:
    """One unit on each: a total of 4–10 or 11–17 pays one and takes the other; a triple
    takes both. The house wins 2 with probability 6/216, else 0."""
    rules = LoBallRules()
    model = joint.round_model(rules)
    both = [(1, "dice-lo", 1), (2, "dice-hi", 1)]
    p = Fraction(6, 216)
    assert model.house_mean(both) == 2 * p
    assert model.house_variance(both) == 4 * p - (2 * p) ** 2


def test_the_seat_diagonal_is_the_analysis() -> None:
    analysis = analyze("lo-ball")
    for rules in RULES.values():
        moments = joint.seat_moments(rules)
        a = moments.covariance(across=False)
        options = {"win_bonus_pays": rules.win_bonus_pays, "lo_hi_pays": rules.lo_hi_pays}
        analysis = analyze("lo-ball", **options)
        for k, bet in enumerate(joint.SEAT_BETS):
            assert a[k][k] == analysis.bet(bet.value).variance
            assert -moments.mean[k] == analysis.bet(bet.value).house_edge


# --- Monte Carlo through the live rules -----------------------------------------------------

TABLES = {
    "five seats, every bet": [
        (1, "main", 200), (2, "main", 200), (3, "main", 200), (4, "main", 200), (5, "main", 100),
        (1, "lo-card", 100), (3, "lo-card", 100), (2, "hi-card", 100), (5, "hi-card", 60),
        (2, "dice-lo", 100), (4, "dice-hi", 40),
    ],
    "seven seats on main and both cards": [
        (seat, bet, stake)
        for seat in range(1, 8)
        for bet, stake in (("main", 200), ("lo-card", 30), ("hi-card", 30))
    ],
}  # fmt: skip
"""Stakes in even cents: 3:2 and every other pay are whole cents, so nothing is rounded."""


@pytest.mark.slow
@pytest.mark.parametrize("wagers", TABLES.values(), ids=TABLES.keys())
def test_monte_carlo_through_the_live_rules(wagers: list[tuple[int, str, int]]) -> None:
    """40,000 rounds dealt by ``deal_round`` and settled by ``settle_bet`` at seed 2024.

    The sample variance's standard error comes from the sample's fourth moment. At this
    seed the exact variance lies 0.08 and 0.31 of them from the sample's and the exact
    mean 0.75 and 0.73 standard errors from the sample mean; the test allows 4 (a fixed
    seed: it cannot fail by chance). The variance of the same bets taken as independent
    — Σ stake² × var — lies 60 and 134 standard errors away (it must be over 10), so the
    check has the power to tell them apart.
    """
    rules = LoBallRules()
    seats = sorted({seat for seat, _, _ in wagers})
    index = {seat: i for i, seat in enumerate(seats, 1)}
    rng = SeededRandom(2024)
    rounds = 40_000
    wins = []
    for _ in range(rounds):
        round_ = deal_round(rng, len(seats))
        wins.append(
            sum(
                stake - settle_bet(Bet(spot), stake, round_, index[seat], rules).returned
                for seat, spot, stake in wagers
            )
        )
    model = joint.round_model(rules)
    mean = sum(wins) / rounds
    variance = sum((w - mean) ** 2 for w in wins) / (rounds - 1)
    fourth = sum((w - mean) ** 4 for w in wins) / rounds
    error = math.sqrt((fourth - variance**2) / rounds)
    assert abs(mean - float(model.house_mean(wagers))) < 4 * math.sqrt(variance / rounds)
    assert abs(variance - float(model.house_variance(wagers))) < 4 * error
    analysis = analyze("lo-ball")
    independent = sum(stake**2 * float(analysis.bet(spot).variance) for _, spot, stake in wagers)
    assert abs(variance - independent) > 10 * error
