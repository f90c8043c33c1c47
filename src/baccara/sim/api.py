"""The public simulation calls: :func:`simulate` deals rounds, :func:`play_sessions` plays
bankroll sessions; ``baccara simulate`` and ``baccara report`` are made of them.

Both take the game and its rule options as :func:`baccara.analyze` does (``options``
is a mapping, either spelling of a name) and set what they deal beside the exact
analysis of the same rules. A run is fixed by its arguments and its seed: without a
seed a fresh one is drawn and recorded in the result, so any run can be repeated.

This module imports nothing heavy until it is called (the compiled kernels load with
the first deal), so ``import baccara`` stays quick.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from baccara.errors import InvalidOption, shown

if TYPE_CHECKING:
    from baccara.cards import ShoeMode
    from baccara.exact.model import BetAnalysis
    from baccara.sim.report import SimulationReport
    from baccara.sim.sessions import Expectation, SessionPlan, SessionReport


def _fresh_or(seed: object) -> int:
    from baccara.randomness import check_seed

    return secrets.randbits(63) if seed is None else check_seed(seed)


def _rule_options(options: object) -> dict[str, Any]:
    """The rule options as a plain dict; anything but a mapping of names is refused."""
    if options is None:
        return {}
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise InvalidOption(
            "options", f"must be a mapping of option names to values, got {shown(options)}"
        )
    return dict(options)


def simulate(
    game: str,
    rounds: int = 1_000_000,
    *,
    seed: int | None = None,
    shoe: str = "reshuffle",
    penetration: float | None = None,
    workers: int = 1,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
    stop_on_interrupt: bool = False,
) -> SimulationReport:
    """Deal ``rounds`` rounds of ``game`` by its real rules and check every bet against
    the exact analysis: each outcome's frequency and z-score, each bet's return.

    ``shoe`` is ``"reshuffle"`` (a full shoe every round, as the seeds deal) or
    ``"continuous"`` (dealt to a cut card at ``penetration``, 0.8 by default).
    ``workers`` processes deal blocks in parallel; the result depends only on the
    arguments and the seed, never on the number of workers. ``progress`` hears the
    number of rounds dealt after each block. With ``stop_on_interrupt`` a Ctrl-C
    (:class:`KeyboardInterrupt`) between blocks ends the run and the report covers the
    rounds dealt so far (``complete`` is False), as ``baccara simulate`` does; by default
    it propagates.

    Every argument is checked before a card is dealt: an unknown game raises
    :class:`~baccara.errors.UnknownGame`, anything else refused
    :class:`~baccara.errors.InvalidOption` naming it (both are :class:`ValueError`).

    >>> report = simulate("punto-banco", 10_000, seed=7, options={"decks": 6})
    >>> report.rounds, report.seed, report.options["decks"], report.bets[0].bet
    (10000, 7, 6, 'banker')
    """
    import numpy as np

    from baccara.cards import check_penetration
    from baccara.exact import analyze
    from baccara.sim.dealer import DEFAULT_PENETRATION
    from baccara.sim.report import SimulationReport, check_bets
    from baccara.sim.runs import (
        DealerSpec,
        RoundOutcomes,
        check_rounds,
        check_workers,
        count_blocks,
    )

    rules = _rule_options(options)
    wanted = check_rounds(rounds)
    workers = check_workers(workers)
    cut = DEFAULT_PENETRATION if penetration is None else check_penetration(penetration)
    seed_value = _fresh_or(seed)
    if progress is not None and not callable(progress):
        raise InvalidOption(
            "progress", f"must be a function of the rounds dealt, got {shown(progress)}"
        )
    if not isinstance(stop_on_interrupt, bool):
        raise InvalidOption(
            "stop_on_interrupt", f"must be True or False, got {shown(stop_on_interrupt)}"
        )
    spec = DealerSpec.of(game, shoe=shoe, penetration=cut, **rules)
    analysis = analyze(spec.game, **rules)
    dealer = spec.dealer()
    dealer.count_block(0, 0, 1)  # the compiled kernel loaded now: the clock times dealing
    labels = RoundOutcomes(dealer.game, dealer.bets, dealer.outcomes, np.empty((0, 0), np.int8))
    counts = np.zeros((len(dealer.bets), max(map(len, dealer.outcomes))), dtype=np.int64)
    dealt = 0
    start = time.perf_counter()
    try:
        for size, block_counts in count_blocks(spec, wanted, seed_value, workers):
            counts += block_counts
            dealt += size
            if progress is not None:
                progress(dealt)
    except KeyboardInterrupt:
        if not stop_on_interrupt:
            raise
    return SimulationReport(
        game=spec.game,
        options=analysis.options,
        shoe=spec.shoe,
        penetration=spec.penetration,
        seed=seed_value,
        requested=wanted,
        rounds=dealt,
        workers=workers,
        seconds=time.perf_counter() - start,
        bets=check_bets(analysis, labels, counts, dealt) if dealt else (),
    )


@dataclass(frozen=True, eq=False)
class Sessions:
    """Bankroll sessions at one bet, as :func:`play_sessions` played them.

    ``exact`` is the bet's exact analysis under the same rules: its pays settled every
    hand, and its edge is what the sessions are measured against. ``report`` holds
    every session's end (and the kept paths); :meth:`summary` sums them up. Two runs
    are compared by their summaries (the arrays behind them have no one equality).
    """

    game: str
    bet: str
    options: Mapping[str, Any]
    shoe: ShoeMode
    seed: int
    exact: BetAnalysis
    report: SessionReport
    seconds: float = 0.0
    """Time spent dealing and settling, not in the analysis."""

    @property
    def plan(self) -> SessionPlan:
        return self.report.plan

    @property
    def expectation(self) -> Expectation:
        """What the hands played were expected to cost: by the exact edge, and with each
        payout rounded down to the cent as it was settled."""
        return self.report.expectation(self.exact)

    def summary(self) -> dict[str, Any]:
        """Mean, spread, percentiles of the results (cents), risk of ruin, hands played."""
        return self.report.summary()

    def to_dict(self) -> dict[str, Any]:
        """What ``baccara simulate --bet … --json`` prints (less its timing and plot)."""
        expected = self.expectation
        return {
            "game": self.game,
            "bet": self.bet,
            "seed": self.seed,
            "shoe": self.shoe.value,
            "options": dict(self.options),
            "house_edge": float(self.exact.house_edge),
            "house_edge_at_stake": float(expected.edge_at_stake),
            "expected_result_from_edge": expected.from_edge,
            "expected_result_at_stake": expected.at_stake,
            **self.summary(),
        }


def play_sessions(
    game: str,
    bet: str,
    *,
    stake_cents: int = 1000,
    bankroll_cents: int = 100_000,
    hands: int = 200,
    sessions: int = 10_000,
    seed: int | None = None,
    shoe: str = "reshuffle",
    penetration: float | None = None,
    options: Mapping[str, Any] | None = None,
    keep_paths: int = 20,
) -> Sessions:
    """Play ``sessions`` nights of ``hands`` hands at ``bet``, each from ``bankroll_cents``
    at ``stake_cents`` a hand, every hand dealt by the game's real rules and settled in
    cents (winnings rounded down); a night ends early when the bankroll no longer covers
    a stake (ruin).

    Money is in whole cents, as everywhere in baccara: the defaults are 10.00 a hand
    from 1000.00, what ``baccara simulate --bet`` plays. The bankroll paths of the first
    ``keep_paths`` sessions are kept hand by hand (``hands + 1`` integers each) for a
    fan chart; how many are kept never changes what is dealt.

    Every argument is checked before a card is dealt: an unknown game raises
    :class:`~baccara.errors.UnknownGame`, a bet the game does not have or a stake it
    cannot take :class:`~baccara.errors.InvalidBet`, anything else refused
    :class:`~baccara.errors.InvalidOption` naming it (all are :class:`ValueError`).

    >>> night = play_sessions("lo-ball", "dice-lo", sessions=500, seed=7)
    >>> night.plan.hands, night.seed, night.exact.bet, len(night.report.final)
    (200, 7, 'dice-lo', 500)
    >>> night.summary() == play_sessions("lo-ball", "dice-lo", sessions=500, seed=7).summary()
    True
    """
    from baccara.cards import check_penetration
    from baccara.exact import analyze
    from baccara.games import game as game_spec
    from baccara.sim.dealer import DEFAULT_PENETRATION
    from baccara.sim.runs import DealerSpec
    from baccara.sim.sessions import SessionPlan, play_bet

    spec = game_spec(game)
    bet_id = str(spec.parse_bet(bet).value)
    plan = SessionPlan(stake=stake_cents, bankroll=bankroll_cents, hands=hands, sessions=sessions)
    if isinstance(keep_paths, bool) or not isinstance(keep_paths, int) or keep_paths < 0:
        raise InvalidOption(
            "keep_paths", f"must be a whole number, 0 or more, got {shown(keep_paths)}"
        )
    rules = _rule_options(options)
    cut = DEFAULT_PENETRATION if penetration is None else check_penetration(penetration)
    seed_value = _fresh_or(seed)
    dealer_spec = DealerSpec.of(spec.id, shoe=shoe, penetration=cut, **rules)
    exact = analyze(spec.id, **rules)
    analysed = exact.bet(bet_id)
    start = time.perf_counter()
    report = play_bet(
        dealer_spec,
        bet_id,
        {o.name: o.pays for o in analysed.outcomes},
        plan,
        seed_value,
        keep_paths=keep_paths,
    )
    return Sessions(
        game=spec.id,
        bet=bet_id,
        options=exact.options,
        shoe=dealer_spec.shoe,
        seed=seed_value,
        exact=analysed,
        report=report,
        seconds=time.perf_counter() - start,
    )
