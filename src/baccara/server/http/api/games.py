"""The games: their rules in brief and every bet's exact house edge (the rules pages),
under each game's default rules or a table's own."""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter

from baccara.server.errors import InvalidRequest, NotFound, TableMoved
from baccara.server.http.api.answers.games import GameOut, TableRulesOut
from baccara.server.http.api.deps import CasinoDep
from baccara.server.http.api.errors import refusals
from baccara.server.http.api.schemas import TableId

router = APIRouter(tags=["games"])


@functools.cache
def _games() -> list[dict[str, Any]]:
    from baccara.server.domain.views import games_json

    return games_json()


@router.get("/api/games", response_model=list[GameOut], responses=refusals(database=False))
def games() -> list[dict[str, Any]]:
    """Every game, with each bet's exact house edge under its default rules."""
    return _games()


@router.get("/api/tables/{table_id}/rules", response_model=TableRulesOut,
            responses=refusals(NotFound, TableMoved, InvalidRequest))  # fmt: skip
def table_rules(table_id: TableId, casino: CasinoDep) -> dict[str, Any]:
    """A table's own rules (its options over the game's defaults) and each bet's exact
    house edge under them, from a full shoe; ``changed`` names the rules that differ from
    the game's defaults."""
    from baccara.server.domain.views import table_rules_json

    with casino.db.read() as session:
        return table_rules_json(session, table_id)
