"""The registry's table role, loaded and checked: each game's dealing procedure.

The registry (``games/``) names it by import path and cannot know its type,
:class:`~baccara.table.procedures.base.Procedure`, which lives here. A round, a
resettlement and a record's verification all take it from :func:`procedure_of`, so
an entry that is not a procedure fails with a
:class:`~baccara.games.spec.MisregisteredRole` naming the game, not mid-round.

>>> from baccara.games import game
>>> procedure_of(game("punto-banco")).live_face_up
True
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from baccara.errors import shown
from baccara.games.spec import GameSpec, Role
from baccara.table.procedures.base import Procedure


@runtime_checkable
class _CheckedProcedure(Procedure, Protocol):
    """:class:`Procedure` as ``isinstance`` can check it: every method and attribute present."""


_CHECKED: dict[tuple[str, str | None], Procedure] = {}
"""Each game's procedure once checked, by the game's id and the entry's path: every
round built (each stored round read, each page of history) takes it, and checking it
again each time cost more than building the round."""


def procedure_of(spec: GameSpec) -> Procedure:
    """``spec``'s table procedure: its dealing order, reveal and settlement (loaded and
    checked once per game and entry)."""
    key = (spec.id, spec.procedure)
    checked = _CHECKED.get(key)
    if checked is not None:
        return checked
    procedure = spec.load(Role.PROCEDURE)
    if not isinstance(procedure, _CheckedProcedure):
        raise spec.misregistered(Role.PROCEDURE, f"is not a table procedure but {shown(procedure)}")
    _CHECKED[key] = procedure
    return procedure
