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


def procedure_of(spec: GameSpec) -> Procedure:
    """``spec``'s table procedure: its dealing order, reveal and settlement."""
    procedure = spec.load(Role.PROCEDURE)
    if not isinstance(procedure, _CheckedProcedure):
        raise spec.misregistered(Role.PROCEDURE, f"is not a table procedure but {shown(procedure)}")
    return procedure
