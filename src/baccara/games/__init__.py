"""The rules of each game: pure functions and frozen data, no I/O, no clock; and the registry.

Randomness arrives as an argument (a shoe or a :class:`~baccara.randomness.RandomSource`),
so the same code deals live tables, replays a recorded round, and is enumerated by
the exact analysis. :data:`GAMES` maps each game id to its :class:`GameSpec`: start
there to find a game's rules, mathematics, kernel and table procedure.
"""

from baccara.games.registry import GAMES, game, game_ids
from baccara.games.spec import Equipment, GameSpec, Rules, TableFacts

__all__ = ["GAMES", "Equipment", "GameSpec", "Rules", "TableFacts", "game", "game_ids"]
