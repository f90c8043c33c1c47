"""The statistics of the RNG test battery, each with its exact null distribution.

Every test here compares what was dealt with what a perfect shuffle gives *exactly*:
probabilities are counted, never simulated, and where a shuffle's cards are dependent
(a shoe is a permutation, so the card at one position changes the odds at the next)
the dependence is in the formula, not ignored.

* :func:`chi_square_fit`: Pearson's goodness of fit to exact probabilities, sparse
  categories merged until every expected count is at least :data:`MIN_EXPECTED`.
* :func:`permutation_table`: where each item of a shuffled pile lands, summed over
  shuffles. A shuffle is a random permutation, not independent draws, so Pearson's
  statistic is scaled by (n − 1)/n before it is read as χ² (see the function).
* :func:`runs_moments`: the Wald–Wolfowitz runs test's exact mean and variance.
* :func:`serial_moments`: the exact mean and variance of the lag-1 serial sum of a
  randomly permuted multiset of values (successive cards of a shoe).
* :func:`holm`: Holm's step-down adjustment, one family-wise verdict over all tests.

>>> [round(p, 3) for p in holm([0.01, 0.04, 0.03, 0.005])]
[0.03, 0.06, 0.06, 0.02]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from scipy import stats

MIN_EXPECTED = 5.0
"""The smallest expected count a χ² cell may have (Cochran's rule); smaller ones are merged."""

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class ChiSquare:
    """A χ² test: the statistic (scaled where the cells are a permutation's), its degrees of
    freedom, the upper-tail p-value, and how many cells the data were counted in."""

    statistic: float
    df: int
    p_value: float
    cells: int
    min_expected: float


def merge_sparse(
    observed: Sequence[float], expected: Sequence[float], minimum: float = MIN_EXPECTED
) -> tuple[list[float], list[float]]:
    """Merge neighbouring categories, in order, until each expects at least ``minimum``.

    Sweeps from the first category, closing a group once its expectation reaches
    ``minimum``; a short group left at the end joins the one before. For the dice
    totals, 3 and 18 (1/216 each) join 4 and 17 when too few rolls are made.

    >>> merge_sparse([1, 2, 30, 40, 3], [1, 3, 30, 40, 2])
    ([33.0, 43.0], [34.0, 42.0])
    """
    if len(observed) != len(expected) or not observed:
        raise ValueError("observed and expected counts must be non-empty and the same length")
    obs: list[float] = []
    exp: list[float] = []
    o_run = e_run = 0.0
    for o, e in zip(observed, expected, strict=True):
        o_run, e_run = o_run + o, e_run + e
        if e_run >= minimum:
            obs.append(o_run)
            exp.append(e_run)
            o_run = e_run = 0.0
    if e_run > 0 or o_run > 0:
        if obs:
            obs[-1] += o_run
            exp[-1] += e_run
        else:
            obs, exp = [o_run], [e_run]
    return obs, exp


def chi_square_fit(counts: Sequence[int], probabilities: Sequence[Fraction]) -> ChiSquare:
    """Pearson's χ² of ``counts`` against exact ``probabilities`` (which sum to 1).

    >>> fit = chi_square_fit([5, 8, 9, 8, 10, 20], [Fraction(1, 6)] * 6)
    >>> round(fit.statistic, 4), fit.df, round(fit.p_value, 4)
    (13.4, 5, 0.0199)
    """
    if sum(probabilities) != 1:
        raise ValueError("the probabilities must sum to 1")
    total = sum(counts)
    observed, expected = merge_sparse(
        [float(c) for c in counts], [float(p * total) for p in probabilities]
    )
    o, e = np.array(observed), np.array(expected)
    statistic = float(np.sum((o - e) ** 2 / e))
    df = len(o) - 1
    return ChiSquare(statistic, df, chi2_sf(statistic, df), len(o), float(e.min()))


def group_size(n: int, expected_per_member: float, minimum: float = MIN_EXPECTED) -> int:
    """The smallest divisor g of ``n`` for which g members expect at least ``minimum``.

    >>> group_size(416, 1000 / 416), group_size(416, 20000 / 416)
    (4, 1)
    """
    for g in range(1, n + 1):
        if n % g == 0 and g * expected_per_member >= minimum:
            return g
    return n


def permutation_table(counts: IntArray, n: int, shuffles: int) -> ChiSquare:
    """Where things land after ``shuffles`` uniform shuffles of a pile of ``n``.

    ``counts[p, c]`` is how often class ``c`` of the pile was found at position ``p``:
    the classes split the pile into equal parts (``n`` single cards, or 52 faces of
    ``n / 52`` copies each), so every cell expects ``shuffles / columns``. Positions
    are pooled into consecutive groups of equal size until each cell expects at least
    :data:`MIN_EXPECTED`.

    One shuffle is a 0/1 matrix X with one card a position: a random permutation,
    not independent draws. For a uniform permutation of n items,
    Cov(X_pi, X_qj) = (1/(n−1)) · (δ_pq − 1/n)(δ_ij − 1/n) exactly; pooling r groups
    of g positions and c classes of h items, the standardised cells (C − E)/√E have
    covariance n/(n−1) times the projection of rank (r−1)(c−1). So Pearson's X² has
    mean exactly n/(n−1) · (r−1)(c−1) and is asymptotically n/(n−1) · χ² with
    (r−1)(c−1) degrees of freedom: the statistic reported is X² · (n−1)/n. (Without
    the factor an n × n table of single cards would read √2/2 ≈ 0.71 standard
    deviations high, whatever n, and the 416 × 52 table of faces 0.25.)
    """
    positions, classes = counts.shape
    if positions != n or n % classes:
        raise ValueError(f"a table of {n} positions by a whole division of {n} items")
    per_position = shuffles / classes
    g = group_size(n, per_position)
    pooled = counts.reshape(n // g, g, classes).sum(axis=1)
    expected = per_position * g
    x2 = float(np.sum((pooled - expected) ** 2) / expected)
    statistic = x2 * (n - 1) / n
    df = (pooled.shape[0] - 1) * (classes - 1)
    return ChiSquare(statistic, df, chi2_sf(statistic, df), pooled.size, expected)


def chi2_sf(statistic: float, df: int) -> float:
    """The upper tail of χ² with ``df`` degrees of freedom."""
    return float(stats.chi2.sf(statistic, df))


def chi_square_sum(fits: Sequence[ChiSquare]) -> ChiSquare:
    """Independent χ² tests as one: statistics and degrees of freedom add up."""
    statistic = sum(f.statistic for f in fits)
    df = sum(f.df for f in fits)
    return ChiSquare(
        statistic,
        df,
        chi2_sf(statistic, df),
        sum(f.cells for f in fits),
        min(f.min_expected for f in fits),
    )


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal z.

    >>> round(normal_p(1.959964), 4)
    0.05
    """
    return float(2 * stats.norm.sf(abs(z)))


def binomial_half_p(successes: int, trials: int) -> float:
    """Exact two-sided p-value of ``successes`` in ``trials`` fair coin tosses.

    >>> round(binomial_half_p(60, 100), 4)
    0.0569
    """
    if trials == 0:
        return 1.0
    return float(stats.binomtest(successes, trials, 0.5).pvalue)


def runs_moments(ones: int, zeros: int) -> tuple[Fraction, Fraction]:
    """Mean and variance of the number of runs in a random arrangement of ``ones`` 1s
    and ``zeros`` 0s (Wald and Wolfowitz 1940), exactly.

    >>> runs_moments(2, 2)
    (Fraction(3, 1), Fraction(2, 3))
    """
    n, product = ones + zeros, 2 * ones * zeros
    mean = Fraction(product, n) + 1
    variance = Fraction(product * (product - n), n * n * (n - 1))
    return mean, variance


def serial_moments(values: Sequence[int]) -> tuple[Fraction, Fraction]:
    """Mean and variance of S = Σ v[i]·v[i+1] (i = 0 … n−2) over a uniformly random
    order of the multiset ``values``, exactly.

    S has n − 1 terms. A term's mean is E[v_a v_b] for two distinct places; the
    variance needs E[v_a² v_b²] (a term with itself), E[v_a² v_b v_c] (neighbouring
    terms share a card) and E[v_a v_b v_c v_d] (terms far apart), each a sum over
    distinct places written with the power sums P_k = Σ v^k and divided by the
    falling factorial n(n−1)…; e.g. Σ over distinct a, b, c, d of v_a v_b v_c v_d is
    P1⁴ − 6P1²P2 + 3P2² + 8P1P3 − 6P4.

    >>> serial_moments([0, 1, 2])
    (Fraction(4, 3), Fraction(8, 9))
    """
    n = len(values)
    if n < 4:
        # Too few cards for the general formula's four distinct places: count every order.
        return _serial_moments_by_enumeration(values)
    p1, p2, p3, p4 = (sum(Fraction(v) ** k for v in values) for k in (1, 2, 3, 4))
    pairs = n - 1
    two = Fraction(n * (n - 1))
    three = two * (n - 2)
    four = three * (n - 3)
    mean_term = (p1 * p1 - p2) / two
    same = (p2 * p2 - p4) / two
    shared = (p2 * p1 * p1 - p2 * p2 - 2 * p1 * p3 + 2 * p4) / three
    apart = (p1**4 - 6 * p1 * p1 * p2 + 3 * p2 * p2 + 8 * p1 * p3 - 6 * p4) / four
    far_pairs = pairs * pairs - pairs - 2 * (pairs - 1)
    second = pairs * same + 2 * (pairs - 1) * shared + far_pairs * apart
    mean = pairs * mean_term
    return mean, second - mean * mean


def _serial_moments_by_enumeration(values: Sequence[int]) -> tuple[Fraction, Fraction]:
    import itertools

    sums = [
        sum(order[i] * order[i + 1] for i in range(len(order) - 1))
        for order in itertools.permutations(values)
    ]
    mean = Fraction(sum(sums), len(sums))
    return mean, Fraction(sum(s * s for s in sums), len(sums)) - mean * mean


def dice_total_probabilities(dice: int = 3) -> dict[int, Fraction]:
    """The exact distribution of the total of ``dice`` fair dice, by counting every roll.

    >>> probabilities = dice_total_probabilities()
    >>> probabilities[3], probabilities[10], probabilities[18]
    (Fraction(1, 216), Fraction(1, 8), Fraction(1, 216))
    """
    import itertools

    totals = Counter(sum(roll) for roll in itertools.product(range(1, 7), repeat=dice))
    rolls = 6**dice
    return {total: Fraction(count, rolls) for total, count in sorted(totals.items())}


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's (1979) step-down adjusted p-values, in the order given.

    The smallest p is multiplied by m, the next by m − 1, …, each kept at least as large
    as the one before and at most 1. A test fails at family-wise level α when its
    adjusted p-value is below α; the chance that any of m true hypotheses fails is then
    at most α, however the tests depend on each other.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def z_score(observed: float, mean: Fraction, variance: Fraction) -> float:
    """(observed − mean) / √variance; the moments are exact, the division in floating point."""
    if variance <= 0:
        raise ValueError("a z-score needs a positive variance")
    return float(Fraction(observed) - mean) / math.sqrt(variance)
