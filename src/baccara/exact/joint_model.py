"""Exact means and covariances of the bets on one round, as integers over one denominator.

Every game's round model (:mod:`baccara.exact.joint`) ends in the same algebra. Let
``X`` be the vector of a round's results per unit staked, one entry per bet (a
Banker bet's ``X`` is 19/20, 0 or −1); a round's wagers put ``s_k`` cents on entry
``k``, and the house wins ``W = −Σ s_k X_k``. Then

    E[W] = −Σ s_k μ_k        Var W = Σ_k Σ_l s_k s_l C_kl

with ``μ`` the mean vector and ``C`` the covariance matrix of ``X``. Both are exact
fractions; here they are stored as integer numerators over one common denominator
each, so that a round costs a few integer products and one :class:`Fraction` at the
end — the variance of thousands of rounds is computed in milliseconds, and exactly.

:func:`form_from_cells` builds the form from a joint distribution given as exact
counts of *cells* (the outcomes that decide every bet together, e.g. Banker win with
a Player pair and no Banker pair) and what each bet pays in each cell.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from baccara.errors import BaccaraError
from baccara.exact.stakes import whole_cents, won_at_stake

Wager = tuple[int | None, str, int]
"""(seat or None, bet spot id, stake in cents): one wager on a round."""


class RoundModel(Protocol):
    """Every round of one game under one set of rules: the house's win from the wagers.

    Each game's ``round_model(rules)`` returns one (the registry's ``joint`` role);
    the wagers reach it already checked (known spots, whole positive stakes).
    """

    def house_mean(self, wagers: Sequence[Wager]) -> Fraction:
        """E[W] in cents."""
        ...

    def house_variance(self, wagers: Sequence[Wager]) -> Fraction:
        """Var W in cents²."""
        ...

    def paid_mean(self, wagers: Sequence[Wager]) -> Fraction:
        """E[W] in cents with every wager's payout rounded down to the cent, as settled."""
        ...

    def paid_variance(self, wagers: Sequence[Wager]) -> Fraction:
        """Var W in cents² with every wager's payout rounded down to the cent, as settled."""
        ...


@dataclass(frozen=True)
class ExactForm:
    """The mean vector ``μ`` and covariance matrix ``C`` of per-unit results, exactly.

    ``μ_k = mean[k] / mean_denominator`` and ``C_kl = covariance[k][l] /
    covariance_denominator``; the matrix is symmetric.
    """

    mean: tuple[int, ...]
    mean_denominator: int
    covariance: tuple[tuple[int, ...], ...]
    covariance_denominator: int

    def __post_init__(self) -> None:
        size = len(self.mean)
        if len(self.covariance) != size or any(len(row) != size for row in self.covariance):
            raise BaccaraError("a covariance matrix is square, one row per mean")
        if self.mean_denominator <= 0 or self.covariance_denominator <= 0:
            raise BaccaraError("denominators are positive")

    @classmethod
    def of(cls, mean: Sequence[Fraction], covariance: Sequence[Sequence[Fraction]]) -> ExactForm:
        """The form of exact fractions, each brought over its least common denominator."""
        mean_den = math.lcm(1, *(m.denominator for m in mean))
        cov_den = math.lcm(1, *(c.denominator for row in covariance for c in row))
        return cls(
            tuple(int(m * mean_den) for m in mean),
            mean_den,
            tuple(tuple(int(c * cov_den) for c in row) for row in covariance),
            cov_den,
        )

    @property
    def size(self) -> int:
        return len(self.mean)

    def mean_fractions(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(m, self.mean_denominator) for m in self.mean)

    def covariance_fractions(self) -> tuple[tuple[Fraction, ...], ...]:
        den = self.covariance_denominator
        return tuple(tuple(Fraction(c, den) for c in row) for row in self.covariance)

    def expected(self, stakes: Sequence[int]) -> Fraction:
        """``Σ s_k μ_k``: the bettors' expected net result on stakes ``s`` (cents)."""
        return Fraction(_dot(stakes, self.mean), self.mean_denominator)

    def quadratic(self, left: Sequence[int], right: Sequence[int] | None = None) -> int:
        """``sᵀ N t`` for the integer numerator matrix ``N`` (``t = s`` by default).

        Divide by :attr:`covariance_denominator` for the covariance of ``sᵀX`` and ``tᵀX``.
        """
        right = left if right is None else right
        return sum(
            s * _dot(right, row)
            for s, row in zip(left, self.covariance, strict=True)
            if s  # most rounds leave most spots empty
        )

    def variance(self, stakes: Sequence[int]) -> Fraction:
        """``sᵀ C s``: the variance of the result of stakes ``s`` (cents²)."""
        return Fraction(self.quadratic(stakes), self.covariance_denominator)


def _dot(a: Sequence[int], b: Sequence[int]) -> int:
    return sum(x * y for x, y in zip(a, b, strict=True) if x)


def form_from_cells(counts: Sequence[int], pays: Sequence[Sequence[Fraction]]) -> ExactForm:
    """Mean and covariance of the results per unit staked, from a joint distribution.

    ``counts[c]`` is how many of the equally likely deals fall in cell ``c`` and
    ``pays[c][k]`` what bet ``k`` returns per unit (net, "to 1"; −1 for a loss) in
    that cell. With ``T = Σ n_c`` and every pay scaled by the least common multiple
    ``L`` of their denominators to an integer ``y``:

        μ_k = Σ n_c y_ck / (T·L)
        C_kl = (T·Σ n_c y_ck y_cl − (Σ n_c y_ck)(Σ n_c y_cl)) / (T²·L²)

    — integers throughout, reduced by their common divisor at the end.
    """
    if len(counts) != len(pays) or not counts:
        raise BaccaraError("one row of pays per cell, and at least one cell")
    total = sum(counts)
    if total <= 0 or any(n < 0 for n in counts):
        raise BaccaraError("cell counts are non-negative and not all zero")
    size = len(pays[0])
    scale = math.lcm(1, *(p.denominator for row in pays for p in row))
    scaled = [[int(p * scale) for p in row] for row in pays]
    first = [sum(n * row[k] for n, row in zip(counts, scaled, strict=True)) for k in range(size)]
    second = [
        [
            sum(n * row[k] * row[j] for n, row in zip(counts, scaled, strict=True))
            for j in range(size)
        ]
        for k in range(size)
    ]
    cov = [[total * second[k][j] - first[k] * first[j] for j in range(size)] for k in range(size)]
    cov_den = total * total * scale * scale
    divisor = math.gcd(cov_den, *(c for row in cov for c in row))
    mean_den = total * scale
    mean_divisor = math.gcd(mean_den, *first)
    return ExactForm(
        tuple(m // mean_divisor for m in first),
        mean_den // mean_divisor,
        tuple(tuple(c // divisor for c in row) for row in cov),
        cov_den // divisor,
    )


def paid_by_cell(pays: Sequence[Sequence[Fraction]], stakes: Sequence[Sequence[int]]) -> list[int]:
    """The bettors' net result in cents in each cell, every wager settled on its own.

    ``stakes[k]`` lists the stakes of the wagers on bet ``k`` and ``pays[c][k]`` what
    bet ``k`` pays to 1 in cell ``c``; each wager's payout is rounded down to the cent
    (:func:`baccara.exact.stakes.won_at_stake`), so two 0.25 Banker wins pay 0.46
    where one of 0.50 pays 0.47.
    """
    paid = [0] * len(pays)
    for k, on_bet in enumerate(stakes):
        if not on_bet:
            continue
        by_pay: dict[Fraction, int] = {}
        for c, row in enumerate(pays):
            value = by_pay.get(row[k])
            if value is None:
                value = by_pay[row[k]] = sum(won_at_stake(s, row[k]) for s in on_bet)
            paid[c] += value
    return paid


def cell_moments(counts: Sequence[int], paid: Sequence[int]) -> tuple[Fraction, Fraction]:
    """Mean and variance of a result worth ``paid[c]`` cents in cell ``c``, ``counts[c]`` deals."""
    total = sum(counts)
    first = sum(n * y for n, y in zip(counts, paid, strict=True) if n)
    second = sum(n * y * y for n, y in zip(counts, paid, strict=True) if n)
    return Fraction(first, total), Fraction(total * second - first * first, total * total)


@dataclass(frozen=True)
class SpotModel:
    """A round whose bets are all on one coup: only the total staked on each spot matters.

    Punto Banco and RedGreen deal one coup for the whole table; two players' Banker
    bets are the same bet, so the round is the vector of totals per spot and the
    variance is that vector's quadratic form. As paid, each wager's payout is rounded
    down on its own, so the paid figures read every cell of the joint distribution
    (``counts`` deals, each bet paying ``pays[c][k]``) — only when some payout is not
    whole cents; otherwise they are the form's.
    """

    spots: tuple[str, ...]
    form: ExactForm
    counts: tuple[int, ...] = ()
    pays: tuple[tuple[Fraction, ...], ...] = ()

    @classmethod
    def of(
        cls, spots: Sequence[str], counts: Sequence[int], pays: Sequence[Sequence[Fraction]]
    ) -> SpotModel:
        """The model of a joint distribution: ``counts[c]`` deals in cell ``c``, where bet
        ``k`` (in ``spots`` order) pays ``pays[c][k]`` to 1."""
        return cls(
            tuple(spots),
            form_from_cells(counts, pays),
            tuple(counts),
            tuple(tuple(row) for row in pays),
        )

    def totals(self, wagers: Sequence[Wager]) -> list[int]:
        """Cents staked on each spot (wagers already checked by :mod:`baccara.exact.joint`)."""
        index = {spot: k for k, spot in enumerate(self.spots)}
        totals = [0] * len(self.spots)
        for _seat, spot, stake in wagers:
            totals[index[spot]] += stake
        return totals

    def house_mean(self, wagers: Sequence[Wager]) -> Fraction:
        return -self.form.expected(self.totals(wagers))

    def house_variance(self, wagers: Sequence[Wager]) -> Fraction:
        return self.form.variance(self.totals(wagers))

    def _paid(self, wagers: Sequence[Wager]) -> tuple[Fraction, Fraction] | None:
        """Mean and variance of the house's win as paid, or ``None`` when nothing rounds."""
        if not self.counts:
            raise BaccaraError("this round model was built without its cells")
        index = {spot: k for k, spot in enumerate(self.spots)}
        placed = [(index[spot], stake) for _seat, spot, stake in wagers]
        if all(whole_cents(stake, (row[k] for row in self.pays)) for k, stake in placed):
            return None  # every wager paid whole cents in every cell: the form is exact
        stakes: list[list[int]] = [[] for _ in self.spots]
        for k, stake in placed:
            stakes[k].append(stake)
        mean, variance = cell_moments(self.counts, paid_by_cell(self.pays, stakes))
        return -mean, variance

    def paid_mean(self, wagers: Sequence[Wager]) -> Fraction:
        paid = self._paid(wagers)
        return self.house_mean(wagers) if paid is None else paid[0]

    def paid_variance(self, wagers: Sequence[Wager]) -> Fraction:
        paid = self._paid(wagers)
        return self.house_variance(wagers) if paid is None else paid[1]
