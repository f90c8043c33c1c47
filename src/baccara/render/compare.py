"""Rule variants side by side on screen (and in the report): every bet's edge per variant."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from baccara.exact.variants import Comparison
from baccara.options import percent_text
from baccara.render.analysis import points_text
from baccara.render.text import options_text, printable

BASE = "as given"
"""The row of the rules the comparison starts from."""

LEGEND = (
    "Each cell: the bet's house edge, and under it the change from the rules as given in "
    "percentage points (+ raises the edge, worse for the bettor); no change prints nothing."
)


def comparison_columns(comparison: Comparison) -> tuple[str, ...]:
    return ("Variant", *comparison.bets)


def comparison_rows(comparison: Comparison) -> list[tuple[str, ...]]:
    """The base row, then one per variant; a cell is the edge over its change (two lines).

    A variant's name is the user's: its control characters are escaped.
    """
    rows = [(BASE, *(percent_text(comparison.base.bet(b).house_edge) for b in comparison.bets))]
    for result in comparison.variants:
        cells = []
        for bet in comparison.bets:
            change = comparison.change(result, bet)
            edge = percent_text(comparison.edge(result, bet))
            cells.append(f"{edge}\n{points_text(change)}" if change else edge)
        rows.append((printable(result.variant.name), *cells))
    return rows


def variant_lines(comparison: Comparison) -> list[str]:
    """What each variant sets, one line each: ``tie-9: tie-pays=9 — Tie pays 9 to 1``."""
    lines = []
    for result in comparison.variants:
        variant = result.variant
        about = f" — {variant.description}" if variant.description else ""
        lines.append(printable(f"{variant.name}: {variant.options_text()}{about}"))
    return lines


def print_comparison(comparison: Comparison, console: Console) -> None:
    console.print(Text(f"{comparison.game} — {options_text(comparison.base.options)}", "bold"))
    table = Table(
        title="[bold]house edge by rule variant[/bold]",
        title_justify="left",
        box=box.SQUARE,
        show_lines=True,
    )
    for i, column in enumerate(comparison_columns(comparison)):
        if i == 0:
            table.add_column(column, overflow="fold")  # a long name wraps, never cut
        else:
            table.add_column(column, justify="right")
    for row in comparison_rows(comparison):
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)
    console.print(LEGEND)
    for line in variant_lines(comparison):
        console.print(Text(line, "dim"))
