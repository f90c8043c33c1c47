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
import math
import re
import tomllib
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from baccara.cards import Card
from baccara.errors import BaccaraError, InvalidOption, shown
from baccara.games.bonus import CATEGORIES, Category, best_category
from baccara.money import BetResult, Settlement, settle
from baccara.options import as_fraction, fraction_text, read_number


class InvalidPaytable(BaccaraError):
    """A paytable file that cannot be used, with the file and line at fault."""


class Basis(enum.Enum):
    TO_ONE = "to"
    FOR_ONE = "for"


_TOP_KEYS = {"name", "basis", "description", "pays"}

MAX_PAY = 10_000
"""The most any category may pay, to 1. With the largest stake and the longest session
it keeps a bankroll inside 64-bit cents (:data:`baccara.money.MAX_BANKROLL_CENTS`)."""

MAX_NAME = 100
"""The longest paytable name: it heads tables on screen."""


@dataclass(frozen=True)
class Paytable:
    """What each Bonus category pays, as net "to 1" odds (losing categories are absent)."""

    name: str
    pays: Mapping[Category, Fraction]
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not 0 < len(self.name) <= MAX_NAME:
            raise InvalidPaytable(
                f"a paytable's name is text of 1 to {MAX_NAME} characters, got {shown(self.name)}"
            )
        if not isinstance(self.description, str):
            raise InvalidPaytable(f"a description is text, got {shown(self.description)}")
        if not isinstance(self.pays, Mapping) or not self.pays:
            raise InvalidPaytable(f"paytable {self.name!r} pays nothing")
        for category, pay in self.pays.items():
            if not isinstance(category, Category):
                raise InvalidPaytable(f"pays are keyed by Category, got {shown(category)}")
            if not isinstance(pay, Fraction):
                raise InvalidPaytable(f"{category.value}: a pay is a Fraction, got {shown(pay)}")
            if pay < 0:
                raise InvalidPaytable(f"{category.value}: a pay cannot be negative")
            try:
                as_fraction(category.value, pay, 0, MAX_PAY)
            except InvalidOption as error:
                raise InvalidPaytable(str(error)) from None

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
        data = read_toml(text, source, _TOP_KEYS, "paytable")
        # Unnamed, a paytable goes by its file (the end of a long path).
        name = data.get("name", source if len(source) <= MAX_NAME else "…" + source[1 - MAX_NAME :])
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            raise InvalidPaytable(
                f"{_where(source, text, 'name')}: name must be text of 1 to {MAX_NAME} characters"
            )
        description = data.get("description", "")
        if not isinstance(description, str):
            raise InvalidPaytable(
                f"{_where(source, text, 'description')}: description must be text"
            )
        basis_text = data.get("basis", Basis.TO_ONE.value)
        basis = next((b for b in Basis if b.value == basis_text), None)
        if basis is None:
            raise InvalidPaytable(
                f'{_where(source, text, "basis")}: basis must be "to" or "for",'
                f" got {shown(basis_text)}"
            )
        table = data.get("pays")
        if not isinstance(table, dict) or not table:
            raise InvalidPaytable(f"{source}: needs a [pays] table naming at least one category")
        pays: dict[Category, Fraction] = {}
        for key, value in table.items():
            where = _where(source, text, key)
            category = next((c for c in CATEGORIES if c.value == key), None)
            if category is None:
                known = ", ".join(c.value for c in CATEGORIES)
                raise InvalidPaytable(
                    f"{where}: unknown category {shown(key)}; categories are: {known}"
                )
            pay = _number(value, f"{where}: {key}")
            if basis is Basis.FOR_ONE:
                if pay < 1:
                    raise InvalidPaytable(
                        f"{where}: {key}: a pay 'for 1' must be at least 1, got {fraction_text(pay)}"
                    )
                pay -= 1
            elif pay < 0:
                raise InvalidPaytable(
                    f"{where}: {key}: a pay cannot be negative, got {fraction_text(pay)}"
                )
            if pay > MAX_PAY:
                raise InvalidPaytable(
                    f"{where}: {key}: a pay must be at most {MAX_PAY:,} to 1, got {shown(value)}"
                )
            pays[category] = pay
        return cls(name=name, pays=pays, description=description)

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
        f" (a file is read by baccara.paytables.load_paytable), got {shown(value)}",
    )


def read_toml(text: object, source: str, keys: Collection[str], what: str) -> dict[str, Any]:
    """A bet file's TOML, every top-level key one of ``keys``; a refusal names ``source``
    and the line at fault, and calls the file a ``what``."""
    if not isinstance(text, str):
        raise InvalidPaytable(f"{source}: a {what} is TOML text, got {shown(text)}")
    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError) as error:
        # TOMLDecodeError is a ValueError; so is an integer past Python's 4,300-digit
        # limit, and arrays nested thousands deep exhaust the parser's recursion.
        raise InvalidPaytable(f"{source}: not a TOML {what}: {error}") from None
    for key in data:
        if key not in keys:
            raise InvalidPaytable(
                f"{_where(source, text, key)}: unknown key {key!r};"
                f" a {what} has {', '.join(sorted(keys))}"
            )
    return data


def _number(value: Any, where: str) -> Fraction:
    """A pay as TOML gives it (an int or a float), read exactly and bounded."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidPaytable(f"{where}: the pay must be a number, got {shown(value)}")
    if isinstance(value, float) and math.isnan(value):
        raise InvalidPaytable(f"{where}: the pay must be a number, got {value!r}")
    try:
        number = read_number(where, value)
    except InvalidOption as error:  # more decimal places than any pay needs
        raise InvalidPaytable(str(error)) from None
    if not isinstance(number, Fraction):  # an infinity, or 10^30 and more
        raise InvalidPaytable(f"{where}: a pay must be at most {MAX_PAY:,} to 1, got {value!r}")
    return number


def _where(source: str, text: str, key: str) -> str:
    """``source line N`` for the line that sets ``key``, or ``source`` if none can be told."""
    line = _line_of(text, key)
    return f"{source} line {line}" if line else source


def _line_of(text: str, key: str) -> int | None:
    """The first line that assigns ``key``: ``key =``, ``"key" =``, the dotted ``pays.key =``,
    or ``{ key = … }`` in an inline table."""
    token = rf"""(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')"""
    prefix = r"""(?:[\w"'-]+\s*\.\s*)*"""
    at_start = re.compile(rf"^\s*{prefix}{token}\s*=")
    inline = re.compile(rf"[{{,]\s*{prefix}{token}\s*=")
    lines = text.splitlines()
    for pattern in (at_start, inline):
        for number, line in enumerate(lines, start=1):
            if pattern.search(line):
                return number
    return None


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml_number(value: Fraction) -> str:
    text = fraction_text(value)
    if "/" in text:
        return repr(float(value))
    return text
