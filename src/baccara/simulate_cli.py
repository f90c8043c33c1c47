"""``baccara simulate``: deal many rounds by the real rules and set them beside the exact figures.

The command reads its arguments into a :class:`Setup` (game, rules, shoe, seed,
workers and the exact analysis), then runs a report on it; the frequency report is
:func:`frequencies`. Other reports on the same dealt rounds plug in beside it.
"""

from __future__ import annotations

import json
import secrets
import sys
import time
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from baccara.analysis.model import Analysis
from baccara.analysis.simulation import (
    BLOCK_ROUNDS,
    DealerSpec,
    RoundOutcomes,
    ShoeMode,
    check_rounds,
    check_seed,
    check_workers,
    count_blocks,
)
from baccara.analysis.simulation_report import FLAG_SIGMAS, SimulationReport, check_bets

DEFAULT_ROUNDS = 1_000_000
EXIT_INTERRUPTED = 130


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
    seed: str | None,
    workers: str,
    shoe: str,
    penetration: str,
) -> Setup:
    """Check every argument before a card is dealt; a fresh seed when none is given."""
    from baccara.analysis import analyze

    spec = DealerSpec.of(game, shoe=shoe, penetration=penetration, **options)
    dealer = spec.dealer()
    dealer.count_block(0, 0, 1)  # load the compiled kernel now, so the clock times dealing
    labels = RoundOutcomes(dealer.game, dealer.bets, dealer.outcomes, np.empty((0, 0), np.int8))
    return Setup(
        spec=spec,
        labels=labels,
        analysis=analyze(game, **options),
        seed=secrets.randbits(63) if seed is None else check_seed(seed),
        workers=check_workers(workers),
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
        sys.stdout.write(json.dumps(report.to_dict(), indent=2) + "\n")
    else:
        print_report(report, console)
    if interrupted:
        print(
            f"baccara: interrupted after {dealt:,} of {rounds:,} rounds; the result above is partial",
            file=sys.stderr,
        )
        raise typer.Exit(EXIT_INTERRUPTED)


def _shoe_text(report: SimulationReport) -> str:
    if report.shoe is ShoeMode.RESHUFFLE:
        return "shoe reshuffled every round"
    return f"continuous shoe, cut card at {report.penetration:.0%}"


def print_report(report: SimulationReport, console: Console) -> None:
    options = ", ".join(f"{k}={v}" for k, v in report.options.items())
    console.print(
        f"{report.game} — {report.rounds:,} rounds, seed {report.seed}, {_shoe_text(report)}"
    )
    console.print(options)
    if report.shoe is ShoeMode.CONTINUOUS:
        console.print(
            "Exact figures are off the top (a full shoe); a shoe dealt to its cut card may differ."
        )
    exact_label = "Exact (off the top)" if report.shoe is ShoeMode.CONTINUOUS else "Exact"
    for bet in report.bets:
        console.print()
        table = Table(title=f"[bold]{bet.bet}[/bold]", title_justify="left")
        table.add_column("Outcome")
        table.add_column("Rounds", justify="right")
        table.add_column("Observed", justify="right")
        table.add_column(exact_label, justify="right")
        table.add_column("z", justify="right")
        table.add_column("Check")
        for o in bet.outcomes:
            table.add_row(
                o.name,
                f"{o.count:,}",
                f"{o.observed:.8f}",
                f"{float(o.expected):.8f}",
                f"{o.z:+.2f}",
                Text(f"outside {FLAG_SIGMAS:g}σ", style="bold red") if o.flagged else "ok",
            )
        console.print(table)
        low, high = bet.return_ci95
        check = f"outside {FLAG_SIGMAS:g}σ" if abs(bet.return_z) > FLAG_SIGMAS else "ok"
        console.print(
            f"return {bet.observed_return:+.6f} (95% CI {low:+.6f} to {high:+.6f})"
            f" · exact {float(bet.expected_return):+.6f} · z {bet.return_z:+.2f} · {check}"
        )
    console.print()
    flagged = report.flagged
    if flagged:
        console.print(
            Text(f"Outside {FLAG_SIGMAS:g} standard errors: {', '.join(flagged)}", style="bold red")
        )
    elif report.bets:
        console.print(f"Every exact value is within {FLAG_SIGMAS:g} standard errors.")
    workers = f"{report.workers} worker{'s' if report.workers != 1 else ''}"
    console.print(
        f"{report.rounds:,} rounds in {report.seconds:.2f} s: "
        f"{report.rounds_per_second / 1e6:.1f} million rounds per second, {workers}."
    )


def simulate(
    game: Annotated[str, typer.Argument(help="Game id, e.g. punto-banco.")],
    rounds: Annotated[
        str | None, typer.Option(help=f"Rounds to deal (default {DEFAULT_ROUNDS:,}).")
    ] = None,
    seed: Annotated[
        str | None, typer.Option(help="Repeat a run exactly (default: a fresh seed, printed).")
    ] = None,
    workers: Annotated[str, typer.Option(help="Processes dealing blocks in parallel.")] = "1",
    shoe: Annotated[
        str, typer.Option(help="reshuffle (every round) or continuous (to a cut card).")
    ] = "reshuffle",
    penetration: Annotated[
        str, typer.Option(help="Share of a continuous shoe dealt before the cut card.")
    ] = "0.8",
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A rule option, as KEY=VALUE (repeatable)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Deal GAME by its real rules and compare every bet with the exact analysis."""
    from baccara.cli import _console, _parse_assignments

    count = check_rounds(DEFAULT_ROUNDS if rounds is None else rounds)
    run = setup(
        game,
        _parse_assignments(option),
        seed=seed,
        workers=workers,
        shoe=shoe,
        penetration=penetration,
    )
    frequencies(run, count, as_json, _console())
