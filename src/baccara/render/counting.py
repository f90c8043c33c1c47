"""How ``baccara count`` prints a count study: the effects, the count, the play."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from baccara.exact.counting import VALUE_LABELS, CountStudy
from baccara.options import percent_text


def print_count_study(study: CountStudy, console: Console) -> None:
    console.print(
        f"[bold]{study.bet}[/bold] from {study.decks} decks: the player's expectation"
        f" {percent_text(study.expectation, 4, signed=True)}"
    )
    table = Table(title="Counting by value (tens and faces count alike)", title_justify="left")
    table.add_column("card", justify="right")
    table.add_column("effect, % a card", justify="right")
    table.add_column(f"best tag, level {study.level}", justify="right")
    if study.published is not None:
        table.add_column(study.published[0], justify="right")
    for i, label in enumerate(VALUE_LABELS):
        row = [label, f"{float(study.effects[i]) * 100:+.4f}", _tag(study.tags[i])]
        if study.published is not None:
            row.append(_tag(study.published[1][i]))
        table.add_row(*row)
    console.print(table)
    console.print(
        f"Best count: correlation {study.correlation:.3f} with the effects; the linear"
        f" estimate turns the bet positive at a true count of {study.linear_trigger:.2f}."
    )
    if study.published is not None:
        whose, _, corr, trigger = study.published
        console.print(f"{whose}: correlation {corr:.3f}, linear trigger {trigger:.2f}.")
    play = study.play
    if len(play.spread) == 1 and play.spread[0][1] == 1:
        how = f"one unit bet at a true count of {play.trigger:g} or more"
    else:
        how = "bet " + ", ".join(f"{u} from {c:g}" for c, u in play.spread)
    console.print(
        f"\n{play.shoes:,} shoes dealt to a cut card {play.cut_card} cards from the end, {how}:"
    )
    console.print(
        f"  bets per shoe      {play.bets_per_shoe:.2f} ({play.units_per_shoe:.2f} units)"
    )
    console.print(
        f"  gain per shoe      {play.expected_gain:+.4f} ± {play.expected_se:.4f} units"
        " (the exact edge of each shoe bet into)"
    )
    console.print(
        f"  won per shoe       {play.won:+.4f} ± {play.won_se:.4f} units (what the bets paid)"
    )
    if play.ceiling is not None:
        console.print(f"  ceiling per shoe   {play.ceiling:+.4f} units (knowing every card left)")
    which = "every coup" if play.ceiling is not None else "the coups bet into"
    console.print(f"Exact expectation by true count ({which}):")
    counts = Table()
    counts.add_column("true count", justify="right")
    counts.add_column("coups", justify="right")
    counts.add_column("expectation", justify="right")
    for true, coups, edge in play.edge_by_count:
        if -6 <= true <= 12:
            counts.add_row(f"{true:+d}", f"{coups:,}", f"{edge * 100:+.3f} %")
    console.print(counts)


def _tag(tag: int) -> str:
    return f"{tag:+d}" if tag else "0"
