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
from baccara.exact.roles import analysis_of
from baccara.exact.stakes import BetAtStake, StakeAnalysis, analysis_at_stake, bet_step
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
    return analysis_of(spec, spec.rules_from_options(**options))


def analyze_at_stake(game_id: str, stake_cents: int, **options: Any) -> StakeAnalysis:
    """Every bet of ``game_id`` at a stake of ``stake_cents``, each payout rounded down to
    the cent as it is paid (:mod:`baccara.exact.stakes`).

    A stake that is not a whole, positive number of cents up to
    :data:`~baccara.money.MAX_STAKE_CENTS` raises :class:`~baccara.errors.InvalidBet`;
    the game and options are refused as :func:`analyze` refuses them.

    >>> f"{float(analyze_at_stake('punto-banco', 1).bet('banker').house_edge):.4%}"
    '44.6247%'
    """
    from baccara.money import validate_stake

    validate_stake(stake_cents)
    return analysis_at_stake(analyze(game_id, **options), stake_cents)


def bet_step_cents(game_id: str, **options: Any) -> int:
    """The smallest bet step, in cents, at which every payout of ``game_id``'s bets under
    ``options`` is whole cents: no stake that is a multiple of it is ever rounded.

    >>> bet_step_cents("punto-banco"), bet_step_cents("lo-ball"), bet_step_cents("punto-banco", commission=4)
    (20, 2, 25)
    """
    return bet_step(analyze(game_id, **options).bets)


__all__ = [
    "Analysis",
    "BetAnalysis",
    "BetAtStake",
    "DataTable",
    "EffectOfRemoval",
    "Outcome",
    "Published",
    "StakeAnalysis",
    "analyze",
    "analyze_at_stake",
    "bet_step_cents",
    "effect_of_removal",
    "house_win_mean",
    "house_win_variance",
]
