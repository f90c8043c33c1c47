"""One round's risk to the house: the most it can pay, and how its bets move together.

**Liability.** Every occupied seat bets the table's maximum on a spot; the most one
round can cost the house on that spot is what its best outcome pays them all, each
payout rounded down to the cent as it is paid. At Punto Banco and RedGreen the seats'
bets on a spot are one bet on one coup, so they all win together; the table's worst
round is the cell of the joint distribution (:class:`~baccara.exact.joint_model.SpotModel`)
where the winning spots pay the most together — every seat on every spot that wins
it — found exactly with its probability. At Lo-Ball a seat plays its own hand: one
hand at most holds 1-1 (Lo-Card) or 7-7 (Hi-Card), the dice are the table's, and the
deals that give every seat its best main outcome at once are counted
(:mod:`~baccara.exact.loball_worst`); the sheet says where a figure is a bound.

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

from baccara.errors import BaccaraError
from baccara.exact.joint import house_win_variance, round_model
from baccara.exact.joint_model import SpotModel, Wager
from baccara.exact.loball_worst import worst_tiles_probability
from baccara.exact.model import Analysis
from baccara.exact.stakes import won_at_stake
from baccara.games import GameSpec
from baccara.games.loball import LoBallRules


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
    """Of the best outcome at one seat."""
    best: tuple[str, ...]
    """The outcomes that pay a seat ``per_seat_cents``, as paid: the best, several when
    they come to the same cents."""


@dataclass(frozen=True)
class RoundLiability:
    """Every spot's liability and the table's worst round, with its probability."""

    max_bet_cents: int
    seats: int
    bets: tuple[BetLiability, ...]
    total_cents: int
    probability: Fraction
    exact: bool
    """``True``: ``probability`` is the worst round's, counted (zero: no deal makes the
    total, which then bounds the worst round); ``False``: an upper bound (Lo-Ball, where a
    plain win pays as much as the best, or the count was not asked for)."""
    winners: tuple[tuple[str, ...], ...]
    """Each set of spots that win together on a worst round (Red and the Bonus, or Green
    and the Bonus)."""
    shared: bool
    """The seats' bets on a spot are one bet on one coup (Punto Banco, RedGreen); at
    Lo-Ball each seat plays its own hand."""


EXCLUSIVE = (frozenset({"dice-lo", "dice-hi"}),)
"""Seat bets on the table's one roll that cannot both win: a total is 4-10 or 11-17."""


def liability(spec: GameSpec, rules: object, analysis: Analysis, max_bet_cents: int,
              seats: int, *, count: bool = True) -> RoundLiability:  # fmt: skip
    """The most one round of ``spec`` under ``rules`` pays, every seat at the maximum on
    every spot (side bets included). ``count=False`` leaves Lo-Ball's worst round bounded
    rather than counted, for a caller that reads only the payouts (the comparison sheet)."""
    shared = isinstance(round_model(spec.id, rules), SpotModel)
    rows = []
    for bet in analysis.bets:
        top = max(o.pays for o in bet.outcomes)
        per_seat = won_at_stake(max_bet_cents, top) if top > 0 else 0
        best = [  # the outcomes that come to the most in cents; the highest pay if none pays
            o for o in bet.outcomes
            if (won_at_stake(max_bet_cents, o.pays) == per_seat if per_seat else o.pays == top)
        ]  # fmt: skip
        probability = sum((o.probability for o in best), Fraction(0))
        paid = 1 if not shared and bet.bet in ("lo-card", "hi-card") else seats
        rows.append(BetLiability(bet.bet, top, per_seat, paid, per_seat * paid, probability,
                                 tuple(o.name for o in best)))  # fmt: skip
    if shared:
        total, worst, winners = _worst_cells(spec, rules, max_bet_cents, seats)
        return RoundLiability(max_bet_cents, seats, tuple(rows), total, worst, True, winners, True)
    return _own_hands(rules, max_bet_cents, seats, tuple(rows), count)


def _own_hands(rules: object, max_bet_cents: int, seats: int, rows: tuple[BetLiability, ...],
               count: bool) -> RoundLiability:  # fmt: skip
    """Lo-Ball: every seat's main wager at its best pay, the one Lo-Card and one Hi-Card,
    and every seat on the side of the dice that wins. The tiles' part of its probability
    is counted (:func:`~baccara.exact.loball_worst.worst_tiles_probability`; zero when
    no deal makes those payouts together, whose sum then bounds the worst round); the
    dice are rolled apart from the tiles, a factor. Where the count cannot be made (a
    plain win paying as much as the bonus) the probability is bounded by one seat's best
    main outcome and the dice, which the worst round needs and which are independent."""
    by_bet = {row.bet: row for row in rows}
    exclusive = {bet for group in EXCLUSIVE for bet in group}
    total = sum(row.total_cents for row in rows if row.bet not in exclusive)
    winners = [row.bet for row in rows if row.per_seat_cents > 0 and row.bet not in exclusive]
    dice = Fraction(1)
    sides: list[tuple[str, ...]] = [()]
    for group in EXCLUSIVE:
        present = [by_bet[b] for b in sorted(group) if b in by_bet]
        top = max((row.total_cents for row in present), default=0)
        if top > 0:
            paying = [row for row in present if row.total_cents == top]
            total += top
            dice *= sum((row.probability for row in paying), Fraction(0))
            sides = [(row.bet,) for row in paying]
    found = tuple((*winners, *side) for side in sides)
    if not isinstance(rules, LoBallRules):
        raise BaccaraError(
            f"a table of hands of their own is Lo-Ball's, not {type(rules).__name__}"
        )
    tiles = worst_tiles_probability(rules, max_bet_cents, seats) if count else None
    if tiles is None:
        bound = by_bet["main"].probability * dice
        return RoundLiability(max_bet_cents, seats, rows, total, bound, False, found, False)
    return RoundLiability(max_bet_cents, seats, rows, total, tiles * dice, True, found, False)


def _worst_cells(
    spec: GameSpec, rules: object, max_bet_cents: int, seats: int
) -> tuple[int, Fraction, tuple[tuple[str, ...], ...]]:
    model = round_model(spec.id, rules)
    assert isinstance(model, SpotModel)

    def paid(row: Sequence[Fraction]) -> int:
        return sum(seats * won_at_stake(max_bet_cents, p) for p in row if p > 0)

    totals = [paid(row) for row in model.pays]
    worst = max(totals)
    hit = [c for c, t in enumerate(totals) if t == worst]
    count = sum(model.counts[c] for c in hit)
    winners = dict.fromkeys(
        tuple(s for k, s in enumerate(model.spots) if model.pays[c][k] > 0) for c in hit
    )
    return worst, Fraction(count, sum(model.counts)), tuple(winners)


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
