"""``baccara paytable``: show what a Bonus paytable costs, and design new ones."""

from __future__ import annotations

import pathlib
from fractions import Fraction
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from baccara.games.bonus import Category
from baccara.options import as_fraction, as_int

paytable_app = typer.Typer(
    help="Bonus side-bet paytables: what they cost, and new ones for a target edge.",
    no_args_is_help=False,
)


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


def percent(name: str, text: str) -> Fraction:
    """``"4%"`` or ``"4"`` → 1/25: options given in percent."""
    return as_fraction(name, text.strip().removesuffix("%"), -100, 100) / 100


def _decks(text: str) -> int:
    return as_int("decks", text, 1, 64)


@paytable_app.command("show")
def show(
    paytable: Annotated[str, typer.Argument(help="A shipped paytable name or a TOML file.")],
    decks: Annotated[str, typer.Option(help="Decks in the shoe.")] = "7",
) -> None:
    """Every category: what it pays, how often it comes, what it returns."""
    from baccara.analysis.bonus import bonus_bet, category_counts
    from baccara.analysis.render import pays_text
    from baccara.cards import ShoeComposition
    from baccara.games.bonus import CATEGORIES
    from baccara.paytables import load_paytable

    table = load_paytable(paytable)
    deck_count = _decks(decks)
    counts = category_counts(ShoeComposition.standard(deck_count))
    bet = bonus_bet(counts, table)
    total = sum(counts.values())
    grid = Table(title=f"[bold]{table.name}[/bold] — {deck_count} decks", title_justify="left")
    for column, justify in (
        ("Category", "left"),
        ("Pays", "right"),
        ("Combinations", "right"),
        ("Probability", "right"),
        ("Return", "right"),
    ):
        grid.add_column(column, justify=justify)  # type: ignore[arg-type]
    for category in CATEGORIES:
        pays = table.net(category)
        probability = Fraction(counts[category], total)
        grid.add_row(
            category.value,
            pays_text(pays) if category in table.pays else "loses",
            f"{counts[category]:,}",
            f"{float(probability):.8f}",
            f"{float(probability * pays):.8f}",
        )
    grid.add_section()
    grid.add_row(
        "Total",
        "",
        f"{total:,}",
        f"{1:.8f}",
        Text(f"{float(bet.expected_return):.8f}", style="bold"),
    )
    console = Console(highlight=False)
    console.print(grid)
    console.print(
        f"house edge {float(bet.house_edge):.4%} · hit frequency {float(bet.hit_frequency):.4%}"
        f" · std dev {bet.std_dev:.4f}"
    )


@paytable_app.command("design")
def design(
    target_edge: Annotated[str, typer.Option("--target-edge", help="House edge wanted, in %.")],
    decks: Annotated[str, typer.Option(help="Decks in the shoe.")] = "7",
    min_hit: Annotated[
        str, typer.Option("--min-hit", help="Least hit frequency the table must give, in %.")
    ] = "0",
    top: Annotated[str, typer.Option(help="How many paytables to list.")] = "5",
    save: Annotated[
        pathlib.Path | None, typer.Option(help="Write the nearest paytable to this TOML file.")
    ] = None,
) -> None:
    """List integer paytables, pays in order of rank, nearest a target house edge."""
    from baccara.analysis.bonus import category_counts
    from baccara.analysis.paytable_design import COMMON, RARE, design_paytables
    from baccara.cards import ShoeComposition

    target = percent("target-edge", target_edge)
    hit = percent("min-hit", min_hit)
    how_many = as_int("top", top, 1, 50)
    deck_count = _decks(decks)
    counts = category_counts(ShoeComposition.standard(deck_count))
    designs = design_paytables(counts, target, min_hit=hit, top=how_many)
    console = Console(highlight=False)
    if not designs:
        console.print("No paytable in the search meets those constraints.")
        raise typer.Exit(1)
    categories = [c for c, _ in (*RARE, *COMMON)]
    grid = Table(
        title=f"[bold]Nearest {float(target):.2%}[/bold] — {deck_count} decks, pays to 1",
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
    if save is not None:
        save.write_text(designs[0].paytable.to_toml(), encoding="utf-8")
        console.print(f"Saved paytable #1 to {save}")
