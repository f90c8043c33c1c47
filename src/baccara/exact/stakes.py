"""A bet's figures at the stake that is paid, each payout rounded down to the cent.

The exact analysis counts every outcome at its odds "to 1" (19/20 for a Banker win).
A real wager is settled in whole cents by :func:`baccara.money.settle`, which rounds
each payout down in the house's favour, so a bet's edge depends on its stake: 19:20
on 0.25 pays 0.23, not 0.2375, and on 0.01 it pays nothing at all.

**The one rounding rule.** A wager of ``s`` cents on an outcome paying ``p`` to 1 ends
``⌊s·p⌋`` cents up (or down): a win pays its odds rounded down, a push returns the
stake, a loss takes it, and Lo-Ball's Play-bonus — a lost wager paid a bonus on it —
takes the stake and pays the bonus rounded down. Each outcome here is settled by
:func:`~baccara.money.settle` itself, the way the table settles it.

**The step rule.** Every payout of a bet is whole cents at a stake ``s`` exactly when
the denominator of every pay divides ``s``; :func:`bet_step` is the least common
multiple of those denominators over a game's bets, the smallest bet step at which
rounding never bites (0.20 at Punto Banco for 19:20, 0.02 at Lo-Ball for 3:2). At
any multiple of it the figures at the stake are the exact analysis's, per unit.

>>> from baccara.exact import analyze
>>> banker = analyze("punto-banco").bet("banker")
>>> f"{float(bet_at_stake(banker, 25).house_edge):.4%}", bet_at_stake(banker, 25).outcome("win").won_cents
('2.4337%', 23)
>>> bet_step(analyze("punto-banco").bets), bet_step(analyze("lo-ball").bets)
(20, 2)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from baccara.errors import BaccaraError
from baccara.exact.model import Analysis, BetAnalysis, fraction_str
from baccara.money import BetResult, format_cents, settle, validate_stake

__all__ = [
    "BetAtStake",
    "OutcomeAtStake",
    "StakeAnalysis",
    "analysis_at_stake",
    "bet_at_stake",
    "bet_step",
    "rounding_bites",
    "whole_cents",
    "won_at_stake",
]


def won_at_stake(stake: int, pays: Fraction) -> int:
    """The net result, in cents, of ``stake`` cents on an outcome paying ``pays`` to 1,
    as :func:`~baccara.money.settle` pays it.

    A positive pay is a win at those odds, zero a push, a negative one a loss — with a
    bonus of ``pays + 1`` on it when it loses less than the stake (Lo-Ball's Play-bonus
    under a bonus below 2:1). All three come to ``⌊stake × pays⌋``.

    >>> won_at_stake(25, Fraction(19, 20)), won_at_stake(25, Fraction(0)), won_at_stake(25, Fraction(-1))
    (23, 0, -25)
    >>> won_at_stake(3, Fraction(-1, 2))  # a 1:2 bonus on a lost wager of 3: 1 back of 3
    -2
    """
    validate_stake(stake)
    if not isinstance(pays, Fraction):
        raise BaccaraError(f"a pay is an exact Fraction, got {pays!r}")
    if pays > 0:
        return settle(stake, BetResult.WIN, pays).won
    if pays == 0:
        return settle(stake, BetResult.PUSH, Fraction(0)).won
    if pays < -1:
        raise BaccaraError(f"an outcome cannot lose more than the stake: pays {pays}")
    return settle(stake, BetResult.LOSE, Fraction(0), bonus=pays + 1).won


def _checked_stake(stake: object) -> int | None:
    """``None`` (a unit staked at the odds) or a stake of whole cents a table could take."""
    return None if stake is None else validate_stake(stake)


@dataclass(frozen=True)
class OutcomeAtStake:
    """One outcome of a bet at a stake: its odds and what the stake really wins on it.

    ``won_cents`` is the net result in cents as settled (``None`` for a unit at the
    odds, where nothing is rounded).
    """

    name: str
    probability: Fraction
    pays: Fraction
    stake_cents: int | None
    won_cents: int | None

    @property
    def paid(self) -> Fraction:
        """The net result per unit staked, as paid: ``won / stake``, or the odds per unit."""
        if self.stake_cents is None or self.won_cents is None:
            return self.pays
        return Fraction(self.won_cents, self.stake_cents)

    @property
    def rounded_off_cents(self) -> Fraction:
        """What rounding down kept from the bettor on this outcome (0 to under a cent)."""
        if self.stake_cents is None or self.won_cents is None:
            return Fraction(0)
        return self.stake_cents * self.pays - self.won_cents

    @property
    def expected_return(self) -> Fraction:
        """This outcome's share of the bet's expected return per unit staked, as paid."""
        return self.probability * self.paid

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "probability": float(self.probability),
            "probability_exact": fraction_str(self.probability),
            "pays": float(self.pays),
            "won_cents": self.won_cents,
            "paid": float(self.paid),
            "return": float(self.expected_return),
        }


@dataclass(frozen=True)
class BetAtStake:
    """A bet's expected return, edge and spread at one stake, every payout as settled.

    ``stake_cents`` is ``None`` for the figures per unit at the exact odds (what the
    analysis prints, and what every multiple of the step is paid). ``exact_edge`` is the
    unrounded house edge, for comparison.
    """

    bet: str
    stake_cents: int | None
    outcomes: tuple[OutcomeAtStake, ...]
    exact_edge: Fraction

    def outcome(self, name: str) -> OutcomeAtStake:
        for o in self.outcomes:
            if o.name == name:
                return o
        raise KeyError(name)

    @property
    def expected_return(self) -> Fraction:
        """The bettor's expected net result per unit staked, as paid."""
        return sum((o.expected_return for o in self.outcomes), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """The house's expected gain per unit staked at this stake."""
        return -self.expected_return

    @property
    def rounding_cost(self) -> Fraction:
        """How much the rounding adds to the exact edge (0 where every payout is whole)."""
        return self.house_edge - self.exact_edge

    @property
    def rounding_matters(self) -> bool:
        return self.rounding_cost != 0

    @property
    def variance(self) -> Fraction:
        """Variance of the net result per unit staked, as paid."""
        second = sum((o.probability * o.paid * o.paid for o in self.outcomes), Fraction(0))
        return second - self.expected_return**2

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def _scale(self) -> int:
        return 1 if self.stake_cents is None else self.stake_cents

    @property
    def expected_cents(self) -> Fraction:
        """The bettor's expected net result on the stake, in cents (per unit at ``None``)."""
        return self._scale * self.expected_return

    @property
    def variance_cents(self) -> Fraction:
        """The variance of the result on the stake, in cents² (per unit² at ``None``)."""
        return self._scale**2 * self.variance

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the stake is paid something: a 1-cent Banker win pays nothing."""
        return sum((o.probability for o in self.outcomes if o.paid > 0), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        return {
            "bet": self.bet,
            "stake_cents": self.stake_cents,
            "house_edge": float(self.house_edge),
            "house_edge_exact": fraction_str(self.house_edge),
            "unrounded_house_edge": float(self.exact_edge),
            "unrounded_house_edge_exact": fraction_str(self.exact_edge),
            "rounding_cost": float(self.rounding_cost),
            "expected_result_cents": float(self.expected_cents),
            "expected_result_cents_exact": fraction_str(self.expected_cents),
            "std_dev": self.std_dev,
            "variance_exact": fraction_str(self.variance),
            "hit_frequency": float(self.hit_frequency),
            "outcomes": [o.to_dict() for o in self.outcomes],
        }


def bet_at_stake(bet: BetAnalysis, stake_cents: int | None) -> BetAtStake:
    """``bet`` at ``stake_cents``, outcome by outcome, each payout settled as the table does.

    ``None`` gives the figures per unit at the exact odds. A stake that is not a whole,
    positive number of cents within :data:`~baccara.money.MAX_STAKE_CENTS` raises
    :class:`~baccara.errors.InvalidBet`.
    """
    stake = _checked_stake(stake_cents)
    outcomes = tuple(
        OutcomeAtStake(
            o.name,
            o.probability,
            o.pays,
            stake,
            None if stake is None else won_at_stake(stake, o.pays),
        )
        for o in bet.outcomes
    )
    return BetAtStake(bet.bet, stake, outcomes, bet.house_edge)


def whole_cents(stake_cents: int, pays: Iterable[Fraction]) -> bool:
    """Whether ``stake_cents`` is paid whole cents at each of ``pays`` (to 1), so that no
    payout of it is rounded: the one test of it, for a bet (:func:`rounding_bites`), a
    round's wagers (the joint models) and a game's bets at any stake (``stake_cents=1``).

    >>> whole_cents(20, [Fraction(19, 20), Fraction(-1)]), whole_cents(25, [Fraction(19, 20)])
    (True, False)
    """
    return all((stake_cents * p).denominator == 1 for p in pays)


def rounding_bites(bet: BetAnalysis, stake_cents: int) -> bool:
    """Whether some payout of ``bet`` on ``stake_cents`` is not a whole number of cents."""
    return not whole_cents(validate_stake(stake_cents), (o.pays for o in bet.outcomes))


def bet_step(bets: Iterable[BetAnalysis]) -> int:
    """The smallest bet step, in cents, at whose every multiple each payout of ``bets`` is
    whole cents: the least common multiple of the denominators of their pays."""
    return math.lcm(1, *(o.pays.denominator for bet in bets for o in bet.outcomes))


@dataclass(frozen=True)
class StakeAnalysis:
    """Every bet of one game at one stake (or per unit, ``stake_cents=None``)."""

    game: str
    options: dict[str, Any]
    stake_cents: int | None
    bet_step_cents: int
    bets: tuple[BetAtStake, ...]

    def bet(self, bet_id: str) -> BetAtStake:
        for b in self.bets:
            if b.bet == bet_id:
                return b
        raise KeyError(bet_id)

    @property
    def rounding_matters(self) -> bool:
        return any(b.rounding_matters for b in self.bets)

    def note(self) -> str:
        """One line: what the figures are, and at which stakes rounding leaves them so.

        Per unit, it names the bets whose odds can leave a fraction of a cent (19:20,
        3:2), the only ones rounded off the step; a bet at whole odds (1:1, 8:1, 11:1)
        pays whole cents on every stake.
        """
        step = format_cents(self.bet_step_cents)
        if self.stake_cents is None:
            rounded = [b.bet for b in self.bets if not whole_cents(1, (o.pays for o in b.outcomes))]
            if not rounded:
                return "Per unit staked, and as paid at every stake: every payout is whole cents."
            whole = [b.bet for b in self.bets if b.bet not in rounded]
            owners = _listed([f"{bet}'s" for bet in rounded])
            always = f" ({_listed(whole)} always pay{'s' if len(whole) == 1 else ''} whole cents)"
            return (
                f"Per unit staked, as paid on multiples of {step}; at other stakes"
                f" {'only ' if whole else ''}{owners} payouts can round down to the cent"
                f"{always if whole else ''}: see --stake."
            )
        stake = format_cents(self.stake_cents)
        if not self.rounding_matters:
            return (
                f"At {stake} every payout is whole cents (multiples of {step} are): the figures"
                " are the exact ones."
            )
        return (
            f"At {stake} each payout rounds down to the cent, as it is paid; at multiples of"
            f" {step} every payout is whole cents and the edges are the exact ones."
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": dict(self.options),
            "stake_cents": self.stake_cents,
            "bet_step_cents": self.bet_step_cents,
            "bets": [b.to_dict() for b in self.bets],
        }


def _listed(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def analysis_at_stake(analysis: Analysis, stake_cents: int | None) -> StakeAnalysis:
    """Every bet of ``analysis`` at ``stake_cents`` (see :func:`bet_at_stake`)."""
    stake = _checked_stake(stake_cents)
    return StakeAnalysis(
        analysis.game,
        dict(analysis.options),
        stake,
        bet_step(analysis.bets),
        tuple(bet_at_stake(b, stake) for b in analysis.bets),
    )
