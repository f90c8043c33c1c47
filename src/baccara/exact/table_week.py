"""A table's week: the house's result over the rounds a table deals in a week.

The wagers of a round are the floor plan's mix (:class:`~baccara.games.spec.Floor`):
every occupied seat bets the average bet, seat by seat on the mix's bets in turn
(Banker, Player, Banker…). Bets on one round move together — a Banker and a Player bet
nearly cancel, two Lo-Ball seats share a dealer and the dice — so a round is one draw
from the *joint* distribution, never a sum of independent bets.

Where the table shares one coup (Punto Banco, RedGreen) the round's result is exact in
every cell of the joint distribution, each wager paid as the table pays it (rounded
down to the cent), and the week's interval is exact from that lattice
(:func:`~baccara.exact.volatility.intervals`). At Lo-Ball the joint model gives the
round's exact mean and variance only; the week is normal, with the Berry–Esseen bound
on its error from the most one round can move (:func:`~baccara.exact.volatility.normal_interval`),
and beside it an interval certain to hold the level, from Bernstein's inequality on the
same three figures (:func:`~baccara.exact.volatility.bernstein_interval`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from baccara.exact.floor import FloorPlan
from baccara.exact.joint import house_win_mean, house_win_variance, round_model
from baccara.exact.joint_model import SpotModel, Wager, paid_by_cell
from baccara.exact.model import Analysis
from baccara.exact.volatility import (
    LEVELS,
    Interval,
    bernstein_interval,
    intervals,
    normal_interval,
    round_lattice,
)
from baccara.games import GameSpec


@dataclass(frozen=True)
class TableWeek:
    """The week's wagers per round, the number of rounds, and the house's intervals (cents)."""

    wagers: tuple[Wager, ...]
    rounds: int
    mean_cents: Fraction
    """The house's expected win on one round, as paid."""
    variance_cents: Fraction
    """The variance of the house's win on one round, as paid (cents squared)."""
    intervals: tuple[Interval, ...]
    bound_cents: Fraction | None = None
    """Where ``intervals`` are normal: the most one round's result can be, either way,
    from which their errors and ``certain`` are made."""
    certain: tuple[Interval, ...] = ()
    """Where ``intervals`` are normal: at each level, an interval certain to hold it
    (Bernstein's); none where they are exact."""


def mix_wagers(spec: GameSpec, plan: FloorPlan) -> tuple[Wager, ...]:
    """A round's wagers: seat ``i`` bets the average bet on the mix's ``i``-th bet in turn."""
    mix = spec.floor.mix if spec.floor is not None else spec.bet_ids[:1]
    return tuple(
        (seat, mix[(seat - 1) % len(mix)], plan.average_bet_cents)
        for seat in range(1, plan.seats + 1)
    )


def table_week(spec: GameSpec, rules: object, analysis: Analysis, plan: FloorPlan,
               levels: Sequence[Fraction] = LEVELS) -> TableWeek:  # fmt: skip
    """The house's result over ``plan.hands_per_week`` rounds of the mix, at each level."""
    wagers = mix_wagers(spec, plan)
    rounds = plan.hands_per_week
    mean = house_win_mean(spec.id, rules, wagers, as_paid=True)
    variance = house_win_variance(spec.id, rules, wagers, as_paid=True)
    model = round_model(spec.id, rules)
    if isinstance(model, SpotModel):
        stakes: list[list[int]] = [[] for _ in model.spots]
        for _seat, spot, stake in wagers:
            stakes[model.spots.index(spot)].append(stake)
        players = paid_by_cell(model.pays, stakes)  # the players' result in each cell
        lattice = round_lattice(model.counts, [Fraction(p) for p in players])
        found = intervals(lattice, (rounds,), levels)
    else:
        most = {b.bet: max(abs(o.pays) for o in b.outcomes) for b in analysis.bets}
        bound = sum((stake * max(Fraction(1), most[spot]) for _s, spot, stake in wagers),
                    Fraction(0))  # fmt: skip
        found = tuple(normal_interval(-mean, variance, bound, rounds, level) for level in levels)
        sure = tuple(bernstein_interval(-mean, variance, bound, rounds, level) for level in levels)
        return TableWeek(wagers, rounds, mean, variance, found, bound, sure)
    return TableWeek(wagers, rounds, mean, variance, found)
