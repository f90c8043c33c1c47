"""The work behind ``baccara simulate``: deal with a progress bar, then report.

Imported only when the command runs, so ``baccara --help`` never loads numpy or numba.
The command reads its arguments into a :class:`Setup` (game, rules, shoe, seed,
workers and the exact analysis) and, for bankroll sessions, a :class:`SessionRequest`,
then runs a report on them. This module never imports the command's.
"""

from __future__ import annotations

import pathlib
import secrets
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from baccara.cards import ShoeMode
from baccara.cli.common import EXIT_INTERRUPTED
from baccara.exact.model import Analysis
from baccara.money import format_cents
from baccara.render.simulation import print_count, print_report, print_sessions
from baccara.render.text import printable, to_json
from baccara.sim.dealer import BLOCK_ROUNDS
from baccara.sim.report import SimulationReport, check_bets
from baccara.sim.runs import DealerSpec, RoundOutcomes, count_blocks


@dataclass(frozen=True)
class SessionRequest:
    """Bankroll sessions as asked for: the bet, and the plan in cents."""

    bet: str
    stake: int
    bankroll: int
    hands: int
    sessions: int
    plot: pathlib.Path | None


@dataclass(frozen=True)
class Setup:
    """A validated simulate request: what to deal and the exact analysis to compare with."""

    spec: DealerSpec
    labels: RoundOutcomes
    analysis: Analysis
    seed: int
    workers: int


def setup(
    game: str,
    options: dict[str, Any],
    *,
    seed: int | None,
    workers: int,
    shoe: ShoeMode,
    penetration: float,
) -> Setup:
    """Build the dealer and the exact analysis before a card is dealt; a fresh seed when none is given."""
    from baccara.exact import analyze

    spec = DealerSpec.of(game, shoe=shoe, penetration=penetration, **options)
    dealer = spec.dealer()
    dealer.count_block(0, 0, 1)  # load the compiled kernel now, so the clock times dealing
    labels = RoundOutcomes(dealer.game, dealer.bets, dealer.outcomes, np.empty((0, 0), np.int8))
    return Setup(
        spec=spec,
        labels=labels,
        analysis=analyze(game, **options),
        seed=secrets.randbits(63) if seed is None else seed,
        workers=workers,
    )


def deal_and_count(
    run: Setup, rounds: int, show_progress: bool
) -> tuple[np.ndarray[Any, np.dtype[np.int64]], int, float, bool]:
    """Deal ``rounds`` rounds; returns (counts, rounds dealt, seconds, interrupted).

    Ctrl-C stops the run between blocks and keeps what was dealt.
    """
    counts = np.zeros((len(run.labels.bets), max(map(len, run.labels.outcomes))), dtype=np.int64)
    dealt = 0
    interrupted = False
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("rounds"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        auto_refresh=False,  # no refresh thread: worker processes are forked
        transient=True,
        disable=not show_progress,
    )
    start = time.perf_counter()
    with progress:
        task = progress.add_task(f"dealing {run.spec.game}", total=rounds)
        try:
            for size, block_counts in count_blocks(run.spec, rounds, run.seed, run.workers):
                counts += block_counts
                dealt += size
                progress.update(task, completed=dealt)
                progress.refresh()
        except KeyboardInterrupt:
            interrupted = True
    return counts, dealt, time.perf_counter() - start, interrupted


def frequencies(run: Setup, rounds: int, as_json: bool, console: Console) -> None:
    """Deal, then print each bet's observed frequencies and return beside the exact ones."""
    show_progress = sys.stderr.isatty() and rounds > BLOCK_ROUNDS
    counts, dealt, seconds, interrupted = deal_and_count(run, rounds, show_progress)
    report = SimulationReport(
        game=run.spec.game,
        options=run.analysis.options,
        shoe=run.spec.shoe,
        penetration=run.spec.penetration,
        seed=run.seed,
        requested=rounds,
        rounds=dealt,
        workers=run.workers,
        seconds=seconds,
        bets=check_bets(run.analysis, run.labels, counts, dealt) if dealt else (),
    )
    if as_json:
        sys.stdout.write(to_json(report.to_dict()))
    else:
        print_report(report, console)
    if interrupted:
        print(
            f"baccara: interrupted after {dealt:,} of {rounds:,} rounds; the result above is partial",
            file=sys.stderr,
        )
        raise typer.Exit(EXIT_INTERRUPTED)


def sessions(run: Setup, request: SessionRequest, as_json: bool, console: Console) -> None:
    """Play bankroll sessions at one bet and report how they ended (and plot them)."""
    from baccara.render.plots import plot_sessions
    from baccara.sim.sessions import SessionPlan, play_bet

    plan = SessionPlan(
        stake=request.stake,
        bankroll=request.bankroll,
        hands=request.hands,
        sessions=request.sessions,
    )
    bet = run.analysis.bet(request.bet)
    start = time.perf_counter()
    report = play_bet(run.spec, request.bet, {o.name: o.pays for o in bet.outcomes}, plan, run.seed)
    seconds = time.perf_counter() - start
    title = f"{run.spec.game} · {request.bet} · {format_cents(plan.stake)} a hand"
    plot = plot_sessions(report, request.plot, title) if request.plot else None
    summary = report.summary()
    at_stake = report.expectation(bet.house_edge, [(o.probability, o.pays) for o in bet.outcomes])
    if as_json:
        data = {
            "game": run.spec.game,
            "bet": request.bet,
            "seed": run.seed,
            "shoe": run.spec.shoe.value,
            "options": dict(run.analysis.options),
            "house_edge": float(bet.house_edge),
            "house_edge_at_stake": float(at_stake.edge_at_stake),
            "expected_result_from_edge": at_stake.from_edge,
            "expected_result_at_stake": at_stake.at_stake,
            "seconds": seconds,
            **summary,
            "plot": str(plot) if plot else None,
        }
        sys.stdout.write(to_json(data))
        return
    print_sessions(summary, plan, title, run.seed, at_stake, console)
    if plot:
        console.print(Text(f"Plot written to {printable(str(plot))}"), soft_wrap=True)


def counting(
    game: str,
    bet: str,
    rounds: int,
    options: dict[str, Any],
    *,
    seed: int | None,
    penetration: float | None,
    level: int,
    as_json: bool,
    console: Console,
) -> None:
    """Measure what a count built from the exact effects of removal gains on ``bet``."""
    from baccara.sim.counts import simulate_count

    report = simulate_count(
        game,
        bet,
        rounds,
        secrets.randbits(63) if seed is None else seed,
        penetration=penetration,
        level=level,
        **options,
    )
    if as_json:
        sys.stdout.write(to_json(report.to_dict()))
        return
    print_count(report, game, bet, console)
