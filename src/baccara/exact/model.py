"""The shape of an exact analysis, shared by every game.

A bet's analysis is a list of outcomes, each an exact integer count over the
game's sample space (ordered card sequences, tile deals…) with what it pays. The
probabilities, return, house edge, element of risk, standard deviation and hit
frequency all follow from those counts, as exact fractions; floats appear only in
:meth:`Analysis.to_dict` and on screen.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from baccara.errors import BaccaraError


def rules_summary(rules: object) -> dict[str, Any]:
    """The options an analysis was run with, as plain JSON values, in the rules' field order.

    Whole numbers print as ints, other exact numbers as floats, ranks by symbol,
    paytables by name.
    """
    return {
        field_.name: _plain(getattr(rules, field_.name))
        for field_ in dataclasses.fields(rules)  # type: ignore[arg-type]
    }


def _plain(value: Any) -> Any:
    """An option's value as plain JSON: a rule set or side bet by its id, a list of them."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    if isinstance(value, enum.Enum):
        return getattr(value, "symbol", value.value)
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(getattr(value, "id", None), str):
        return value.id
    if hasattr(value, "name") and not isinstance(value, bool | int | str):
        return value.name
    return value


def fraction_str(value: Fraction) -> str:
    """``Fraction(1, 3)`` → ``"1/3"`` (and ``"0/1"`` for zero), the JSON form of exact values."""
    return f"{value.numerator}/{value.denominator}"


@dataclass(frozen=True)
class Outcome:
    """One way a bet can end: ``count`` of the ``total`` equally likely deals, paying ``pays`` to 1.

    ``pays`` is the net result per unit staked: 19/20 for a Banker win, 0 for a push,
    -1 for a loss.
    """

    name: str
    count: int
    total: int
    pays: Fraction

    def __post_init__(self) -> None:
        if self.total <= 0 or not 0 <= self.count <= self.total:
            raise BaccaraError(f"outcome {self.name!r}: count {self.count} outside 0..{self.total}")

    @property
    def probability(self) -> Fraction:
        return Fraction(self.count, self.total)

    @property
    def expected_return(self) -> Fraction:
        """This outcome's contribution to the bet's expected return per unit staked."""
        return self.probability * self.pays

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "probability": float(self.probability),
            "probability_exact": fraction_str(self.probability),
            "count": self.count,
            "pays": float(self.pays),
            "return": float(self.expected_return),
        }


@dataclass(frozen=True)
class Published:
    """A figure printed in a rule document, kept beside ours so readers can compare.

    ``outcomes`` optionally holds the published probability of named outcomes
    (``("push", Fraction(295057, 1000000))``) when the document prints them.
    ``places`` is how many decimals of a percent the document prints (4 for
    "29.5057 %", 2 for "2.56 %"): a figure is quoted, and compared, to that precision.
    """

    house_edge: Fraction
    source: str
    outcomes: tuple[tuple[str, Fraction], ...] = ()
    places: int = 4

    def percent(self, value: Fraction) -> str:
        """A published value as the document prints it: ``2.56%``, not ``2.5600%``."""
        return f"{float(value) * 100:.{self.places}f}%"

    def agrees(self, published: Fraction, exact: Fraction) -> bool:
        """Whether the exact value, rounded as documents round (a half up), is the printed one.

        >>> Published(Fraction(0), "x", places=2).agrees(Fraction("0.0257"), Fraction("0.02565"))
        True
        """
        scale = 100 * 10**self.places
        half = Fraction(1, 2)
        return bool(math.floor(exact * scale + half) == math.floor(published * scale + half))

    def figures(self, bet: BetAnalysis) -> tuple[PublishedFigure, ...]:
        """Each printed figure of ``bet`` beside the exact one: the edge, then each outcome."""
        return (
            PublishedFigure(self, "house edge", self.house_edge, bet.house_edge),
            *(
                PublishedFigure(self, name, printed, bet.outcome(name).probability)
                for name, printed in self.outcomes
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "house_edge": float(self.house_edge),
            "source": self.source,
            "places": self.places,
        }
        if self.outcomes:
            data["outcomes"] = {name: float(p) for name, p in self.outcomes}
        return data


@dataclass(frozen=True)
class PublishedFigure:
    """One figure a document prints, beside the exact one, quoted as the document quotes it."""

    source: Published
    name: str
    printed: Fraction
    exact: Fraction

    @property
    def agrees(self) -> bool:
        return self.source.agrees(self.printed, self.exact)

    def printed_text(self) -> str:
        """As the document prints it: ``29.5057%``, ``2.56%``."""
        return self.source.percent(self.printed)

    def exact_text(self) -> str:
        """The exact figure with two digits more than the document prints."""
        return f"{float(self.exact) * 100:.{self.source.places + 2}f}%"

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "published": self.printed_text(),
            "exact": self.exact_text(),
            "agrees": self.agrees,
        }


@dataclass(frozen=True)
class BetAnalysis:
    """Every outcome of one bet, with the figures an operator and a regulator ask for."""

    bet: str
    outcomes: tuple[Outcome, ...]
    published: Published | None = None

    def __post_init__(self) -> None:
        totals = {o.total for o in self.outcomes}
        if len(totals) != 1:
            raise BaccaraError(f"bet {self.bet!r}: outcomes counted over different totals {totals}")
        (total,) = totals
        if sum(o.count for o in self.outcomes) != total:
            raise BaccaraError(f"bet {self.bet!r}: outcome counts do not add up to {total}")

    @property
    def total(self) -> int:
        return self.outcomes[0].total

    def outcome(self, name: str) -> Outcome:
        for o in self.outcomes:
            if o.name == name:
                return o
        raise KeyError(name)

    @property
    def expected_return(self) -> Fraction:
        return sum((o.expected_return for o in self.outcomes), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """The house's expected gain per unit staked."""
        return -self.expected_return

    @property
    def resolved_probability(self) -> Fraction:
        """Probability that the bet is decided (not a push: net result non-zero)."""
        return sum((o.probability for o in self.outcomes if o.pays != 0), Fraction(0))

    @property
    def element_of_risk(self) -> Fraction:
        """House edge per resolved bet: pushes excluded from the stake at risk."""
        resolved = self.resolved_probability
        return self.house_edge / resolved if resolved else Fraction(0)

    @property
    def variance(self) -> Fraction:
        second = sum((o.probability * o.pays * o.pays for o in self.outcomes), Fraction(0))
        return second - self.expected_return**2

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        """Probability that the bet pays the player something."""
        return sum((o.probability for o in self.outcomes if o.pays > 0), Fraction(0))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "bet": self.bet,
            "house_edge": float(self.house_edge),
            "house_edge_exact": fraction_str(self.house_edge),
            "element_of_risk": float(self.element_of_risk),
            "std_dev": self.std_dev,
            "hit_frequency": float(self.hit_frequency),
            "outcomes": [o.to_dict() for o in self.outcomes],
        }
        if self.published is not None:
            data["published"] = self.published.to_dict()
        return data


Cell = int | str | Fraction
"""A value in a :class:`DataTable`: counts are ints, probabilities exact Fractions."""


@dataclass(frozen=True)
class DataTable:
    """A supporting table of an analysis (a distribution, a grid, a proof) beyond the bets.

    ``name`` is its key in the JSON ``tables`` object. Tables too wide for a terminal
    set ``on_screen=False`` and appear in the JSON only.
    """

    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: str = ""
    on_screen: bool = True

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise BaccaraError(
                    f"table {self.name!r}: a row has {len(row)} cells for {len(self.columns)} columns"
                )

    def to_dict(self) -> dict[str, Any]:
        def cell(value: Cell) -> int | str | float:
            return float(value) if isinstance(value, Fraction) else value

        data: dict[str, Any] = {
            "title": self.title,
            "columns": list(self.columns),
            "rows": [[cell(v) for v in row] for row in self.rows],
        }
        if self.note:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class Analysis:
    """The exact analysis of every bet of one game under one set of rules."""

    game: str
    options: Mapping[str, Any]
    bets: tuple[BetAnalysis, ...]
    sample_space: str = ""
    notes: tuple[str, ...] = field(default=())
    tables: tuple[DataTable, ...] = field(default=())

    def table(self, name: str) -> DataTable:
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(name)

    def bet(self, bet_id: str) -> BetAnalysis:
        for b in self.bets:
            if b.bet == bet_id:
                return b
        raise KeyError(bet_id)

    @property
    def bet_ids(self) -> Sequence[str]:
        return [b.bet for b in self.bets]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "options": dict(self.options),
            "bets": [b.to_dict() for b in self.bets],
        }
        if self.tables:
            data["tables"] = {t.name: t.to_dict() for t in self.tables}
        return data
