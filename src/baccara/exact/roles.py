"""The registry's exact roles, loaded and checked: what each game's entry must give.

The registry (``games/``) names each game's analyzer, shoe analysis and round model
by import path and cannot know their types, which live here. Each accessor below
calls the game's entry and checks what it returns, so an entry of the wrong kind
fails with a :class:`~baccara.games.spec.MisregisteredRole` naming the game and the
role, and every caller gets a value of the type it is promised. The effect of
removal's accessor is :func:`baccara.exact.removal.removal_of`, beside the result
it promises (this module imports what it checks, and that module uses it).

>>> from baccara.games import game
>>> analysis_of(game("punto-banco"), game("punto-banco").rules()).game
'punto-banco'
"""

from __future__ import annotations

from typing import Protocol, TypeGuard, runtime_checkable

from baccara.cards import ShoeComposition
from baccara.exact.joint_model import RoundModel
from baccara.exact.model import Analysis, BetAnalysis
from baccara.games.spec import GameSpec, Role


def analysis_of(spec: GameSpec, rules: object) -> Analysis:
    """The exact analysis of every bet of ``spec``'s game under ``rules``."""
    return spec.call(Role.ANALYZER, Analysis, spec.id, rules)


def bets_dealt_from(
    spec: GameSpec, rules: object, shoe: ShoeComposition
) -> tuple[BetAnalysis, ...]:
    """Every bet's exact analysis dealt from ``shoe``: what a live continuous shoe offers
    now. A game with no shoe (Lo-Ball) declares no ``depleted`` and is refused."""
    bets = spec.call(Role.DEPLETED, tuple, rules, shoe)
    if not _all_bets(bets):
        raise spec.misregistered(Role.DEPLETED, "returned a tuple that is not all BetAnalysis")
    return bets


def _all_bets(values: tuple[object, ...]) -> TypeGuard[tuple[BetAnalysis, ...]]:
    return all(isinstance(value, BetAnalysis) for value in values)


@runtime_checkable
class _CheckedRoundModel(RoundModel, Protocol):
    """:class:`RoundModel` as ``isinstance`` can check it: every method present."""


_ROUND_MODELS: set[tuple[str, type]] = set()
"""The types each game's ``joint`` entry was seen to return as round models, by the
game's id: a report reads one model a round, and a Protocol's ``isinstance`` check of
each cost more than the model. The check is of the type's methods, the same for every
instance of it."""


def round_model_of(spec: GameSpec, rules: object) -> RoundModel:
    """The house's win on one round of ``spec``'s game under ``rules``, wager by wager."""
    model = spec.call(Role.JOINT, object, rules)
    if (spec.id, type(model)) in _ROUND_MODELS:
        return model  # type: ignore[return-value]  # checked: an instance of a type checked
    if not isinstance(model, _CheckedRoundModel):
        raise spec.misregistered(
            Role.JOINT, f"returned a value of type {type(model).__name__}, not a round model"
        )
    _ROUND_MODELS.add((spec.id, type(model)))
    return model
