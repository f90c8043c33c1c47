"""A simulation set beside the exact analysis: frequencies, z-scores, returns with intervals.

For each bet, each outcome's observed frequency is compared with its exact
probability by the z-score ``(f − p) / √(p(1 − p)/n)``; the observed return per unit
staked (a unit at the exact odds: the kernels count outcomes, they stake nothing) gets a 95 % confidence interval from the sample's standard deviation, and its
distance from the exact return is measured in standard errors of the exact
distribution. Any exact value more than :data:`FLAG_SIGMAS` standard errors from what
was observed is flagged: with the rules right, that happens about once in 16,000
checks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from baccara.cards import ShoeMode
from baccara.errors import BaccaraError
from baccara.exact.model import Analysis
from baccara.exact.stakes import bet_at_stake
from baccara.sim.runs import RoundOutcomes

FLAG_SIGMAS = 4.0
Z95 = 1.959963984540054
"""The two-sided 95 % point of the standard normal distribution."""


def z_score(count: int, rounds: int, probability: Fraction) -> float:
    """Standard errors between the observed frequency and ``probability``."""
    p = float(probability)
    observed = count / rounds
    if p in (0.0, 1.0):
        return 0.0 if observed == p else math.copysign(math.inf, observed - p)
    return (observed - p) / math.sqrt(p * (1 - p) / rounds)


@dataclass(frozen=True)
class OutcomeCheck:
    name: str
    count: int
    observed: float
    expected: Fraction
    z: float

    @property
    def flagged(self) -> bool:
        return abs(self.z) > FLAG_SIGMAS


@dataclass(frozen=True)
class BetCheck:
    """One bet: its outcomes, and its return observed against exact."""

    bet: str
    outcomes: tuple[OutcomeCheck, ...]
    observed_return: float
    return_ci95: tuple[float, float]
    expected_return: Fraction
    return_z: float

    @property
    def flagged(self) -> bool:
        return abs(self.return_z) > FLAG_SIGMAS or any(o.flagged for o in self.outcomes)


def check_bets(
    analysis: Analysis,
    labels: RoundOutcomes,
    counts: npt.NDArray[np.int64],
    rounds: int,
) -> tuple[BetCheck, ...]:
    """Set ``counts`` (bets × outcomes, from ``rounds`` rounds) beside ``analysis``.

    Outcomes are matched by name, so a bet may have any number of them (a side bet's
    pay lines, each named by its condition, then ``win``, ``push`` and ``lose``). An
    outcome the kernel cannot deal counts 0 against its exact probability; one dealt
    that the analysis has not (probability 0) is shown, and flagged.

    Returns are per unit staked, at the exact odds: the kernels count outcomes and stake
    nothing, so no payout is rounded (sessions, played at a stake, give their bet's edge
    at that stake: :mod:`baccara.sim.sessions`). The exact figures come from
    :func:`baccara.exact.stakes.bet_at_stake`, as everywhere else.
    """
    if tuple(analysis.bet_ids) != labels.bets:
        raise BaccaraError(f"the kernel deals {labels.bets}, the analysis has {analysis.bet_ids}")
    checks = []
    for j, bet in enumerate(analysis.bets):
        dealt = {name: int(counts[j, k]) for k, name in enumerate(labels.outcomes[j])}
        row = [dealt.pop(o.name, 0) for o in bet.outcomes]
        outcomes = tuple(
            OutcomeCheck(o.name, n, n / rounds, o.probability, z_score(n, rounds, o.probability))
            for o, n in zip(bet.outcomes, row, strict=True)
        ) + tuple(
            OutcomeCheck(name, n, n / rounds, Fraction(0), z_score(n, rounds, Fraction(0)))
            for name, n in dealt.items()
            if n
        )
        expected = bet_at_stake(bet, None)
        pays = [float(o.paid) for o in expected.outcomes]
        mean = sum(n * x for n, x in zip(row, pays, strict=True)) / rounds
        second = sum(n * x * x for n, x in zip(row, pays, strict=True)) / rounds
        spread = Z95 * math.sqrt(max(second - mean * mean, 0.0) / rounds)
        exact_se = math.sqrt(float(expected.variance) / rounds)
        difference = mean - float(expected.expected_return)
        return_z = difference / exact_se if exact_se else (0.0 if difference == 0 else math.inf)
        checks.append(
            BetCheck(
                bet.bet,
                outcomes,
                mean,
                (mean - spread, mean + spread),
                expected.expected_return,
                return_z,
            )
        )
    return tuple(checks)


@dataclass(frozen=True)
class SimulationReport:
    """A finished (or interrupted) run and its comparison with the exact analysis."""

    game: str
    options: Mapping[str, Any]
    shoe: ShoeMode
    penetration: float
    seed: int
    requested: int
    rounds: int
    workers: int
    seconds: float
    bets: tuple[BetCheck, ...]

    @property
    def complete(self) -> bool:
        return self.rounds == self.requested

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else 0.0

    @property
    def flagged(self) -> list[str]:
        """``bet/outcome`` (or ``bet/return``) of every exact value outside 4 standard errors."""
        found = []
        for bet in self.bets:
            found += [f"{bet.bet}/{o.name}" for o in bet.outcomes if o.flagged]
            if abs(bet.return_z) > FLAG_SIGMAS:
                found.append(f"{bet.bet}/return")
        return found

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": dict(self.options),
            "shoe": self.shoe.value,
            "penetration": self.penetration if self.shoe is ShoeMode.CONTINUOUS else None,
            "expected_is_off_the_top": self.shoe is ShoeMode.CONTINUOUS,
            "rounds": self.rounds,
            "requested_rounds": self.requested,
            "complete": self.complete,
            "seed": self.seed,
            "workers": self.workers,
            "seconds": self.seconds,
            "rounds_per_second": self.rounds_per_second,
            "bets": [
                {
                    "bet": bet.bet,
                    "outcomes": [
                        {
                            "name": o.name,
                            "count": o.count,
                            "observed": o.observed,
                            "expected": float(o.expected),
                            "z": _finite(o.z),
                            "flagged": o.flagged,
                        }
                        for o in bet.outcomes
                    ],
                    "return": bet.observed_return,
                    "return_ci95": list(bet.return_ci95),
                    "expected_return": float(bet.expected_return),
                    "return_z": _finite(bet.return_z),
                    "flagged": bet.flagged,
                }
                for bet in self.bets
            ],
        }


def _finite(value: float) -> float | None:
    """JSON has no infinity: an impossible outcome that came (z = ∞) reads as null."""
    return value if math.isfinite(value) else None
