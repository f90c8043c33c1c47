"""Exact mathematics of every bet, in integer counts and fractions.

Each game's analyzer lives in ``exact/<game>.py`` and is found through the game
registry (:data:`baccara.games.GAMES`); :func:`analyze` is the one way in.

>>> analyze("punto-banco").bet("tie").outcome("win").count
475627426473216
"""

from __future__ import annotations

from typing import Any

from baccara.exact.joint import house_win_mean, house_win_variance
from baccara.exact.model import Analysis, BetAnalysis, DataTable, Outcome, Published
from baccara.exact.removal import EffectOfRemoval, effect_of_removal
from baccara.games import game


def analyze(game_id: str, **options: Any) -> Analysis:
    """The exact analysis of every bet of ``game_id`` under ``options``.

    Options are the game's rule options (``decks``, ``commission``…); an unknown game
    raises :class:`~baccara.errors.UnknownGame`, a bad or unknown option
    :class:`~baccara.errors.InvalidOption` — both :class:`ValueError` subclasses.

    >>> f"{float(analyze('punto-banco', decks=8).bet('banker').house_edge):.6%}"
    '1.057906%'
    """
    spec = game(game_id)
    analysis: Analysis = spec.loaded("analyzer")(spec.id, spec.rules_from_options(**options))
    return analysis


__all__ = [
    "Analysis",
    "BetAnalysis",
    "DataTable",
    "EffectOfRemoval",
    "Outcome",
    "Published",
    "analyze",
    "effect_of_removal",
    "house_win_mean",
    "house_win_variance",
]
