"""``baccara simulate``: deal many rounds by the real rules and set them beside the exact figures.

The command reads its arguments into a :class:`Setup` (game, rules, shoe, seed,
workers and the exact analysis), then runs a report on it; the frequency report is
:func:`frequencies`. Other reports on the same dealt rounds plug in beside it.
"""

from __future__ import annotations

import json
import pathlib
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
from baccara.analysis.session_plot import FORMATS as PLOT_FORMATS
from baccara.analysis.simulation import (
    BLOCK_ROUNDS,
    DealerSpec,
    RoundOutcomes,
    ShoeMode,
    check_penetration,
    check_rounds,
    check_seed,
    check_workers,
    count_blocks,
)
from baccara.analysis.simulation_report import FLAG_SIGMAS, SimulationReport, check_bets
from baccara.errors import InvalidBet, InvalidOption
from baccara.money import format_cents
from baccara.options import as_int

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
        str | None,
        typer.Option(
            help="reshuffle (every round, the default) or continuous (to a cut card; a count's)."
        ),
    ] = None,
    penetration: Annotated[
        str, typer.Option(help="Share of a continuous shoe dealt before the cut card.")
    ] = "0.8",
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A rule option, as KEY=VALUE (repeatable)."),
    ] = None,
    bet: Annotated[
        str | None, typer.Option(help="Play bankroll sessions at this bet instead.")
    ] = None,
    stake: Annotated[str | None, typer.Option(help="Sessions: stake a hand (default 10).")] = None,
    bankroll: Annotated[
        str | None, typer.Option(help="Sessions: bankroll at the start (default 1000).")
    ] = None,
    hands: Annotated[
        str | None, typer.Option(help="Sessions: hands a session (default 200).")
    ] = None,
    sessions_: Annotated[
        str | None, typer.Option("--sessions", help="Sessions: how many (default 10,000).")
    ] = None,
    plot: Annotated[
        pathlib.Path | None, typer.Option(help="Sessions: write a .png or .svg plot here.")
    ] = None,
    count: Annotated[
        str | None,
        typer.Option(help="Measure a card count for this bet, dealt from a continuous shoe."),
    ] = None,
    level: Annotated[str, typer.Option(help="Count: the largest tag (1-10).")] = "3",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Deal GAME by its real rules and compare every bet with the exact analysis.

    With --bet, play bankroll sessions at that bet instead: the distribution of session
    results, the risk of ruin, and a plot.
    """
    from baccara.cli import _console, _parse_assignments

    request = SessionRequest(bet, stake, bankroll, hands, sessions_, plot)
    request.check_flags()
    rounds_wanted = check_rounds(DEFAULT_ROUNDS if rounds is None else rounds)
    if count is not None:
        if request.wanted:
            raise InvalidOption("count", "measure a count or play sessions, not both at once")
        if shoe is not None and ShoeMode.parse(shoe) is not ShoeMode.CONTINUOUS:
            raise InvalidOption(
                "shoe", "a count needs a continuous shoe; a reshuffled one has none"
            )
        counting(
            game,
            count,
            rounds_wanted,
            _parse_assignments(option),
            seed=seed,
            penetration=penetration,
            level=level,
            as_json=as_json,
            console=_console(),
        )
        return
    run = setup(
        game,
        _parse_assignments(option),
        seed=seed,
        workers=workers,
        shoe=shoe or ShoeMode.RESHUFFLE.value,
        penetration=penetration,
    )
    if request.wanted:
        sessions(run, request, as_json, _console())
    else:
        frequencies(run, rounds_wanted, as_json, _console())


@dataclass(frozen=True)
class SessionRequest:
    """The session flags as given: all optional until ``--bet`` asks for sessions."""

    bet: str | None
    stake: str | None
    bankroll: str | None
    hands: str | None
    sessions: str | None
    plot: pathlib.Path | None

    @property
    def wanted(self) -> bool:
        return self.bet is not None

    def check_flags(self) -> None:
        given = [
            name
            for name, value in (
                ("--stake", self.stake),
                ("--bankroll", self.bankroll),
                ("--hands", self.hands),
                ("--sessions", self.sessions),
                ("--plot", self.plot),
            )
            if value is not None
        ]
        if given and self.bet is None:
            raise InvalidOption("bet", f"{', '.join(given)} describe sessions: name the --bet too")
        if self.plot is not None and self.plot.suffix.lower() not in PLOT_FORMATS:
            raise InvalidOption("plot", f"write a .png or .svg file, got {self.plot.name!r}")


def sessions(run: Setup, request: SessionRequest, as_json: bool, console: Console) -> None:
    """Play bankroll sessions at one bet and report how they ended (and plot them)."""
    from baccara.analysis.session_plot import plot_sessions
    from baccara.analysis.sessions import SessionPlan, net_per_outcome, play_sessions
    from baccara.money import parse_amount

    assert request.bet is not None
    if request.bet not in run.labels.bets:
        raise InvalidBet(
            f"unknown bet {request.bet!r} for {run.spec.game}; bets are: {', '.join(run.labels.bets)}"
        )
    plan = SessionPlan(
        stake=parse_amount(request.stake or "10"),
        bankroll=parse_amount(request.bankroll or "1000"),
        hands=as_int("hands", request.hands or "200", 1, 1_000_000),
        sessions=as_int("sessions", request.sessions or "10000", 1, 10_000_000),
    )
    column = run.labels.bets.index(request.bet)
    bet = run.analysis.bet(request.bet)
    pays = [bet.outcome(name).pays for name in run.labels.outcomes[column]]
    dealer = run.spec.dealer()
    start = time.perf_counter()
    report = play_sessions(
        plan,
        net_per_outcome(plan.stake, pays),
        lambda rounds, seed: dealer.deal_run(rounds, seed)[:, column],
        run.seed,
    )
    seconds = time.perf_counter() - start
    title = f"{run.spec.game} · {request.bet} · {format_cents(plan.stake)} a hand"
    plot = plot_sessions(report, request.plot, title) if request.plot else None
    summary = report.summary()
    # What the exact edge says the hands actually played cost on average.
    expected = -float(bet.house_edge) * summary["total_wagered"] / summary["sessions"]
    if as_json:
        data = {
            "game": run.spec.game,
            "bet": request.bet,
            "seed": run.seed,
            "shoe": run.spec.shoe.value,
            "options": dict(run.analysis.options),
            "house_edge": float(bet.house_edge),
            "expected_result_from_edge": expected,
            "seconds": seconds,
            **summary,
            "plot": str(plot) if plot else None,
        }
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    print_sessions(summary, plan, title, run.seed, expected, console)
    if plot:
        console.print(f"Plot written to {plot}")


def print_sessions(
    summary: dict[str, Any],
    plan: Any,
    title: str,
    seed: int,
    expected: float,
    console: Console,
) -> None:
    money = format_cents
    console.print(
        f"{title} — {summary['sessions']:,} sessions of up to {plan.hands:,} hands,"
        f" bankroll {money(plan.bankroll)}, seed {seed}"
    )
    table = Table(title="[bold]Session results[/bold]", title_justify="left")
    table.add_column("")
    table.add_column("Value", justify="right")
    low, high = summary["mean_result_ci95"]
    rows = [
        ("mean result", f"{summary['mean_result'] / 100:+.2f}"),
        ("95% CI of the mean", f"{low / 100:+.2f} to {high / 100:+.2f}"),
        ("expected from the exact edge", f"{expected / 100:+.2f}"),
        ("standard deviation", f"{summary['std_result'] / 100:.2f}"),
    ]
    for key, value in summary["percentiles"].items():
        rows.append((f"percentile {key[1:]}", f"{value / 100:+.2f}"))
    rows += [
        (
            "ahead / even / behind",
            f"{summary['ahead']:.2%} / {summary['even']:.2%} / {summary['behind']:.2%}",
        ),
        ("risk of ruin", f"{summary['risk_of_ruin']:.2%}"),
        ("mean hands played", f"{summary['mean_hands_played']:.1f}"),
    ]
    for label, value in rows:
        table.add_row(label, value)
    console.print(table)
    console.print(
        "Ruin: the bankroll no longer covers a stake, so the session ends early."
        " Results are settled in cents, payouts rounded down.",
        style="dim",
    )


def counting(
    game: str,
    bet: str,
    rounds: int,
    options: dict[str, Any],
    *,
    seed: str | None,
    penetration: str,
    level: str,
    as_json: bool,
    console: Console,
) -> None:
    """Measure what a count built from the exact effects of removal gains on ``bet``."""
    from baccara.analysis.count_gain import simulate_count

    report = simulate_count(
        game,
        bet,
        rounds,
        secrets.randbits(63) if seed is None else check_seed(seed),
        penetration=check_penetration(penetration),
        level=as_int("level", level, 1, 10),
        **options,
    )
    if as_json:
        sys.stdout.write(json.dumps(report.to_dict(), indent=2) + "\n")
        return
    tags = "  ".join(f"{rank.symbol}:{tag:+d}" for rank, tag in report.system.tags.items())
    console.print(
        f"{game} · count for {bet} — {report.rounds:,} rounds from a continuous shoe"
        f" cut at {report.penetration:.0%}, seed {report.seed}"
    )
    console.print(f"tags (level {report.system.level}, from the exact effects of removal): {tags}")
    console.print(
        f"exact edge off the top {float(report.exact_edge):.4%}; true count = (running count"
        " − cards dealt × average tag) per deck left"
    )
    groups = Table(title="[bold]Bettor's result by true count[/bold]", title_justify="left")
    for name in ("True count", "Rounds", "Share", "Mean per unit", "95% CI ±"):
        groups.add_column(name, justify="right")
    for tc, n, mean, half in report.groups:
        label = f"≤{tc}" if tc == report.groups[0][0] and tc <= -10 else str(tc)
        label = f"≥{tc}" if tc >= 10 else label
        groups.add_row(label, f"{n:,}", f"{n / report.rounds:.2%}", f"{mean:+.5f}", f"{half:.5f}")
    console.print(groups)
    lines = Table(
        title="[bold]Betting only at a true count of T or more[/bold]", title_justify="left"
    )
    for name in ("T", "Rounds bet", "Mean per unit bet", "95% CI ±", "Units / 100 rounds"):
        lines.add_column(name, justify="right")
    for line in report.lines:
        low, high = line.ci95
        lines.add_row(
            "any" if line.threshold is None else f"{line.threshold}",
            f"{line.share:.2%}",
            f"{line.mean:+.5f}",
            f"{(high - low) / 2:.5f}",
            f"{line.per_100_rounds:+.3f}",
        )
    console.print(lines)
    console.print(
        "Units / 100 rounds: betting one unit only at T or more and sitting out the rest."
        " One process deals a count run.",
        style="dim",
    )
