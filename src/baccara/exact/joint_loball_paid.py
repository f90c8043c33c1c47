"""A Lo-Ball round as it is paid: every wager's payout rounded down to the cent on its own.

:mod:`baccara.exact.joint_loball` takes each seat's results per unit, ``Y_i = (main,
lo-card, hi-card)``, and each wager as its stake times them. Settled in cents, a wager
of ``s`` on an outcome paying ``p`` wins ``⌊s·p⌋`` (:mod:`baccara.exact.stakes`): 3:2
on 1.01 pays 1.51, not 1.515. That is no longer linear in the stake, but it is still a
fixed number of cents for each outcome. So a seat is described here by the
*indicators* of its outcomes,

    F_i = (main: win-bonus, win, play-bonus, lose; lo-card: win, push, lose;
           hi-card: win, push, lose),

and its wagers by the cents they are paid on each, ``c_i`` (integers). The house wins
``W = −Σ_i c_iᵀ F_i`` (and the dice's part), and with ``A`` the covariance matrix of
``F_i`` within a seat and ``B`` between two seats,

    Var W_tiles = Σ_i c_iᵀ (A − B) c_i + Cᵀ B C,      C = Σ_i c_i,

the same algebra as the per-unit model, on a 10 × 10 form that does not depend on the
rules at all (only on the tiles). The per-unit model is its special case ``c_i = s·pays``;
the tests prove the two equal there, and the per-unit moments equal to the indicator
moments contracted with the pays. The dice are three cells (Dice-Lo wins, Dice-Hi
wins, a triple), each wager paid on its own in each.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from baccara.exact import joint_loball
from baccara.exact.joint_loball import (
    ALL_TILES,
    DICE_BETS,
    LOCATIONS,
    OUTCOMES,
    SEAT_BETS,
    LoBallModel,
    main_pair_counts,
    main_pair_totals,
    main_tile_counts,
    wager_seat,
)
from baccara.exact.joint_model import ExactForm, Wager, cell_moments, paid_by_cell
from baccara.exact.stakes import whole_cents, won_at_stake
from baccara.games.loball import (
    DICE,
    EXPOSED,
    HAND_SIZE,
    HI_TILE,
    LO_TILE,
    LoBallRules,
    dice_result,
)
from baccara.money import BetResult
from baccara.tiles import Tile

TILE_RESULTS = ("win", "push", "lose")
"""How a Lo-Card or Hi-Card bet ends, in the order of its indicators."""

FEATURES = len(OUTCOMES) + 2 * len(TILE_RESULTS)
"""Indicators of one seat: the main wager's four outcomes, then each tile bet's three."""

_MAIN = range(len(OUTCOMES))
_TILE_OFFSET = {LO_TILE: len(OUTCOMES), HI_TILE: len(OUTCOMES) + len(TILE_RESULTS)}

Matrix = list[list[Fraction]]


def _result(place: str, owner: str) -> str:
    """A tile bet of ``owner`` when its tile lies in ``place``."""
    if place == owner:
        return "win"
    return "push" if place == "exposed" else "lose"


def _one_tile(sizes: dict[str, int], owners: tuple[str, str]) -> Matrix:
    """P(first bet ends k, second ends l) when both read one tile's uniform position."""
    total = sum(sizes.values())
    joint = [[Fraction(0)] * 3 for _ in range(3)]
    for place, n in sizes.items():
        k = TILE_RESULTS.index(_result(place, owners[0]))
        j = TILE_RESULTS.index(_result(place, owners[1]))
        joint[k][j] += Fraction(n, total)
    return joint


def _two_tiles(sizes: dict[str, int], owners: tuple[str, str]) -> Matrix:
    """The same for two different tiles (1-1 and 7-7): two distinct uniform positions."""
    total = sum(sizes.values())
    joint = [[Fraction(0)] * 3 for _ in range(3)]
    for (place_x, n_x), (place_y, n_y) in itertools.product(sizes.items(), repeat=2):
        ways = n_x * (n_y - (place_x == place_y))
        k = TILE_RESULTS.index(_result(place_x, owners[0]))
        j = TILE_RESULTS.index(_result(place_y, owners[1]))
        joint[k][j] += Fraction(ways, total * (total - 1))
    return joint


def _main_by_tile(
    tile: Tile, given: Sequence[Sequence[Fraction]], in_play: tuple[int, ...]
) -> Matrix:
    """P(main ends a, tile bet ends k), from where ``tile`` lies against the seat and the
    dealer; ``given[loc][k]`` is P(tile bet ends k | the tile lies in ``LOCATIONS[loc]``)."""
    counts = main_tile_counts(tile, in_play)
    total = sum(map(sum, counts))
    return [
        [
            sum((Fraction(n, total) * given[loc][k] for loc, n in enumerate(row)), Fraction(0))
            for k in range(3)
        ]
        for row in counts
    ]


@dataclass(frozen=True)
class FeatureMoments:
    """E[F_i], E[F_i F_iᵀ] (one seat) and E[F_i F_jᵀ] (two seats i ≠ j), exactly."""

    mean: tuple[Fraction, ...]
    within: tuple[tuple[Fraction, ...], ...]
    across: tuple[tuple[Fraction, ...], ...]

    def covariance(self, across: bool) -> tuple[tuple[Fraction, ...], ...]:
        second = self.across if across else self.within
        return tuple(
            tuple(second[k][j] - self.mean[k] * self.mean[j] for j in range(FEATURES))
            for k in range(FEATURES)
        )


def _place(matrix: Matrix, rows: range | Sequence[int], columns: range | Sequence[int],
           block: Matrix) -> None:  # fmt: skip
    for r, row in zip(rows, block, strict=True):
        for c, value in zip(columns, row, strict=True):
            matrix[r][c] = value


@functools.cache
def feature_moments(in_play: tuple[int, ...] = ALL_TILES) -> FeatureMoments:
    """The moments of one seat's outcome indicators, and of two seats', over ``in_play``.

    The same counts as :func:`~baccara.exact.joint_loball.seat_moments`, kept apart by
    outcome instead of weighted by the pays: they need m ≥ 12 tiles for two seats.
    """
    m = len(in_play)
    pairs = main_pair_totals(in_play)
    main_p = [Fraction(n, sum(pairs)) for n in pairs]
    tile_p = [Fraction(HAND_SIZE, m), Fraction(EXPOSED, m), Fraction(m - 6, m)]
    lo = range(_TILE_OFFSET[LO_TILE], _TILE_OFFSET[LO_TILE] + 3)
    hi = range(_TILE_OFFSET[HI_TILE], _TILE_OFFSET[HI_TILE] + 3)
    zero = Fraction(0)

    # Given where the tile lies (the seat's hand, the dealer's, neither), the seat's own
    # tile bet, and another seat's: in neither, m − 6 positions, 3 exposed, 3 the other's.
    rest = m - 6
    own = [[Fraction(1), zero, zero], [zero, zero, Fraction(1)],
           [zero, Fraction(3, rest), Fraction(rest - 3, rest)]]  # fmt: skip
    other = [[zero, zero, Fraction(1)], [zero, zero, Fraction(1)],
             [Fraction(3, rest), Fraction(3, rest), Fraction(rest - 6, rest)]]  # fmt: skip
    assert LOCATIONS == ("seat", "dealer", "neither")

    within: Matrix = [[zero] * FEATURES for _ in range(FEATURES)]
    across: Matrix = [[zero] * FEATURES for _ in range(FEATURES)]
    for a in _MAIN:
        within[a][a] = main_p[a]
    for block in (lo, hi):
        for k, p in zip(block, tile_p, strict=True):
            within[k][k] = p
    one = {"seat": HAND_SIZE, "exposed": EXPOSED, "other": m - 6}
    lo_hi = _two_tiles(one, ("seat", "seat"))
    _place(within, lo, hi, lo_hi)
    _place(within, hi, lo, [list(r) for r in zip(*lo_hi, strict=True)])

    two = {"i": HAND_SIZE, "j": HAND_SIZE, "exposed": EXPOSED, "other": m - 9}
    same = _one_tile(two, ("i", "j"))
    apart = _two_tiles(two, ("i", "j"))
    _place(across, lo, lo, same)
    _place(across, hi, hi, same)
    _place(across, lo, hi, apart)
    _place(across, hi, lo, apart)
    cross = main_pair_counts(in_play)
    cross_total = sum(map(sum, cross))
    _place(across, _MAIN, _MAIN, [[Fraction(n, cross_total) for n in row] for row in cross])

    for tile, block in ((LO_TILE, lo), (HI_TILE, hi)):
        for matrix, given in ((within, own), (across, other)):
            main_tile = _main_by_tile(tile, given, in_play)
            _place(matrix, _MAIN, block, main_tile)
            _place(matrix, block, _MAIN, [list(r) for r in zip(*main_tile, strict=True)])
    mean = (*main_p, *tile_p, *tile_p)
    return FeatureMoments(mean, tuple(map(tuple, within)), tuple(map(tuple, across)))


@dataclass(frozen=True)
class PaidForms:
    """``A − B`` and ``B`` of the indicators, as exact integer forms with their means."""

    apart: ExactForm
    shared: ExactForm


@functools.cache
def paid_forms(in_play: tuple[int, ...] = ALL_TILES) -> PaidForms:
    moments = feature_moments(in_play)
    a, b = moments.covariance(across=False), moments.covariance(across=True)
    apart = [[a[k][j] - b[k][j] for j in range(FEATURES)] for k in range(FEATURES)]
    return PaidForms(ExactForm.of(moments.mean, apart), ExactForm.of(moments.mean, b))


def seat_cents(rules: LoBallRules, stakes: Sequence[Sequence[int]]) -> list[int]:
    """``c_i``: what a seat's wagers are paid, in cents, on each of its outcome indicators.

    ``stakes`` lists the seat's wagers on main, Lo-Card and Hi-Card (in
    :data:`~baccara.exact.joint_loball.SEAT_BETS` order), each settled on its own.
    """
    main, *tiles = stakes
    cents = [sum(won_at_stake(s, rules.main_pays(o)) for s in main) for o in OUTCOMES]
    tile_pays = (rules.lo_hi_pays, Fraction(0), Fraction(-1))
    for on_tile in tiles:
        cents += [sum(won_at_stake(s, pay) for s in on_tile) for pay in tile_pays]
    return cents


@functools.cache
def dice_cells(rules: LoBallRules) -> tuple[tuple[int, ...], tuple[tuple[Fraction, ...], ...]]:
    """The 216 rolls by what (Dice-Lo, Dice-Hi) pay on them: counts, and the pays."""
    pays = {BetResult.WIN: rules.dice_pays, BetResult.LOSE: Fraction(-1)}
    cells = Counter(
        tuple(pays[dice_result(bet, roll)] for bet in DICE_BETS)
        for roll in itertools.product(range(1, 7), repeat=DICE)
    )
    return tuple(cells.values()), tuple(cells)


def paid_moments(
    rules: LoBallRules,
    seats: dict[int, list[list[int]]],
    dice: Sequence[Sequence[int]],
    forms: PaidForms | None = None,
) -> tuple[Fraction, Fraction]:
    """The house's mean win and its variance, in cents, as paid.

    ``seats`` gives each seat's wagers on (main, Lo-Card, Hi-Card), ``dice`` the table's
    wagers on (Dice-Lo, Dice-Hi), every list the stakes of single wagers.
    """
    forms = paid_forms() if forms is None else forms
    per_seat = [seat_cents(rules, stakes) for stakes in seats.values()]
    table = [sum(column) for column in zip(*per_seat, strict=True)] or [0] * FEATURES
    apart = sum(forms.apart.quadratic(c) for c in per_seat)
    tiles_variance = Fraction(apart, forms.apart.covariance_denominator) + forms.shared.variance(
        table
    )
    counts, pays = dice_cells(rules)
    dice_mean, dice_variance = cell_moments(counts, paid_by_cell(pays, dice))
    mean = forms.shared.expected(table) + dice_mean
    return -mean, tiles_variance + dice_variance


SEAT_SPOTS = tuple(bet.value for bet in SEAT_BETS)
DICE_SPOTS = tuple(bet.value for bet in DICE_BETS)


@dataclass(frozen=True)
class PaidLoBallModel:
    """Every Lo-Ball round under ``rules``: the per-unit model (:class:`LoBallModel`) and
    the round as paid. Where every payout of the round's wagers is whole cents — stakes
    on the table's step — the paid figures are the per-unit model's, and come from it."""

    per_unit: LoBallModel
    rules: LoBallRules

    def house_mean(self, wagers: Sequence[Wager]) -> Fraction:
        return self.per_unit.house_mean(wagers)

    def house_variance(self, wagers: Sequence[Wager]) -> Fraction:
        return self.per_unit.house_variance(wagers)

    def _paid(self, wagers: Sequence[Wager]) -> tuple[Fraction, Fraction] | None:
        """Mean and variance as paid, or ``None`` when nothing rounds."""
        seated = [(wager_seat(seat), spot, stake) for seat, spot, stake in wagers]
        rules = self.rules
        tile = [rules.lo_hi_pays]
        pays = {
            "main": [rules.main_pays(o) for o in OUTCOMES], "lo-card": tile, "hi-card": tile,
            "dice-lo": [rules.dice_pays], "dice-hi": [rules.dice_pays],
        }  # fmt: skip
        if all(whole_cents(stake, pays[spot]) for _, spot, stake in seated):
            return None
        seats: dict[int, list[list[int]]] = {}
        dice: list[list[int]] = [[] for _ in DICE_SPOTS]
        for seat, spot, stake in seated:
            if spot in DICE_SPOTS:
                dice[DICE_SPOTS.index(spot)].append(stake)
            else:
                own = seats.setdefault(seat, [[] for _ in SEAT_SPOTS])
                own[SEAT_SPOTS.index(spot)].append(stake)
        return paid_moments(rules, seats, dice)

    def paid_mean(self, wagers: Sequence[Wager]) -> Fraction:
        paid = self._paid(wagers)
        return self.house_mean(wagers) if paid is None else paid[0]

    def paid_variance(self, wagers: Sequence[Wager]) -> Fraction:
        paid = self._paid(wagers)
        return self.house_variance(wagers) if paid is None else paid[1]


@functools.lru_cache(maxsize=32)
def round_model(rules: LoBallRules) -> PaidLoBallModel:
    """Every Lo-Ball round under ``rules``, per unit and as paid (the registry's model)."""
    return PaidLoBallModel(joint_loball.round_model(rules), rules)
