"""Volatility index and confidence intervals of a bet's result over many hands.

A PAR sheet prints, beside each bet's house edge, how far a player's (and so the
house's) result strays from its mean: a *volatility index* and the confidence
intervals of the total result after 10², 10³ … 10⁶ hands. Those intervals are usually
worked out with the normal approximation, its error unstated. Here they come
from the exact distribution of the total, the n-fold convolution of one hand's
distribution, and the normal approximation is used only where that distribution does
not fit in memory — then with its Berry–Esseen error bound printed beside it.

One hand's result is a :class:`Lattice`: values ``unit · step`` with integer
``weights`` (the equally likely deals of the analysis). Its ``n``-fold sum lives on
the lattice ``unit · (n·s₀ + d·t)``, ``s₀`` the lowest step, ``d`` the greatest common
divisor of the steps' distances from it and ``0 ≤ t ≤ n·R`` (``R = (s_max − s₀)/d``),
so the computation runs on ``t`` alone. It is done in float64 by binary powering
(the distribution of ``2m`` hands is that of ``m`` hands convolved with itself), with
the FFT for large arrays and a direct sum for sparse ones, and each stage keeps only
the window of ``t`` outside which a Chernoff bound puts less than 2⁻⁶⁰ of the true
mass. Every approximation is accounted for in one number, an upper bound on the
L¹ distance between the computed and the true distribution of the total:

* the rounding of each probability ``w/T`` to float64;
* each convolution's rounding error — for the FFT the error bound of Higham, *Accuracy
  and Stability of Numerical Algorithms* (2nd ed., 2002), §24.1 (‖ŷ − y‖₂ ≤
  log₂N·η/(1 − log₂N·η)·‖y‖₂ for a radix-2 FFT, η ≈ 6.7u with accurate twiddle
  factors), taken with η = 16u, turned from L² into L¹ by a factor √N; for the direct
  sum the classical γₖ bound;
* the true mass outside each window (its Chernoff bound), twice when the window is
  folded into a shorter cyclic convolution;
* the propagation of earlier errors (‖a*b − p*q‖₁ ≤ ‖a − p‖₁ + ‖b − q‖₁ + ‖a − p‖₁‖b − q‖₁).

That bound, with the rounding of the cumulative sums, bounds |F̂(x) − F(x)| for every
x; it is the :attr:`Interval.error` of an exact interval. Being a worst case it is
pessimistic, and it grows about in proportion to the number of hands (an error made at
one stage counts again at every later doubling): about 10⁻¹³ at 100 hands and 10⁻⁸ at
10⁶ for Banker, a few 10⁻⁸ at 10⁶ for a bet paying 1000:1 — while near a quantile one
lattice point alone carries some 10⁻⁵ at 10⁶ hands. The tails left out are below
10⁻¹⁷ of it. The quantiles are read so that the bound cannot mislead them: an
endpoint is the exact lattice quantile unless the true distribution function could
pass within the bound of the target there; then the tie is settled with exact integer
arithmetic when the distribution is small enough, and otherwise the interval is
widened to the outer candidate, so that it always contains the exact one.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from baccara.errors import BaccaraError
from baccara.exact.model import BetAnalysis

FloatArray = npt.NDArray[np.float64]

LEVELS: tuple[Fraction, ...] = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))
"""The confidence levels a PAR sheet prints."""

HANDS: tuple[int, ...] = (10**2, 10**3, 10**4, 10**5, 10**6)
"""The numbers of hands a PAR sheet prints intervals for."""

METHODS = ("exact", "normal", "bernstein")
"""How an :class:`Interval` was found."""

BERRY_ESSEEN = 0.4748
"""The constant C of sup |F_n − Φ| ≤ C·E|X − μ|³/(σ³√n) for sums of i.i.d. variables
(I. G. Shevtsova, "On the absolute constants in the Berry–Esseen type inequalities for
identically distributed summands", 2011, arXiv:1111.6554)."""

_U = 2.0**-53
"""The unit roundoff of float64."""

_LOG_TAIL = 60 * math.log(2)
"""Each window leaves out at most 2⁻⁶⁰ of the true mass on each side, by Chernoff."""

_FULL_SUPPORT = 1 << 12
"""A stage whose whole support has at most this many points is kept whole: nothing of it
is dropped, and it costs nothing to keep."""

_FFT_ETA = 16 * _U
"""η of Higham's FFT error bound, with a safety factor above its ≈ 6.7u."""

_DIRECT_WORK = 1 << 24
"""A convolution summed directly costs (non-zeros of the sparser) × (length of the
other); up to this it is done so when its error bound is the smaller."""

_SPARSE = 16
"""One hand with at most this many results is added to a stage directly (an odd
number of hands is ``m − 1`` hands plus one); with more, as two halves by FFT."""

_EXACT_BITS = 1 << 22
"""Exact integer powering settles a tie when the packed n-hand polynomial has at most
this many bits (a fraction of a second)."""

_CDF_BLOCK = 128
"""Cumulative sums run in blocks this long; the blocks' totals are added exactly."""


def _check_level(level: Fraction) -> Fraction:
    if not isinstance(level, Fraction | int) or isinstance(level, bool) or not 0 < level < 1:
        raise BaccaraError(f"a confidence level lies strictly between 0 and 1, not {level!r}")
    return Fraction(level)


def _check_points(max_points: int) -> None:
    if isinstance(max_points, bool) or not isinstance(max_points, int) or max_points < 1:
        raise BaccaraError(f"max_points is a positive whole number, not {max_points!r}")


def _check_hands(hands: int) -> int:
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise BaccaraError(f"a number of hands is a whole number at least 1, not {hands!r}")
    return hands


def _z(level: Fraction) -> float:
    """The two-sided standard normal quantile of ``level``: Φ⁻¹(1 − (1 − level)/2)."""
    return NormalDist().inv_cdf(float(1 - (1 - level) / 2))


@dataclass(frozen=True)
class Lattice:
    """One hand's (or one round's) result as a finite distribution on a lattice.

    The result is ``unit · steps[i]`` in ``weights[i]`` of ``total`` equally likely
    cases. Integer weights keep the distribution exact, as the analyses count it; the
    lattice form is what makes the n-hand distribution a finite array.
    """

    unit: Fraction
    steps: tuple[int, ...]
    weights: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.unit, Fraction) or self.unit <= 0:
            raise BaccaraError(f"a lattice's unit is a positive Fraction, not {self.unit!r}")
        if not self.steps or len(self.steps) != len(self.weights):
            raise BaccaraError("a lattice has at least one step, and one weight per step")
        if any(isinstance(s, bool) or not isinstance(s, int) for s in self.steps):
            raise BaccaraError("a lattice's steps are integers")
        if any(b <= a for a, b in itertools.pairwise(self.steps)):
            raise BaccaraError("a lattice's steps are distinct and in increasing order")
        if any(isinstance(w, bool) or not isinstance(w, int) or w <= 0 for w in self.weights):
            raise BaccaraError("a lattice's weights are positive integers")

    @classmethod
    def of(cls, results: Iterable[tuple[Fraction, int]]) -> Lattice:
        """The lattice of ``(result, count)`` pairs.

        Equal results are merged and zero counts dropped; the unit is the largest
        Fraction dividing every result (the gcd of the numerators over the lcm of the
        denominators), or 1 when every result is zero. Results are exact (Fraction or
        int) — a float is refused, its binary value being rarely what was meant.
        """
        merged: dict[Fraction, int] = {}
        for result, count in results:
            if isinstance(result, bool) or not isinstance(result, Fraction | int):
                raise BaccaraError(f"a result is an exact Fraction or int, not {result!r}")
            if isinstance(count, bool) or not isinstance(count, int):
                raise BaccaraError(f"a count is a whole number, not {count!r}")
            if count < 0:
                raise BaccaraError(f"a count cannot be negative: result {result} counted {count}")
            value = Fraction(result)
            merged[value] = merged.get(value, 0) + count
        if not merged:
            raise BaccaraError("a distribution needs at least one result")
        kept = {value: count for value, count in merged.items() if count}
        if not kept:
            raise BaccaraError("every count is zero: there is no distribution")
        scale = math.lcm(*(value.denominator for value in kept))
        scaled = {int(value * scale): count for value, count in kept.items()}
        divisor = math.gcd(*scaled)
        unit = Fraction(divisor, scale) if divisor else Fraction(1)
        div = divisor or 1
        steps = sorted(scaled)
        return cls(unit, tuple(s // div for s in steps), tuple(scaled[s] for s in steps))

    @classmethod
    def of_bet(cls, bet: BetAnalysis) -> Lattice:
        """A bet's result per unit staked: each outcome's net pay, counted as analysed."""
        return cls.of((outcome.pays, outcome.count) for outcome in bet.outcomes)

    @property
    def total(self) -> int:
        return sum(self.weights)

    @property
    def mean(self) -> Fraction:
        """The expected result of one hand (in the result's units: units staked, cents…)."""
        return self.unit * Fraction(
            sum(s * w for s, w in zip(self.steps, self.weights, strict=True)), self.total
        )

    @property
    def variance(self) -> Fraction:
        total = self.total
        first = sum(s * w for s, w in zip(self.steps, self.weights, strict=True))
        second = sum(s * s * w for s, w in zip(self.steps, self.weights, strict=True))
        return self.unit**2 * Fraction(total * second - first * first, total * total)

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def third_absolute_moment(self) -> Fraction:
        """E|X − μ|³, exactly: the Berry–Esseen bound's numerator."""
        total = self.total
        first = sum(s * w for s, w in zip(self.steps, self.weights, strict=True))
        # |s − first/total|³ · total³, summed in integers
        cubes = sum(
            w * abs(s * total - first) ** 3 for s, w in zip(self.steps, self.weights, strict=True)
        )
        return self.unit**3 * Fraction(cubes, total**4)

    @property
    def lowest(self) -> Fraction:
        return self.unit * self.steps[0]

    @property
    def highest(self) -> Fraction:
        return self.unit * self.steps[-1]


def round_lattice(counts: Sequence[int], results: Sequence[Fraction]) -> Lattice:
    """The lattice of a round's result given per cell of a joint distribution.

    ``counts[c]`` deals fall in cell ``c``, where the result is ``results[c]`` — e.g.
    the house's win in cents from a :class:`~baccara.exact.joint_model.SpotModel`'s
    cells for given stakes (minus :func:`~baccara.exact.joint_model.paid_by_cell`).
    """
    if len(counts) != len(results):
        raise BaccaraError(
            f"{len(counts)} cell counts for {len(results)} results: one of each per cell"
        )
    return Lattice.of(zip(results, counts, strict=True))


def volatility_index(lattice: Lattice, level: Fraction = Fraction(90, 100)) -> float:
    """The volatility index: z · σ, σ the standard deviation of one hand's result.

    ``z`` is the two-sided standard normal quantile of ``level``, Φ⁻¹(1 − (1 −
    level)/2): 1.6449 for 90 % (PAR sheets often round it to 1.645), 1.9600 for 95 %.
    It is the customary index of slot-machine and table-game PAR sheets: the player's
    result after ``n`` hands lies, by the normal approximation, within ``n·μ ±
    VI·√n`` with probability ``level`` — which :func:`intervals` states exactly.
    """
    return _z(_check_level(level)) * lattice.std_dev


@dataclass(frozen=True)
class Interval:
    """The equal-tailed ``level`` interval of the player's total result over ``hands`` hands.

    ``low`` and ``high`` are in the result's units (units staked for a bet's lattice):
    ``low`` is the smallest value ``x`` with P(S ≤ x) ≥ (1 − level)/2 and ``high`` the
    smallest with P(S ≤ x) ≥ 1 − (1 − level)/2, so each tail outside holds less than
    (1 − level)/2 and the interval at least ``level``.

    ``method`` says how it was found and ``error`` what that leaves uncertain:

    * ``"exact"``: from the exact n-hand distribution; ``error`` is an upper bound on
      the probability mass the computation got wrong — tails left out and float
      rounding (see the module's notes) — so on |F̂ − F| everywhere. The endpoints are
      the exact quantiles (or, where the bound cannot decide, the outer candidate).
    * ``"normal"``: from the normal approximation (with a continuity correction on a
      lattice); ``error`` is the Berry–Esseen bound C·E|X − μ|³/(σ³√n) on sup |F_n −
      Φ|, C = 0.4748 (Shevtsova 2011): each tail's probability may be off its target
      by that much, the coverage by twice that.
    * ``"bernstein"``: Bernstein's inequality from the mean, the variance and a bound
      on one round: certain to hold at least ``level``, wider than it needs; ``error``
      is 0, nothing being approximated.
    """

    hands: int
    level: Fraction
    low: Fraction
    high: Fraction
    method: str
    error: float

    def __post_init__(self) -> None:
        _check_hands(self.hands)
        _check_level(self.level)
        if self.method not in METHODS:
            raise BaccaraError(f"an interval is one of {', '.join(METHODS)}, not {self.method!r}")
        if self.low > self.high:
            raise BaccaraError(
                f"an interval's low end {self.low} is above its high end {self.high}"
            )
        if not self.error >= 0:
            raise BaccaraError(f"an error bound is not negative: {self.error!r}")

    @property
    def house_low(self) -> Fraction:
        """The low end of the house's result (the player's high end, negated)."""
        return -self.high

    @property
    def house_high(self) -> Fraction:
        return -self.low

    @property
    def low_per_hand(self) -> Fraction:
        """The player's low end as a share of the handle (``hands`` units staked)."""
        return self.low / self.hands

    @property
    def high_per_hand(self) -> Fraction:
        return self.high / self.hands

    @property
    def house_low_per_hand(self) -> Fraction:
        return self.house_low / self.hands

    @property
    def house_high_per_hand(self) -> Fraction:
        return self.house_high / self.hands


def berry_esseen(third_absolute_moment: Fraction, variance: Fraction, hands: int) -> float:
    """C·E|X − μ|³/(σ³√n), at most 1: the bound on sup |F_n − Φ| (C = :data:`BERRY_ESSEEN`)."""
    if variance <= 0:
        raise BaccaraError("the Berry–Esseen bound needs a positive variance")
    sigma = math.sqrt(variance)
    return min(1.0, BERRY_ESSEEN * float(third_absolute_moment) / (sigma**3 * math.sqrt(hands)))


_NORMAL_GRID = 10**6
"""Normal quantiles are irrational: they are given rounded outward to millionths."""


def normal_interval(
    mean: Fraction, variance: Fraction, bound: Fraction, hands: int, level: Fraction
) -> Interval:
    """The normal interval of a sum of ``hands`` rounds known by moments and a bound.

    For a round whose result ``X`` is known only by its mean, its variance and a bound
    ``|X| ≤ bound`` (the house's win at a table whose joint distribution is too large
    to convolve, e.g. Lo-Ball's): ``n·μ ± z·σ·√n``, rounded outward to millionths of
    the unit. Its error is the Berry–Esseen bound with E|X − μ|³ ≤ (bound + |μ|)·σ²,
    since |X − μ| ≤ bound + |μ|. A variance of zero is a certain result: the interval
    is the point ``n·μ``, exact.
    """
    hands, level = _check_hands(hands), _check_level(level)
    mean, variance, bound = _moments(mean, variance, bound)
    if variance == 0:
        return Interval(hands, level, hands * mean, hands * mean, "exact", 0.0)
    spread = _z(level) * math.sqrt(variance * hands)
    centre = float(hands * mean)
    low = Fraction(math.floor((centre - spread) * _NORMAL_GRID), _NORMAL_GRID)
    high = Fraction(math.ceil((centre + spread) * _NORMAL_GRID), _NORMAL_GRID)
    error = berry_esseen((bound + abs(mean)) * variance, variance, hands)
    return Interval(hands, level, min(low, hands * mean), max(high, hands * mean), "normal", error)


def bernstein_interval(
    mean: Fraction, variance: Fraction, bound: Fraction, hands: int, level: Fraction
) -> Interval:
    """An interval certain to hold at least ``level`` of a sum of ``hands`` rounds known
    by their mean, variance and a bound ``|X| ≤ bound``, as :func:`normal_interval` is.

    Bernstein's inequality (Boucheron, Lugosi and Massart, *Concentration Inequalities*,
    2013, §2.8): for independent rounds with ``|X − μ| ≤ M`` and variance σ², each tail
    ``P(±(S − nμ) ≥ x) ≤ exp(−x² / (2(nσ² + Mx/3)))``. With ``α = (1 − level)/2``,
    ``L = ln(1/α)`` and ``M = bound + |μ|``, ``x = LM/3 + √((LM/3)² + 2Lnσ²)`` leaves
    at most α outside each end: a guarantee, where the normal interval is an
    approximation. The float ``x`` is widened by a relative 10⁻⁹, far above its
    rounding; ``nμ ± x`` are then taken exactly and rounded outward to millionths.
    """
    hands, level = _check_hands(hands), _check_level(level)
    mean, variance, bound = _moments(mean, variance, bound)
    if variance == 0:
        return Interval(hands, level, hands * mean, hands * mean, "exact", 0.0)
    log = math.log(float(2 / (1 - level)))
    reach = log * float(bound + abs(mean)) / 3
    spread = Fraction(
        (reach + math.sqrt(reach * reach + 2 * log * hands * float(variance))) * (1 + 1e-9)
    )
    centre = hands * mean  # exact: only the spread is a float
    low = Fraction(math.floor((centre - spread) * _NORMAL_GRID), _NORMAL_GRID)
    high = Fraction(math.ceil((centre + spread) * _NORMAL_GRID), _NORMAL_GRID)
    return Interval(hands, level, low, high, "bernstein", 0.0)


def _moments(
    mean: Fraction, variance: Fraction, bound: Fraction
) -> tuple[Fraction, Fraction, Fraction]:
    """The moments of a round, refused when no result within ``bound`` has them."""
    mean, variance, bound = Fraction(mean), Fraction(variance), Fraction(bound)
    if variance < 0:
        raise BaccaraError(f"a variance cannot be negative: {variance}")
    if abs(mean) > bound or variance > bound * bound - mean * mean:
        raise BaccaraError(f"no result bounded by {bound} has mean {mean} and variance {variance}")
    return mean, variance, bound


# -- the lattice reduced to t = 0..R ---------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Reduced:
    """One hand as ``t = (step − base)/span`` in 0..top, with float probabilities."""

    lattice: Lattice
    base: int
    span: int
    top: int
    ts: npt.NDArray[np.int64]
    probabilities: FloatArray

    @classmethod
    def of(cls, lattice: Lattice) -> _Reduced:
        base = lattice.steps[0]
        span = math.gcd(*(s - base for s in lattice.steps)) or 1
        ts = [(s - base) // span for s in lattice.steps]
        total = lattice.total
        # int / int is correctly rounded: each probability is off by at most u relatively
        probabilities = np.array([w / total for w in lattice.weights], dtype=np.float64)
        return cls(lattice, base, span, ts[-1], np.array(ts, dtype=np.int64), probabilities)

    def value(self, hands: int, t: int) -> Fraction:
        """The result ``unit·(n·base + span·t)`` of ``t`` on the n-hand lattice."""
        return self.lattice.unit * (hands * self.base + self.span * t)


@dataclass(frozen=True)
class _Window:
    """Kept values ``lo..hi`` of ``t`` for ``hands`` hands; ``tails`` bounds the true mass
    outside."""

    lo: int
    hi: int
    tails: float

    @property
    def size(self) -> int:
        return self.hi - self.lo + 1


def _chernoff_edges(
    ts: FloatArray, probabilities: FloatArray, hands: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], FloatArray]:
    """For each ``m`` in ``hands``: an integer ``x`` and a bound ``b`` with P(T_m ≥ x) ≤ b ≤
    ≈2⁻⁶⁰, T_m the sum of ``m`` draws of ``ts``; ``x = m·max + 1`` (and ``b = 0``) when no
    such cut exists.

    Chernoff: P(T ≥ x) ≤ exp(m·Λ(θ) − θx) for every θ ≥ 0, Λ the log moment generating
    function. At ``x = m·Λ'(θ)`` the exponent is ``−m·J(θ)``, ``J = θΛ' − Λ``, which
    increases from 0 to −log P(max); θ is found by bisection on ``J = 60·log 2 / m``,
    all ``m`` at once. Any θ gives a valid bound, so the bisection's accuracy does not
    matter; the bound is evaluated at the integer ``x`` used, with a margin for its
    rounding.
    """
    top = float(ts.max())
    p_top = float(probabilities[ts == top].sum())
    m = hands.astype(np.float64)
    target = _LOG_TAIL / m
    edges = (hands * int(top) + 1).astype(np.int64)
    bounds = np.zeros(len(hands))
    active = target < -math.log(p_top) * (1 - 1e-9)
    if not active.any():
        return edges, bounds
    below = ts - top  # ≤ 0

    def moments(theta: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Λ(θ) and Λ'(θ), and J(θ), computed around the top value for stability."""
        terms = probabilities[None, :] * np.exp(theta[:, None] * below[None, :])
        mass = terms.sum(axis=1)
        slope = (terms * below[None, :]).sum(axis=1) / mass  # Λ'(θ) − top ≤ 0
        log_mass = np.log(mass)
        return theta * top + log_mass, slope + top, theta * slope - log_mass

    goal = target[active]
    high = np.full(len(goal), 1.0 / (1.0 + float(np.sqrt(np.dot(probabilities, ts * ts)))))
    for _ in range(200):  # doubling: J(θ) → −log p_top as θ → ∞
        short = moments(high)[2] < goal
        if not short.any():
            break
        high[short] *= 2
    low = np.zeros(len(goal))
    for _ in range(80):
        middle = (low + high) / 2
        reached = moments(middle)[2] >= goal
        high = np.where(reached, middle, high)
        low = np.where(reached, low, middle)
    lam, slope, _j = moments(high)
    m_active = m[active]
    x = np.ceil(m_active * slope)
    exponent = m_active * lam - high * x
    # rounding of the exponent, and of each probability w/T (relative u, m times)
    margin = 1e-9 * (np.abs(m_active * lam) + np.abs(high * x)) + 4 * _U * m_active + 1e-12
    bound = np.exp(exponent + margin)
    x_int = x.astype(np.int64)
    cut = (x_int <= hands[active] * int(top)) & np.isfinite(bound) & (bound < 1e-6)
    edges_active = np.where(cut, x_int, hands[active] * int(top) + 1)
    edges[active] = edges_active
    bounds[active] = np.where(cut, bound, 0.0)
    return edges, bounds


def _windows(reduced: _Reduced, counts: Iterable[int]) -> dict[int, _Window]:
    """The window of each number of hands in ``counts``."""
    ms = sorted(set(counts))
    hands = np.array(ms, dtype=np.int64)
    ts = reduced.ts.astype(np.float64)
    right, right_tail = _chernoff_edges(ts, reduced.probabilities, hands)
    left, left_tail = _chernoff_edges(reduced.top - ts, reduced.probabilities, hands)
    windows: dict[int, _Window] = {}
    for i, m in enumerate(ms):
        full = m * reduced.top
        if full + 1 <= _FULL_SUPPORT:
            windows[m] = _Window(0, full, 0.0)
            continue
        lo = full - int(left[i]) + 1
        hi = int(right[i]) - 1
        windows[m] = _Window(max(lo, 0), min(hi, full), float(left_tail[i] + right_tail[i]))
    return windows


# -- convolutions with their error bounds ----------------------------------------------


def _gamma(k: int) -> float:
    """γₖ = k·u/(1 − k·u): the relative error bound of k floating-point operations."""
    return k * _U / (1 - k * _U)


def _fast_length(n: int) -> int:
    """The smallest 2ᵃ3ᵇ5ᶜ at least ``n``: a length the FFT takes quickly."""
    best = 1 << max(n - 1, 0).bit_length()
    five = 1
    while five < best:
        three = five
        while three < best:
            length = three
            while length < n:
                length *= 2
            best = min(best, length)
            three *= 3
        five *= 5
    return best


def _fft_error(length: int, norm_a: float, norm_b: float, mass_a: float, mass_b: float) -> float:
    """An upper bound on ‖ĉ − c‖₁ for the cyclic convolution of length ``length`` by FFT.

    With δ = L·η/(1 − L·η) (L = ⌈log₂ N⌉, Higham §24.1) bounding each transform's
    relative L² error, ‖ĉ − c‖₂ ≤ 2δ(‖a‖₂‖b‖₁ + ‖b‖₂‖a‖₁ + ‖c‖₂) (the factor 2 covers the
    product's rounding and second-order terms), ‖c‖₂ ≤ ‖a‖₂‖b‖₁ (Young), and
    ‖·‖₁ ≤ √N‖·‖₂.
    """
    levels = max(1, math.ceil(math.log2(length)))
    delta = levels * _FFT_ETA / (1 - levels * _FFT_ETA)
    young = min(norm_a * mass_b, norm_b * mass_a)
    return math.sqrt(length) * 2 * delta * (norm_a * mass_b + norm_b * mass_a + young) * 1.01


def _place(values: FloatArray, start: int, window: _Window) -> FloatArray:
    """``values`` (of ``t = start…``) cut or padded to ``window``."""
    out = np.zeros(window.size)
    lo = max(start, window.lo)
    hi = min(start + len(values) - 1, window.hi)
    if lo <= hi:
        out[lo - window.lo : hi - window.lo + 1] = values[lo - start : hi - start + 1]
    return out


@dataclass(frozen=True, eq=False)
class _Stage:
    """A computed distribution of ``t`` for some number of hands, on ``window``, within
    ``error`` (L¹) of the true one."""

    window: _Window
    values: FloatArray
    error: float


def _convolve(a: _Stage, b: _Stage, window: _Window) -> _Stage:
    """The distribution of the sum of two independent stages, on ``window``."""
    mass_a, mass_b = float(a.values.sum()), float(b.values.sum())
    mass_a, mass_b = mass_a * (1 + 1e-9) + 1e-300, mass_b * (1 + 1e-9) + 1e-300
    norm_a = float(np.sqrt(np.dot(a.values, a.values))) * (1 + 1e-9)
    norm_b = float(np.sqrt(np.dot(b.values, b.values))) * (1 + 1e-9)
    length = _fast_length(max(window.size, len(a.values), len(b.values)))
    fft_error = _fft_error(length, norm_a, norm_b, mass_a, mass_b)
    sparse_a, sparse_b = np.flatnonzero(a.values), np.flatnonzero(b.values)
    if len(sparse_a) < len(sparse_b):
        dense, sparse, indices = b, a, sparse_a
    else:
        dense, sparse, indices = a, b, sparse_b
    direct_error = _gamma(len(indices) + 1) * mass_a * mass_b
    start = a.window.lo + b.window.lo
    inherited = a.error + b.error + a.error * b.error
    if len(indices) <= _SPARSE or (
        len(indices) * len(dense.values) <= _DIRECT_WORK and direct_error <= fft_error
    ):
        total = np.zeros(len(dense.values) + len(sparse.values) - 1)
        size = len(dense.values)
        for j in indices:
            total[j : j + size] += sparse.values[j] * dense.values
        values = _place(total, start, window)
        return _Stage(window, values, inherited + direct_error + window.tails)
    spectrum = np.fft.rfft(a.values, length)
    if b is a:
        spectrum *= spectrum
    else:
        spectrum *= np.fft.rfft(b.values, length)
    cyclic = np.fft.irfft(spectrum, length)
    del spectrum
    np.maximum(cyclic, 0.0, out=cyclic)  # the true values are never negative
    shift = (window.lo - start) % length
    if shift + window.size <= length:
        values = cyclic[shift : shift + window.size].copy()
    else:
        values = np.concatenate((cyclic[shift:], cyclic[: window.size - (length - shift)]))
    # values outside the window fold onto it: its true tails count twice
    return _Stage(window, values, inherited + fft_error + 2 * window.tails)


def _parents(m: int, sparse_hand: bool) -> tuple[int, ...]:
    """The numbers of hands whose distributions make that of ``m`` hands."""
    if m == 1:
        return ()
    if m % 2 == 0:
        return (m // 2,)
    return (m - 1, 1) if sparse_hand else (m // 2, m // 2 + 1)


def _chain(m: int, sparse_hand: bool) -> set[int]:
    needed: set[int] = set()
    todo = [m]
    while todo:
        k = todo.pop()
        if k not in needed:
            needed.add(k)
            todo.extend(_parents(k, sparse_hand))
    return needed


def _first_stage(reduced: _Reduced, window: _Window) -> _Stage:
    values = np.zeros(window.size)
    inside = (reduced.ts >= window.lo) & (reduced.ts <= window.hi)
    values[reduced.ts[inside] - window.lo] = reduced.probabilities[inside]
    dropped = float(reduced.probabilities[~inside].sum()) * (1 + 1e-9)
    return _Stage(window, values, _U + dropped)


def _stages(
    reduced: _Reduced, hands: Sequence[int], max_points: int
) -> Iterator[tuple[int, _Stage]]:
    """Each number of ``hands`` whose every stage fits in ``max_points`` points, with its
    computed distribution, smallest first.

    The stages are computed once for all of ``hands`` (10⁵ and 10⁶ share their small
    powers) and each is let go as soon as nothing further needs it, so that memory holds
    a few arrays at a time; the caller is to let go of each one it is given.
    """
    sparse_hand = len(reduced.ts) <= _SPARSE
    chains = {n: _chain(n, sparse_hand) for n in set(hands)}
    windows = _windows(reduced, set[int]().union(*chains.values()))
    feasible = {
        n for n, chain in chains.items() if all(windows[m].size <= max_points for m in chain)
    }
    uses: dict[int, int] = {}
    needed: set[int] = set()
    for n in feasible:
        needed |= chains[n]
    for m in needed:
        for parent in set(_parents(m, sparse_hand)):
            uses[parent] = uses.get(parent, 0) + 1
    for n in feasible:
        uses[n] = uses.get(n, 0) + 1
    done: dict[int, _Stage] = {}

    def release(m: int) -> None:
        uses[m] -= 1
        if uses[m] == 0:
            del done[m]

    for m in sorted(needed):
        parents = _parents(m, sparse_hand)
        if not parents:
            stage = _first_stage(reduced, windows[m])
        elif len(parents) == 1:
            stage = _convolve(done[parents[0]], done[parents[0]], windows[m])
        else:
            stage = _convolve(done[parents[0]], done[parents[1]], windows[m])
        done[m] = stage
        for parent in set(parents):
            release(parent)
        if m in feasible:
            yield m, stage
            release(m)


# -- quantiles ---------------------------------------------------------------------------


def _cumulative(values: FloatArray) -> tuple[FloatArray, float]:
    """Running sums of ``values`` (non-negative, total about 1) and a bound on their error.

    Within blocks of 128 the sums run sequentially (error ≤ 127u of the block's mass);
    the blocks' totals are added exactly as integer multiples of 2⁻⁶², which loses at
    most 2⁻⁶² a block; one more rounding joins the two. A running maximum keeps the
    result monotone without moving it further from the exact sums.
    """
    size = len(values)
    blocks = -(-size // _CDF_BLOCK)
    padded = np.zeros(blocks * _CDF_BLOCK)
    padded[:size] = values
    within = np.cumsum(padded.reshape(blocks, _CDF_BLOCK), axis=1)
    totals = within[:, -1]
    scaled = np.floor(totals * 2.0**62).astype(np.int64)
    before = np.concatenate(([0], np.cumsum(scaled)[:-1])).astype(np.float64) * 2.0**-62
    running = (within + before[:, None]).reshape(-1)[:size]
    np.maximum.accumulate(running, out=running)
    mass = float(totals.sum()) * (1 + 1e-9)
    bound = (_CDF_BLOCK + 2) * _U * mass + blocks * 2.0**-62
    return running, bound


def _exact_counts(reduced: _Reduced, hands: int) -> list[int] | None:
    """The exact number of deals giving each ``t`` over ``hands`` hands, by integers.

    The one-hand polynomial Σ wᵢ·x^tᵢ is packed into one integer at x = 2^bits (bits
    enough that no coefficient of its ``hands``-th power overflows) and raised to that
    power. ``None`` when that integer would be too large to be quick.
    """
    size = hands * reduced.top + 1
    total = reduced.lattice.total
    if size * hands * total.bit_length() > _EXACT_BITS:
        return None
    width = (total**hands).bit_length() // 8 + 1  # bytes per coefficient, each < total**hands
    packed = 0
    for t, w in zip(reduced.ts.tolist(), reduced.lattice.weights, strict=True):
        packed |= w << (8 * width * t)
    raw = (packed**hands).to_bytes(size * width, "little")
    return [int.from_bytes(raw[i * width : (i + 1) * width], "little") for i in range(size)]


def _exact_quantile(cumulative: list[int], total: int, share: Fraction) -> int:
    """The smallest ``t`` with (deals up to ``t``)/total ≥ ``share``."""
    for t, count in enumerate(cumulative):
        if count * share.denominator >= share.numerator * total:
            return t
    return len(cumulative) - 1


def _exact_intervals(
    reduced: _Reduced, hands: int, stage: _Stage, levels: Sequence[Fraction]
) -> list[Interval]:
    """The equal-tailed intervals read off a computed distribution.

    For a target share q and the bound E on |F̂ − F|, the true quantile lies between
    the first ``t`` with F̂(t) ≥ q − E and the first with F̂(t) ≥ q + E. When those
    are one point it is the quantile; when not, exact integers decide if they can, and
    otherwise the low end takes the lower candidate and the high end the higher.
    """
    cdf, summing = _cumulative(stage.values)
    error = stage.error + summing
    slack = error + 4 * _U  # the targets themselves are rounded to float
    start, full = stage.window.lo, hands * reduced.top
    exact: list[int] | None = None
    exact_tried = False

    def quantile(share: Fraction, outer: str) -> int:
        nonlocal exact, exact_tried
        target = float(share)
        first = int(np.searchsorted(cdf, target - slack, side="left"))
        last = int(np.searchsorted(cdf, target + slack, side="left"))
        lowest = min(start + first, full)
        highest = start + last if last < len(cdf) else full
        if lowest == highest:
            return lowest
        if not exact_tried:
            exact_tried = True
            counts = _exact_counts(reduced, hands)
            exact = None if counts is None else list(itertools.accumulate(counts))
        if exact is not None:
            return _exact_quantile(exact, reduced.lattice.total**hands, share)
        return lowest if outer == "low" else highest

    out = []
    for level in levels:
        tail = (1 - level) / 2
        low = quantile(tail, "low")
        high = quantile(1 - tail, "high")
        out.append(
            Interval(
                hands, level, reduced.value(hands, low), reduced.value(hands, high), "exact", error
            )
        )
    return out


def _normal_intervals(reduced: _Reduced, hands: int, levels: Sequence[Fraction]) -> list[Interval]:
    """The normal approximation on the n-hand lattice, with a continuity correction."""
    lattice = reduced.lattice
    error = berry_esseen(lattice.third_absolute_moment, lattice.variance, hands)
    step = float(lattice.unit) * reduced.span
    centre = float(hands * lattice.mean)
    origin = float(lattice.unit * hands * reduced.base)
    sd = math.sqrt(lattice.variance * hands)
    out = []
    for level in levels:
        z = _z(level)

        def smallest(x: float) -> int:
            """The smallest ``t`` whose value plus half a step reaches ``x``."""
            t = math.ceil((x - step / 2 - origin) / step)
            return min(max(t, 0), hands * reduced.top)

        low, high = smallest(centre - z * sd), smallest(centre + z * sd)
        out.append(
            Interval(
                hands, level, reduced.value(hands, low), reduced.value(hands, high), "normal", error
            )
        )
    return out


def intervals(
    lattice: Lattice,
    hands: Sequence[int] = HANDS,
    levels: Sequence[Fraction] = LEVELS,
    *,
    max_points: int = 1 << 22,
) -> tuple[Interval, ...]:
    """The player's result intervals after each number of ``hands``, at each of ``levels``.

    In the order of ``hands``, then ``levels``. Each is ``"exact"`` where every stage of
    the n-hand distribution fits in ``max_points`` lattice points once the tails a
    Chernoff bound puts below 2⁻⁶⁰ are dropped, and ``"normal"``, with its
    Berry–Esseen error, only where it does not (see :class:`Interval`). A bet with a
    single result has point intervals, exact.
    """
    hands = [_check_hands(n) for n in hands]
    levels = [_check_level(level) for level in levels]
    _check_points(max_points)
    reduced = _Reduced.of(lattice)
    found: dict[int, list[Interval]] = {}
    if reduced.top == 0:
        for n in hands:
            value = reduced.value(n, 0)
            found[n] = [Interval(n, level, value, value, "exact", 0.0) for level in levels]
    else:
        for n, stage in _stages(reduced, hands, max_points):
            found[n] = _exact_intervals(reduced, n, stage, levels)
    for n in hands:
        if n not in found:  # too large to convolve within max_points: normal, and says so
            found[n] = _normal_intervals(reduced, n, levels)
    return tuple(interval for n in hands for interval in found[n])


@dataclass(frozen=True, eq=False)
class Distribution:
    """The computed distribution of the total result of ``hands`` hands.

    ``probabilities[i]`` is P(S = :meth:`value` (i)), within ``error`` in L¹ of the
    true distribution (mass outside the array included).
    """

    lattice: Lattice
    hands: int
    start: int
    span: int
    probabilities: FloatArray
    error: float

    def value(self, index: int) -> Fraction:
        """The total result at ``probabilities[index]``."""
        base = self.hands * self.lattice.steps[0]
        return self.lattice.unit * (base + self.span * (self.start + index))


def distribution(lattice: Lattice, hands: int, *, max_points: int = 1 << 22) -> Distribution | None:
    """The total of ``hands`` hands as :func:`intervals` computes it, or ``None`` where it
    would not fit in ``max_points`` points."""
    hands = _check_hands(hands)
    _check_points(max_points)
    reduced = _Reduced.of(lattice)
    if reduced.top == 0:
        return Distribution(lattice, hands, 0, reduced.span, np.ones(1), 0.0)
    for _n, stage in _stages(reduced, [hands], max_points):
        return Distribution(
            lattice, hands, stage.window.lo, reduced.span, stage.values, stage.error
        )
    return None
