"""``baccara deal``: one round of a game, dealt and settled step by step."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from baccara.cli.common import GameArgument


def deal(
    game: GameArgument,
    seed: Annotated[
        str | None,
        typer.Option(
            metavar="S", help="Replay a seeded round; without it the secure shuffle deals."
        ),
    ] = None,
    stake: Annotated[
        str | None,
        typer.Option(metavar="AMOUNT", help="Stake on each bet, e.g. 12.50.", show_default="10"),
    ] = None,
) -> None:
    """Deal one round of GAME and settle every bet, step by step."""
    from baccara.games import game as game_spec
    from baccara.money import MAX_STAKE_CENTS, parse_amount
    from baccara.randomness import check_seed
    from baccara.render.playthrough import playthrough

    spec = game_spec(game)
    seed_value = None if seed is None else check_seed(seed, "--seed")
    cents = parse_amount("10" if stake is None else stake, "--stake", MAX_STAKE_CENTS)
    sys.stdout.write(playthrough(spec.id, seed_value, cents))
