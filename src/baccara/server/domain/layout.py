"""A table's layout as the API publishes it: its rule set, its side bets and their spots.

A Punto Banco table may be opened with a rule set (``variant``: EZ Baccarat,
No-Commission) and side bets (``sidebets``: Dragon 7, Panda 8 …), which the game reads
from files (:mod:`baccara.games.coup_bets`). The page cannot know them from the game's
facts (``GET /api/games``), which are the same for every table of the game: each
table's own answer names its rule set, lays out its spots (a row of side bets above the
game's) and gives each side bet's pay lines — term by term for a browser re-settling a
round, and in words — and the games' answer lists every rule set and side bet the
casino's tables may be opened with, so a round's record, which names them by id, can be
settled again in the browser.

All of it is read from the table's options alone, without an exact analysis, so it is
cheap enough for every snapshot; it is still worked out once per game and options.

>>> layout("punto-banco", '{"variant": "ez"}')["name"], layout("punto-banco", "{}")["sidebets"]
('EZ Baccarat', [])
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Any

from baccara.errors import InvalidOption, shown
from baccara.games import game
from baccara.games.coup_bets import MAX_SIDE_BETS, SHIPPED, MainRules


@functools.cache
def offers_rule_sets(game_id: str) -> bool:
    """Whether ``game_id``'s tables take a rule set and side bets (Punto Banco's)."""
    return isinstance(getattr(game(game_id).rules(), "variant", None), MainRules)


@functools.lru_cache(maxsize=256)
def layout(game_id: str, options: str) -> dict[str, Any]:
    """What a table of ``game_id`` under ``options`` (their JSON) shows beyond its game:
    its name (its rule set's, else the game's), the rule set (``None`` for a game without
    rule sets), its side bets' ids, every bet it takes, its spots, and the pay lines of
    its rule set and side bets. Callers copy before they change it."""
    spec = game(game_id)
    rules = spec.rules_from_options(**json.loads(options))
    variant = getattr(rules, "variant", None)
    sidebets = tuple(getattr(rules, "sidebets", ()))
    rule_set = variant if isinstance(variant, MainRules) else None
    return {
        "name": rule_set.name if rule_set else spec.name,
        "rule_set": {"id": rule_set.id, "name": rule_set.name} if rule_set else None,
        "sidebets": [bet.id for bet in sidebets],
        "bets": list(spec.bets_at(rules)),
        "spots": [{"bet": s.bet, "name": s.name, "row": s.row} for s in spec.spots_at(rules)],
        "pays": {
            "rule_set": rule_set.to_dict() if rule_set else None,
            "sidebets": [bet.to_dict() for bet in sidebets],
        },
    }


def table_layout(game_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`layout` of a table's options as stored (a mapping of plain JSON values)."""
    return layout(game_id, json.dumps(dict(options), sort_keys=True))


def catalog(game_id: str) -> dict[str, Any] | None:
    """Every rule set and side bet a table of ``game_id`` may be opened with, their pay
    lines included (``None`` for a game without them): what the games' answer publishes."""
    if not offers_rule_sets(game_id):
        return None
    return {
        "rule_sets": [rules.to_dict() for rules in SHIPPED.variants.values()],
        "sidebets": [bet.to_dict() for bet in SHIPPED.sidebets.values()],
    }


def check_options(game_id: str, options: Mapping[str, Any]) -> None:
    """Refuse a ``variant`` or ``sidebets`` an admin's request cannot mean, in the API's
    words: a table is opened with the ids of the rule sets and side bets the casino
    ships — a list of ids, or ids joined by ``+`` or commas (``dragon-7+panda-8``), or
    ``none`` — never a file — and no more of them than a table offers (counted before
    they are read). An id named twice the game refuses itself."""
    if not offers_rule_sets(game_id):
        return
    for key, value in options.items():
        name = str(key).replace("-", "_")
        if name == "variant" and not (isinstance(value, str) and value.strip() in SHIPPED.variants):
            raise InvalidOption(
                key,
                f"must be the id of one of the casino's rule sets, {', '.join(SHIPPED.variants)};"
                f" got {shown(value)}",
            )
        if name == "sidebets":
            items = _ids(key, value)
            if len(items) > MAX_SIDE_BETS:
                raise InvalidOption(
                    key, f"a table offers at most {MAX_SIDE_BETS} side bets, got {len(items)}"
                )
            for item in items:
                if not (isinstance(item, str) and item.strip() in SHIPPED.sidebets):
                    raise InvalidOption(
                        key,
                        f"{shown(item)} is not one of the casino's side bets,"
                        f" {', '.join(SHIPPED.sidebets)}",
                    )


def _ids(key: str, value: object) -> list[object]:
    if isinstance(value, list):
        return list(value)
    if isinstance(value, str):
        text = value.strip()
        return [] if text in ("", "none") else [part.strip() for part in re.split(r"[+,]", text)]
    raise InvalidOption(
        key,
        "must be a list of side bet ids, or text of ids joined by + (dragon-7+panda-8),"
        f" or none; got {shown(value)}",
    )
