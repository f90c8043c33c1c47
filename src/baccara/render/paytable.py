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
from baccara.render.analysis import pays_text, total_row
from baccara.render.text import plural

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
                f"{float(probability):.8f}",
                f"{float(probability * pays):.8f}",
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
    grid = Table(title=f"[bold]{table.name}[/bold] — {plural(decks, 'deck')}", title_justify="left")
    for i, column in enumerate(PAYTABLE_COLUMNS):
        grid.add_column(column, justify="left" if i == 0 else "right")
    for row in category_rows(table, counts):
        grid.add_row(*row)
    grid.add_section()
    *first, last = total_row(bet)
    grid.add_row(*first, Text(last, style="bold"))
    console.print(grid)
    console.print(
        f"house edge {float(bet.house_edge):.4%} · hit frequency {float(bet.hit_frequency):.4%}"
        f" · std dev {bet.std_dev:.4f}"
    )


def print_designs(
    designs: Sequence[Design], target: Fraction, decks: int, console: Console
) -> None:
    """The designed paytables, nearest the target edge first, one per row."""
    categories = [c for c, _ in (*RARE, *COMMON)]
    grid = Table(
        title=f"[bold]Nearest {float(target):.2%}[/bold] — {plural(decks, 'deck')}, pays to 1",
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
            f"{float(found.house_edge):.4%}",
            f"{float(found.bet.hit_frequency):.2%}",
            f"{found.bet.std_dev:.3f}",
        )
    console.print(grid)
    console.print(", ".join(f"{SHORT[c]} {c.value}" for c in categories), style="dim")
