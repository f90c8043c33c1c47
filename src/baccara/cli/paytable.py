"""``baccara paytable``: what a Bonus paytable, a Punto Banco side bet or a rule set
costs, whether a file is one, and new pays for a target edge.

One argument names any of them, shipped or a file (:func:`baccara.paytables.load_bet_file`
tells them apart by their keys), so a designer runs the same three commands on each.
"""

from __future__ import annotations

import pathlib
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated

import typer

from baccara.cli.common import check_destination, console, interruptible, write_file
from baccara.errors import InvalidOption
from baccara.options import as_fraction, as_int

if TYPE_CHECKING:
    from baccara.games.coup_bets import MainRules, SideBet

paytable_app = typer.Typer(
    help="Bonus paytables, Punto Banco side bets and rule sets: what they cost, and new"
    " pays for a target edge.",
    no_args_is_help=False,
)

MAX_DECKS = 64
"""The Bonus is counted exactly for shoes of up to 64 decks."""
MAX_PUNTO_BANCO_DECKS = 100
"""A Punto Banco table's most decks (its ``decks`` option's bound)."""
MAX_TOP = 50


def percent(flag: str, text: str, low: int, high: int, *, low_inclusive: bool = True) -> Fraction:
    """``"4%"`` or ``"4"`` → 1/25: an option given in percent, in ``[low, high)``, checked as typed."""
    number = text.strip().removesuffix("%")
    value = as_fraction(flag, number, low, high, low_inclusive=low_inclusive, high_inclusive=False)
    return value / 100


def _decks(text: str | None, punto_banco: bool = False) -> int:
    """``--decks``: a Bonus paytable is priced at RedGreen's 7 decks and up to 64, a Punto
    Banco bet at the game's 8 and up to 100, each game's own default and bound."""
    if punto_banco:
        return as_int("--decks", "8" if text is None else text, 1, MAX_PUNTO_BANCO_DECKS)
    return as_int("--decks", "7" if text is None else text, 1, MAX_DECKS)


DecksOption = Annotated[
    str | None,
    typer.Option(
        metavar="N",
        help="Decks in the shoe.",
        show_default="7 for a Bonus paytable, 8 for a Punto Banco bet",
    ),
]
BetArgument = Annotated[
    str,
    typer.Argument(
        metavar="PAYTABLE",
        help="A shipped Bonus paytable, side bet or rule set (default, dragon-7, ez …)"
        " or a TOML file of one.",
    ),
]


@paytable_app.command("show")
@interruptible
def show(paytable: BetArgument, decks: DecksOption = None) -> None:
    """Every pay in words, how often it comes and what it returns; then the edge."""
    from baccara.games.coup_bets import MainRules, SideBet
    from baccara.paytables import load_bet_file

    found = load_bet_file(paytable)
    if isinstance(found, SideBet):
        _show_sidebet(found, _decks(decks, punto_banco=True))
    elif isinstance(found, MainRules):
        _show_rule_set(found, _decks(decks, punto_banco=True))
    else:
        from baccara.cards import ShoeComposition
        from baccara.exact.bonus import bonus_bet, category_counts
        from baccara.render.paytable import print_paytable

        deck_count = _decks(decks)
        counts = category_counts(ShoeComposition.standard(deck_count))
        print_paytable(found, deck_count, counts, bonus_bet(counts, found), console())


def _show_sidebet(bet: SideBet, decks: int) -> None:
    from baccara.exact.coup_bets import spot_analysis
    from baccara.games.punto_banco import PuntoBancoRules
    from baccara.render.sidebet import print_sidebet

    analysis = spot_analysis(bet.id, PuntoBancoRules(sidebets=(bet,)), decks)
    print_sidebet(bet, decks, analysis, console())


def _show_rule_set(rules: MainRules, decks: int) -> None:
    from baccara.exact.punto_banco import bet_analyses
    from baccara.games.punto_banco import Bet, PuntoBancoRules
    from baccara.render.sidebet import print_rule_set

    table = PuntoBancoRules.from_options(decks=decks, variant=rules, sidebets="none")
    main = {Bet.BANKER.value, Bet.PLAYER.value, Bet.TIE.value}
    bets = [bet for bet in bet_analyses(table) if bet.bet in main]
    print_rule_set(rules, decks, table.tie_pays, bets, console())


@paytable_app.command("check")
@interruptible
def check(
    paytables: Annotated[
        list[str],
        typer.Argument(
            metavar="FILE...", help="Bonus paytable, side bet or rule set files to check."
        ),
    ],
) -> None:
    """Read each file as baccara would use it and say what it is; the first that cannot be
    used is refused with the line at fault, and nothing is printed for the others."""
    from baccara.games.coup_bets import MainRules, SideBet
    from baccara.options import plural
    from baccara.paytables import load_bet_file
    from baccara.render.text import printable

    out = console()
    every = [(name, load_bet_file(name)) for name in paytables]  # all read before any is told
    for name, found in every:
        if isinstance(found, SideBet):
            what = f"side bet {found.id} ({found.name}), {plural(len(found.lines), 'pay line')}"
        elif isinstance(found, MainRules):
            lines = len(found.banker) + len(found.player)
            what = f"rule set {found.id} ({found.name}), {plural(lines, 'pay line')}"
        else:
            what = f"Bonus paytable {found.name}, {plural(len(found.pays), 'paying category')}"
        out.print(printable(f"{name}: {what}"), markup=False, soft_wrap=True)


@paytable_app.command("design")
@interruptible
def design(
    target_edge: Annotated[
        str, typer.Option("--target-edge", metavar="PCT", help="House edge wanted, in %.")
    ],
    sidebet: Annotated[
        str | None,
        typer.Argument(
            metavar="SIDEBET",
            help="A Punto Banco side bet (a shipped id or a TOML file) whose pays to search;"
            " without it, Bonus paytables.",
            show_default=False,
        ),
    ] = None,
    decks: DecksOption = None,
    min_hit: Annotated[
        str | None,
        typer.Option(
            "--min-hit",
            metavar="PCT",
            help="Least hit frequency the table must give, in % (Bonus paytables).",
            show_default="0",
        ),
    ] = None,
    within: Annotated[
        str | None,
        typer.Option(
            "--within",
            metavar="PCT",
            help="Edges this near the target are on target, the least change to the pays"
            " first (side bets), in % points, under 1.",
            show_default="0.0001",
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
    """List paytables nearest a target house edge: integer Bonus pays in order of rank,
    or a side bet's lines each paying 1 to 5 times what it pays now."""
    target = percent("--target-edge", target_edge, -100, 100, low_inclusive=False)
    how_many = as_int("--top", "5" if top is None else top, 1, MAX_TOP)
    if sidebet is not None:
        _design_sidebet(sidebet, target, decks, min_hit, within, how_many, save)
        return
    if within is not None:
        raise InvalidOption("--within", "applies to a side bet's design; name the SIDEBET")
    from baccara.cards import ShoeComposition
    from baccara.exact.bonus import category_counts
    from baccara.exact.paytable_design import design_paytables
    from baccara.render.paytable import print_designs

    hit = percent("--min-hit", "0" if min_hit is None else min_hit, 0, 100)
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
        _saved(save)


def _design_sidebet(
    name: str,
    target: Fraction,
    decks: str | None,
    min_hit: str | None,
    within: str | None,
    top: int,
    save: pathlib.Path | None,
) -> None:
    """``design SIDEBET``: the side bet's lines repriced for ``target``, the nearest saved."""
    from baccara.exact.coup_bets import spot_analysis
    from baccara.exact.sidebet_design import design_sidebet
    from baccara.games.coup_bets import SideBet
    from baccara.games.punto_banco import PuntoBancoRules
    from baccara.options import fraction_text, percent_text, plural
    from baccara.paytables import load_bet_file
    from baccara.render.sidebet import print_sidebet_designs
    from baccara.render.text import printable

    bet = load_bet_file(name)
    if not isinstance(bet, SideBet):
        kind = "a Bonus paytable" if hasattr(bet, "pays") else "a rule set"
        raise InvalidOption(
            "SIDEBET",
            f"{name!r} is {kind}; design searches a Punto Banco side bet's pays"
            " (leave SIDEBET out to design a Bonus paytable)",
        )
    if min_hit is not None:
        raise InvalidOption(
            "--min-hit", "a side bet's hit frequency is its lines', whatever they pay; leave it out"
        )
    # Beyond a point of edge nearly every table is "on target" and the search scans them all.
    near = percent("--within", "0.0001" if within is None else within, 0, 1)
    deck_count = _decks(decks, punto_banco=True)
    if save is not None:
        check_destination(save, "--save")
    now = spot_analysis(bet.id, PuntoBancoRules(sidebets=(bet,)), deck_count)
    designs = design_sidebet(bet, deck_count, target, top=top, within=near)
    print_sidebet_designs(bet, now, designs, target, deck_count, console())
    if save is not None:
        best = designs[0]
        comment = (
            f"# {printable(bet.name)} with pays set for a {percent_text(target, 2)} house edge:"
            f" exactly {fraction_text(best.house_edge)} ({percent_text(best.house_edge)})"
            f" at {plural(deck_count, 'deck')}\n"
        )
        write_file(save, comment + best.bet.to_toml(), "--save")
        _saved(save)


def _saved(path: pathlib.Path) -> None:
    from baccara.render.text import printable

    console().print(f"Saved paytable #1 to {printable(str(path))}", markup=False, soft_wrap=True)
