"""The joint distribution of a Lo-Ball round: every seat's bets, the shared dealer and dice.

A Lo-Ball round deals the dealer's three tiles, then three to each seat with a bet
(n = 1…7, in seat order), then — unless the players hold both 1-1 and 7-7 — three
exposed tiles, all from one shuffled set; three dice are rolled apart from the tiles.
Each seat's bets are the vector ``Y_i = (main, lo-card, hi-card)`` of results per
unit, and the two dice bets are shared by the whole table. The house's win is

    W = −Σ_i t_i·Y_i − d·Z

with ``t_i`` the seat's stakes and ``d`` the table's total on Dice-Lo and Dice-Hi
(``Z`` their results). The dice never meet a tile, so the variance splits into a
dice part ``dᵀ C_dice d`` (216 rolls) and a tiles part; and because the shuffled set
deals the dealer, the seats and the exposed positions as disjoint, uniformly random
blocks, any two seats are exchangeable. So the tiles part needs just two 3 × 3
covariance matrices — ``A`` within a seat, ``B`` between two seats —

    Var tiles = Σ_i t_iᵀ A t_i + Σ_{i≠j} t_iᵀ B t_j = Σ_i t_iᵀ (A − B) t_i + Tᵀ B T,

with ``T = Σ_i t_i``.

Neither matrix depends on n. The Lo-Card bet (and the Hi-Card, with 7-7) reads one
thing, where 1-1 lies in the shuffled set: in the seat's hand it wins; among the
three positions dealt after the last seat it is exposed and pushes — the rules
expose them whenever 1-1 is not held by a player, and when they are not exposed
1-1 is held, so never there; anywhere else it loses. The exposed positions are three
positions apart from the dealer and every seat at any table size, so every
probability below is the same for 2 seats as for 7. Tests deal all 28·27 placements
of 1-1 and 7-7 through the rules for n = 1…7 and find the same moments.

The entries, over m tiles in play (28; tests use smaller sets):

* main × main between two seats: the dealer's hand D and two disjoint seat hands.
  Per D the ordered pairs of disjoint hands in the m − 3 other tiles are counted by
  outcome with the inclusion–exclusion Σ_{p₁∩p₂=∅} f(p₁)g(p₂) = Σ_S (−1)^|S| F(S)G(S)
  over tile sets S of size 0…3, F(S) the number of hands ⊇ S (avoiding D) with
  outcome f — each F(S) itself a per-tile, per-pair or per-hand histogram with D's
  tiles taken out. :func:`main_pair_counts_by_dealer`.
* main × lo-card, in one seat or across two: per (dealer hand, seat hand) pair, where
  1-1 is — the seat's hand, the dealer's, or neither; if neither it lies uniformly
  in the other m − 6 positions, 3 of them exposed and 3 another seat's.
  :func:`main_tile_counts`.
* lo-card × hi-card and lo-card × lo-card: placements of 1-1 and 7-7 in the set.
* the single bets' variances are the analysis's (tests prove the diagonal equal).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from baccara.errors import BaccaraError, InvalidBet
from baccara.exact.joint_model import ExactForm, Wager, form_from_cells
from baccara.exact.loball import vector_points
from baccara.games.loball import (
    DICE,
    EXPOSED,
    HAND_SIZE,
    HI_TILE,
    LO_TILE,
    MAX_PLAYERS,
    MAX_POINTS,
    Bet,
    LoBallRules,
    MainOutcome,
    dice_result,
    main_outcome,
)
from baccara.money import BetResult
from baccara.tiles import TILE_SET, Tile

TILES = len(TILE_SET)
POINT_VALUES = MAX_POINTS + 1
OUTCOMES: tuple[MainOutcome, ...] = tuple(MainOutcome)
ALL_TILES: tuple[int, ...] = tuple(range(TILES))

SEAT_BETS: tuple[Bet, ...] = (Bet.MAIN, Bet.LO_CARD, Bet.HI_CARD)
"""The bets that read a seat's tiles, in the order of the 3 × 3 matrices."""
DICE_BETS: tuple[Bet, ...] = (Bet.DICE_LO, Bet.DICE_HI)

LOCATIONS = ("seat", "dealer", "neither")
"""Where a decisive tile lies, for a (dealer hand, seat hand) pair."""

_NO_HAND = POINT_VALUES  # the points index of a "hand" that repeats a tile: counts nothing


@functools.cache
def _outcome_codes() -> npt.NDArray[np.intp]:
    """``codes[d, q]``: index in :data:`OUTCOMES` of a seat's main wager, dealer d points, seat q."""
    return np.array(
        [
            [OUTCOMES.index(main_outcome(d, q)) for q in range(POINT_VALUES)]
            for d in range(POINT_VALUES)
        ],
        dtype=np.intp,
    )


@functools.cache
def _indicators() -> npt.NDArray[np.int64]:
    """``ind[d, q, a]`` = 1 when dealer d and seat q make outcome a; a row of zeros for q = 28."""
    ind = np.zeros((POINT_VALUES, POINT_VALUES + 1, len(OUTCOMES)), dtype=np.int64)
    codes = _outcome_codes()
    for d in range(POINT_VALUES):
        ind[d, np.arange(POINT_VALUES), codes[d]] = 1
    return ind


@dataclass(frozen=True)
class _Hands:
    """Every three-tile hand of a set of tiles in play, with the histograms of its subsets."""

    hands: npt.NDArray[np.intp]  # (h, 3) tile indices, sorted
    points: npt.NDArray[np.intp]  # (h,)
    masks: npt.NDArray[np.int64]  # (h,) the hand's tiles as bits
    by_tile: npt.NDArray[np.int64]  # (28, 29) hands holding tile t, by points
    by_pair: npt.NDArray[np.int64]  # (28, 28, 29) hands holding tiles t and u (t ≠ u), by points
    of_triple: npt.NDArray[np.intp]  # (28, 28, 28) points of the hand {t, u, v}, else 28


@functools.cache
def _hands(in_play: tuple[int, ...]) -> _Hands:
    hands = np.array(list(itertools.combinations(in_play, HAND_SIZE)), dtype=np.intp)
    points = vector_points(hands).astype(np.intp)
    masks = (np.int64(1) << hands.astype(np.int64)).sum(axis=1)
    by_tile = np.zeros((TILES, POINT_VALUES + 1), dtype=np.int64)
    by_pair = np.zeros((TILES, TILES, POINT_VALUES + 1), dtype=np.int64)
    of_triple = np.full((TILES,) * 3, _NO_HAND, dtype=np.intp)
    for column in range(HAND_SIZE):
        np.add.at(by_tile, (hands[:, column], points), 1)
    for a, b in itertools.permutations(range(HAND_SIZE), 2):
        np.add.at(by_pair, (hands[:, a], hands[:, b], points), 1)
    for order in itertools.permutations(range(HAND_SIZE)):
        of_triple[hands[:, order[0]], hands[:, order[1]], hands[:, order[2]]] = points
    return _Hands(hands, points, masks, by_tile, by_pair, of_triple)


def main_pair_counts_by_dealer(
    in_play: tuple[int, ...] = ALL_TILES, block: int = 256
) -> npt.NDArray[np.int64]:
    """For each dealer hand D: ordered pairs of disjoint seat hands avoiding D, by outcomes.

    Shape (hands, 4, 4): entry ``[D, a, b]`` counts (p₁, p₂), p₁ ∩ p₂ = ∅, both
    disjoint from D, whose main wagers end in outcomes a and b (:data:`OUTCOMES`)
    against D. With u_a(S) the hands ⊇ S avoiding D with outcome a:

        count[D, a, b] = Σ_{|S| ≤ 3} (−1)^|S| u_a(S) u_b(S)

    and u_a(∅), u_a({t}), u_a({t, u}) come from the histograms of hands by points
    holding no tile, one tile, two tiles of D by inclusion–exclusion over D's three
    tiles; for |S| = 3 only S itself counts, so that term is −[a = b]·u_a(∅).
    Integer numpy throughout: no entry exceeds C(m, 3)².
    """
    h = _hands(in_play)
    ind = _indicators()
    pairs = np.array(list(itertools.combinations(range(TILES), 2)), dtype=np.intp)
    # Per dealer points d: hands holding t (and u) with outcome a, before D's tiles go.
    per_tile = np.einsum("tq,dqa->dta", h.by_tile, ind)  # (28 d, 28 t, 4)
    per_pair = np.einsum("tuq,dqa->dtua", h.by_pair, ind)  # (28 d, 28 t, 28 u, 4)
    everything = np.bincount(h.points, minlength=POINT_VALUES + 1)
    result = np.zeros((len(h.hands), len(OUTCOMES), len(OUTCOMES)), dtype=np.int64)
    for start in range(0, len(h.hands), block):
        dealer = h.hands[start : start + block]  # (k, 3)
        d = h.points[start : start + block]
        x, y, z = dealer[:, 0], dealer[:, 1], dealer[:, 2]
        # Histogram (by points) of the hands disjoint from D, then by outcome against d.
        avoiding = (
            everything[None, :]
            - h.by_tile[x]
            - h.by_tile[y]
            - h.by_tile[z]
            + h.by_pair[x, y]
            + h.by_pair[x, z]
            + h.by_pair[y, z]
            - np.eye(POINT_VALUES + 1, dtype=np.int64)[h.points[start : start + block]]
        )
        u0 = np.einsum("kq,kqa->ka", avoiding, ind[d])
        # One tile t: hands ⊇ {t} less those meeting D (one tile of D, then two).
        tiles = np.arange(TILES)
        u1 = (
            per_tile[d]
            - per_pair[d[:, None], tiles[None, :], x[:, None]]
            - per_pair[d[:, None], tiles[None, :], y[:, None]]
            - per_pair[d[:, None], tiles[None, :], z[:, None]]
        )
        for v, w in ((x, y), (x, z), (y, z)):
            triple = h.of_triple[tiles[None, :], v[:, None], w[:, None]]  # (k, 28)
            u1 += ind[d[:, None], triple]
        in_dealer = (
            (tiles[None, :] == x[:, None])
            | (tiles[None, :] == y[:, None])
            | (tiles[None, :] == z[:, None])
        )
        u1[in_dealer] = 0
        # Two tiles {t, u}: hands ⊇ {t, u} less the three that add a tile of D.
        t, u = pairs[:, 0], pairs[:, 1]
        u2 = per_pair[d[:, None], t[None, :], u[None, :]]  # (k, 378, 4)
        for v in (x, y, z):
            triple = h.of_triple[t[None, :], u[None, :], v[:, None]]  # (k, 378)
            u2 = u2 - ind[d[:, None], triple]
        meets = np.zeros((len(dealer), len(pairs)), dtype=bool)
        for v in (x, y, z):
            meets |= (t[None, :] == v[:, None]) | (u[None, :] == v[:, None])
        u2[meets] = 0
        block_counts = (
            np.einsum("ka,kb->kab", u0, u0)
            - np.einsum("kta,ktb->kab", u1, u1)
            + np.einsum("kpa,kpb->kab", u2, u2)
        )
        diagonal = np.arange(len(OUTCOMES))
        block_counts[:, diagonal, diagonal] -= u0
        result[start : start + block] = block_counts
    return result


@functools.cache
def main_pair_counts(in_play: tuple[int, ...] = ALL_TILES) -> tuple[tuple[int, ...], ...]:
    """(dealer, seat i, seat j) triples of disjoint hands by the two seats' main outcomes."""
    counts = main_pair_counts_by_dealer(in_play).sum(axis=0)
    return tuple(tuple(int(n) for n in row) for row in counts.tolist())


@functools.cache
def main_tile_counts(
    tile: Tile, in_play: tuple[int, ...] = ALL_TILES
) -> tuple[tuple[int, ...], ...]:
    """(dealer hand, seat hand) pairs by the seat's main outcome and where ``tile`` lies.

    Rows follow :data:`OUTCOMES`, columns :data:`LOCATIONS`: in the seat's hand, in
    the dealer's, in neither. Each hand holding the tile is paired with every hand
    disjoint from it; "neither" is the rest of the outcome's pairs.
    """
    h = _hands(in_play)
    codes = _outcome_codes()
    index = TILE_SET.index(tile)
    holding = (h.hands == index).any(axis=1)
    disjoint = (h.masks[holding][:, None] & h.masks[None, :]) == 0  # (holding, all)
    seat = codes[h.points[None, :], h.points[holding][:, None]][disjoint]
    dealer = codes[h.points[holding][:, None], h.points[None, :]][disjoint]
    by_seat = np.bincount(seat, minlength=len(OUTCOMES))
    by_dealer = np.bincount(dealer, minlength=len(OUTCOMES))
    all_pairs = main_pair_totals(in_play)
    return tuple(
        (int(by_seat[a]), int(by_dealer[a]), all_pairs[a] - int(by_seat[a]) - int(by_dealer[a]))
        for a in range(len(OUTCOMES))
    )


@functools.cache
def main_pair_totals(in_play: tuple[int, ...] = ALL_TILES) -> tuple[int, ...]:
    """(dealer hand, seat hand) disjoint pairs by the seat's main outcome (the analysis's counts)."""
    h = _hands(in_play)
    codes = _outcome_codes()
    totals = np.zeros(len(OUTCOMES), dtype=np.int64)
    for start in range(0, len(h.hands), 512):
        disjoint = (h.masks[start : start + 512, None] & h.masks[None, :]) == 0
        called = codes[h.points[start : start + 512, None], h.points[None, :]]
        totals += np.bincount(called[disjoint], minlength=len(OUTCOMES))
    return tuple(int(n) for n in totals)


# --- where 1-1 and 7-7 lie -------------------------------------------------------------------


def _tile_value(pays: Fraction, place: str, owner: str) -> Fraction:
    """A Lo-Card (Hi-Card) bet of ``owner`` when its tile lies in ``place``: win, push, lose."""
    if place == owner:
        return pays
    return Fraction(0) if place == "exposed" else Fraction(-1)


def _placements(
    sizes: dict[str, int],
    first: tuple[str, Fraction],
    second: tuple[str, Fraction],
    same_tile: bool,
) -> Fraction:
    """E[X·Y] for two tile bets, over the places their tiles can lie in the shuffled set.

    ``sizes`` gives how many positions each place has (they add up to the tiles in
    play); ``first``/``second`` name each bet's owner and pays. The same tile for
    both is one uniform position; 1-1 and 7-7 are two different uniform positions.
    """
    total = sum(sizes.values())
    owner_x, pays_x = first
    owner_y, pays_y = second
    moment = Fraction(0)
    for place_x, n_x in sizes.items():
        value_x = _tile_value(pays_x, place_x, owner_x)
        if same_tile:
            moment += Fraction(n_x, total) * value_x * _tile_value(pays_y, place_x, owner_y)
            continue
        for place_y, n_y in sizes.items():
            ways = n_x * (n_y - (place_x == place_y))
            moment += (
                Fraction(ways, total * (total - 1))
                * value_x
                * _tile_value(pays_y, place_y, owner_y)
            )
    return moment


def _main_tile_moment(
    pays: Sequence[Fraction], counts: Sequence[Sequence[int]], given: Sequence[Fraction]
) -> Fraction:
    """E[main × tile bet] from (dealer, seat) pairs by outcome and where the tile lies,
    ``given[k]`` being the tile bet's expected result when the tile lies in place k."""
    total = sum(map(sum, counts))
    return sum(
        (
            Fraction(n, total) * pays[a] * given[k]
            for a, row in enumerate(counts)
            for k, n in enumerate(row)
        ),
        Fraction(0),
    )


# --- the moments -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatMoments:
    """Exact moments of a seat's (main, lo-card, hi-card) results per unit, and the dice's.

    ``mean`` is E[Y_i]; ``within[k][l]`` = E[Y_ik·Y_il] in one seat and ``across[k][l]``
    = E[Y_ik·Y_jl] for two seats i ≠ j; ``dice`` is the (Dice-Lo, Dice-Hi) form.
    """

    mean: tuple[Fraction, ...]
    within: tuple[tuple[Fraction, ...], ...]
    across: tuple[tuple[Fraction, ...], ...]
    dice: ExactForm

    def covariance(self, across: bool) -> tuple[tuple[Fraction, ...], ...]:
        """``A`` (within a seat) or ``B`` (between two seats): second moments less μμᵀ."""
        second = self.across if across else self.within
        return tuple(
            tuple(second[k][j] - self.mean[k] * self.mean[j] for j in range(3)) for k in range(3)
        )


def seat_moments(rules: LoBallRules, in_play: tuple[int, ...] = ALL_TILES) -> SeatMoments:
    """Every moment the round's variance needs, for ``rules``' payouts and the tiles in play.

    ``in_play`` defaults to the full set; tests pass a smaller set (holding 1-1 and
    7-7) to compare with dealing every round of it through the rules. The moments
    between two seats mean something only when two seats and the exposed three fit
    (m ≥ 12 tiles); one seat needs m ≥ 9.
    """
    m = len(in_play)
    if m < 3 * HAND_SIZE or not {TILE_SET.index(LO_TILE), TILE_SET.index(HI_TILE)} <= set(in_play):
        raise BaccaraError("the tiles in play hold 1-1 and 7-7 and deal a dealer, a seat and three")
    main_pays = [rules.main_pays(o) for o in OUTCOMES]
    lo = rules.lo_hi_pays
    pairs = main_pair_totals(in_play)
    pair_total = sum(pairs)
    e_main = sum(
        (Fraction(n, pair_total) * p for n, p in zip(pairs, main_pays, strict=True)), Fraction(0)
    )
    e_main2 = sum(
        (Fraction(n, pair_total) * p * p for n, p in zip(pairs, main_pays, strict=True)),
        Fraction(0),
    )
    e_tile = (3 * lo - (m - 6)) / Fraction(m)  # 3 positions win, 3 push, the rest lose

    # One seat: its hand (3), the exposed three (3), everywhere else (m − 6).
    one = {"seat": 3, "exposed": EXPOSED, "other": m - 6}
    lo_hi_within = _placements(one, ("seat", lo), ("seat", lo), same_tile=False)
    tile_sq = _placements(one, ("seat", lo), ("seat", lo), same_tile=True)
    # Given the dealer's and the seat's hands, a tile in neither lies in one of m − 6
    # positions: 3 exposed (push) and, for another seat's bet, 3 in that seat (win).
    own_given = (lo, Fraction(-1), Fraction(-(m - 9), m - 6))
    other_given = (Fraction(-1), Fraction(-1), (3 * lo - (m - 12)) / Fraction(m - 6))
    counts = {tile: main_tile_counts(tile, in_play) for tile in (LO_TILE, HI_TILE)}
    main_lo = _main_tile_moment(main_pays, counts[LO_TILE], own_given)
    main_hi = _main_tile_moment(main_pays, counts[HI_TILE], own_given)
    within = (
        (e_main2, main_lo, main_hi),
        (main_lo, tile_sq, lo_hi_within),
        (main_hi, lo_hi_within, tile_sq),
    )

    # Two seats i and j: each hand 3, the exposed three, everywhere else (m − 9).
    two = {"i": 3, "j": 3, "exposed": EXPOSED, "other": m - 9}
    lo_lo = _placements(two, ("i", lo), ("j", lo), same_tile=True)
    lo_hi = _placements(two, ("i", lo), ("j", lo), same_tile=False)
    hi_lo = _placements(two, ("j", lo), ("i", lo), same_tile=False)  # 7-7 first: the same
    cross = main_pair_counts(in_play)
    cross_total = sum(map(sum, cross))
    main_main = sum(
        (
            Fraction(cross[a][b], cross_total) * main_pays[a] * main_pays[b]
            for a in range(len(OUTCOMES))
            for b in range(len(OUTCOMES))
        ),
        Fraction(0),
    )
    main_lo_j = _main_tile_moment(main_pays, counts[LO_TILE], other_given)
    main_hi_j = _main_tile_moment(main_pays, counts[HI_TILE], other_given)
    across = (
        (main_main, main_lo_j, main_hi_j),
        (main_lo_j, lo_lo, lo_hi),
        (main_hi_j, hi_lo, lo_lo),
    )
    return SeatMoments((e_main, e_tile, e_tile), within, across, dice_form(rules))


def dice_form(rules: LoBallRules) -> ExactForm:
    """(Dice-Lo, Dice-Hi) over the 216 ordered rolls, each called by the rules."""
    pays = {BetResult.WIN: rules.dice_pays, BetResult.LOSE: Fraction(-1)}
    rolls = list(itertools.product(range(1, 7), repeat=DICE))
    return form_from_cells(
        [1] * len(rolls),
        [tuple(pays[dice_result(bet, roll)] for bet in DICE_BETS) for roll in rolls],
    )


# --- the round -------------------------------------------------------------------------------


def wager_seat(seat: int | None) -> int:
    """The seat a Lo-Ball wager is on: every bet belongs to a seat 1 to 7, or is refused."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= MAX_PLAYERS:
        raise InvalidBet(f"every Lo-Ball bet belongs to a seat 1 to {MAX_PLAYERS}, not {seat!r}")
    return seat


@dataclass(frozen=True)
class LoBallModel:
    """The house's win on a Lo-Ball round from its seats' stakes: exact mean and variance.

    ``apart`` is the form of ``A − B`` (each seat's own terms beyond what it shares),
    ``shared`` the form of ``B`` on the table's total per seat bet, ``dice`` the
    dice's; all three carry the per-unit means.
    """

    apart: ExactForm
    shared: ExactForm
    dice: ExactForm

    @classmethod
    def of(cls, moments: SeatMoments) -> LoBallModel:
        a, b = moments.covariance(across=False), moments.covariance(across=True)
        apart = tuple(tuple(a[k][j] - b[k][j] for j in range(3)) for k in range(3))
        return cls(
            ExactForm.of(moments.mean, apart),
            ExactForm.of(moments.mean, b),
            moments.dice,
        )

    @staticmethod
    def stakes(
        wagers: Sequence[Wager],
    ) -> tuple[dict[int, list[int]], list[int]]:
        """Per seat its (main, lo-card, hi-card) cents, and the table's (Dice-Lo, Dice-Hi)."""
        seats: dict[int, list[int]] = {}
        dice = [0, 0]
        spots = [bet.value for bet in SEAT_BETS]
        dice_spots = [bet.value for bet in DICE_BETS]
        for seat, spot, stake in wagers:
            own = seats.setdefault(wager_seat(seat), [0, 0, 0])
            if spot in dice_spots:
                dice[dice_spots.index(spot)] += stake
            else:
                own[spots.index(spot)] += stake
        return seats, dice

    def house_mean(self, wagers: Sequence[Wager]) -> Fraction:
        seats, dice = self.stakes(wagers)
        table = [sum(column) for column in zip(*seats.values(), strict=True)] or [0, 0, 0]
        return -(self.shared.expected(table) + self.dice.expected(dice))

    def house_variance(self, wagers: Sequence[Wager]) -> Fraction:
        seats, dice = self.stakes(wagers)
        table = [sum(column) for column in zip(*seats.values(), strict=True)] or [0, 0, 0]
        apart = sum(self.apart.quadratic(own) for own in seats.values())
        return (
            Fraction(apart, self.apart.covariance_denominator)
            + self.shared.variance(table)
            + self.dice.variance(dice)
        )


@functools.lru_cache(maxsize=32)
def round_model(rules: LoBallRules) -> LoBallModel:
    """Every Lo-Ball round under ``rules``' payouts, from the full set of 28 tiles."""
    return LoBallModel.of(seat_moments(rules))
