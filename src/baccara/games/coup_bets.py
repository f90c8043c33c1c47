"""Punto Banco side bets and main-bet rule sets as data: small TOML files.

A **side bet** is an id, a name and its pay lines: each line a condition on the coup
(:mod:`baccara.games.coup_terms`) and what it pays "to 1", the first line that holds
paying; a coup no line takes loses. A pay of 0 is a push. Dragon 7::

    id = "dragon-7"
    name = "Dragon 7"
    [[pays]]
    when = { winner = "banker", banker_total = 7, banker_cards = 3 }
    pays = 40

A **main-bet rule set** (``variant``) says how the Banker, Player and Tie bets pay: the
commission on a Banker win, what a Tie pays, and lines that change a Banker or Player
win's pay when their condition holds (EZ Baccarat pushes a Banker win with a three-card
7; No-Commission pays a Banker win on 6 at 1 to 2), and the side bets its tables offer::

    id = "ez"
    name = "EZ Baccarat"
    commission = 0
    sidebets = ["dragon-7", "panda-8"]
    [[banker]]
    when = { banker_total = 7, banker_cards = 3 }
    pays = 0

So EZ Baccarat and No-Commission are rule sets, not forks of the code. A file that
cannot be used is refused with the file and the line at fault, as a Bonus paytable is
(:mod:`baccara.games.paytable`, whose pay bounds and number reading these reuse).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from typing import Any

from baccara.errors import InvalidOption, shown
from baccara.games.coup_terms import Condition, CoupFacts, InvalidCondition, read_condition
from baccara.games.paytable import (
    MAX_NAME,
    MAX_PAY,
    InvalidPaytable,
    _line_of,
    _number,
    _quote,
    _toml_number,
    read_toml,
)
from baccara.money import BetResult
from baccara.options import fraction_text

MAX_LINES = 50
"""The most pay lines one bet may have: more than any paytable printed on a felt."""

MAX_SIDE_BETS = 12
"""The most side bets one table offers."""

_ID = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
"""A bet or rule set id: lower case words joined by hyphens (``dragon-7``)."""

MAIN_BETS = frozenset({"banker", "player", "tie", "player-pair", "banker-pair"})
"""The bets every Punto Banco table has: a side bet may not take one of their ids."""


@dataclass(frozen=True)
class Citation:
    """A published house edge for the bet, quoted as printed, with where it is printed:
    the analysis shows it beside the exact figure, and a test holds every shipped file to
    it. ``places`` is how many decimals of a percent the source prints (4 for 0.076113,
    2 for "29.98 %"); ``decks`` the shoe it is for."""

    house_edge: Fraction
    source: str
    decks: int = 8
    places: int = 4

    def to_toml(self) -> str:
        return (
            f"\n[published]\nhouse_edge = {_toml_number(self.house_edge)}\n"
            f"decks = {self.decks}\nplaces = {self.places}\nsource = {_quote(self.source)}\n"
        )


@dataclass(frozen=True)
class PayLine:
    """When ``when`` holds, the bet pays ``pays`` to 1 (0: a push)."""

    when: Condition
    pays: Fraction

    def to_toml(self, table: str) -> str:
        return f"[[{table}]]\nwhen = {self.when.to_toml()}\npays = {_toml_number(self.pays)}\n"

    def to_dict(self) -> dict[str, Any]:
        """The line as published to a browser: its condition term by term, what it pays
        to 1 exactly (``"40"``, ``"0.54"``, ``"1/3"``), its condition in words (which
        names the outcome in the bet's analysis) and the line in words."""
        return {"when": self.when.to_dict(), "pays": fraction_text(self.pays),
                "condition": self.when.describe(), "text": self.text()}  # fmt: skip

    def text(self) -> str:
        """``40 to 1: Banker wins, Banker total 7, Banker 3 cards``."""
        return f"{_pay_words(self.pays)}: {self.when.describe()}"


def first_line(lines: tuple[PayLine, ...], facts: CoupFacts) -> PayLine | None:
    """The first line whose condition holds of the coup, if any."""
    return next((line for line in lines if line.when.holds(facts)), None)


@dataclass(frozen=True)
class SideBet:
    """A side bet: its id at the table, its name on the felt, and its pay lines."""

    id: str
    name: str
    lines: tuple[PayLine, ...]
    description: str = ""
    published: Citation | None = None

    def __post_init__(self) -> None:
        _check_id(self.id, "a side bet")
        if self.id in MAIN_BETS:
            raise InvalidPaytable(f"side bet id {self.id!r} is a main bet's")
        _check_name(self.name)
        if not self.lines or len(self.lines) > MAX_LINES:
            raise InvalidPaytable(f"side bet {self.id!r} has 1 to {MAX_LINES} pay lines")
        for number, line in enumerate(self.lines[1:], start=2):
            earlier = [line.when for line in self.lines[: number - 1]]
            if line.when in earlier:  # the first line that holds pays: this one never would
                raise InvalidPaytable(
                    f"side bet {self.id!r}: pay line {number} has the condition of line"
                    f" {earlier.index(line.when) + 1}, so it would never pay"
                )

    def net(self, facts: CoupFacts) -> Fraction:
        """What one unit staked wins on the coup: the first line's pay, or -1."""
        line = first_line(self.lines, facts)
        return Fraction(-1) if line is None else line.pays

    def result(self, facts: CoupFacts) -> tuple[BetResult, Fraction]:
        """Win, push or lose, and the odds a win pays."""
        net = self.net(facts)
        if net < 0:
            return BetResult.LOSE, Fraction(0)
        return (BetResult.WIN if net > 0 else BetResult.PUSH), net

    @property
    def terms(self) -> frozenset[str]:
        """Every term its lines read."""
        return frozenset().union(*(line.when.names for line in self.lines))

    def pays_text(self) -> str:
        """``40 to 1: Banker wins, Banker total 7, Banker 3 cards``, one line per pay line."""
        return "\n".join(line.text() for line in self.lines)

    def to_dict(self) -> dict[str, Any]:
        """The side bet as a casino publishes it: id, name, description and pay lines."""
        return {"id": self.id, "name": self.name, "description": self.description,
                "lines": [line.to_dict() for line in self.lines]}  # fmt: skip

    def to_toml(self) -> str:
        head = [f"id = {_quote(self.id)}", f"name = {_quote(self.name)}"]
        if self.description:
            head.append(f"description = {_quote(self.description)}")
        body = "\n".join(line.to_toml("pays") for line in self.lines)
        cited = self.published.to_toml() if self.published else ""
        return "\n".join(head) + "\n\n" + body + cited

    @classmethod
    def from_toml(cls, text: str, source: str = "<text>") -> SideBet:
        """Parse and check a side bet file; a refusal names ``source`` and the line."""
        keys = {"id", "name", "description", "basis", "pays", "published"}
        data = read_toml(text, source, keys, "side bet")
        basis = _basis(data, text, source)
        lines = _pay_lines(data, "pays", text, source, basis, required=True)
        try:
            return cls(
                id=_text(data, "id", text, source),
                name=_text(data, "name", text, source),
                lines=lines,
                description=_text(data, "description", text, source, ""),
                published=_citation(data, text, source),
            )
        except InvalidPaytable as error:
            raise InvalidPaytable(f"{source}: {error}") from None


@dataclass(frozen=True)
class MainRules:
    """How the Banker, Player and Tie bets pay at a table: a variant of Punto Banco.

    ``commission`` is a percentage of a Banker win paid at the default 1 to 1; a
    ``banker`` line that holds of a Banker win pays its own odds instead (no commission
    is taken from them), and a ``player`` line likewise for a Player win. ``tie_pays``
    is ``None`` where the rule set leaves the table's Tie pay alone. ``sidebets`` are
    the side bets its tables offer unless they are told otherwise.
    """

    id: str
    name: str
    commission: Fraction
    banker: tuple[PayLine, ...] = ()
    player: tuple[PayLine, ...] = ()
    tie_pays: Fraction | None = None
    sidebets: tuple[str, ...] = ()
    description: str = ""
    published: Citation | None = None
    """A published house edge of the Banker bet under these rules."""

    def __post_init__(self) -> None:
        _check_id(self.id, "a rule set")
        _check_name(self.name)
        if not 0 <= self.commission < 100:
            raise InvalidPaytable(f"commission is a percentage from 0 to under 100, got "
                                  f"{fraction_text(self.commission)}")  # fmt: skip
        for lines in (self.banker, self.player):
            if len(lines) > MAX_LINES:
                raise InvalidPaytable(f"at most {MAX_LINES} lines change a win's pay")
        if len(set(self.sidebets)) != len(self.sidebets):
            raise InvalidPaytable(f"rule set {self.id!r} offers a side bet twice")
        if len(self.sidebets) > MAX_SIDE_BETS:
            raise InvalidPaytable(f"a table offers at most {MAX_SIDE_BETS} side bets")

    @property
    def terms(self) -> frozenset[str]:
        return frozenset().union(*(line.when.names for line in (*self.banker, *self.player)))

    def to_dict(self) -> dict[str, Any]:
        """The rule set as a casino publishes it: what a Banker win is charged, what a Tie
        pays (``None``: the table's own), the lines that change a win's pay, and the side
        bets its tables offer by default (their ids)."""
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "commission": fraction_text(self.commission),
            "tie_pays": None if self.tie_pays is None else fraction_text(self.tie_pays),
            "banker": [line.to_dict() for line in self.banker],
            "player": [line.to_dict() for line in self.player],
            "sidebets": list(self.sidebets),
        }

    def to_toml(self) -> str:
        head = [f"id = {_quote(self.id)}", f"name = {_quote(self.name)}"]
        if self.description:
            head.append(f"description = {_quote(self.description)}")
        head.append(f"commission = {_toml_number(self.commission)}")
        if self.tie_pays is not None:
            head.append(f"tie_pays = {_toml_number(self.tie_pays)}")
        if self.sidebets:
            head.append("sidebets = [" + ", ".join(_quote(s) for s in self.sidebets) + "]")
        body = [line.to_toml("banker") for line in self.banker]
        body += [line.to_toml("player") for line in self.player]
        cited = self.published.to_toml() if self.published else ""
        return "\n".join(head) + "\n" + ("\n" + "\n".join(body) if body else "") + cited

    @classmethod
    def from_toml(cls, text: str, source: str = "<text>") -> MainRules:
        """Parse and check a rule set file; a refusal names ``source`` and the line."""
        keys = {"id", "name", "description", "commission", "tie_pays", "sidebets", "banker",
                "player", "basis", "published"}  # fmt: skip
        data = read_toml(text, source, keys, "rule set")
        basis = _basis(data, text, source)
        commission = _number(data.get("commission", 0), f"{_at(text, source, 'commission')}:"
                             " commission")  # fmt: skip
        tie = data.get("tie_pays")
        tie_pays = None if tie is None else _pay(tie, f"{_at(text, source, 'tie_pays')}: tie_pays")
        sidebets = data.get("sidebets", [])
        if not isinstance(sidebets, list) or not all(isinstance(s, str) for s in sidebets):
            raise InvalidPaytable(
                f"{_at(text, source, 'sidebets')}: sidebets is a list of side bet ids"
            )
        try:
            return cls(
                id=_text(data, "id", text, source),
                name=_text(data, "name", text, source),
                commission=commission,
                banker=_pay_lines(data, "banker", text, source, basis),
                player=_pay_lines(data, "player", text, source, basis),
                tie_pays=tie_pays,
                sidebets=tuple(sidebets),
                description=_text(data, "description", text, source, ""),
                published=_citation(data, text, source),
            )
        except InvalidPaytable as error:
            raise InvalidPaytable(f"{source}: {error}") from None


@dataclass(frozen=True)
class Shipped:
    """The rule sets and side bets baccara ships, read once from its package's files."""

    variants: Mapping[str, MainRules] = field(default_factory=dict)
    sidebets: Mapping[str, SideBet] = field(default_factory=dict)


def _read_shipped() -> Shipped:
    folder = resources.files("baccara.games") / "punto_banco_bets"
    variants: dict[str, MainRules] = {}
    sidebets: dict[str, SideBet] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        text = entry.read_text(encoding="utf-8")
        source = f"punto_banco_bets/{entry.name}"
        if entry.name.startswith("variant-"):
            rules = MainRules.from_toml(text, source)
            variants[rules.id] = rules
        else:
            bet = SideBet.from_toml(text, source)
            sidebets[bet.id] = bet
    for rules in variants.values():
        for name in rules.sidebets:
            if name not in sidebets:
                raise InvalidPaytable(f"rule set {rules.id!r} offers an unknown side bet {name!r}")
    return Shipped(variants, sidebets)


def shipped_variant(name: str, value: object) -> MainRules:
    """Read the ``variant`` option: a :class:`MainRules`, or a shipped rule set's id."""
    if isinstance(value, MainRules):
        return value
    if isinstance(value, str) and value.strip() in SHIPPED.variants:
        return SHIPPED.variants[value.strip()]
    raise InvalidOption(
        name,
        f"must be a shipped rule set ({', '.join(SHIPPED.variants)}) or a MainRules"
        f" (a file of your own: variant=FILE at the command line, baccara.paytables.load_variant in Python), got {shown(value)}",
    )


def shipped_sidebets(name: str, value: object) -> tuple[SideBet, ...]:
    """Read the ``sidebets`` option: side bets or shipped ids, as a list or a text of ids
    joined by ``+`` or commas (``dragon-7+panda-8``); ``none`` or empty for none."""
    items: list[object]
    if isinstance(value, SideBet):
        items = [value]
    elif isinstance(value, str):
        text = value.strip()
        items = [] if text in ("", "none") else [p.strip() for p in re.split(r"[+,]", text)]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise InvalidOption(name, f"must be a list of side bets, got {shown(value)}")
    chosen: list[SideBet] = []
    for item in items:
        if isinstance(item, SideBet):
            bet = item
        elif isinstance(item, str) and item.strip() in SHIPPED.sidebets:
            bet = SHIPPED.sidebets[item.strip()]
        else:
            raise InvalidOption(
                name,
                f"{shown(item)} is not a side bet; shipped side bets are:"
                f" {', '.join(SHIPPED.sidebets)} (a file of your own: --sidebet FILE at the"
                " command line, baccara.paytables.load_sidebet in Python)",
            )
        if any(other.id == bet.id for other in chosen):
            raise InvalidOption(name, f"side bet {bet.id!r} is named twice")
        chosen.append(bet)
    if len(chosen) > MAX_SIDE_BETS:
        raise InvalidOption(name, f"a table offers at most {MAX_SIDE_BETS} side bets")
    return tuple(chosen)


# --- reading the files --------------------------------------------------------------------


def _basis(data: Mapping[str, Any], text: str, source: str) -> str:
    basis = data.get("basis", "to")
    if basis not in ("to", "for"):
        raise InvalidPaytable(
            f'{_at(text, source, "basis")}: basis must be "to" or "for", got {shown(basis)}'
        )
    return str(basis)


def _text(data: Mapping[str, Any], key: str, text: str, source: str, default: str | None = None
          ) -> str:  # fmt: skip
    value = data.get(key, default)
    if value is None:
        raise InvalidPaytable(f'{source}: needs {key} = "…"')
    if not isinstance(value, str):
        raise InvalidPaytable(f"{_at(text, source, key)}: {key} must be text, got {shown(value)}")
    return value


def _pay(value: object, where: str, basis: str = "to") -> Fraction:
    pay = _number(value, where)
    if basis == "for":
        if pay < 1:
            raise InvalidPaytable(f"{where}: a pay 'for 1' is at least 1, got {fraction_text(pay)}")
        pay -= 1
    if pay < 0:
        raise InvalidPaytable(f"{where}: a pay cannot be negative, got {fraction_text(pay)}")
    if pay > MAX_PAY:
        raise InvalidPaytable(
            f"{where}: a pay must be at most {MAX_PAY:,} to 1, got {shown(value)}"
        )
    return pay


def _pay_lines(
    data: Mapping[str, Any], key: str, text: str, source: str, basis: str,
    required: bool = False,
) -> tuple[PayLine, ...]:  # fmt: skip
    given = data.get(key)
    if given is None:
        if required:
            raise InvalidPaytable(f"{source}: needs at least one [[{key}]] line with when and pays")
        return ()
    if not isinstance(given, list) or not all(isinstance(item, dict) for item in given):
        raise InvalidPaytable(f"{_at(text, source, key)}: {key} is a list of [[{key}]] lines")
    if len(given) > MAX_LINES:
        raise InvalidPaytable(f"{source}: at most {MAX_LINES} [[{key}]] lines")
    lines = []
    for number, item in enumerate(given):
        where = line_where(text, source, key, number)
        unknown = sorted(set(item) - {"when", "pays"})
        if unknown:
            raise InvalidPaytable(
                f"{line_where(text, source, key, number, unknown[0])}: unknown key"
                f" {unknown[0]!r}; a [[{key}]] line has when = {{ … }} and pays = …"
            )
        if "pays" not in item or "when" not in item:
            missing = (
                "pays = …" if "pays" not in item else "when = { … } (when = {} for every coup)"
            )
            raise InvalidPaytable(f"{where}: a [[{key}]] line needs {missing}")
        try:
            when = read_condition(item["when"], f"{where}: when")
        except InvalidCondition as error:
            raise InvalidPaytable(str(error)) from None
        paid = line_where(text, source, key, number, "pays")
        lines.append(PayLine(when, _pay(item["pays"], f"{paid}: pays", basis)))
    return tuple(lines)


def _citation(data: Mapping[str, Any], text: str, source: str) -> Citation | None:
    """The file's ``[published]`` table: a house edge as printed, its source, the decks and
    the decimals of a percent it prints."""
    table = data.get("published")
    if table is None:
        return None
    where = _at(text, source, "published")
    if not isinstance(table, dict) or set(table) - {"house_edge", "source", "decks", "places"}:
        raise InvalidPaytable(f"{where}: [published] has house_edge, source, decks and places")
    found = text.find("[published]")
    at = f"{source} line {text.count(chr(10), 0, found) + 1}" if found >= 0 else where
    edge = table.get("house_edge")
    if isinstance(edge, bool) or not isinstance(edge, int | float) or not -1 < edge < 1:
        raise InvalidPaytable(f"{at}: house_edge is a fraction of a unit, such as 0.076113")
    cited = table.get("source")
    decks, places = table.get("decks", 8), table.get("places", 4)
    if not isinstance(cited, str) or not cited.strip():
        raise InvalidPaytable(f"{at}: source names where the figure is printed")
    for name, value, high in (("decks", decks, 100), ("places", places, 8)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
            raise InvalidPaytable(f"{at}: {name} is a whole number 0 to {high}")
    return Citation(_number(edge, f"{at}: house_edge"), cited, decks, places)


def line_where(text: str, source: str, key: str, number: int, inner: str = "when") -> str:
    """``source line N`` for the line of the ``number``-th ``[[key]]`` block (0 first) that
    sets ``inner`` (the block's header if none does)."""
    lines = text.splitlines()
    header = re.compile(rf"^\s*\[\[\s*{re.escape(key)}\s*\]\]")
    found = [n for n, line in enumerate(lines, start=1) if header.match(line)]
    if number >= len(found):
        return f"{source} ([[{key}]] number {number + 1})"
    start = found[number]
    end = next((n for n in range(start + 1, len(lines) + 1)
                if lines[n - 1].lstrip().startswith("[")), len(lines) + 1)  # fmt: skip
    inside = _line_of("\n".join(lines[start : end - 1]), inner)
    line = start + inside if inside else start
    return f"{source} line {line} ([[{key}]] number {number + 1})"


def _at(text: str, source: str, key: str) -> str:
    line = _line_of(text, key)
    return f"{source} line {line}" if line else source


def _check_id(value: object, what: str) -> None:
    if value == "none":  # the word for no side bets at all (sidebets=none)
        raise InvalidPaytable(f"{what}'s id cannot be 'none', which means no side bets")
    if not isinstance(value, str) or len(value) > 40 or not _ID.fullmatch(value):
        raise InvalidPaytable(
            f"{what}'s id is lower-case words joined by hyphens, such as dragon-7,"
            f" got {shown(value)}"
        )


def _check_name(value: object) -> None:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME:
        raise InvalidPaytable(f"a name is text of 1 to {MAX_NAME} characters, got {shown(value)}")


def _pay_words(pays: Fraction) -> str:
    return "push" if pays == 0 else f"{fraction_text(pays)} to 1"


SHIPPED = _read_shipped()
"""The shipped rule sets (``classic``, ``ez``, ``no-commission``) and side bets, by id."""
