"""Lo-Ball's worst round counted (exact/loball_worst.py), against every deal of small tile
sets settled by the game's own rules: the deals that pay every seat's best main outcome,
the Lo-Card and the Hi-Card at once."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from fractions import Fraction

import pytest

from baccara.errors import BaccaraError
from baccara.exact.loball_worst import worst_tiles_probability
from baccara.exact.stakes import won_at_stake
from baccara.games.loball import (
    HI_TILE,
    LO_TILE,
    Bet,
    Hand,
    LoBallRules,
    MainOutcome,
    exposure_needed,
    points,
    round_from_tiles,
    settle_bet,
)
from baccara.tiles import TILE_SET, Tile

STAKE = 50_000
TILE_BETS = (Bet.MAIN, Bet.LO_CARD, Bet.HI_CARD)


def tiles(*names: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(name) for name in names)


DOUBLES = tiles("1-1", "2-2", "3-3", "4-4", "5-5", "7-7", "1-2", "2-3", "3-7", "1-3")
"""Two hands of doubles hold 1-1 and 7-7 at 0 points; the rest deal a dealer above 0."""
MATCHINGS = tiles("2-3", "4-5", "6-7", "2-5", "3-6", "4-7", "1-1", "2-2", "3-3", "1-2")
"""Two hands of 27 points (2 to 7 once each) and hands of 0 points without 7-7."""
HELD = tiles("2-3", "4-5", "6-7", "2-5", "3-6", "4-7", "1-1", "2-2", "3-3", "7-7")
"""Hands of 27 points beside 1-1 and 7-7, which no hand of 27 points can hold."""


def ordered_hands(pool: Sequence[Tile], seats: int) -> Iterator[list[tuple[Tile, ...]]]:
    """Every way to deal ``seats`` hands of three in seat order from ``pool``."""
    if seats == 0:
        yield []
        return
    for hand in itertools.combinations(pool, 3):
        rest = [t for t in pool if t not in hand]
        for others in ordered_hands(rest, seats - 1):
            yield [hand, *others]


def dealt_worst(rules: LoBallRules, pool: Sequence[Tile], seats: int) -> Fraction:
    """Of every deal of ``pool`` (dealer, then each seat), the share where the seats' main,
    Lo-Card and Hi-Card pay, settled by the rules, every spot's most at once."""
    main_best = max(won_at_stake(STAKE, rules.main_pays(o)) for o in MainOutcome)
    target = seats * max(main_best, 0) + 2 * max(won_at_stake(STAKE, rules.lo_hi_pays), 0)
    spare = [t for t in TILE_SET if t not in pool][:3]  # exposed tiles: they only push
    hits = deals = 0
    for dealer in itertools.combinations(pool, 3):
        rest = [t for t in pool if t not in dealer]
        for hands in ordered_hands(rest, seats):
            deals += 1
            from_hands = [[str(t) for t in hand] for hand in hands]
            exposed = spare if exposure_needed([Hand(h) for h in hands]) else []
            round_ = round_from_tiles([str(t) for t in dealer], from_hands, exposed, [1, 2, 3])
            paid = sum(
                max(0, settle_bet(bet, STAKE, round_, seat, rules).won)
                for seat in range(1, seats + 1)
                for bet in TILE_BETS
            )
            hits += paid == target
    assert deals == math.perm(len(pool), 3 * (seats + 1)) // 6 ** (seats + 1)
    return Fraction(hits, deals)


def indices(pool: Sequence[Tile]) -> tuple[int, ...]:
    return tuple(TILE_SET.index(t) for t in pool)


CASES = [
    ("default pays", {}, DOUBLES, 1),
    ("default pays", {}, DOUBLES, 2),
    ("a 27-point Play-bonus above the Win-bonus, no Lo/Hi pay", {"play_bonus_pays": "5",
     "lo_hi_pays": "0"}, MATCHINGS, 2),
    ("Play-bonus and Win-bonus paying alike", {"play_bonus_pays": "5/2", "lo_hi_pays": "0"},
     MATCHINGS, 2),
    ("a Play-bonus that cannot hold 1-1", {"play_bonus_pays": "5"}, HELD, 1),
    ("a Play-bonus that cannot hold 1-1, two seats", {"play_bonus_pays": "5"}, HELD, 2),
    ("no main pay: only where 1-1 and 7-7 lie", {"win_pays": "0", "win_bonus_pays": "0",
     "play_bonus_pays": "1"}, DOUBLES, 2),
]  # fmt: skip


@pytest.mark.parametrize(("why", "options", "pool", "seats"), CASES)
def test_the_count_is_every_deal_of_a_small_set_settled_by_the_rules(
    why: str, options: dict[str, str], pool: tuple[Tile, ...], seats: int
) -> None:
    rules = LoBallRules.from_options(**options)
    counted = worst_tiles_probability(rules, STAKE, seats, indices(pool))
    assert counted == dealt_worst(rules, pool, seats), why


def test_the_small_sets_reach_the_worst_round_where_the_case_says() -> None:
    """The brute-force cases are not vacuous: most have deals making the worst round."""
    found = [
        worst_tiles_probability(LoBallRules.from_options(**o), STAKE, n, indices(pool))
        for _why, o, pool, n in CASES
    ]
    assert [p is not None and p > 0 for p in found] == [True, True, True, True, False, False, True]


def test_one_seat_holding_1_1_and_7_7_at_0_points_counted_by_hand() -> None:
    """One seat: its hand is 1-1, 7-7 and a double, or 1-1, 7-7, 1-7 (six hands of 0
    points); the dealer any of the 25 tiles left's hands above 0 points."""
    holding = [h for h in itertools.combinations(TILE_SET, 3)
               if LO_TILE in h and HI_TILE in h and points(h) == 0]  # fmt: skip
    assert len(holding) == 6
    good = 0
    for hand in holding:
        left = [t for t in TILE_SET if t not in hand]
        good += sum(1 for d in itertools.combinations(left, 3) if points(d) > 0)
    expected = Fraction(good, math.comb(28, 3) * math.comb(25, 3))
    assert worst_tiles_probability(LoBallRules(), STAKE, 1) == expected


def test_a_plain_win_paying_as_much_as_the_bonus_is_not_counted() -> None:
    rules = LoBallRules.from_options(win_pays="3/2")
    assert worst_tiles_probability(rules, STAKE, 3) is None


def test_a_full_table_is_counted_and_rarer_with_every_seat() -> None:
    found = [worst_tiles_probability(LoBallRules(), STAKE, n) for n in range(1, 8)]
    assert all(p is not None and p > 0 for p in found)
    assert all(a > b for a, b in itertools.pairwise(found))  # type: ignore[operator]


def ordered_count(seats: int) -> Fraction:
    """The worst round's tiles under the default pays, counted seat by seat in order: the
    dealer, then seat 1's hand, seat 2's… each of 0 points from the tiles left (memoised
    on the tiles used), the last leaving 1-1 and 7-7 held and a dealer above 0 points —
    every ordered deal once, no factor for the seats' order."""
    index = {t: i for i, t in enumerate(TILE_SET)}
    zero = [sum(1 << index[t] for t in h) for h in itertools.combinations(TILE_SET, 3)
            if points(h) == 0]  # fmt: skip
    held = (1 << index[LO_TILE]) | (1 << index[HI_TILE])
    every = (1 << len(TILE_SET)) - 1

    @functools.cache
    def deals(used: int, left: int) -> int:
        if left == 0:
            if used & held != held:
                return 0
            rest = every & ~used
            return math.comb(rest.bit_count(), 3) - sum(1 for h in zero if h & rest == h)
        return sum(deals(used | h, left - 1) for h in zero if not h & used)

    total = math.prod(math.comb(28 - 3 * k, 3) for k in range(seats + 1))
    return Fraction(deals(0, seats), total)


@pytest.mark.parametrize("seats", range(1, 5))
def test_the_count_is_the_full_sets_ordered_deals(seats: int) -> None:
    """The set-by-set count times n! seat orders equals every ordered deal counted."""
    assert worst_tiles_probability(LoBallRules(), STAKE, seats) == ordered_count(seats)


@pytest.mark.slow  # about ten seconds: make test runs it
@pytest.mark.parametrize("seats", range(5, 8))
def test_the_count_is_the_full_sets_ordered_deals_up_to_a_full_table(seats: int) -> None:
    assert worst_tiles_probability(LoBallRules(), STAKE, seats) == ordered_count(seats)


def test_the_full_tables_figure_the_sheet_prints() -> None:
    """Seven seats: 183/59,550,923,432,000 of the tiles' deals (the ordered count above
    agrees), times 210/216 for the dice: 1 in 334,712,450,203 rounds, as docs say."""
    tiles_part = worst_tiles_probability(LoBallRules(), STAKE, 7)
    assert tiles_part == Fraction(183, 59_550_923_432_000)
    assert f"{float(1 / (tiles_part * Fraction(210, 216))):,.0f}" == "334,712,450,203"


def test_too_few_tiles_for_the_table_are_refused() -> None:
    with pytest.raises(BaccaraError, match="10 tiles cannot deal a dealer and 3 seats"):
        worst_tiles_probability(LoBallRules(), STAKE, 3, indices(DOUBLES))
