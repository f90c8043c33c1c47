"""The games: their rules in brief and every bet's exact house edge (the rules pages)."""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter

from baccara.server.api.schemas import REFUSALS

router = APIRouter(tags=["games"], responses=REFUSALS)


@functools.cache
def _games() -> list[dict[str, Any]]:
    from baccara.server.queries import games_json

    return games_json()


@router.get("/api/games")
def games() -> list[dict[str, Any]]:
    """Every game, with each bet's exact house edge under its default rules."""
    return _games()
