"""A simulation on screen: observed frequencies beside the exact ones, sessions, count studies."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from baccara.cards import ShoeMode
from baccara.money import format_cents
from baccara.render.text import plural
from baccara.sim.counts import CountReport
from baccara.sim.report import FLAG_SIGMAS, SimulationReport
from baccara.sim.sessions import SessionPlan


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


def print_sessions(
    summary: dict[str, Any],
    plan: SessionPlan,
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
    for label, value in session_rows(summary, expected):
        table.add_row(label, value)
    console.print(table)
    console.print(SESSION_NOTE, style="dim")


def session_rows(summary: dict[str, Any], expected: float) -> list[tuple[str, str]]:
    """A session run in rows: the mean against what the exact edge predicts, the spread,
    percentiles, the chances of ending ahead, even or behind, and the risk of ruin."""
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
    return rows


SESSION_NOTE = (
    "Ruin: the bankroll no longer covers a stake, so the session ends early."
    " Results are settled in cents, payouts rounded down."
)


def print_count(report: CountReport, game: str, bet: str, console: Console) -> None:
    """The tags, the bettor's result by true count, and what betting only at T or more gains."""
    tags = "  ".join(f"{rank.symbol}:{tag:+d}" for rank, tag in report.system.tags.items())
    console.print(
        f"{game} · count for {bet} — {plural(report.rounds, 'round')} from a continuous shoe,"
        f" cut card {plural(report.behind_cut, 'card')} from the end ({report.penetration:.1%}),"
        f" seed {report.seed}"
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
        label = f"≤{tc}" if tc <= -report.reach else str(tc)
        label = f"≥{tc}" if tc >= report.reach else label
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
