"""``baccara deal``: one round of a game, dealt and settled step by step."""

from __future__ import annotations

import sys
from typing import Annotated

import typer


def deal(
    game: Annotated[str, typer.Argument(help="Game id, e.g. punto-banco.")],
    seed: Annotated[
        str | None, typer.Option(help="Replay a seeded round; without it the secure shuffle deals.")
    ] = None,
    stake: Annotated[str, typer.Option(help="Stake on each bet, e.g. 10 or 12.50.")] = "10",
) -> None:
    """Deal one round of GAME and settle every bet, step by step."""
    from baccara.money import parse_amount, validate_stake
    from baccara.options import as_int
    from baccara.render.playthrough import playthrough

    seed_value = None if seed is None else as_int("seed", seed, 0, 2**63 - 1)
    cents = validate_stake(parse_amount(stake))
    sys.stdout.write(playthrough(game, seed_value, cents))
