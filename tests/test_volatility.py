"""Volatility index and confidence intervals over many hands (baccara.exact.volatility).

Known answers, and where they come from:

* the exact intervals are checked point for point against a brute-force convolution in
  integers and Fractions written here (every total of n hands counted, n = 1..40), for
  Punto Banco Banker (19/20, 0, −1), for bets paying 1000:1 and for a round of 22
  results;
* Banker's standard deviation per hand is 0.9274 (8 decks, exact from the
  analysis); the Wizard of Odds' table of house edges and standard deviations
  prints it to two decimals as 0.93 (Player 0.95, Tie 2.64). A figure of 0.9336
  sometimes quoted for it is none of these: no deck count gives it (1 to 8 decks give
  0.9282 to 0.9274);
* the Berry–Esseen constant is Shevtsova's (2011) 0.4748.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterator
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest

import baccara
from baccara.errors import BaccaraError
from baccara.exact import volatility
from baccara.exact.joint_model import paid_by_cell
from baccara.exact.joint_punto_banco import round_model
from baccara.exact.model import BetAnalysis, Outcome
from baccara.exact.volatility import (
    HANDS,
    LEVELS,
    Interval,
    Lattice,
    bernstein_interval,
    berry_esseen,
    distribution,
    intervals,
    normal_interval,
    round_lattice,
    volatility_index,
)
from baccara.games.punto_banco import PuntoBancoRules

F = Fraction


def banker() -> Lattice:
    return Lattice.of_bet(baccara.analyze("punto-banco").bet("banker"))


def bet(name: str, *outcomes: tuple[Fraction, int]) -> BetAnalysis:
    """A bet made of (pays, count) outcomes over their total."""
    total = sum(count for _pays, count in outcomes)
    return BetAnalysis(
        name,
        tuple(Outcome(f"o{i}", count, total, pays) for i, (pays, count) in enumerate(outcomes)),
    )


THOUSAND = bet("thousand", (F(1000), 50), (F(30), 1000), (F(-1), 98950))
"""Pays 1000:1 once in 2,000 and 30:1 once in 100, else loses: an edge of 18.95 %."""

THOUSAND_PUSH = bet("thousand-push", (F(1000), 3), (F(0), 100), (F(-1), 1000))
"""Pays 1000:1, pushes, or loses."""


def many() -> Lattice:
    """A round of 22 different results (stakes on several spots): more than the sparse
    path takes, so odd numbers of hands are made of two halves by FFT."""
    results = [F(k * 7 % 61 - 20, 1 + k % 3) for k in range(24)]
    return Lattice.of((r, 1000 + 37 * k * k) for k, r in enumerate(results))


def _smallest(
    lattice: Lattice, cumulative: list[tuple[int, Fraction]], share: Fraction
) -> Fraction:
    """The smallest total whose cumulative probability reaches ``share``."""
    return next(lattice.unit * t for t, f in cumulative if f >= share)


def sums(lattice: Lattice, most: int) -> Iterator[dict[int, int]]:
    """The totals of 1, 2 … ``most`` hands in steps of the lattice, each counted in
    integers over total**n deals, one hand at a time."""
    counts: dict[int, int] = {0: 1}
    for _ in range(most):
        nxt: defaultdict[int, int] = defaultdict(int)
        for total, count in counts.items():
            for step, weight in zip(lattice.steps, lattice.weights, strict=True):
                nxt[total + step] += count * weight
        counts = dict(nxt)
        yield counts


def brute_force(lattice: Lattice, most: int) -> dict[int, list[tuple[Fraction, Fraction]]]:
    """The exact equal-tailed interval ends for n = 1..most at each of LEVELS.

    Every total of n hands is counted in integers (:func:`sums`); the ends are the
    smallest totals whose cumulative count reaches the tail's share, compared in
    Fractions.
    """
    ends: dict[int, list[tuple[Fraction, Fraction]]] = {}
    for n, counts in enumerate(sums(lattice, most), start=1):
        deals = lattice.total**n
        cumulative: list[tuple[int, Fraction]] = []
        running = 0
        for total in sorted(counts):
            running += counts[total]
            cumulative.append((total, Fraction(running, deals)))

        ends[n] = [
            (
                _smallest(lattice, cumulative, (1 - level) / 2),
                _smallest(lattice, cumulative, 1 - (1 - level) / 2),
            )
            for level in LEVELS
        ]
    return ends


# -- the lattice -----------------------------------------------------------------------


def test_lattice_of_finds_the_unit() -> None:
    lattice = Lattice.of([(F(19, 20), 5), (F(0), 2), (F(-1), 3)])
    assert lattice.unit == F(1, 20)
    assert lattice.steps == (-20, 0, 19)
    assert lattice.weights == (3, 2, 5)
    assert (lattice.lowest, lattice.highest) == (F(-1), F(19, 20))


def test_lattice_of_merges_and_drops() -> None:
    lattice = Lattice.of([(F(3, 4), 1), (F(3, 4), 2), (F(9, 2), 0), (F(-3, 2), 4)])
    assert (lattice.unit, lattice.steps, lattice.weights) == (F(3, 4), (-2, 1), (4, 3))
    # gcd of numerators over lcm of denominators: 2/3 and 4/5 → 2/15
    assert Lattice.of([(F(2, 3), 1), (F(4, 5), 1)]).unit == F(2, 15)
    zero = Lattice.of([(F(0), 7)])
    assert (zero.unit, zero.steps, zero.weights) == (F(1), (0,), (7,))


def test_lattice_of_bet_is_per_unit_staked() -> None:
    analysis = baccara.analyze("punto-banco").bet("banker")
    lattice = banker()
    assert lattice.unit == F(1, 20)
    assert lattice.steps == (-20, 0, 19)
    win, push, lose = (analysis.outcome(name).count for name in ("win", "push", "lose"))
    assert lattice.weights == (lose, push, win)
    assert lattice.total == analysis.total


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ([], "at least one result"),
        ([(F(1), 3), (F(-1), -1)], "cannot be negative"),
        ([(F(1), 0), (F(-1), 0)], "every count is zero"),
        ([(0.5, 1)], "exact Fraction or int"),
        ([(F(1), 1.0)], "whole number"),
        ([(F(1), True)], "whole number"),
    ],
)
def test_lattice_of_refuses(results: list[tuple[object, object]], message: str) -> None:
    with pytest.raises(BaccaraError, match=message):
        Lattice.of(results)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("unit", "steps", "weights", "message"),
    [
        (F(0), (1,), (1,), "positive Fraction"),
        (F(1), (), (), "at least one step"),
        (F(1), (1, 2), (1,), "one weight per step"),
        (F(1), (2, 1), (1, 1), "increasing"),
        (F(1), (1, 1), (1, 1), "distinct"),
        (F(1), (1, 2), (1, 0), "positive integers"),
    ],
)
def test_lattice_refuses_bad_fields(
    unit: Fraction, steps: tuple[int, ...], weights: tuple[int, ...], message: str
) -> None:
    with pytest.raises(BaccaraError, match=message):
        Lattice(unit, steps, weights)


@pytest.mark.parametrize("name", ["banker", "player", "tie", "player-pair", "banker-pair"])
def test_moments_are_the_analysis(name: str) -> None:
    analysis = baccara.analyze("punto-banco").bet(name)
    lattice = Lattice.of_bet(analysis)
    assert lattice.mean == analysis.expected_return
    assert lattice.variance == analysis.variance
    mean = analysis.expected_return
    third = sum((o.probability * abs(o.pays - mean) ** 3 for o in analysis.outcomes), Fraction(0))
    assert lattice.third_absolute_moment == third


# -- the volatility index --------------------------------------------------------------


def test_banker_volatility_index() -> None:
    lattice = banker()
    sigma = lattice.std_dev
    assert f"{sigma:.4f}" == "0.9274"  # exact, 8 decks
    assert f"{sigma:.2f}" == "0.93"  # as the Wizard of Odds prints it
    index = volatility_index(lattice)
    z = NormalDist().inv_cdf(0.95)
    assert index == pytest.approx(z * sigma, rel=1e-15)
    assert index / sigma == pytest.approx(1.645, abs=5e-4)
    assert f"{index:.4f}" == "1.5254"
    assert volatility_index(lattice, F(95, 100)) == pytest.approx(1.959964 * sigma, rel=1e-6)


def test_volatility_index_refuses_a_bad_level() -> None:
    for level in (F(0), F(1), F(3, 2)):
        with pytest.raises(BaccaraError, match="between 0 and 1"):
            volatility_index(banker(), level)


# -- exact intervals -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lattice", "most"),
    [
        (banker(), 40),
        (Lattice.of_bet(THOUSAND), 40),
        (Lattice.of_bet(THOUSAND_PUSH), 40),
        (many(), 12),
    ],
    ids=["banker", "1000:1 and 30:1", "1000:1 with a push", "22 results"],
)
def test_exact_intervals_are_the_brute_force(lattice: Lattice, most: int) -> None:
    expected = brute_force(lattice, most)
    found = intervals(lattice, range(1, most + 1))
    assert len(found) == most * len(LEVELS)
    for interval in found:
        assert interval.method == "exact"
        assert interval.error < 1e-11
        k = LEVELS.index(interval.level)
        assert (interval.low, interval.high) == expected[interval.hands][k], interval


def test_a_tie_with_the_target_is_settled_exactly() -> None:
    """Lose 19 times in 20, else win 1: P(S ≤ −1) is exactly 0.95 after one hand, so the
    90 % interval's high end is −1 — a float sum near 0.95 cannot decide that."""
    lattice = Lattice.of([(F(-1), 19), (F(1), 1)])
    (interval,) = intervals(lattice, [1], [F(90, 100)])
    assert (interval.low, interval.high) == (F(-1), F(-1))
    assert brute_force(lattice, 1)[1][0] == (F(-1), F(-1))


def test_an_undecided_tie_widens_the_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the exact fallback, the tie above takes the outer candidate: the interval
    still contains the exact one."""
    monkeypatch.setattr(volatility, "_EXACT_BITS", 0)
    (interval,) = intervals(Lattice.of([(F(-1), 19), (F(1), 1)]), [1], [F(90, 100)])
    assert (interval.low, interval.high) == (F(-1), F(1))
    assert interval.method == "exact"


def test_banker_over_100_hands_drops_nothing() -> None:
    lattice = banker()
    dist = distribution(lattice, 100)
    assert dist is not None
    assert dist.start == 0
    assert len(dist.probabilities) == 39 * 100 + 1  # t = 0..n·R: every total
    assert (dist.value(0), dist.value(len(dist.probabilities) - 1)) == (F(-100), F(95))
    assert abs(float(dist.probabilities.sum()) - 1) <= dist.error
    assert dist.error < 1e-12


def test_large_distributions_keep_their_mass_and_moments() -> None:
    lattice = banker()
    n = 10**5
    dist = distribution(lattice, n)
    assert dist is not None
    p = dist.probabilities
    assert abs(float(p.sum()) - 1) <= dist.error
    assert len(p) < 39 * n // 10  # a window, not the whole support
    values = np.array([float(dist.value(i)) for i in (0, len(p) - 1)])
    grid = np.linspace(values[0], values[1], len(p))
    mean = float(np.dot(p, grid))
    variance = float(np.dot(p, (grid - mean) ** 2))
    assert mean == pytest.approx(float(n * lattice.mean), rel=1e-9)
    assert variance == pytest.approx(float(n * lattice.variance), rel=1e-8)


def chernoff_tail(lattice: Lattice, hands: int, edge: int) -> Fraction:
    """P(T ≥ edge), T the sum of ``hands`` reduced steps, exactly (brute force)."""
    base = lattice.steps[0]
    counts: dict[int, int] = {0: 1}
    for _ in range(hands):
        nxt: defaultdict[int, int] = defaultdict(int)
        for total, count in counts.items():
            for step, weight in zip(lattice.steps, lattice.weights, strict=True):
                nxt[total + step - base] += count * weight
        counts = dict(nxt)
    return Fraction(sum(c for t, c in counts.items() if t >= edge), lattice.total**hands)


def test_the_chernoff_cuts_bound_the_true_tails() -> None:
    """Every right-hand cut of the 1000:1 bet's windows, n = 1..40, leaves out no more
    true mass than its bound says."""
    lattice = Lattice.of_bet(THOUSAND)
    reduced = volatility._Reduced.of(lattice)
    hands = np.arange(1, 41, dtype=np.int64)
    edges, bounds = volatility._chernoff_edges(
        reduced.ts.astype(np.float64), reduced.probabilities, hands
    )
    cut = 0
    for n, edge, bound in zip(hands.tolist(), edges.tolist(), bounds.tolist(), strict=True):
        if bound > 0:
            cut += 1
            assert bound < 2.0**-59
            assert chernoff_tail(lattice, n, edge) <= Fraction(bound)
        else:
            assert edge == n * reduced.top + 1
    assert cut > 20


# -- large numbers of hands ------------------------------------------------------------


def normal_ends(lattice: Lattice, n: int, level: Fraction) -> tuple[float, float]:
    z = NormalDist().inv_cdf(float(1 - (1 - level) / 2))
    centre, spread = float(n * lattice.mean), z * math.sqrt(n * lattice.variance)
    return centre - spread, centre + spread


def skewness(lattice: Lattice) -> float:
    """γ = E(X − μ)³/σ³ of one hand."""
    mean = lattice.mean
    third = (
        sum(
            w * (lattice.unit * s - mean) ** 3
            for s, w in zip(lattice.steps, lattice.weights, strict=True)
        )
        / lattice.total
    )
    return float(third) / math.sqrt(lattice.variance) ** 3


@pytest.mark.parametrize(
    ("lattice", "closeness"),
    [(banker(), 0.001), (Lattice.of_bet(THOUSAND), 0.15)],
    ids=["banker", "1000:1"],
)
def test_large_n_is_close_to_normal(lattice: Lattice, closeness: float) -> None:
    """At 10⁵ and 10⁶ hands the exact ends lie within a small share of σ√n of the normal
    ones; what is left is the skewness, which moves a quantile by about
    (z² − 1)·γ/(6√n)·σ√n (Cornish–Fisher): with that term the two agree to 0.01·σ√n."""
    gamma = skewness(lattice)
    for interval in intervals(lattice, [10**5, 10**6]):
        assert interval.method == "exact"
        assert interval.error < 1e-6
        n = interval.hands
        scale = math.sqrt(n * lattice.variance)
        z = NormalDist().inv_cdf(float(1 - (1 - interval.level) / 2))
        shift = scale * (z * z - 1) * gamma / (6 * math.sqrt(n))
        low, high = normal_ends(lattice, n, interval.level)
        assert abs(float(interval.low) - low) < closeness * scale
        assert abs(float(interval.high) - high) < closeness * scale
        assert abs(float(interval.low) - (low + shift)) < 0.01 * scale
        assert abs(float(interval.high) - (high + shift)) < 0.01 * scale


def test_the_normal_fallback_and_its_berry_esseen_error() -> None:
    lattice = banker()
    n = 10**6
    found = intervals(lattice, [100, n], max_points=10_000)
    exact, normal = found[:3], found[3:]
    assert {i.method for i in exact} == {"exact"}  # 3,901 points fit
    sigma = math.sqrt(lattice.variance)
    rho = float(lattice.third_absolute_moment)
    bound = 0.4748 * rho / (sigma**3 * math.sqrt(n))
    for interval in normal:
        assert interval.method == "normal"
        assert interval.error == pytest.approx(bound, rel=1e-12)
        low, high = normal_ends(lattice, n, interval.level)
        # the ends are lattice points (twentieths), within a step of the normal quantiles
        assert (interval.low * 20).denominator == 1
        assert abs(float(interval.low) - low) <= 0.05
        assert abs(float(interval.high) - high) <= 0.05
    assert berry_esseen(lattice.third_absolute_moment, lattice.variance, n) == pytest.approx(bound)


def test_exact_and_normal_agree_where_both_are_possible() -> None:
    lattice = banker()
    exact = intervals(lattice, [10**6])
    normal = intervals(lattice, [10**6], max_points=1000)
    for e, n in zip(exact, normal, strict=True):
        assert (e.method, n.method) == ("exact", "normal")
        # a few twentieths of a unit, against σ√n ≈ 927
        assert abs(e.low - n.low) <= 2 and abs(e.high - n.high) <= 2


def test_a_thousand_to_one_bet_over_a_million_hands() -> None:
    """Runs in well under a second (no timing asserted); exact with a tiny error or normal."""
    lattice = Lattice.of_bet(THOUSAND)
    found = intervals(lattice, HANDS)
    assert [i.hands for i in found] == [n for n in HANDS for _ in LEVELS]
    for interval in found:
        if interval.method == "exact":
            assert interval.error < 1e-6
        else:
            assert interval.method == "normal"
    million = found[-3:]
    assert all(i.method == "exact" for i in million)
    # the player's result per hand: around the −18.95 % edge
    for interval in million:
        assert interval.low_per_hand < F(-1895, 10000) < interval.high_per_hand
        assert interval.low_per_hand > F(-3, 10)
        assert interval.high_per_hand < F(-1, 10)


def test_a_single_result_is_a_point() -> None:
    lattice = Lattice.of([(F(-1, 2), 3)])
    for interval in intervals(lattice, [1, 10**6]):
        assert interval.low == interval.high == interval.hands * F(-1, 2)
        assert (interval.method, interval.error) == ("exact", 0.0)


def test_intervals_refuse_bad_arguments() -> None:
    with pytest.raises(BaccaraError, match="number of hands"):
        intervals(banker(), [0])
    with pytest.raises(BaccaraError, match="number of hands"):
        intervals(banker(), [True])
    with pytest.raises(BaccaraError, match="between 0 and 1"):
        intervals(banker(), [10], [F(1)])
    with pytest.raises(BaccaraError, match="max_points"):
        intervals(banker(), [10], max_points=0)


# -- the interval ----------------------------------------------------------------------


def test_interval_house_side_and_share_of_handle() -> None:
    interval = Interval(200, F(95, 100), F(-30), F(10), "exact", 0.0)
    assert (interval.house_low, interval.house_high) == (F(-10), F(30))
    assert (interval.low_per_hand, interval.high_per_hand) == (F(-3, 20), F(1, 20))
    assert (interval.house_low_per_hand, interval.house_high_per_hand) == (F(-1, 20), F(3, 20))


def test_interval_refuses_nonsense() -> None:
    with pytest.raises(BaccaraError, match="above its high end"):
        Interval(10, F(9, 10), F(2), F(1), "exact", 0.0)
    with pytest.raises(BaccaraError, match="one of exact, normal, bernstein, not 'guess'"):
        Interval(10, F(9, 10), F(1), F(2), "guess", 0.0)
    with pytest.raises(BaccaraError, match="not negative"):
        Interval(10, F(9, 10), F(1), F(2), "exact", -1.0)


# -- moments only: the normal interval -------------------------------------------------


def test_normal_interval_is_what_it_says() -> None:
    mean, variance, bound, n, level = F(-1, 100), F(1), F(2), 10**4, F(95, 100)
    interval = normal_interval(mean, variance, bound, n, level)
    z = NormalDist().inv_cdf(0.975)
    low, high = -100 - z * 100, -100 + z * 100
    assert interval.method == "normal"
    assert (interval.hands, interval.level) == (n, level)
    # rounded outward to millionths
    assert float(interval.low) <= low < float(interval.low) + 1e-6
    assert float(interval.high) - 1e-6 < high <= float(interval.high)
    assert interval.error == pytest.approx(0.4748 * float(bound + abs(mean)) / math.sqrt(n))
    assert (interval.house_low, interval.house_high) == (-interval.high, -interval.low)


def test_normal_interval_of_a_certain_result() -> None:
    interval = normal_interval(F(3), F(0), F(3), 7, F(90, 100))
    assert (interval.low, interval.high, interval.method, interval.error) == (
        F(21),
        F(21),
        "exact",
        0.0,
    )


@pytest.mark.parametrize(
    ("mean", "variance", "bound"),
    [(F(0), F(-1), F(1)), (F(2), F(0), F(1)), (F(0), F(2), F(1)), (F(1, 2), F(4, 5), F(1))],
)
def test_normal_interval_refuses_impossible_moments(
    mean: Fraction, variance: Fraction, bound: Fraction
) -> None:
    with pytest.raises(BaccaraError):
        normal_interval(mean, variance, bound, 100, F(90, 100))


# -- a table's round from its cells ----------------------------------------------------


def test_round_lattice_from_a_spot_models_cells() -> None:
    """A round with 10.00 on Banker and 1.00 on Tie: the house's win in cents per cell."""
    model = round_model(PuntoBancoRules())
    stakes = [[1000], [], [100], [], []]  # banker, player, tie, player pair, banker pair
    results = [F(-paid) for paid in paid_by_cell(model.pays, stakes)]
    lattice = round_lattice(model.counts, results)
    wagers = [(None, "banker", 1000), (None, "tie", 100)]
    assert lattice.mean == model.paid_mean(wagers)
    assert lattice.variance == model.paid_variance(wagers)
    # the house wins 11.00 (Player wins), 1.00 − 9.50 (Banker wins), −8.00 (a tie)
    assert set(results) == {F(1100), F(-850), F(-800)}
    assert lattice.unit == F(50)
    week = intervals(lattice, [100, 10**4])
    assert {i.method for i in week} == {"exact"}
    # the house's result after 10⁴ rounds: its mean is inside every interval
    for interval in week[3:]:
        assert interval.low <= 10**4 * lattice.mean <= interval.high


def test_round_lattice_refuses_mismatched_cells() -> None:
    with pytest.raises(BaccaraError, match="one of each per cell"):
        round_lattice([1, 2], [F(1)])


# -- the certain interval (Bernstein) ----------------------------------------------------


def bernstein(lattice: Lattice, hands: int, level: Fraction) -> Interval:
    bound = max(abs(lattice.lowest), abs(lattice.highest))
    return bernstein_interval(lattice.mean, lattice.variance, bound, hands, level)


@pytest.mark.parametrize("made", [banker, lambda: Lattice.of_bet(THOUSAND), many])
@pytest.mark.parametrize("hands", [1, 2, 10, 30])
def test_the_certain_interval_leaves_at_most_its_tail_outside_each_end(
    made: Callable[[], Lattice], hands: int
) -> None:
    """Counted exactly over every total: Bernstein's interval is a guarantee, not an
    approximation, for a bet paying 19:20, one paying 1000:1 and a round of 22 results."""
    lattice = made()
    *_, by_step = sums(lattice, hands)
    counts = {lattice.unit * t: c for t, c in by_step.items()}
    deals = lattice.total**hands
    for level in LEVELS:
        found = bernstein(lattice, hands, level)
        assert (found.method, found.error) == ("bernstein", 0.0)
        below = Fraction(sum(c for v, c in counts.items() if v < found.low), deals)
        above = Fraction(sum(c for v, c in counts.items() if v > found.high), deals)
        assert below <= (1 - level) / 2 and above <= (1 - level) / 2


@pytest.mark.parametrize("hands", [1, 100, 10**6])
def test_the_certain_interval_holds_the_normal_one_and_the_exact_one(hands: int) -> None:
    """2·ln(1/α) ≥ z² at every level, so Bernstein is never the narrower; and it holds the
    exact interval, whose tails it bounds."""
    lattice = banker()
    bound = max(abs(lattice.lowest), abs(lattice.highest))
    exact = intervals(lattice, [hands])
    for level, e in zip(LEVELS, exact, strict=True):
        sure = bernstein(lattice, hands, level)
        normal = normal_interval(lattice.mean, lattice.variance, bound, hands, level)
        assert sure.low <= normal.low <= normal.high <= sure.high
        assert sure.low <= e.low <= e.high <= sure.high


def test_the_certain_interval_of_a_certain_result_is_its_point_and_bad_moments_are_refused() -> (
    None
):
    point = bernstein_interval(F(-1, 2), F(0), F(1), 10, F(99, 100))
    assert (point.low, point.high, point.method) == (F(-5), F(-5), "exact")
    with pytest.raises(BaccaraError, match="variance cannot be negative"):
        bernstein_interval(F(0), F(-1), F(1), 10, F(99, 100))
    with pytest.raises(BaccaraError, match="no result bounded by 1"):
        bernstein_interval(F(0), F(2), F(1), 10, F(99, 100))
    with pytest.raises(BaccaraError, match="number of hands"):
        bernstein_interval(F(0), F(1), F(1), 0, F(99, 100))
