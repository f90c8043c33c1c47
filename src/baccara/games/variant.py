"""A rule variant: a name and the rule options it changes, laid over a game's base rules.

Plain data, so a game's registry entry lists the variants a designer tries first
(:attr:`~baccara.games.GameSpec.variants`); :mod:`baccara.exact.variants` analyses
them, and ``baccara compare GAME --variant NAME:OPTION=VALUE`` builds its own.

>>> tie9 = Variant("tie-9", {"tie_pays": 9})
>>> tie9.options_text(), tie9.over({"decks": 6, "tie-pays": 8})
('tie-pays=9', {'decks': 6, 'tie-pays': 9})
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from baccara.errors import BaccaraError, InvalidOption, shown
from baccara.games.paytable import Paytable
from baccara.options import fraction_text, option_name


def option_key(name: str) -> str:
    """Option names as users type them, either spelling: ``tie_pays`` → ``tie-pays``."""
    return option_name(str(name).strip())


def option_value_text(value: Any) -> str:
    """An option's value as a user would type it: ``yes``, ``K``, ``4``, a paytable's name,
    a rule set's id, side bets' ids joined by ``+``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Paytable):
        return value.name
    if isinstance(value, list | tuple):  # side bets: as ``--option sidebets=`` takes them
        return "+".join(option_value_text(item) for item in value) or "none"
    if isinstance(getattr(value, "id", None), str):  # a rule set or side bet, by its id
        return str(value.id)
    if isinstance(value, Fraction):
        return fraction_text(value)
    if hasattr(value, "symbol"):
        return str(value.symbol)
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


@dataclass(frozen=True)
class Variant:
    """A named change of the rules: the options it sets, laid over the base rules."""

    name: str
    options: Mapping[str, Any]
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise BaccaraError(f"a variant needs a name (text), got {shown(self.name)}")
        if not isinstance(self.options, Mapping):
            raise InvalidOption(
                f"variant {self.name}", f"its options are a mapping, got {shown(self.options)}"
            )

    def __hash__(self) -> int:
        return hash((self.name, tuple(self.options.items()), self.description))

    def options_text(self) -> str:
        """``commission=4, tie-pays=9`` — the options as ``--option`` would take them."""
        return ", ".join(f"{option_key(k)}={option_value_text(v)}" for k, v in self.options.items())

    def over(self, base: Mapping[str, Any]) -> dict[str, Any]:
        """The base options with this variant's laid over them (either spelling of a name)."""
        merged = {option_key(k): v for k, v in base.items()}
        merged.update({option_key(k): v for k, v in self.options.items()})
        return merged
