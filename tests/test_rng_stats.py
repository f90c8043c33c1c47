"""The statistics of the RNG test battery against known answers.

Pearson's χ² equals scipy's and a textbook example; the permutation-table correction,
the runs test's and the serial sum's moments equal full enumerations of small cases;
Holm's adjustment gives the standard worked example of Holm (1979)'s method.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from baccara.sim.rng_stats import (
    chi_square_fit,
    dice_total_probabilities,
    group_size,
    holm,
    merge_sparse,
    permutation_table,
    runs_moments,
    serial_moments,
)


def test_chi_square_equals_scipy() -> None:
    gen = np.random.default_rng(11)
    probabilities = [Fraction(k, 21) for k in range(1, 7)]
    counts = gen.multinomial(4200, [float(p) for p in probabilities]).tolist()
    ours = chi_square_fit(counts, probabilities)
    theirs = stats.chisquare(counts, [4200 * float(p) for p in probabilities])
    assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
    assert ours.p_value == pytest.approx(theirs.pvalue, rel=1e-9)
    assert ours.df == 5


def test_chi_square_textbook_die() -> None:
    """scipy.stats.chisquare's documented example: a die rolled 60 times."""
    fit = chi_square_fit([16, 18, 16, 14, 12, 12], [Fraction(1, 6)] * 6)
    assert fit.statistic == pytest.approx(2.0) and fit.df == 5
    assert fit.p_value == pytest.approx(0.84914503608460956, rel=1e-12)


def test_sparse_categories_are_merged_until_each_expects_five() -> None:
    probabilities = list(dice_total_probabilities().values())
    fit = chi_square_fit([0] * 7 + [500] + [0] * 8, probabilities)
    assert fit.min_expected >= 5 and fit.cells < 16
    observed, expected = merge_sparse([1, 1, 1, 9], [1, 1, 1, 9])
    assert observed == [12.0] and expected == [12.0]  # the short first group joins the rest


def test_dice_totals_are_counted_exactly() -> None:
    ways = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1]
    assert dice_total_probabilities() == {
        t: Fraction(w, 216) for t, w in zip(range(3, 19), ways, strict=True)
    }


def test_holm_worked_example() -> None:
    """Four hypotheses at α = 0.05 (the standard illustration of Holm 1979): p = 0.01,
    0.04, 0.03, 0.005 → compare 0.005 with α/4, 0.01 with α/3, 0.03 with α/2: the first
    two are rejected, then the procedure stops."""
    adjusted = holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [a < 0.05 for a in adjusted] == [True, False, False, True]
    assert holm([0.5, 0.9]) == [1.0, 1.0] and holm([0.001]) == [0.001]


def test_runs_moments_equal_enumeration() -> None:
    for ones, zeros in [(3, 4), (5, 5), (2, 6)]:
        runs = []
        for places in itertools.combinations(range(ones + zeros), ones):
            row = [int(i in places) for i in range(ones + zeros)]
            runs.append(1 + sum(a != b for a, b in itertools.pairwise(row)))
        mean = Fraction(sum(runs), len(runs))
        variance = Fraction(sum(r * r for r in runs), len(runs)) - mean * mean
        assert runs_moments(ones, zeros) == (mean, variance)


@pytest.mark.parametrize("values", [[0, 0, 1, 2, 3, 3, 5], [1, 2, 3, 4], [9, 9, 0, 0, 0, 4, 1, 7]])
def test_serial_moments_equal_enumeration(values: list[int]) -> None:
    sums = [
        sum(a * b for a, b in itertools.pairwise(order)) for order in itertools.permutations(values)
    ]
    mean = Fraction(sum(sums), len(sums))
    assert serial_moments(values) == (mean, Fraction(sum(s * s for s in sums), len(sums)) - mean**2)


def test_permutation_table_covariance_by_enumeration() -> None:
    """Every order of 6 items, positions pooled in 3 pairs, items in 3 classes of 2: the
    cells' covariance is g·h/(n−1) · (I − J/r) ⊗ (I − J/c), so Pearson's X² has mean
    n/(n−1) · (r−1)(c−1), not (r−1)(c−1) — the factor permutation_table removes."""
    n, g, h = 6, 2, 2
    r, c = n // g, n // h
    tables = []
    for order in itertools.permutations(range(n)):
        table = np.zeros((r, c))
        for position, item in enumerate(order):
            table[position // g, item // h] += 1
        tables.append(table.ravel())
    cells = np.array(tables)
    expected = g * h / n
    covariance = np.cov(cells.T, bias=True)
    p_r, p_c = np.eye(r) - 1 / r, np.eye(c) - 1 / c
    assert np.allclose(covariance, g * h / (n - 1) * np.kron(p_r, p_c))
    x2 = ((cells - expected) ** 2 / expected).sum(axis=1)
    assert x2.mean() == pytest.approx(n / (n - 1) * (r - 1) * (c - 1))


def test_permutation_table_pools_positions_and_scales() -> None:
    gen = np.random.default_rng(5)
    counts = np.stack([gen.multinomial(1000, [1 / 52] * 52) for _ in range(52)])
    fit = permutation_table(counts, 52, 1000)
    x2 = float(((counts - 1000 / 52) ** 2).sum() / (1000 / 52))
    assert fit.statistic == pytest.approx(x2 * 51 / 52) and fit.df == 51 * 51
    assert fit.p_value == pytest.approx(stats.chi2.sf(x2 * 51 / 52, 51 * 51))
    assert group_size(416, 1000 / 416) == 4
    pooled = permutation_table(np.full((416, 416), 1000 // 416), 416, 1000)
    assert pooled.df == (104 - 1) * 415 and pooled.min_expected == pytest.approx(4000 / 416)
