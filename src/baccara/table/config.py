"""How one table is set up: its game, rules, limits, bet step, seats, mode, shoe and timers.

Checked once, on construction, so a running table never meets a bad setting. Money
is integer cents; times are seconds (floats, as the caller's clock gives them).

The **bet step** is what every stake must be a multiple of (and so every spot's
total): a table whose step is :func:`whole_cents_step` — 0.20 at Punto Banco, for
19:20 on Banker — pays every payout in whole cents, and no stake is ever rounded. A
finer step (down to a cent) takes stakes whose payouts are rounded down.
"""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from baccara.cards import ShoeMode, check_penetration
from baccara.errors import InvalidOption, shown
from baccara.games import GameSpec, game
from baccara.money import MAX_STAKE_CENTS, format_cents


class Mode(enum.Enum):
    """Who deals: the engine from a shuffled shoe, or a dealer entering the real cards."""

    ELECTRONIC = "electronic"
    LIVE = "live"


MIN_TIMER, MAX_TIMER = 1, 3600
"""Betting, peek and choice windows: at least a second, no longer than an hour."""

MIN_BETTING_SECONDS = 5.0
"""How long betting stays open after a round's first bet, whatever one player's "deal"
says, unless everyone at the table is ready (:meth:`~baccara.table.round.Round.request_deal`)."""

SQUEEZE_OPTIONAL = frozenset({"punto-banco"})
"""Games whose electronic tables may deal for the squeeze (the ``squeeze`` option): Mini
RedGreen's second hand is always squeezed by its highest bettor, as the seed's slow
exposure asks; the RedGreen first version has its peek; Lo-Ball's tiles are the table's."""

MAX_BETS_PER_PLAYER, MOST_BETS_PER_PLAYER = 20, 1000
"""Bets one player may place in one round (a bet taken back still counts), by default and
at most: enough to cover every spot of a layout and add to a few, few enough that no
player can swell a round's log (its record, its WebSocket events) by thousands of chips."""


def _seconds(name: str, value: object, low: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidOption(name, f"must be a number of seconds, got {shown(value)}")
    if not low <= value <= MAX_TIMER:  # compared exactly: a huge int is never made a float
        raise InvalidOption(
            name, f"must be between {low:g} and {MAX_TIMER:g} seconds, got {shown(value)}"
        )
    return float(value)


def whole_cents_step(game_id: str, options: Mapping[str, Any] | None = None) -> int:
    """The smallest bet step, in cents, at which every payout of ``game_id`` under
    ``options`` is whole cents (:func:`baccara.exact.bet_step_cents`).

    Remembered per game and options: it takes an exact analysis of every bet, which a
    casino would otherwise repeat for each of its tables at every start. Options that
    cannot be written as JSON (never a table's) are worked out each time.
    """
    try:
        written = json.dumps(dict(options or {}), sort_keys=True)
    except (TypeError, ValueError):
        return _step_of(game_id, dict(options or {}))
    return _remembered_step(game_id, written)


@functools.lru_cache(maxsize=256)
def _remembered_step(game_id: str, options: str) -> int:
    return _step_of(game_id, json.loads(options))


def _step_of(game_id: str, options: dict[str, Any]) -> int:
    from baccara.exact import bet_step_cents

    return bet_step_cents(game_id, **options)


def on_step(value: int, step: int) -> int:
    """``value`` rounded up to a multiple of ``step``."""
    return -(-value // step) * step


def _cents(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOption(name, f"must be a whole number of cents, got {shown(value)}")
    if not 1 <= value <= MAX_STAKE_CENTS:
        raise InvalidOption(
            name, f"must be between 1 and {MAX_STAKE_CENTS} cents, got {shown(value)}"
        )
    return value


@dataclass(frozen=True)
class TableConfig:
    """One table's settings. ``seats`` defaults to the game's; a table may have fewer.

    A continuous shoe (dealt round after round to a cut card at ``penetration``) is a
    live table's: an electronic table reshuffles before every round, as the seeds
    deal, so that every round can be re-dealt from its own seeds.

    ``bet_step_cents`` (1 by default: any whole number of cents) divides every stake and
    both limits.

    ``min_betting_seconds`` (0 to an hour) is the least time betting stays open after the
    round's first bet when the bettors' "deal" would close it sooner: one player cannot
    cut betting short for the others (a window longer than ``betting_seconds`` is the
    betting timer). ``max_bets_per_player`` caps the bets one player places in a round.

    ``squeeze`` (Punto Banco, electronic tables only: at a live table the players squeeze
    the real cards) deals the hands face down for the highest bettor on each hand to
    squeeze; ``squeeze_seconds`` is how long a squeeze lasts (Mini RedGreen's too).

    >>> TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=500_000).seats
    7
    >>> TableConfig("punto-banco", min_bet_cents=100, max_bet_cents=500_000, bet_step_cents=30)
    Traceback (most recent call last):
    ...
    baccara.errors.InvalidOption: min-bet-cents: 100 cents (1.00) is not a multiple of the bet step, 30 cents (0.30)
    """

    game: str
    min_bet_cents: int
    max_bet_cents: int
    bet_step_cents: int = 1
    mode: Mode = Mode.ELECTRONIC
    options: Mapping[str, Any] = field(default_factory=dict)
    seats: int | None = None
    shoe: ShoeMode = ShoeMode.RESHUFFLE
    penetration: float = 0.8
    betting_seconds: float = 15.0
    peek_seconds: float = 10.0
    choose_seconds: float = 10.0
    reveal_delay: float = 0.6
    min_betting_seconds: float = MIN_BETTING_SECONDS
    max_bets_per_player: int = MAX_BETS_PER_PLAYER
    squeeze: bool = False
    squeeze_seconds: float = 20.0

    def __post_init__(self) -> None:
        spec = game(self.game)
        if not isinstance(self.options, Mapping) or not all(
            isinstance(k, str) for k in self.options
        ):
            raise InvalidOption(
                "options", f"must map option names to values, got {shown(self.options)}"
            )
        spec.rules_from_options(**dict(self.options))
        low = _cents("min-bet-cents", self.min_bet_cents)
        high = _cents("max-bet-cents", self.max_bet_cents)
        if low > high:
            raise InvalidOption(
                "max-bet-cents", f"must be at least the minimum, {low} cents ({format_cents(low)})"
            )
        if not isinstance(self.mode, Mode):
            raise InvalidOption("mode", f"must be electronic or live, got {shown(self.mode)}")
        seats = spec.table.seats if self.seats is None else self.seats
        if (
            isinstance(seats, bool)
            or not isinstance(seats, int)
            or not 1 <= seats <= spec.table.seats
        ):
            raise InvalidOption(
                "seats", f"{spec.name} seats 1 to {spec.table.seats} players, got {shown(seats)}"
            )
        object.__setattr__(self, "seats", seats)
        if not isinstance(self.shoe, ShoeMode):
            raise InvalidOption("shoe", f"must be reshuffle or continuous, got {shown(self.shoe)}")
        if self.shoe is ShoeMode.CONTINUOUS:
            if self.mode is Mode.ELECTRONIC:
                raise InvalidOption(
                    "shoe",
                    "an electronic table reshuffles before every round, so each round can be"
                    " re-dealt from its seeds; a continuous shoe is for live tables",
                )
            if not hasattr(spec.rules(), "decks"):
                raise InvalidOption("shoe", f"{spec.name} reshuffles before every round")
        object.__setattr__(self, "penetration", check_penetration(self.penetration))
        if not isinstance(self.squeeze, bool):
            raise InvalidOption("squeeze", f"must be true or false, got {shown(self.squeeze)}")
        if self.squeeze and self.game not in SQUEEZE_OPTIONAL:
            raise InvalidOption(
                "squeeze", f"is a Punto Banco table's option; {spec.name} has its own procedure"
            )
        if self.squeeze and self.mode is Mode.LIVE:
            raise InvalidOption(
                "squeeze",
                "is for electronic tables: at a live table the players squeeze the real cards",
            )
        for name in ("betting_seconds", "peek_seconds", "choose_seconds", "squeeze_seconds"):
            object.__setattr__(
                self, name, _seconds(name.replace("_", "-"), getattr(self, name), MIN_TIMER)
            )
        object.__setattr__(self, "reveal_delay", _seconds("reveal-delay", self.reveal_delay))
        object.__setattr__(
            self, "min_betting_seconds", _seconds("min-betting-seconds", self.min_betting_seconds)
        )
        bets = self.max_bets_per_player
        if (
            isinstance(bets, bool)
            or not isinstance(bets, int)
            or not 1 <= bets <= MOST_BETS_PER_PLAYER
        ):
            raise InvalidOption(
                "max-bets-per-player",
                f"must be a whole number from 1 to {MOST_BETS_PER_PLAYER}, got {shown(bets)}",
            )
        step = _cents("bet-step-cents", self.bet_step_cents)
        for name, limit in (("min-bet-cents", low), ("max-bet-cents", high)):
            if limit % step:
                raise InvalidOption(
                    name,
                    f"{limit} cents ({format_cents(limit)}) is not a multiple of the bet step,"
                    f" {step} cents ({format_cents(step)})",
                )

    @property
    def spec(self) -> GameSpec:
        return game(self.game)

    @property
    def squeezes(self) -> bool:
        """Whether the table's rounds squeeze: every electronic Mini RedGreen table's (its
        second hand), an electronic Punto Banco table's with ``squeeze``."""
        return self.mode is Mode.ELECTRONIC and (
            self.squeeze or self.spec.table.highest_bettor_chooses_first_hand
        )

    @property
    def seat_count(self) -> int:
        """``seats``, resolved to the game's number when it was not given."""
        assert self.seats is not None
        return self.seats
