"""``baccara analyze``: the exact mathematics of every bet, per unit or at one stake."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from baccara.cli.common import GameArgument, JsonFlag, RuleOptions, console, rule_options
from baccara.games import GameSpec


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
    sidebet: Annotated[
        list[str] | None,
        typer.Option(
            "--sidebet",
            metavar="FILE",
            help="A side bet the table offers too: its TOML file, or a shipped id"
            " (repeatable; punto-banco).",
        ),
    ] = None,
    as_json: JsonFlag = False,
    effect_of_removal: Annotated[
        bool,
        typer.Option(
            "--effect-of-removal",
            help="Instead: how removing one card of each rank (tile) moves each bet's edge.",
        ),
    ] = False,
    stake: Annotated[
        str | None,
        typer.Option(
            metavar="AMOUNT",
            help="Each bet at this stake (12.50), every payout rounded down to the cent as paid.",
            show_default="per unit, at the exact odds",
        ),
    ] = None,
) -> None:
    """Print the exact mathematics of every bet of GAME."""
    from baccara import exact
    from baccara.errors import InvalidOption
    from baccara.exact.stakes import analysis_at_stake
    from baccara.games import game as game_spec
    from baccara.money import parse_amount
    from baccara.render.analysis import print_analysis, print_effect_of_removal
    from baccara.render.stakes import print_stake_analysis
    from baccara.render.text import to_json

    spec = game_spec(game)
    options = rule_options(spec, option, decks=decks, commission=commission, tie_pays=tie_pays)
    if sidebet:
        options = with_sidebet_files(spec, options, sidebet)
    stake_cents = None if stake is None else parse_amount(stake, "--stake")
    if effect_of_removal and stake_cents is not None:
        raise InvalidOption("--stake", "--effect-of-removal is per unit staked; leave --stake out")
    if effect_of_removal:
        effects = exact.effect_of_removal(spec.id, **options)
        if as_json:
            sys.stdout.write(to_json(effects.to_dict()))
        else:
            print_effect_of_removal(effects, console())
        return
    result = exact.analyze(spec.id, **options)
    at_stake = analysis_at_stake(result, stake_cents)
    if stake_cents is not None:
        if as_json:
            sys.stdout.write(to_json(at_stake.to_dict()))
        else:
            print_stake_analysis(at_stake, console())
        return
    if as_json:
        sys.stdout.write(to_json(result.to_dict()))
    else:
        out = console()
        print_analysis(result, out)
        out.print(at_stake.note(), style="dim")


def with_sidebet_files(spec: GameSpec, options: dict[str, Any], files: list[str]) -> dict[str, Any]:
    """``options`` with the side bets of ``files`` added to those the table offers already
    (its rule set's, or ``--option sidebets=``'s).

    A side bet whose id the table has already is refused, naming both, rather than one
    silently replacing the other: a house's own Dragon 7 takes another id, or the
    shipped one is left out with ``--option sidebets=none``.
    """
    from baccara.errors import InvalidOption
    from baccara.games.coup_bets import shipped_sidebets
    from baccara.options import field_of
    from baccara.paytables import load_sidebet
    from baccara.render.text import printable

    if "sidebets" not in spec.rules.OPTIONS:
        raise InvalidOption(
            "--sidebet", f"does not apply to {spec.id}; side bets are punto-banco's"
        )
    chosen = list(spec.rules_from_options(**options).sidebets)
    offered_by = {bet.id: "by the rule set or --option sidebets" for bet in chosen}
    for path in files:
        bet = load_sidebet(path)
        shown = printable(path)
        what = (
            f"side bet {bet.id!r}" if path.strip() == bet.id else f"{shown!r} (side bet {bet.id!r})"
        )
        if bet.id in offered_by:
            raise InvalidOption(
                "--sidebet",
                f"{what} is offered already, {offered_by[bet.id]}; give it another id"
                " or leave the other out (--option sidebets=…)",
            )
        offered_by[bet.id] = f"by {shown!r}"
        chosen.append(bet)
    others = {
        key: value
        for key, value in options.items()
        if field_of(spec.id, key, spec.rules.OPTIONS) != "sidebets"
    }
    return {**others, "sidebets": shipped_sidebets("--sidebet", chosen)}
