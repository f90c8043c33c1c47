"""``baccara analyze``: the exact mathematics of every bet."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from baccara.cli.common import GameArgument, JsonFlag, RuleOptions, console, rule_options


def analyze(
    game: GameArgument,
    decks: Annotated[
        str | None,
        typer.Option(metavar="N", help="Decks in the shoe.", show_default="the game's"),
    ] = None,
    commission: Annotated[
        str | None,
        typer.Option(
            metavar="PCT",
            help="Commission on winning Banker (or Red/Green) bets, in %.",
            show_default="the game's",
        ),
    ] = None,
    tie_pays: Annotated[
        str | None,
        typer.Option(
            metavar="NUMBER", help="What a winning Tie pays, to 1.", show_default="the game's"
        ),
    ] = None,
    option: RuleOptions = None,
    as_json: JsonFlag = False,
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
    from baccara.games import game as game_spec
    from baccara.render.analysis import print_analysis, print_effect_of_removal
    from baccara.render.text import to_json

    spec = game_spec(game)
    options = rule_options(spec, option, decks=decks, commission=commission, tie_pays=tie_pays)
    if effect_of_removal:
        effects = exact.effect_of_removal(spec.id, **options)
        if as_json:
            sys.stdout.write(to_json(effects.to_dict()))
        else:
            print_effect_of_removal(effects, console())
        return
    result = exact.analyze(spec.id, **options)
    if as_json:
        sys.stdout.write(to_json(result.to_dict()))
    else:
        print_analysis(result, console())
