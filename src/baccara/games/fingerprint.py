"""A hash of a game's rules: every option, every paytable pay and every side bet's line.

A lab approves a game under one set of rules; the PAR sheet prints this hash so that
the rules it was computed under can be checked against the rules a table deals (the
same function over the table's rules gives the same digits). It reads the rules
object itself, not where it came from or what it is called: a paytable read from a
file and the shipped one with the same pays hash alike, and changing one pay or one
condition of a side bet changes the hash.

>>> from baccara.games import game
>>> rules_hash(game("punto-banco").rules()) == rules_hash(game("punto-banco").rules())
True
>>> len(rules_hash(game("redgreen").rules()))
64
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

NOT_RULES = frozenset({"name", "description", "published"})
"""Fields that describe a rule rather than make it: a paytable's or a side bet's name
and words, and the figure a source publishes for it. Editing them leaves the hash
alone; an id, a pay or a condition changes it."""


def canonical(value: Any) -> Any:
    """``value`` as plain JSON with one spelling: dataclasses as their fields by name,
    mappings with sorted keys, sets sorted, exact numbers as ``"n/d"``, enums by value."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: canonical(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name not in NOT_RULES
        }
    if isinstance(value, enum.Enum):
        return canonical(value.value)
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | Fraction):
        value = Fraction(value)
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, Mapping):
        items = [(json.dumps(canonical(k), sort_keys=True), canonical(v)) for k, v in value.items()]
        return dict(sorted(items))
    if isinstance(value, frozenset | set):
        return sorted((canonical(item) for item in value), key=json.dumps)
    if isinstance(value, tuple | list):
        return [canonical(item) for item in value]
    raise TypeError(f"no canonical form for {type(value).__name__}")


def rules_hash(rules: object, game: str | None = None) -> str:
    """SHA-256 of the canonical JSON of ``rules`` (and of the game's id, when given:
    RedGreen and Mini RedGreen share their rules but not their table), in hex."""
    shape = canonical(rules) if game is None else {"game": game, "rules": canonical(rules)}
    text = json.dumps(shape, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
