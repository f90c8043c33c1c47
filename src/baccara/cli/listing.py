"""``baccara games``: the games baccara deals, from the registry (no numpy loaded)."""

from __future__ import annotations

from baccara.cli.common import console


def games() -> None:
    """List the games baccara deals and analyses."""
    from baccara.games import GAMES

    out = console()
    for game_id in GAMES:
        out.print(game_id)
