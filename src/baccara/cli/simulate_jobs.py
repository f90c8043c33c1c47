"""The work behind ``baccara simulate``: deal with a progress bar, then report.

Imported only when the command runs, so ``baccara --help`` never loads numpy or numba.
A run of rounds is :func:`baccara.simulate`, bankroll sessions are
:func:`baccara.play_sessions` — the calls a user makes from Python — with the
command's progress bar, Ctrl-C and printing around them. The command reads its
arguments into a :class:`Setup` and, for bankroll sessions, a :class:`SessionRequest`;
this module never imports the command's.
"""

from __future__ import annotations

import pathlib
import secrets
import sys
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from baccara.cards import ShoeMode
from baccara.cli.common import EXIT_INTERRUPTED
from baccara.money import money_text
from baccara.render.simulation import print_count, print_report, print_sessions
from baccara.render.text import printable, to_json
from baccara.sim.api import play_sessions, simulate
from baccara.sim.dealer import BLOCK_ROUNDS


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
    """A checked simulate request: the game, its rules, the shoe, the seed and the workers."""

    game: str
    options: dict[str, Any]
    shoe: ShoeMode
    penetration: float
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
    """The request as the public calls take it; a fresh seed when none is given (printed)."""
    return Setup(
        game=game,
        options=options,
        shoe=shoe,
        penetration=penetration,
        seed=secrets.randbits(63) if seed is None else seed,
        workers=workers,
    )


def frequencies(run: Setup, rounds: int, as_json: bool, console: Console) -> None:
    """Deal, then print each bet's observed frequencies and return beside the exact ones.

    Ctrl-C stops the run between blocks; what was dealt is printed, marked partial.
    """
    show_progress = sys.stderr.isatty() and rounds > BLOCK_ROUNDS
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
    with progress:
        task = progress.add_task(f"dealing {run.game}", total=rounds)

        def dealt(done: int) -> None:
            progress.update(task, completed=done)
            progress.refresh()

        report = simulate(
            run.game,
            rounds,
            seed=run.seed,
            shoe=run.shoe.value,
            penetration=run.penetration,
            workers=run.workers,
            options=run.options,
            progress=dealt,
            stop_on_interrupt=True,
        )
    if as_json:
        sys.stdout.write(to_json(report.to_dict()))
    else:
        print_report(report, console)
    if not report.complete:
        print(
            f"baccara: interrupted after {report.rounds:,} of {rounds:,} rounds;"
            " the result above is partial",
            file=sys.stderr,
        )
        raise typer.Exit(EXIT_INTERRUPTED)


def sessions(run: Setup, request: SessionRequest, as_json: bool, console: Console) -> None:
    """Play bankroll sessions at one bet and report how they ended (and plot them)."""
    from baccara.render.plots import plot_sessions

    played = play_sessions(
        run.game,
        request.bet,
        stake_cents=request.stake,
        bankroll_cents=request.bankroll,
        hands=request.hands,
        sessions=request.sessions,
        seed=run.seed,
        shoe=run.shoe.value,
        penetration=run.penetration,
        options=run.options,
    )
    title = f"{played.game} · {played.bet} · {money_text(played.plan.stake)} a hand"
    plot = plot_sessions(played.report, request.plot, title) if request.plot else None
    if as_json:
        data = {**played.to_dict(), "seconds": played.seconds, "plot": str(plot) if plot else None}
        sys.stdout.write(to_json(data))
        return
    print_sessions(played.summary(), played.plan, title, played.seed, played.expectation, console)
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
