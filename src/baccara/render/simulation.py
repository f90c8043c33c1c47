"""A simulation on screen: observed frequencies beside the exact ones, sessions, count studies."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from baccara.cards import ShoeMode
from baccara.money import format_cents, money_text
from baccara.options import decimal_text, percent_text, plural
from baccara.render.text import options_text
from baccara.sim.counts import CountReport
from baccara.sim.report import FLAG_SIGMAS, SimulationReport
from baccara.sim.sessions import Expectation, SessionPlan


def _shoe_text(report: SimulationReport) -> str:
    if report.shoe is ShoeMode.RESHUFFLE:
        return "shoe reshuffled every round"
    return f"continuous shoe, cut card at {percent_text(report.penetration, 0)}"


def print_report(report: SimulationReport, console: Console) -> None:
    console.print(
        f"{report.game} — {plural(report.rounds, 'round')}, seed {report.seed}, {_shoe_text(report)}"
    )
    console.print(Text(options_text(report.options)))
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
                decimal_text(o.observed, 8),
                decimal_text(o.expected, 8),
                decimal_text(o.z, 2, signed=True),
                Text(f"outside {FLAG_SIGMAS:g}σ", style="bold red") if o.flagged else "ok",
            )
        console.print(table)
        low, high = bet.return_ci95
        check = f"outside {FLAG_SIGMAS:g}σ" if abs(bet.return_z) > FLAG_SIGMAS else "ok"
        console.print(
            f"return {decimal_text(bet.observed_return, 6, signed=True)} (95% CI {decimal_text(low, 6, signed=True)} to {decimal_text(high, 6, signed=True)})"
            f" · exact {decimal_text(bet.expected_return, 6, signed=True)} · z {decimal_text(bet.return_z, 2, signed=True)} · {check}"
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
        f"{plural(report.rounds, 'round')} in {decimal_text(report.seconds, 2)} s: "
        f"{decimal_text(report.rounds_per_second / 1e6, 1)} million rounds per second, {workers}."
    )


def print_sessions(
    summary: dict[str, Any],
    plan: SessionPlan,
    title: str,
    seed: int,
    expected: Expectation,
    console: Console,
) -> None:
    money = format_cents  # as the transcripts in the docs show it: 1000.00
    console.print(
        f"{title} — {plural(summary['sessions'], 'session')} of up to {plural(plan.hands, 'hand')},"
        f" bankroll {money(plan.bankroll)}, seed {seed}"
    )
    table = Table(title="[bold]Session results[/bold]", title_justify="left")
    table.add_column("")
    table.add_column("Value", justify="right")
    for label, value in session_rows(summary, expected):
        table.add_row(label, value)
    console.print(table)
    note = rounding_note(plan.stake, expected)
    if note is not None:
        console.print(note, style="bold")
    console.print(SESSION_NOTE, style="dim")


def session_rows(summary: dict[str, Any], expected: Expectation) -> list[tuple[str, str]]:
    """A session run in rows: the mean against what the exact edge predicts, the spread,
    percentiles, the chances of ending ahead, even or behind, and the risk of ruin."""
    low, high = summary["mean_result_ci95"]
    rows = [
        ("mean result", decimal_text(summary["mean_result"] / 100, 2, signed=True)),
        (
            "95% CI of the mean",
            f"{decimal_text(low / 100, 2, signed=True)} to {decimal_text(high / 100, 2, signed=True)}",
        ),
        ("expected from the exact edge", decimal_text(expected.from_edge / 100, 2, signed=True)),
    ]
    if expected.rounding_matters:
        rows.append(
            (
                "expected, payouts rounded down",
                decimal_text(expected.at_stake / 100, 2, signed=True),
            )
        )
    rows.append(("standard deviation", decimal_text(summary["std_result"] / 100, 2)))
    for key, value in summary["percentiles"].items():
        rows.append((f"percentile {key[1:]}", decimal_text(value / 100, 2, signed=True)))
    rows += [
        (
            "ahead / even / behind",
            f"{percent_text(summary['ahead'], 2)} / {percent_text(summary['even'], 2)}"
            f" / {percent_text(summary['behind'], 2)}",
        ),
        ("risk of ruin", percent_text(summary["risk_of_ruin"], 2)),
        ("mean hands played", decimal_text(summary["mean_hands_played"], 1)),
    ]
    return rows


def rounding_note(stake: int, expected: Expectation) -> str | None:
    """A line saying so when rounding payouts down to the cent moves the edge at ``stake``."""
    if not expected.rounding_matters:
        return None
    verb = "dominates the result" if expected.rounding_dominates else "raises the edge"
    return (
        f"At {money_text(stake)} a hand, rounding payouts down to the cent {verb}: the"
        f" edge is {percent_text(expected.edge_at_stake)} at this stake,"
        f" {percent_text(expected.edge)} exactly."
    )


SESSION_NOTE = (
    "Ruin: the bankroll no longer covers a stake, so the session ends early."
    " Results are settled in cents, payouts rounded down."
)


def print_count(report: CountReport, game: str, bet: str, console: Console) -> None:
    """The tags, the bettor's result by true count, and what betting only at T or more gains."""
    tags = "  ".join(f"{rank.symbol}:{tag:+d}" for rank, tag in report.system.tags.items())
    console.print(
        f"{game} · count for {bet} — {plural(report.rounds, 'round')} from a continuous shoe,"
        f" cut card {plural(report.behind_cut, 'card')} from the end ({percent_text(report.penetration, 1)}),"
        f" seed {report.seed}"
    )
    console.print(f"tags (level {report.system.level}, from the exact effects of removal): {tags}")
    console.print(
        f"exact edge off the top {percent_text(report.exact_edge)}; true count = (running count"
        " − cards dealt × average tag) per deck left"
    )
    groups = Table(title="[bold]Bettor's result by true count[/bold]", title_justify="left")
    for name in ("True count", "Rounds", "Share", "Mean per unit", "95% CI ±"):
        groups.add_column(name, justify="right")
    for tc, n, mean, half in report.groups:
        label = f"≤{tc}" if tc <= -report.reach else str(tc)
        label = f"≥{tc}" if tc >= report.reach else label
        groups.add_row(
            label,
            f"{n:,}",
            percent_text(n / report.rounds, 2),
            decimal_text(mean, 5, signed=True),
            decimal_text(half, 5),
        )
    console.print(groups)
    lines = Table(
        title="[bold]Betting only at a true count of T or more[/bold]", title_justify="left"
    )
    for name in ("T", "Rounds bet", "Mean per unit bet", "95% CI ±", "Units / 100 rounds"):
        lines.add_column(name, justify="right")
    for line in report.lines:
        mean_text = half_text = "no rounds"
        if line.mean is not None and line.ci95 is not None:
            low, high = line.ci95
            mean_text = decimal_text(line.mean, 5, signed=True)
            half_text = decimal_text((high - low) / 2, 5)
        lines.add_row(
            "any" if line.threshold is None else f"{line.threshold}",
            percent_text(line.share, 2),
            mean_text,
            half_text,
            decimal_text(line.per_100_rounds, 3, signed=True),
        )
    console.print(lines)
    console.print(
        "Units / 100 rounds: betting one unit only at T or more and sitting out the rest."
        " One process deals a count run.",
        style="dim",
    )
