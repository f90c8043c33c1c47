"""``baccara analyze``: the exact mathematics of every bet."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from baccara.cli.common import console, rule_options


def analyze(
    game: Annotated[str, typer.Argument(help="Game id, e.g. punto-banco.")],
    decks: Annotated[str | None, typer.Option(help="Decks in the shoe.")] = None,
    commission: Annotated[
        str | None, typer.Option(help="Commission on winning Banker (or Red/Green) bets, in %.")
    ] = None,
    tie_pays: Annotated[str | None, typer.Option(help="What a winning Tie pays, to 1.")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Any other rule option, as KEY=VALUE (repeatable)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    effect_of_removal: Annotated[
        bool,
        typer.Option(
            "--effect-of-removal",
            help="Instead: how removing one card of each rank (tile) moves each bet's edge.",
        ),
    ] = False,
) -> None:
    """Print the exact mathematics of every bet of GAME."""
    from baccara import exact
    from baccara.render.analysis import print_analysis, print_effect_of_removal

    options = rule_options(option, decks=decks, commission=commission, tie_pays=tie_pays)
    if effect_of_removal:
        effects = exact.effect_of_removal(game, **options)
        if as_json:
            sys.stdout.write(json.dumps(effects.to_dict(), indent=2) + "\n")
        else:
            print_effect_of_removal(effects, console())
        return
    result = exact.analyze(game, **options)
    if as_json:
        sys.stdout.write(json.dumps(result.to_dict(), indent=2) + "\n")
    else:
        print_analysis(result, console())
