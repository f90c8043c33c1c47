"""Bonus paytables on screen: what each category pays and returns, and designed tables side by side."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from baccara.exact.model import BetAnalysis
from baccara.exact.paytable_design import COMMON, RARE, Design
from baccara.games.bonus import CATEGORIES, Category
from baccara.games.paytable import Paytable
from baccara.options import decimal_text, percent_text, plural
from baccara.render.analysis import pays_text, total_row
from baccara.render.text import printable

SHORT = {
    Category.ROYAL_FLUSH: "RF",
    Category.STRAIGHT_FLUSH: "SF",
    Category.FIVE_OF_A_KIND: "5K",
    Category.FOUR_OF_A_KIND: "4K",
    Category.FULL_HOUSE: "FH",
    Category.FLUSH: "FL",
    Category.STRAIGHT: "ST",
    Category.THREE_OF_A_KIND: "3K",
    Category.TWO_PAIR: "2P",
    Category.PAIR: "1P",
}


PAYTABLE_COLUMNS = ("Category", "Pays", "Combinations", "Probability", "Return")


def category_rows(table: Paytable, counts: Mapping[Category, int]) -> list[tuple[str, ...]]:
    """Every category, paying or not: what it pays, how often it comes, what it returns."""
    total = sum(counts.values())
    rows: list[tuple[str, ...]] = []
    for category in CATEGORIES:
        pays = table.net(category)
        probability = Fraction(counts[category], total)
        rows.append(
            (
                category.value,
                pays_text(pays) if category in table.pays else "loses",
                f"{counts[category]:,}",
                decimal_text(probability, 8),
                decimal_text(probability * pays, 8),
            )
        )
    return rows


def print_paytable(
    table: Paytable,
    decks: int,
    counts: Mapping[Category, int],
    bet: BetAnalysis,
    console: Console,
) -> None:
    """Every category: what it pays, how often it comes, what it returns; then the edge."""
    title = Text.assemble((printable(table.name), "bold"), f" — {plural(decks, 'deck')}")
    grid = Table(title=title, title_justify="left")
    for i, column in enumerate(PAYTABLE_COLUMNS):
        grid.add_column(column, justify="left" if i == 0 else "right")
    for row in category_rows(table, counts):
        grid.add_row(*row)
    grid.add_section()
    *first, last = total_row(bet)
    grid.add_row(*first, Text(last, style="bold"))
    console.print(grid)
    console.print(
        f"house edge {percent_text(bet.house_edge)} · hit frequency {percent_text(bet.hit_frequency)}"
        f" · std dev {decimal_text(bet.std_dev, 4)}"
    )


def print_designs(
    designs: Sequence[Design], target: Fraction, decks: int, console: Console
) -> None:
    """The designed paytables, nearest the target edge first, one per row."""
    categories = [c for c, _ in (*RARE, *COMMON)]
    grid = Table(
        title=f"[bold]Nearest {percent_text(target, 2)}[/bold] — {plural(decks, 'deck')}, pays to 1",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
    )
    grid.add_column("#", justify="right", no_wrap=True)
    for category in categories:
        grid.add_column(SHORT[category], justify="right", no_wrap=True)
    for column in ("edge", "hit", "std dev"):
        grid.add_column(column, justify="right", no_wrap=True, min_width=7)
    for number, found in enumerate(designs, start=1):
        pays = found.paytable.pays
        grid.add_row(
            str(number),
            *(str(pays[c]) if c in pays else "-" for c in categories),
            percent_text(found.house_edge),
            percent_text(found.bet.hit_frequency, 2),
            decimal_text(found.bet.std_dev, 3),
        )
    console.print(grid)
    console.print(", ".join(f"{SHORT[c]} {c.value}" for c in categories), style="dim")
