"""``baccara paytable``: show what a Bonus paytable costs, and design new ones."""

from __future__ import annotations

import pathlib
from fractions import Fraction
from typing import Annotated

import typer

from baccara.cli.common import check_destination, console, interruptible, write_file
from baccara.options import as_fraction, as_int

paytable_app = typer.Typer(
    help="Bonus side-bet paytables: what they cost, and new ones for a target edge.",
    no_args_is_help=False,
)

MAX_DECKS = 64
"""The Bonus is counted exactly for shoes of up to 64 decks."""
MAX_TOP = 50


def percent(flag: str, text: str, low: int, high: int, *, low_inclusive: bool = True) -> Fraction:
    """``"4%"`` or ``"4"`` → 1/25: an option given in percent, in ``[low, high)``, checked as typed."""
    number = text.strip().removesuffix("%")
    value = as_fraction(flag, number, low, high, low_inclusive=low_inclusive, high_inclusive=False)
    return value / 100


def _decks(text: str | None) -> int:
    return as_int("--decks", "7" if text is None else text, 1, MAX_DECKS)


DecksOption = Annotated[
    str | None, typer.Option(metavar="N", help="Decks in the shoe.", show_default="7")
]


@paytable_app.command("show")
@interruptible
def show(
    paytable: Annotated[
        str, typer.Argument(metavar="PAYTABLE", help="A shipped paytable name or a TOML file.")
    ],
    decks: DecksOption = None,
) -> None:
    """Every category: what it pays, how often it comes, what it returns."""
    from baccara.cards import ShoeComposition
    from baccara.exact.bonus import bonus_bet, category_counts
    from baccara.paytables import load_paytable
    from baccara.render.paytable import print_paytable

    deck_count = _decks(decks)
    table = load_paytable(paytable)
    counts = category_counts(ShoeComposition.standard(deck_count))
    print_paytable(table, deck_count, counts, bonus_bet(counts, table), console())


@paytable_app.command("design")
@interruptible
def design(
    target_edge: Annotated[
        str, typer.Option("--target-edge", metavar="PCT", help="House edge wanted, in %.")
    ],
    decks: DecksOption = None,
    min_hit: Annotated[
        str | None,
        typer.Option(
            "--min-hit",
            metavar="PCT",
            help="Least hit frequency the table must give, in %.",
            show_default="0",
        ),
    ] = None,
    top: Annotated[
        str | None,
        typer.Option(
            metavar="N", help=f"How many paytables to list (1-{MAX_TOP}).", show_default="5"
        ),
    ] = None,
    save: Annotated[
        pathlib.Path | None,
        typer.Option(metavar="FILE.toml", help="Write the nearest paytable to this TOML file."),
    ] = None,
) -> None:
    """List integer paytables, pays in order of rank, nearest a target house edge."""
    from baccara.cards import ShoeComposition
    from baccara.exact.bonus import category_counts
    from baccara.exact.paytable_design import design_paytables
    from baccara.render.paytable import print_designs
    from baccara.render.text import printable

    target = percent("--target-edge", target_edge, -100, 100, low_inclusive=False)
    hit = percent("--min-hit", "0" if min_hit is None else min_hit, 0, 100)
    how_many = as_int("--top", "5" if top is None else top, 1, MAX_TOP)
    deck_count = _decks(decks)
    if save is not None:
        check_destination(save, "--save")
    counts = category_counts(ShoeComposition.standard(deck_count))
    designs = design_paytables(counts, target, min_hit=hit, top=how_many)
    out = console()
    if not designs:
        out.print("No paytable in the search meets those constraints.")
        raise typer.Exit(1)
    print_designs(designs, target, deck_count, out)
    if save is not None:
        write_file(save, designs[0].paytable.to_toml(), "--save")
        out.print(f"Saved paytable #1 to {printable(str(save))}", markup=False, soft_wrap=True)
