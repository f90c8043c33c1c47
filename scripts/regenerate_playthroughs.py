"""Rewrite the golden playthroughs after a deliberate change of rules or settlement."""

from __future__ import annotations

import pathlib

from baccara.games import game_ids
from baccara.render.playthrough import playthrough

FOLDER = pathlib.Path(__file__).resolve().parent.parent / "tests" / "playthroughs"
SEED = 2026


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for game in game_ids():
        (FOLDER / f"{game}.txt").write_text(playthrough(game, SEED))


if __name__ == "__main__":
    main()
