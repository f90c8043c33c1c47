"""One round's risk to the house: the most it can pay, and how its bets move together.

**Liability.** Every occupied seat bets the table's maximum on a spot; the most one
round can cost the house on that spot is what its best outcome pays them all, each
payout rounded down to the cent as it is paid. At Punto Banco and RedGreen the seats'
bets on a spot are one bet on one coup, so they all win together; the table's worst
round is the cell of the joint distribution (:class:`~baccara.exact.joint_model.SpotModel`)
where the winning spots pay the most together — every seat on every spot that wins
it — found exactly with its probability. At Lo-Ball a seat plays its own hand: one
hand at most holds 1-1 (Lo-Card) or 7-7 (Hi-Card), the dice are the table's, and the
main wager's best pay at several seats at once is bounded, not counted: the sheet
says which figures are bounds.

**Correlation.** ``ρ(X_k, X_l)`` between the per-unit results of two wagers on one round,
from the exact covariance the joint model gives (:func:`~baccara.exact.joint.house_win_variance`
of each wager and of both together): Banker against Player, Red against Green, one
Lo-Ball seat against the next. The covariances are exact fractions; a correlation is
their ratio to a square root, a float.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from baccara.exact.joint import house_win_variance, round_model
from baccara.exact.joint_model import SpotModel, Wager
from baccara.exact.model import Analysis
from baccara.exact.stakes import won_at_stake
from baccara.games import GameSpec


@dataclass(frozen=True)
class BetLiability:
    """The most one round pays on one spot with every seat at ``max_bet_cents`` on it."""

    bet: str
    top_pays: Fraction
    per_seat_cents: int
    seats_paid: int
    """How many seats the best outcome can pay at once (1 for Lo-Card: one hand holds 1-1)."""
    total_cents: int
    probability: Fraction
    """Of the best outcome on the round (for a seat's own bet: at any seat)."""
    bound: bool = False
    """``True`` when ``total_cents`` is an upper bound, not a count (Lo-Ball's main wager)."""


@dataclass(frozen=True)
class RoundLiability:
    """Every spot's liability and the table's worst round, with its probability."""

    max_bet_cents: int
    seats: int
    bets: tuple[BetLiability, ...]
    total_cents: int
    probability: Fraction | None
    """Exact for one coup shared by the table; ``None`` where the total is a bound."""
    winners: tuple[str, ...]
    """The spots that win together on the worst round."""


def liability(spec: GameSpec, rules: object, analysis: Analysis, max_bet_cents: int,
              seats: int) -> RoundLiability:  # fmt: skip
    """The most one round of ``spec`` under ``rules`` pays, every seat at the maximum."""
    shared = isinstance(round_model(spec.id, rules), SpotModel)
    rows = []
    for bet in analysis.bets:
        top = max(bet.outcomes, key=lambda o: o.pays)
        best = [o for o in bet.outcomes if o.pays == top.pays]
        probability = sum((o.probability for o in best), Fraction(0))
        per_seat = won_at_stake(max_bet_cents, top.pays) if top.pays > 0 else 0
        paid, bound = seats, False
        if not shared and bet.bet in ("lo-card", "hi-card"):
            paid, probability = 1, min(Fraction(1), probability * seats)  # disjoint hands
        elif not shared and bet.bet == "main":
            bound = seats > 1
        rows.append(
            BetLiability(bet.bet, top.pays, per_seat, paid, per_seat * paid, probability, bound)
        )
    worst: Fraction | None = None
    if shared:
        total, worst, winners = _worst_cell(spec, rules, max_bet_cents, seats)
    else:
        total = sum(r.total_cents for r in rows)
        winners = tuple(r.bet for r in rows if r.per_seat_cents > 0)
    return RoundLiability(max_bet_cents, seats, tuple(rows), total, worst, winners)


def _worst_cell(
    spec: GameSpec, rules: object, max_bet_cents: int, seats: int
) -> tuple[int, Fraction, tuple[str, ...]]:
    model = round_model(spec.id, rules)
    assert isinstance(model, SpotModel)

    def paid(row: Sequence[Fraction]) -> int:
        return sum(seats * won_at_stake(max_bet_cents, p) for p in row if p > 0)

    totals = [paid(row) for row in model.pays]
    worst = max(totals)
    hit = [c for c, t in enumerate(totals) if t == worst]
    count = sum(model.counts[c] for c in hit)
    winners = tuple(s for k, s in enumerate(model.spots) if model.pays[hit[0]][k] > 0)
    return worst, Fraction(count, sum(model.counts)), winners


@dataclass(frozen=True)
class Correlations:
    """The exact covariance of per-unit results of wagers on one round, and ρ from it."""

    labels: tuple[str, ...]
    covariance: tuple[tuple[Fraction, ...], ...]

    def correlation(self, i: int, j: int) -> float:
        """ρ; 0 when either result never varies."""
        scale = float(self.covariance[i][i]) * float(self.covariance[j][j])
        return 0.0 if scale == 0 else float(self.covariance[i][j]) / math.sqrt(scale)


def round_wagers(spec: GameSpec, rules: object) -> tuple[tuple[str, Wager], ...]:
    """One unit wager on every spot of a round, labelled: at a shared coup each spot once;
    at Lo-Ball two seats' own bets (they share a dealer) and the table's dice."""
    spots = spec.bets_at(rules)
    if isinstance(round_model(spec.id, rules), SpotModel):
        return tuple((spot, (None, spot, 1)) for spot in spots)
    own = [s for s in spots if not s.startswith("dice")]
    dice = [s for s in spots if s.startswith("dice")]
    return (
        *((f"seat 1 {s}", (1, s, 1)) for s in own),
        *((f"seat 2 {s}", (2, s, 1)) for s in own),
        *((s, (1, s, 1)) for s in dice),
    )


def correlations(spec: GameSpec, rules: object) -> Correlations:
    """Every pair of :func:`round_wagers`: Cov = (Var(a + b) − Var a − Var b) / 2, exactly."""
    labelled = round_wagers(spec, rules)
    wagers = [w for _, w in labelled]
    variance = [house_win_variance(spec.id, rules, [w]) for w in wagers]
    size = len(wagers)
    rows = [[Fraction(0)] * size for _ in range(size)]
    for i in range(size):
        rows[i][i] = variance[i]
        for j in range(i + 1, size):
            both = house_win_variance(spec.id, rules, [wagers[i], wagers[j]])
            rows[i][j] = rows[j][i] = (both - variance[i] - variance[j]) / 2
    return Correlations(tuple(label for label, _ in labelled), tuple(map(tuple, rows)))
