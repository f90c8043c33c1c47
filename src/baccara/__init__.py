"""baccara: casino baccarat games dealt for real and analysed exactly.

The public API is deliberately small; everything else lives in modules that may
change. ``analyze(game, **options)`` returns the exact mathematics of every bet.
"""

from baccara.analysis import Analysis, BetAnalysis, Outcome, analyzable_games, analyze
from baccara.errors import BaccaraError, InvalidBet, InvalidCards, InvalidOption, UnknownGame

__version__ = "0.1.0"

__all__ = [
    "Analysis",
    "BaccaraError",
    "BetAnalysis",
    "InvalidBet",
    "InvalidCards",
    "InvalidOption",
    "Outcome",
    "UnknownGame",
    "__version__",
    "analyzable_games",
    "analyze",
]
