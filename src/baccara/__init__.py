"""baccara: casino baccarat games dealt for real and analysed exactly.

The public API is deliberately small; everything else lives in modules that may
change. :data:`GAMES` lists every game by id (start there to find a game's rules,
mathematics and procedure); ``analyze(game, **options)`` returns the exact
mathematics of every bet, ``effect_of_removal(game, **options)`` what taking out one
card of each rank does to it.

>>> import baccara
>>> baccara.game("punto-banco").name
'Punto Banco'
"""

from baccara.errors import BaccaraError, InvalidBet, InvalidCards, InvalidOption, UnknownGame
from baccara.exact import (
    Analysis,
    BetAnalysis,
    EffectOfRemoval,
    Outcome,
    analyze,
    effect_of_removal,
)
from baccara.games import GAMES, GameSpec, game
from baccara.games.paytable import Paytable
from baccara.paytables import load_paytable

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "Analysis",
    "BaccaraError",
    "BetAnalysis",
    "EffectOfRemoval",
    "GameSpec",
    "InvalidBet",
    "InvalidCards",
    "InvalidOption",
    "Outcome",
    "Paytable",
    "UnknownGame",
    "__version__",
    "analyze",
    "effect_of_removal",
    "game",
    "load_paytable",
]
