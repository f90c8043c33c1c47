"""A table on the casino floor: the PAR sheet's operating figures, from stated assumptions.

None of what an operator plans with — how many rounds an hour a table deals, the
average bet, how many seats are taken, the table's limits, how the drop relates to
the handle — is in a rule document. :class:`FloorPlan` holds each with where it came
from: the game's registry entry (:class:`~baccara.games.spec.Floor`), the casino's
default table, or the operator (an option of ``baccara report``). The sheet prints
every one of them as an assumption.

From the plan and the exact house edge, per bet:

* theoretical win = hands × average bet × house edge, per hour per seat and per table
  (every occupied seat betting the average bet every hand);
* hold against drop = house edge × handle ÷ drop: the drop (cash and markers changed
  for chips) is a share of the handle (the total wagered), ``drop_to_handle``;
* the edge at the table's real stakes, each payout rounded down to the cent as it is
  paid (:mod:`baccara.exact.stakes`), at the least, the average and the most a seat
  may bet, and the worst over every stake the table takes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from baccara.errors import InvalidOption
from baccara.exact.model import BetAnalysis
from baccara.exact.stakes import bet_at_stake, bet_step
from baccara.games import GameSpec
from baccara.money import format_cents
from baccara.options import fraction_text, plural

DEFAULT_MIN_BET = 100
DEFAULT_MAX_BET = 50_000
LIMITS_SOURCE = "assumption: the limits of the electronic table a new casino opens (1.00 to 500.00)"
DEFAULT_AVERAGE_BET = 2_500
AVERAGE_SOURCE = "assumption: a 25.00 average bet, for scale; every win figure is proportional"
DEFAULT_DROP_TO_HANDLE = Fraction(1, 5)
DROP_SOURCE = (
    "assumption: the drop is a fifth of the handle (chips bought are wagered five times "
    "over), a common planning figure; set the casino's own"
)
DEFAULT_WEEK_HOURS = 112
WEEK_SOURCE = "assumption: the table deals 16 hours a day, 7 days a week"
SEATS_SOURCE = "assumption: every seat taken"
GIVEN = "given with {option}"

MOST_HANDS_PER_HOUR = 1_000
MOST_WEEK_HOURS = 168
MOST_BET = 100_000_000  # 1,000,000.00: a limit above any table's


@dataclass(frozen=True)
class Assumed:
    """One planning figure, as the sheet prints it: name, value in words, and source."""

    name: str
    value: str
    source: str


@dataclass(frozen=True)
class FloorPlan:
    """The table the sheet plans for. Money in cents; ``drop_to_handle`` = drop ÷ handle."""

    hands_per_hour: int
    average_bet_cents: int
    min_bet_cents: int
    max_bet_cents: int
    seats: int
    week_hours: int
    drop_to_handle: Fraction
    sources: tuple[tuple[str, str], ...] = ()
    """(field, source) for every field: an assumption and whose, or the option that gave it."""

    def __post_init__(self) -> None:
        _whole("--hands-per-hour", self.hands_per_hour, 1, MOST_HANDS_PER_HOUR)
        _whole("--week-hours", self.week_hours, 1, MOST_WEEK_HOURS)
        _whole("--seats", self.seats, 1, 1_000)
        _whole("--min-bet", self.min_bet_cents, 1, MOST_BET, money=True)
        _whole("--max-bet", self.max_bet_cents, self.min_bet_cents, MOST_BET, money=True)
        _whole(
            "--average-bet", self.average_bet_cents, self.min_bet_cents, self.max_bet_cents,
            money=True,
        )  # fmt: skip
        ratio = self.drop_to_handle
        if not isinstance(ratio, Fraction) or not 0 < ratio <= 1:
            raise InvalidOption("--drop-to-handle", f"is a share from 0 to 1, got {ratio!r}")

    @classmethod
    def for_game(cls, spec: GameSpec, **given: Any) -> FloorPlan:
        """The game's plan: its registry entry's pace, the default table, every seat taken;
        each of ``given`` (a field's name → value) replaces one and is sourced to its option."""
        if spec.floor is None:
            raise InvalidOption("--hands-per-hour", f"{spec.name} has no pace: give one")
        plan = cls(
            hands_per_hour=spec.floor.hands_per_hour,
            average_bet_cents=DEFAULT_AVERAGE_BET,
            min_bet_cents=DEFAULT_MIN_BET,
            max_bet_cents=DEFAULT_MAX_BET,
            seats=spec.table.seats,
            week_hours=DEFAULT_WEEK_HOURS,
            drop_to_handle=DEFAULT_DROP_TO_HANDLE,
            sources=(
                ("hands_per_hour", spec.floor.source),
                ("average_bet_cents", AVERAGE_SOURCE),
                ("min_bet_cents", LIMITS_SOURCE),
                ("max_bet_cents", LIMITS_SOURCE),
                ("seats", f"{SEATS_SOURCE} ({spec.table.seats})"),
                ("week_hours", WEEK_SOURCE),
                ("drop_to_handle", DROP_SOURCE),
            ),
        )
        if not given:
            return plan
        # A default the operator's figures leave outside the table moves onto it: a
        # 1,000.00 minimum raises the maximum to it, a 10.00 maximum lowers the average.
        low = given.get("min_bet_cents", plan.min_bet_cents)
        high = given.get(
            "max_bet_cents", max(plan.max_bet_cents, low, given.get("average_bet_cents", 0))
        )
        average = given.get("average_bet_cents", min(max(plan.average_bet_cents, low), high))
        moved = {
            name
            for name, value in (("max_bet_cents", high), ("average_bet_cents", average))
            if name not in given and value != getattr(plan, name)
        }
        plan = replace(plan, max_bet_cents=high, average_bet_cents=average, min_bet_cents=low)
        unknown = set(given) - set(OPTION_OF)
        if unknown:
            raise InvalidOption(sorted(unknown)[0], "is not a figure of the floor plan")
        if given.get("seats", 1) > spec.table.seats:
            raise InvalidOption(
                "--seats", f"{spec.name} seats at most {spec.table.seats}, got {given['seats']}"
            )
        sources = tuple(
            (
                name,
                GIVEN.format(option=OPTION_OF[name])
                if name in given
                else f"{source}; moved onto the limits given"
                if name in moved
                else source,
            )
            for name, source in plan.sources
        )
        return replace(plan, sources=sources, **given)

    def source(self, name: str) -> str:
        return dict(self.sources).get(name, "")

    @property
    def hands_per_week(self) -> int:
        return self.hands_per_hour * self.week_hours

    def assumed(self) -> tuple[Assumed, ...]:
        """Every figure of the plan with its source, in the order the sheet lists them."""
        values = {
            "hands_per_hour": f"{self.hands_per_hour:,} hands an hour",
            "average_bet_cents": format_cents(self.average_bet_cents),
            "min_bet_cents": format_cents(self.min_bet_cents),
            "max_bet_cents": format_cents(self.max_bet_cents),
            "seats": plural(self.seats, "seat"),
            "week_hours": f"{self.week_hours} hours ({self.hands_per_week:,} hands)",
            "drop_to_handle": f"{fraction_text(self.drop_to_handle * 100)}% of the handle",
        }
        names = {
            "hands_per_hour": "Pace",
            "average_bet_cents": "Average bet",
            "min_bet_cents": "Minimum bet",
            "max_bet_cents": "Maximum bet",
            "seats": "Seats occupied",
            "week_hours": "A week's play",
            "drop_to_handle": "Drop",
        }
        return tuple(Assumed(names[n], values[n], self.source(n)) for n, _ in self.sources)


OPTION_OF = {
    "hands_per_hour": "--hands-per-hour",
    "average_bet_cents": "--average-bet",
    "min_bet_cents": "--min-bet",
    "max_bet_cents": "--max-bet",
    "seats": "--seats",
    "week_hours": "--week-hours",
    "drop_to_handle": "--drop-to-handle",
}
"""The ``baccara report`` option that sets each field of a :class:`FloorPlan`."""


def floor_flags(plan: FloorPlan, given: Mapping[str, object]) -> list[str]:
    """The options that give ``plan``'s figures named in ``given``, as the command takes them."""
    text = {
        "hands_per_hour": str(plan.hands_per_hour),
        "average_bet_cents": format_cents(plan.average_bet_cents),
        "min_bet_cents": format_cents(plan.min_bet_cents),
        "max_bet_cents": format_cents(plan.max_bet_cents),
        "seats": str(plan.seats),
        "week_hours": str(plan.week_hours),
        "drop_to_handle": fraction_text(plan.drop_to_handle),
    }
    return [f"{OPTION_OF[name]} {text[name]}" for name in OPTION_OF if name in given]


def _whole(option: str, value: object, low: int, high: int, money: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        if money:
            ends = (format_cents(low), format_cents(high))
            got = format_cents(value) if isinstance(value, int) else repr(value)
        else:
            ends, got = (f"{low:,}", f"{high:,}"), repr(value)
        raise InvalidOption(option, f"must be from {ends[0]} to {ends[1]}, got {got}")


@dataclass(frozen=True)
class BetOnTheFloor:
    """One bet's operating figures under a plan: win per hour, hold, edges at real stakes.

    Money is exact cents (a theoretical win is a fraction of a cent per hand)."""

    bet: str
    house_edge: Fraction
    win_per_hour_seat: Fraction
    win_per_hour_table: Fraction
    hold: Fraction
    edge_at_min: Fraction
    edge_at_average: Fraction
    edge_at_max: Fraction
    worst_edge: Fraction
    worst_stake: int
    step: int
    """The bet step in cents at whose multiples no payout of the bet is rounded."""


def worst_stake(bet: BetAnalysis, low: int, high: int) -> tuple[int, Fraction]:
    """The stake from ``low`` to ``high`` cents at which the bet's edge as paid is highest.

    A payout at ``p`` to 1 on ``s`` cents loses ``s·p`` mod 1 to rounding; that repeats
    every ``d`` cents (``d`` the bet's step) while the stake grows, so the loss *per cent
    staked* is largest in the first ``d`` stakes from ``low``: no need to try the rest.
    """
    step = bet_step([bet])
    worst = (low, bet_at_stake(bet, low).house_edge)
    for stake in range(low, min(high, low + step - 1) + 1):
        edge = bet_at_stake(bet, stake).house_edge
        if edge > worst[1]:
            worst = (stake, edge)
    return worst


def on_the_floor(bet: BetAnalysis, plan: FloorPlan) -> BetOnTheFloor:
    """``bet``'s operating figures under ``plan``: the win and hold at the edge as paid at
    the average bet (each payout rounded down to the cent), as the table earns it."""
    paid = bet_at_stake(bet, plan.average_bet_cents).house_edge  # as the table pays it
    per_seat = plan.hands_per_hour * plan.average_bet_cents * paid
    stake, worst = worst_stake(bet, plan.min_bet_cents, plan.max_bet_cents)
    return BetOnTheFloor(
        bet=bet.bet,
        house_edge=bet.house_edge,
        win_per_hour_seat=per_seat,
        win_per_hour_table=per_seat * plan.seats,
        hold=paid / plan.drop_to_handle,
        edge_at_min=bet_at_stake(bet, plan.min_bet_cents).house_edge,
        edge_at_average=bet_at_stake(bet, plan.average_bet_cents).house_edge,
        edge_at_max=bet_at_stake(bet, plan.max_bet_cents).house_edge,
        worst_edge=worst,
        worst_stake=stake,
        step=bet_step([bet]),
    )
