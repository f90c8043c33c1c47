"""Which analyzer serves which game id.

Analyzers are named by import path and loaded on first use, so ``baccara --help``
does not pay for numpy and the enumeration tables of games it is not asked about.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, cast

from baccara.analysis.model import Analysis
from baccara.errors import UnknownGame

_ANALYZERS: dict[str, str] = {
    "punto-banco": "baccara.analysis.punto_banco:analyze_punto_banco",
    "redgreen": "baccara.analysis.redgreen:analyze_redgreen",
    "redgreen-mini": "baccara.analysis.redgreen:analyze_redgreen_mini",
    "lo-ball": "baccara.analysis.loball:analyze_loball",
}


def analyzable_games() -> tuple[str, ...]:
    """Game ids that :func:`analyze` accepts."""
    return tuple(_ANALYZERS)


def analyze(game: str, **options: Any) -> Analysis:
    """The exact analysis of every bet of ``game`` under ``options``.

    Options are the game's rule options (``decks``, ``commission``…); an unknown game
    raises :class:`~baccara.errors.UnknownGame`, a bad or unknown option
    :class:`~baccara.errors.InvalidOption` — both :class:`ValueError` subclasses.

    >>> f"{float(analyze('punto-banco', decks=8).bet('banker').house_edge):.6%}"
    '1.057906%'
    """
    try:
        target = _ANALYZERS[game]
    except KeyError:
        raise UnknownGame(game, analyzable_games()) from None
    module_name, function_name = target.split(":")
    function = cast(
        Callable[..., Analysis], getattr(importlib.import_module(module_name), function_name)
    )
    return function(**options)
