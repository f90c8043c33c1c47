"""What the game mathematician's report is asked for and the figures it shows: the
request and the gathered data that ``report.py`` lays out with ``report_sections.py``.
Both import it; it imports neither."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from baccara.exact import EffectOfRemoval
from baccara.exact.floor import BetOnTheFloor, FloorPlan, floor_flags
from baccara.exact.model import Analysis, DataTable
from baccara.exact.round_risk import Correlations, RoundLiability
from baccara.exact.table_week import TableWeek
from baccara.exact.variants import Comparison, DeckSweep
from baccara.exact.volatility import Interval
from baccara.games import GameSpec
from baccara.games.bonus import Category
from baccara.games.paytable import SHIPPED, Paytable
from baccara.games.variant import option_value_text
from baccara.money import money_text
from baccara.options import field_of, option_name
from baccara.render.text import printable
from baccara.sim.api import Sessions
from baccara.sim.sessions import SessionPlan

DEFAULT_PLAN = SessionPlan(stake=1000, bankroll=100_000, hands=200, sessions=10_000)
"""The night the fan chart plays: 10.00 a hand, 1000.00 to start, 200 hands, 10,000 nights
— the defaults of ``baccara simulate --bet``."""

DEFAULT_SEED = 1
"""The report's sessions are seeded, so the same report comes out every time."""


def option_values(spec: GameSpec, rules: Any, names: Iterable[str]) -> list[tuple[str, str, str]]:
    """Each rule option as a user types it: name, value in force, the default.

    A paytable read from a file goes by the name the file gave it, control characters
    escaped.
    """
    defaults = spec.rules()
    return [
        (
            option_name(name),
            printable(option_value_text(getattr(rules, name))),
            option_value_text(getattr(defaults, name)),
        )
        for name in names
    ]


def option_flags(
    spec: GameSpec, rules: Any, names: Iterable[str], *, given: Iterable[str] | None = None
) -> str:
    """The ``--option``s that give ``rules``: those that differ from the defaults, or only
    the ``given`` ones (as typed, either spelling) where other options follow from them —
    a rule set's commission and side bets, which a variant laid over it replaces.

    A paytable read from a file shows as ``paytable=FILE``: a sheet knows its name, not
    where it was read from.
    """
    paytable = getattr(rules, "paytable", None)
    from_file = isinstance(paytable, Paytable) and paytable.name not in SHIPPED
    typed = None if given is None else {option_name(field_of(spec.id, k, spec.rules.OPTIONS))
                                        for k in given}  # fmt: skip
    return "".join(
        f" --option {name}={'FILE' if name == 'paytable' and from_file else value}"
        for name, value, default in option_values(spec, rules, names)
        if (value != default if typed is None else name in typed)
    )


def bet_names(spec: GameSpec, rules: Any) -> dict[str, str]:
    """Each bet's name as the layout of a table with ``rules`` prints it ("Banker",
    "Dragon 7"): what a document for people calls a bet, where commands take its id."""
    return {spot.bet: spot.name for spot in spec.spots_at(rules)}


@dataclass(frozen=True)
class ReportRequest:
    """Which game, under which rules, and how to play the report's bankroll sessions.

    ``options`` are rule options as :func:`baccara.analyze` takes them; ``bet`` is the
    bet the sessions play (the game's first bet by default).
    """

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    bet: str | None = None
    seed: int = DEFAULT_SEED
    plan: SessionPlan = DEFAULT_PLAN
    floor: Mapping[str, Any] = field(default_factory=dict)
    """The floor plan's figures the operator gives (:class:`FloorPlan` field → value);
    the rest are the sheet's assumptions."""
    revision: int = 1
    date: datetime.date | None = None
    """The sheet's date; ``None``: today."""


@dataclass(frozen=True)
class ReportData:
    """Every figure the report shows, each from a call a user can make."""

    request: ReportRequest
    spec: GameSpec
    analysis: Analysis
    rules: Any
    removal: EffectOfRemoval
    decks: DeckSweep | None
    variants: Comparison
    sessions: Sessions
    bonus: tuple[Mapping[Category, int], Paytable] | None
    floor: FloorPlan
    on_floor: tuple[BetOnTheFloor, ...]
    liability: RoundLiability
    correlations: Correlations
    volatility: Mapping[str, tuple[Interval, ...]]
    """Per bet, the intervals of the player's result after each number of hands."""
    week: TableWeek
    """The house's week at the table, from the joint model of one round (in cents)."""
    breakdowns: tuple[DataTable, ...]
    date: datetime.date
    rules_hash: str

    @property
    def session_bet(self) -> str:
        return self.sessions.bet

    def bet_names(self) -> dict[str, str]:
        """Each bet's name as the table's layout prints it, by id."""
        return bet_names(self.spec, self.rules)

    def bet_name(self, bet: str) -> str:
        """The name the table's layout prints for ``bet``; its id if it has no spot."""
        return self.bet_names().get(bet, bet)

    def option_values(self) -> list[tuple[str, str, str]]:
        """Each rule option as a user types it: name, value in force, the default."""
        return option_values(self.spec, self.rules, self.analysis.options)

    def option_sources(self) -> list[str]:
        """Where each option's default comes from: the seed, or an assumption and its source."""
        return [
            self.spec.assumption(name) or f"seed {self.spec.seed_number}"
            for name in self.analysis.options
        ]

    def option_flags(self) -> str:
        """The ``--option``s that give these rules (those that differ from the defaults)."""
        return option_flags(
            self.spec, self.rules, self.analysis.options, given=self.request.options
        )

    def command(self) -> str:
        """The ``baccara report`` command that writes this report (where to aside), the
        sessions' bet, number and seed spelled out.

        The command sets no stake, bankroll or hands; a report whose sessions were
        planned otherwise (from Python) says so instead.
        """
        plan = self.sessions.plan
        if (plan.stake, plan.bankroll, plan.hands) != (
            DEFAULT_PLAN.stake, DEFAULT_PLAN.bankroll, DEFAULT_PLAN.hands,
        ):  # fmt: skip
            money = money_text
            return (
                f"none: sessions of {plan.hands:,} hands at {money(plan.stake)} from "
                f"{money(plan.bankroll)} were planned in Python (ReportRequest.plan)"
            )
        return (
            f"baccara report {self.spec.id}{self.option_flags()}{self.floor_flags()}"
            f" --bet {self.session_bet} --sessions {plan.sessions} --seed {self.sessions.seed}"
            f" --revision {self.request.revision} --date {self.date.isoformat()}"
        )

    def floor_flags(self) -> str:
        """The floor plan's options the operator gave, as the command takes them."""
        return "".join(f" {flag}" for flag in floor_flags(self.floor, self.request.floor))
