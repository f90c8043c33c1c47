"""Bonus paytables as data: parsed from TOML text and validated line by line.

A paytable names what each paying category pays; every category it leaves out
loses. Pays are "to 1" (the winnings on top of the returned stake) unless the file
says ``basis = "for"`` ("for 1": the total handed back, stake included).

>>> table = Paytable.from_toml('name = "tiny"\\n[pays]\\nflush = 8\\nstraight = "x"\\n')
Traceback (most recent call last):
...
baccara.games.paytable.InvalidPaytable: <text> line 4: straight: the pay must be a number, got 'x'
"""

from __future__ import annotations

import enum
import itertools
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from baccara.cards import Card
from baccara.errors import BaccaraError, InvalidOption
from baccara.games.bonus import CATEGORIES, Category, best_category
from baccara.money import BetResult, Settlement, settle
from baccara.options import fraction_text


class InvalidPaytable(BaccaraError):
    """A paytable file that cannot be used, with the file and line at fault."""


class Basis(enum.Enum):
    TO_ONE = "to"
    FOR_ONE = "for"


_TOP_KEYS = {"name", "basis", "description", "pays"}


@dataclass(frozen=True)
class Paytable:
    """What each Bonus category pays, as net "to 1" odds (losing categories are absent)."""

    name: str
    pays: Mapping[Category, Fraction]
    description: str = ""

    def __post_init__(self) -> None:
        if not self.pays:
            raise InvalidPaytable(f"paytable {self.name!r} pays nothing")
        for category, pay in self.pays.items():
            if pay < 0:
                raise InvalidPaytable(f"{category.value}: a pay cannot be negative")

    def __hash__(self) -> int:
        # Rules that carry a paytable are cache keys; the pays mapping is never mutated.
        return hash((self.name, tuple(self.pays.items()), self.description))

    def net(self, category: Category) -> Fraction:
        """Net result per unit staked: the "to 1" pay, or -1 for a losing category."""
        return self.pays.get(category, Fraction(-1))

    def settle(self, stake: int, cards: Iterable[Card]) -> Settlement:
        """Settle a Bonus wager on Red's and Green's six cards, with the live evaluator."""
        category = best_category(cards)
        if category not in self.pays:
            return settle(stake, BetResult.LOSE, Fraction(0))
        pay = self.pays[category]
        return settle(stake, BetResult.WIN if pay > 0 else BetResult.PUSH, pay)

    @property
    def paying(self) -> tuple[Category, ...]:
        """Paying categories, highest first."""
        return tuple(c for c in CATEGORIES if c in self.pays)

    @property
    def in_rank_order(self) -> bool:
        """No category pays more than a higher one (what designers normally want)."""
        pays = [self.pays.get(c, Fraction(-1)) for c in CATEGORIES]
        return all(a >= b for a, b in itertools.pairwise(pays))

    @classmethod
    def from_toml(cls, text: str, source: str = "<text>") -> Paytable:
        """Parse and validate a paytable; errors name ``source`` and the line at fault."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise InvalidPaytable(f"{source}: {error}") from None
        for key in data:
            if key not in _TOP_KEYS:
                raise InvalidPaytable(
                    f"{source} line {_line_of(text, key)}: unknown key {key!r};"
                    f" a paytable has {', '.join(sorted(_TOP_KEYS))}"
                )
        name = data.get("name", source)
        if not isinstance(name, str):
            raise InvalidPaytable(f"{source} line {_line_of(text, 'name')}: name must be text")
        basis_text = data.get("basis", Basis.TO_ONE.value)
        try:
            basis = Basis(basis_text)
        except ValueError:
            raise InvalidPaytable(
                f'{source} line {_line_of(text, "basis")}: basis must be "to" or "for",'
                f" got {basis_text!r}"
            ) from None
        table = data.get("pays")
        if not isinstance(table, dict) or not table:
            raise InvalidPaytable(f"{source}: needs a [pays] table naming at least one category")
        pays: dict[Category, Fraction] = {}
        for key, value in table.items():
            where = f"{source} line {_line_of(text, key)}"
            try:
                category = Category(key)
            except ValueError:
                known = ", ".join(c.value for c in CATEGORIES)
                raise InvalidPaytable(
                    f"{where}: unknown category {key!r}; categories are: {known}"
                ) from None
            pay = _number(value, f"{where}: {key}")
            if basis is Basis.FOR_ONE:
                if pay < 1:
                    raise InvalidPaytable(
                        f"{where}: {key}: a pay 'for 1' must be at least 1, got {pay}"
                    )
                pay -= 1
            elif pay < 0:
                raise InvalidPaytable(f"{where}: {key}: a pay cannot be negative, got {pay}")
            pays[category] = pay
        description = data.get("description", "")
        return cls(name=name, pays=pays, description=str(description))

    def to_toml(self) -> str:
        """The paytable as a file :meth:`from_toml` reads back ("to 1" basis)."""
        lines = [f"name = {_quote(self.name)}"]
        if self.description:
            lines.append(f"description = {_quote(self.description)}")
        lines += ['basis = "to"  # pays are "to 1"; categories not listed lose', "", "[pays]"]
        for category in self.paying:
            lines.append(f"{category.value} = {_toml_number(self.pays[category])}")
        return "\n".join(lines) + "\n"


DEFAULT_PAYTABLE = Paytable(
    name="default",
    description="The Bonus paytable baccara ships: pays from three of a kind up",
    pays={
        Category.ROYAL_FLUSH: Fraction(1000),
        Category.STRAIGHT_FLUSH: Fraction(200),
        Category.FIVE_OF_A_KIND: Fraction(100),
        Category.FOUR_OF_A_KIND: Fraction(25),
        Category.FULL_HOUSE: Fraction(9),
        Category.FLUSH: Fraction(8),
        Category.STRAIGHT: Fraction(8),
        Category.THREE_OF_A_KIND: Fraction(4),
    },
)
"""The seed's paytable is cut off; this is the one the rule notes settle on (3.58 % at 7 decks)."""

SHIPPED: Mapping[str, Paytable] = {DEFAULT_PAYTABLE.name: DEFAULT_PAYTABLE}
"""The paytables baccara ships, by name; any other is read from a file by the caller."""


def shipped_paytable(name: str, value: object) -> Paytable:
    """Read the ``paytable`` option: a :class:`Paytable`, or the name of a shipped one.

    >>> shipped_paytable("paytable", "default").pays[Category.FLUSH]
    Fraction(8, 1)
    """
    if isinstance(value, Paytable):
        return value
    if isinstance(value, str) and value.strip() in SHIPPED:
        return SHIPPED[value.strip()]
    raise InvalidOption(
        name,
        f"must be a shipped paytable ({', '.join(SHIPPED)}) or a Paytable"
        f" (a file is read by baccara.paytables.load_paytable), got {value!r}",
    )


def _number(value: Any, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidPaytable(f"{where}: the pay must be a number, got {value!r}")
    if isinstance(value, float) and value != value:  # NaN
        raise InvalidPaytable(f"{where}: the pay must be a number, got {value!r}")
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        raise InvalidPaytable(f"{where}: the pay must be finite, got {value!r}")
    return Fraction(value) if isinstance(value, int) else Fraction(Decimal(str(value)))


def _line_of(text: str, key: str) -> int:
    pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return 0


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml_number(value: Fraction) -> str:
    text = fraction_text(value)
    if "/" in text:
        return repr(float(value))
    return text
