"""``baccara paytable``: show what a Bonus paytable costs, and design new ones."""

from __future__ import annotations

import pathlib
from fractions import Fraction
from typing import Annotated

import typer

from baccara.cli.common import console
from baccara.options import as_fraction, as_int

paytable_app = typer.Typer(
    help="Bonus side-bet paytables: what they cost, and new ones for a target edge.",
    no_args_is_help=False,
)


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
    from baccara.cards import ShoeComposition
    from baccara.exact.bonus import bonus_bet, category_counts
    from baccara.paytables import load_paytable
    from baccara.render.paytable import print_paytable

    table = load_paytable(paytable)
    deck_count = _decks(decks)
    counts = category_counts(ShoeComposition.standard(deck_count))
    print_paytable(table, deck_count, counts, bonus_bet(counts, table), console())


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
    from baccara.cards import ShoeComposition
    from baccara.exact.bonus import category_counts
    from baccara.exact.paytable_design import design_paytables
    from baccara.render.paytable import print_designs

    target = percent("target-edge", target_edge)
    hit = percent("min-hit", min_hit)
    how_many = as_int("top", top, 1, 50)
    deck_count = _decks(decks)
    counts = category_counts(ShoeComposition.standard(deck_count))
    designs = design_paytables(counts, target, min_hit=hit, top=how_many)
    out = console()
    if not designs:
        out.print("No paytable in the search meets those constraints.")
        raise typer.Exit(1)
    print_designs(designs, target, deck_count, out)
    if save is not None:
        save.write_text(designs[0].paytable.to_toml(), encoding="utf-8")
        out.print(f"Saved paytable #1 to {save}")
