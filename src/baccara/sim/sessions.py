"""Bankroll sessions: how a night of N hands at one bet can go.

A player sits down with a bankroll, bets the same stake on the same bet every hand
for a set number of hands, and leaves early only when the bankroll no longer covers
a stake — that is **ruin**. Each hand's result comes from the real rules (the
simulation kernels), settled in integer cents with the one rounding rule, so a
session's final bankroll is exactly what a cashier would pay out.

The engine takes its hands from a *source*: a function ``(rounds, seed) -> codes``
giving, for each round, the index of the bet's outcome. Sessions are dealt in fixed
chunks, each with its own seed derived from the run's seed, so a run can be repeated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from baccara.errors import InvalidBet, InvalidOption, shown
from baccara.exact.model import BetAnalysis
from baccara.exact.stakes import bet_at_stake, won_at_stake
from baccara.money import MAX_BANKROLL_CENTS, money_text, validate_stake

if TYPE_CHECKING:
    from baccara.sim.runs import DealerSpec

OutcomeSource = Callable[[int, int], npt.NDArray[np.integer[Any]]]
"""``source(rounds, seed)``: outcome indices of ``rounds`` consecutive rounds."""

CHUNK_HANDS = 1 << 20
"""About this many hands are dealt per chunk (whole sessions only), whatever the run size."""

SAMPLE_PATHS = 20
"""Bankroll paths kept for the plot by default: those of the first sessions dealt."""

FAN_PERCENTILES = (5, 25, 50, 75, 95)
"""The balance percentiles a fan chart draws, hand by hand."""

QUANTILE_METHOD: Literal["inverted_cdf"] = "inverted_cdf"
"""Percentiles of results are results: the p-th percentile is the smallest result at
least p % of sessions reach or fall below (the empirical distribution's inverse), so
"percentile 25: -12.50" is what a session ended with, not an interpolation between
two sessions' results that no session had, in whole cents."""

MAX_HANDS = 1_000_000
"""The longest session: with the largest stake and pay it keeps a bankroll inside 64 bits."""
MAX_SESSIONS = 10_000_000

INT64_LIMIT = 2**63
"""Bankrolls are added up in 64-bit cents: every one must stay below this."""


@dataclass(frozen=True)
class SessionPlan:
    """One player's plan for the night, in cents."""

    stake: int
    bankroll: int
    hands: int
    sessions: int

    def __post_init__(self) -> None:
        validate_stake(self.stake)
        if isinstance(self.bankroll, bool) or not isinstance(self.bankroll, int):
            raise InvalidOption(
                "bankroll", f"must be a whole number of cents, got {shown(self.bankroll)}"
            )
        if self.bankroll > MAX_BANKROLL_CENTS:
            raise InvalidOption(
                "bankroll",
                f"must be at most {money_text(MAX_BANKROLL_CENTS)}, got {money_text(self.bankroll)}",
            )
        if self.bankroll < self.stake:
            raise InvalidOption(
                "bankroll",
                f"{money_text(self.bankroll)} does not cover one stake of {money_text(self.stake)}",
            )
        for name, value, high in (
            ("hands", self.hands, MAX_HANDS),
            ("sessions", self.sessions, MAX_SESSIONS),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
                raise InvalidOption(
                    name, f"must be a whole number from 1 to {high:,}, got {shown(value)}"
                )


def net_cents(stake: int, pay: Fraction) -> int:
    """What one outcome paying ``pay`` to 1 does to the bankroll, as the table settles it:
    winnings rounded down, a push nothing, the loss (less any bonus paid on it, rounded
    down) — :func:`baccara.exact.stakes.won_at_stake`."""
    return won_at_stake(stake, pay)


def net_per_outcome(stake: int, pays: Sequence[Fraction]) -> npt.NDArray[np.int64]:
    """What each outcome does to the bankroll, in cents, as the session engine reads it."""
    return np.array([net_cents(stake, pay) for pay in pays], dtype=np.int64)


def edge_at_stake(stake: int, bet: BetAnalysis) -> Fraction:
    """The house edge ``bet`` really has at ``stake`` cents, each payout rounded down to
    the cent (:func:`baccara.exact.stakes.bet_at_stake`).

    At 10.00 a Banker win pays 9.50 and the edge is the exact one; at 0.01 it pays
    nothing, and the edge is the chance of losing.

    >>> from baccara.exact import analyze
    >>> banker = analyze("punto-banco").bet("banker")
    >>> edge_at_stake(1000, banker) == banker.house_edge, f"{float(edge_at_stake(1, banker)):.4%}"
    (True, '44.6247%')
    """
    return bet_at_stake(bet, stake).house_edge


@dataclass(frozen=True)
class Expectation:
    """What a session is expected to win: by the exact edge, and at the stake played.

    At most stakes the two agree. At a stake whose payouts are not whole cents they do
    not — 19:20 on 0.01 pays nothing — and the one the sessions estimate is the edge
    at the stake, with every payout rounded down.
    """

    edge: Fraction
    edge_at_stake: Fraction
    wagered: float
    """Cents staked a session, on average over the sessions played."""

    @property
    def from_edge(self) -> float:
        return -float(self.edge) * self.wagered

    @property
    def at_stake(self) -> float:
        return -float(self.edge_at_stake) * self.wagered

    @property
    def rounding_matters(self) -> bool:
        return self.edge_at_stake != self.edge

    @property
    def rounding_dominates(self) -> bool:
        """Rounding payouts down costs the bettor more than the edge itself does."""
        return self.edge_at_stake - self.edge > abs(self.edge)


@dataclass(frozen=True)
class SessionReport:
    """Every session's end, and what they add up to."""

    plan: SessionPlan
    final: npt.NDArray[np.int64] = field(repr=False)  # bankroll at the end, cents
    hands_played: npt.NDArray[np.int64] = field(repr=False)
    ruined: npt.NDArray[np.bool_] = field(repr=False)
    paths: npt.NDArray[np.int64] = field(repr=False)  # (k, hands + 1) bankroll after each hand

    @property
    def results(self) -> npt.NDArray[np.int64]:
        """Each session's win (positive) or loss (negative), cents."""
        return self.final - self.plan.bankroll

    @property
    def risk_of_ruin(self) -> float:
        return float(self.ruined.mean())

    def expectation(self, bet: BetAnalysis) -> Expectation:
        """What the hands actually played were expected to cost on average: by the exact
        edge of ``bet``, and with every payout rounded down to the cent, as they were
        settled. Ruined sessions stop early, so the stakes are those really wagered,
        not ``hands`` stakes a session.
        """
        return Expectation(
            edge=bet_at_stake(bet, None).house_edge,
            edge_at_stake=edge_at_stake(self.plan.stake, bet),
            wagered=int(self.hands_played.sum()) * self.plan.stake / len(self.final),
        )

    def balance_percentiles(
        self, percentiles: Sequence[float] = FAN_PERCENTILES
    ) -> npt.NDArray[np.float64]:
        """Percentiles of the bankroll after each hand over the kept paths: (len, hands + 1).

        A ruined session's balance stays where it fell, as it does in the paths. Keep
        every session's path (``keep_paths`` of :func:`play_sessions`) for a fan chart of
        the whole run. Each percentile is a balance some session had (the empirical
        quantile, :data:`QUANTILE_METHOD`), never a value between two sessions'.
        """
        result: npt.NDArray[np.float64] = np.percentile(
            self.paths, percentiles, axis=0, method=QUANTILE_METHOD
        ).astype(np.float64)
        return result

    def summary(self) -> dict[str, Any]:
        results = self.results
        percentiles = np.percentile(
            results, [1, 5, 25, 50, 75, 95, 99], method=QUANTILE_METHOD
        ).astype(np.int64)
        n = len(results)
        mean = float(results.mean())
        std = float(results.std(ddof=1)) if n > 1 else 0.0
        return {
            "sessions": n,
            "hands": self.plan.hands,
            "stake": self.plan.stake,
            "bankroll": self.plan.bankroll,
            "mean_result": mean,
            "mean_result_ci95": [mean - 1.96 * std / n**0.5, mean + 1.96 * std / n**0.5],
            "std_result": std,
            "percentiles": dict(
                zip(
                    ["p1", "p5", "p25", "p50", "p75", "p95", "p99"],
                    percentiles.tolist(),
                    strict=True,
                )
            ),
            "risk_of_ruin": self.risk_of_ruin,
            "ahead": float((results > 0).mean()),
            "even": float((results == 0).mean()),
            "behind": float((results < 0).mean()),
            "mean_hands_played": float(self.hands_played.mean()),
            "total_wagered": int(self.hands_played.sum()) * self.plan.stake,
        }


def _chunk_seed(seed: int, chunk: int) -> int:
    state = np.random.SeedSequence([seed, chunk]).generate_state(2, dtype=np.uint32)
    return int(state[0]) << 32 | int(state[1])


def play_sessions(
    plan: SessionPlan,
    net: npt.NDArray[np.int64],
    source: OutcomeSource,
    seed: int,
    progress: Callable[[int], None] | None = None,
    keep_paths: int = SAMPLE_PATHS,
) -> SessionReport:
    """Deal every session of ``plan`` from ``source`` and settle each hand with ``net``.

    A hand is played only while the bankroll covers the stake; the session ends at
    ruin, or after ``plan.hands`` hands. ``progress`` is told how many sessions are done.
    The bankroll paths of the first ``keep_paths`` sessions are kept hand by hand;
    how many are kept never changes what is dealt.
    """
    worst = plan.bankroll + plan.hands * int(np.abs(net).max())
    if worst >= INT64_LIMIT:
        raise InvalidOption(
            "stake",
            f"{money_text(plan.stake)} a hand for {plan.hands:,} hands could move the bankroll"
            " past what 64-bit cents hold; lower the stake, the pays or the hands",
        )
    per_chunk = max(1, CHUNK_HANDS // plan.hands)
    finals, played, ruins = [], [], []
    kept: list[npt.NDArray[np.int64]] = []
    wanted = min(keep_paths, plan.sessions)
    done = 0
    chunk = 0
    while done < plan.sessions:
        count = min(per_chunk, plan.sessions - done)
        codes = np.asarray(source(count * plan.hands, _chunk_seed(seed, chunk)))
        deltas = net[codes.reshape(count, plan.hands)]
        bank = plan.bankroll + np.cumsum(deltas, axis=1)
        broke = bank < plan.stake
        ruined = broke.any(axis=1)
        stop = np.where(ruined, broke.argmax(axis=1), plan.hands - 1)
        finals.append(bank[np.arange(count), stop])
        played.append(stop + 1)
        ruins.append(ruined)
        keep = min(wanted - done, count)
        if keep > 0:
            hand = np.arange(plan.hands)
            # After ruin the bankroll stays where it fell: no more hands are played.
            frozen = np.where(
                hand[None, :] <= stop[:keep, None], bank[:keep], finals[-1][:keep, None]
            )
            start = np.full((keep, 1), plan.bankroll, dtype=np.int64)
            kept.append(np.hstack([start, frozen]).astype(np.int64))
        done += count
        chunk += 1
        if progress is not None:
            progress(done)
    return SessionReport(
        plan=plan,
        final=np.concatenate(finals).astype(np.int64),
        hands_played=np.concatenate(played).astype(np.int64),
        ruined=np.concatenate(ruins),
        paths=np.vstack(kept) if kept else np.empty((0, plan.hands + 1), dtype=np.int64),
    )


def play_bet(
    dealer_spec: DealerSpec,
    bet: str,
    pays: Mapping[str, Fraction],
    plan: SessionPlan,
    seed: int,
    *,
    keep_paths: int = SAMPLE_PATHS,
) -> SessionReport:
    """Sessions at ``bet`` dealt by the game's kernel: what ``baccara simulate --bet`` plays.

    ``pays`` maps each of the bet's outcome names to what it pays (from the exact
    analysis of the same rules). The same arguments give the same sessions whoever
    calls, so a report's fan chart and a ``simulate --bet`` run with its seed agree.
    """
    dealer = dealer_spec.dealer()
    if bet not in dealer.bets:
        raise InvalidBet(
            f"unknown bet {bet!r} for {dealer.game}; bets are: {', '.join(dealer.bets)}"
        )
    column = dealer.bets.index(bet)
    net = net_per_outcome(plan.stake, [pays[name] for name in dealer.outcomes[column]])
    return play_sessions(
        plan,
        net,
        lambda rounds, chunk_seed: dealer.deal_run(rounds, chunk_seed)[:, column],
        seed,
        keep_paths=keep_paths,
    )
