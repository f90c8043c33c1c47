"""baccara: casino baccarat games dealt for real and analysed exactly.

The public API is deliberately small; everything else lives in modules that may
change. :data:`GAMES` lists every game by id (start there to find a game's rules,
mathematics and procedure); ``analyze(game, **options)`` returns the exact
mathematics of every bet, ``analyze_at_stake(game, stake_cents, **options)`` the same
at one stake with each payout rounded down to the cent as it is paid, and
``bet_step_cents(game)`` the smallest bet step at which no payout is ever rounded.
``effect_of_removal(game, **options)`` says what taking out one card of each rank
does to the analysis, ``compare_variants`` and ``edges_by_decks`` give it under other
rules. ``simulate(game, rounds)`` deals rounds by the real rules and checks them
against the analysis, ``play_sessions(game, bet)`` plays bankroll sessions at one
bet. ``baccara report`` is made of these calls and nothing else.

>>> import baccara
>>> baccara.game("punto-banco").name
'Punto Banco'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from baccara.errors import BaccaraError, InvalidBet, InvalidCards, InvalidOption, UnknownGame
from baccara.exact import (
    Analysis,
    BetAnalysis,
    BetAtStake,
    EffectOfRemoval,
    Outcome,
    StakeAnalysis,
    analyze,
    analyze_at_stake,
    bet_step_cents,
    effect_of_removal,
)
from baccara.exact.variants import Comparison, DeckSweep, compare_variants, edges_by_decks
from baccara.games import GAMES, GameSpec, game
from baccara.games.paytable import Paytable
from baccara.games.variant import Variant
from baccara.paytables import load_paytable
from baccara.sim.api import Sessions, play_sessions, simulate

if TYPE_CHECKING:
    from baccara.sim.report import SimulationReport
    from baccara.sim.sessions import SessionReport

__version__ = "0.1.0"

_LAZY = {
    "SessionReport": "baccara.sim.sessions",
    "SimulationReport": "baccara.sim.report",
}
"""Result types whose modules load numpy (and the kernels): imported when first asked for."""


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'baccara' has no attribute {name!r}")


__all__ = [
    "GAMES",
    "Analysis",
    "BaccaraError",
    "BetAnalysis",
    "BetAtStake",
    "Comparison",
    "DeckSweep",
    "EffectOfRemoval",
    "GameSpec",
    "InvalidBet",
    "InvalidCards",
    "InvalidOption",
    "Outcome",
    "Paytable",
    "SessionReport",
    "Sessions",
    "SimulationReport",
    "StakeAnalysis",
    "UnknownGame",
    "Variant",
    "__version__",
    "analyze",
    "analyze_at_stake",
    "bet_step_cents",
    "compare_variants",
    "edges_by_decks",
    "effect_of_removal",
    "game",
    "load_paytable",
    "play_sessions",
    "simulate",
]
