"""A table: its seats, its round counter, its live shoe, and the round in play.

The table is what the server keeps per table and what ``baccara deal`` drives: it
seats players, opens each round with the next nonce, hands a live dealer's shoe
from round to round, and passes every action on to the round. Like the round it is
pure: the caller passes the time in, and the server seed or random source.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from math import ceil
from typing import Any

from baccara.cards import ShoeMode
from baccara.errors import BaccaraError, InvalidBet
from baccara.fair import seed_hash
from baccara.games import GameSpec
from baccara.randomness import RandomSource
from baccara.table.config import Mode, TableConfig
from baccara.table.events import TABLE, Event, RoundOpened
from baccara.table.round import Phase, Round, RoundError, passes
from baccara.table.shoe import LiveShoe, ShoeReport, shoe_report


class SeatError(BaccaraError):
    """A seat that is taken, missing, or a table that is full."""


class StandUp(enum.Enum):
    """Why the table stood a player up (the ``reason`` of a ``stood-up`` event)."""

    AWAY = "away"
    """Their table page was closed, and the round then in play passed without a bet
    from them."""
    SAT_OUT = "sat-out"
    """They sat out :data:`SAT_OUT_ROUNDS` rounds in a row without a bet."""


SAT_OUT_ROUNDS = 2
"""Rounds in a row a seated player may sit out without a bet before the table stands
them up. While a round waits for its first bet, every :data:`IDLE_ROUND_SECONDS` that
pass with nobody betting count as a round: seats held by people who never bet would
otherwise keep a full table waiting, and everyone else away from it, for ever."""
IDLE_ROUND_SECONDS = 60.0
"""A round nobody played: about as long as a round takes at a real table, and never
shorter than the table's betting window (``max`` of the two)."""
STOOD_UP_SECONDS = 60.0
"""How long a player the table stood up waits before sitting at it again: a seat freed
from one who only held it goes to someone else waiting, not back to them the moment the
``stood-up`` event reaches them (see :meth:`Table.verify_sit`)."""


@dataclass
class Sitting:
    """What the table watches of one seated player to tell a seat that is played from
    one that is only held."""

    sat_at: float | None
    """When they sat (``None``: before the table was brought up from its records)."""
    since: float | None
    """Where the count of rounds nobody played (:data:`IDLE_ROUND_SECONDS`) goes on from."""
    sat_out: int = 0
    """Rounds in a row they sat out without a bet."""


class Table:
    """One table. ``nonce`` counts its rounds (1 for the first); ``seats`` maps seat → player.

    >>> table = Table(TableConfig("lo-ball", min_bet_cents=100, max_bet_cents=10_000))
    >>> table.sit("ann"), table.sit("bob", 4), table.seat_of("bob")
    (1, 4, 4)
    """

    def __init__(
        self,
        config: TableConfig,
        *,
        nonce: int = 0,
        seats: Mapping[int, str] | None = None,
        shoe_dealt: Sequence[str] = (),
    ) -> None:
        self.config = config
        self.spec: GameSpec = config.spec
        self.rules: Any = self.spec.rules_from_options(**dict(config.options))
        self.nonce = nonce
        self.seats: dict[int, str] = dict(seats or {})
        self.sittings: dict[str, Sitting] = {
            player: Sitting(None, None) for player in self.seats.values()
        }
        """What the table watches of each seated player (see :meth:`stand_up_idle`)."""
        self.stood_up: dict[str, float] = {}
        """When the table last stood each player up, while they may not sit again yet
        (:data:`STOOD_UP_SECONDS`)."""
        self._counted = 0
        """The nonce of the last round whose end the seated players' counts took in."""
        self.round: Round | None = None
        self.last_bettors: frozenset[str] = frozenset()
        """Who bet on the round before this one: players still at the table, whom one
        player's "deal" does not shut out of the next round (:meth:`request_deal`)."""
        self.shoe: LiveShoe | None = None
        if config.mode is Mode.LIVE and config.shoe is ShoeMode.CONTINUOUS:
            self.shoe = LiveShoe(self.rules.decks, config.penetration, shoe_dealt)

    # --- seats ---------------------------------------------------------------------------

    def seat_of(self, player: str) -> int | None:
        return next((seat for seat, who in self.seats.items() if who == player), None)

    def verify_sit(self, player: str, seat: int | None = None, now: float | None = None) -> int:
        """The seat ``player`` would take (the first free one when ``seat`` is None).

        A player the table stood up (:meth:`stand_up_idle`) sits again only
        :data:`STOOD_UP_SECONDS` after, timed on ``now`` (without a time, not yet): on a
        full table, a squatter re-sitting from the ``stood-up`` event would otherwise take
        the seat back before anyone waiting saw it free. The wait is by the clock, not by
        rounds, since a table nobody bets at plays none. One who left on their own waits
        for nothing.

        >>> table = Table(TableConfig("lo-ball", min_bet_cents=100, max_bet_cents=10_000))
        >>> table.stood_up["ann"] = 100.0
        >>> table.can_sit("ann", now=130.0), table.can_sit("ann", now=160.0)
        (False, True)
        """
        if not isinstance(player, str) or not player or player == TABLE:
            raise SeatError(f"not a player: {player!r}")
        if self.seat_of(player) is not None:
            raise SeatError(f"{player} already sits at seat {self.seat_of(player)}")
        stood_at = self.stood_up.get(player)
        if stood_at is not None:
            wait = STOOD_UP_SECONDS - (now - stood_at) if now is not None else STOOD_UP_SECONDS
            if wait > 0:
                raise SeatError(f"the table stood {player} up: sit here again in {ceil(wait)} s")
        count = self.config.seat_count
        if seat is None:
            free = [s for s in range(1, count + 1) if s not in self.seats]
            if not free:
                raise SeatError(f"the table is full: all {count} seats are taken")
            return free[0]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= count:
            raise SeatError(f"this table has seats 1 to {count}, not {seat!r}")
        if seat in self.seats:
            raise SeatError(f"seat {seat} is taken")
        return seat

    def can_sit(self, player: str, seat: int | None = None, now: float | None = None) -> bool:
        return passes(self.verify_sit, player, seat, now)

    def sit(self, player: str, seat: int | None = None, now: float | None = None) -> int:
        """Seat ``player``; ``now`` starts the watch on an idle seat (see :meth:`stand_up_idle`)
        and ends a stood-up player's wait (see :meth:`verify_sit`). The first to sit at a
        round waiting for a player starts its betting timer (:meth:`Round.open_window`)."""
        chosen = self.verify_sit(player, seat, now)
        self.stood_up.pop(player, None)
        if now is not None:  # the waits over are forgotten, so the record stays small
            self.stood_up = {p: t for p, t in self.stood_up.items()
                             if now - t < STOOD_UP_SECONDS}  # fmt: skip
        self.seats[chosen] = player
        self.sittings[player] = Sitting(now, now)
        round_ = self.round
        if now is not None and round_ is not None and round_.can_open_window():
            round_.open_window(now)  # the first player sits: the countdown starts
        return chosen

    def verify_leave(self, player: str) -> int:
        seat = self.seat_of(player)
        if seat is None:
            raise SeatError(f"{player} has no seat at this table")
        round_ = self.round
        if round_ is not None and not round_.phase.over and round_.totals(player):
            raise SeatError("your bets are on this round: leave when it is over")
        return seat

    def can_leave(self, player: str) -> bool:
        return passes(self.verify_leave, player)

    def leave(self, player: str) -> int:
        seat = self.verify_leave(player)
        del self.seats[seat]
        self.sittings.pop(player, None)
        return seat

    # --- seats nobody plays ------------------------------------------------------------------

    def seat_deadline(self) -> float | None:
        """When :meth:`stand_up_idle` next has a round nobody played to count: only while
        the round waits for its first bet (a round with bets ends by its own timers)."""
        round_ = self.round
        if round_ is None or round_.phase is not Phase.BETTING or round_.wagers:
            return None
        window = max(IDLE_ROUND_SECONDS, round_.opened.betting_seconds)
        starts = [s.since if s.since is not None else round_.opened.at
                  for s in self.sittings.values()]  # fmt: skip
        return min(starts) + window if starts else None

    def stand_up_idle(
        self, now: float, away: Callable[[str], float | None] | None = None
    ) -> list[Event]:
        """Stand up the seated players who only hold their seats, as a dealer does, and
        return the ``stood-up`` events (in the log of the round in play, or of the one
        just settled).

        A player is stood up who sat out :data:`SAT_OUT_ROUNDS` rounds in a row without a
        bet (``SAT_OUT``), or whose table page was closed before a round's betting closed
        and still is when that round ends, without a bet of theirs on it (``AWAY``).
        ``away(player)`` says since when a player has had no table page open at this
        table, ``None`` while one is open (or nobody knows); without it
        (the caller cannot see every page) only the rounds are counted.

        The table looks at the end of each settled round (taken in once) and, while a
        round waits for its first bet, each time :data:`IDLE_ROUND_SECONDS` pass — a
        round nobody played. Nobody with a bet on a round in play is ever stood up: a
        round with bets ends by its own timers, and the look comes when it is over. A
        voided round counts for nobody: taken in once, it adds to no count, and the
        rounds nobody played are counted again from its end.
        """
        round_ = self.round
        if round_ is None or not self.seats:
            return []
        looked: dict[str, float] = {}  # who sat out what the table looked at, since when
        if round_.phase is Phase.VOIDED and self._counted < round_.nonce:
            self._counted = round_.nonce  # nobody played it: the counts go on from its end
            for sitting in self.sittings.values():
                sitting.since = now
        elif round_.phase is Phase.SETTLED and self._counted < round_.nonce:
            self._counted = round_.nonce
            closed_at = round_.closed.at if round_.closed is not None else now
            for player, sitting in self.sittings.items():
                if round_.totals(player):
                    sitting.sat_out = 0
                elif sitting.sat_at is None or sitting.sat_at <= closed_at:
                    sitting.sat_out += 1
                    looked[player] = closed_at
                sitting.since = now
        elif round_.phase is Phase.BETTING and not round_.wagers:
            window = max(IDLE_ROUND_SECONDS, round_.opened.betting_seconds)
            for player, sitting in self.sittings.items():
                start = sitting.since if sitting.since is not None else round_.opened.at
                passed = int((now - start) // window) if now >= start else 0
                if passed:
                    sitting.sat_out += passed
                    sitting.since = start + passed * window
                    looked[player] = sitting.since - window
        events: list[Event] = []
        for player, started in looked.items():
            left = away(player) if away is not None else None
            reason = (StandUp.SAT_OUT if self.sittings[player].sat_out >= SAT_OUT_ROUNDS
                      else StandUp.AWAY if left is not None and left <= started
                      else None)  # fmt: skip
            if reason is not None and self.can_leave(player):
                seat = self.leave(player)
                self.stood_up[player] = now
                events.extend(round_.stand_up(player, seat, reason.value, now))
        return events

    # --- rounds --------------------------------------------------------------------------

    def verify_open_round(self) -> None:
        if self.round is not None and not self.round.phase.over:
            raise RoundError(f"round {self.round.nonce} is still {self.round.phase.value}")

    def can_open_round(self) -> bool:
        return passes(self.verify_open_round)

    def open_round(
        self, now: float, *, server_seed: bytes | None = None, source: RandomSource | None = None
    ) -> Round:
        """The next round, open for bets. Electronic: pass the round's secret ``server_seed``
        (its SHA-256 goes in the log now) or, to replay a seeded deal, a ``source``.

        With anyone seated, the betting timer starts now (a ``betting-window`` event):
        players see the countdown from the moment betting opens, not from the first bet.
        A table nobody sits at opens its round without one, so it never plays rounds to
        nobody; the first player to sit or bet starts it."""
        self.verify_open_round()
        if self.config.mode is Mode.LIVE and (server_seed is not None or source is not None):
            raise BaccaraError("a live table deals the dealer's cards, not a seed")
        config = self.config
        opened = RoundOpened(
            seq=0,
            at=float(now),
            by=TABLE,
            nonce=self.nonce + 1,
            game=self.spec.id,
            mode=config.mode.value,
            options=dict(config.options),
            min_bet_cents=config.min_bet_cents,
            max_bet_cents=config.max_bet_cents,
            bet_step_cents=config.bet_step_cents,
            seats=config.seat_count,
            betting_seconds=config.betting_seconds,
            peek_seconds=config.peek_seconds,
            choose_seconds=config.choose_seconds,
            reveal_delay=config.reveal_delay,
            server_seed_hash=None if server_seed is None else seed_hash(server_seed),
            min_betting_seconds=config.min_betting_seconds,
            max_bets_per_player=config.max_bets_per_player,
            squeeze=config.squeezes,
            squeeze_seconds=config.squeeze_seconds,
        )
        round_ = Round.open(
            opened, server_seed=server_seed, source=source, shoe=self._shoe_for_round()
        )
        if self.seats:  # betting opens with its countdown; an empty table waits for a player
            round_.open_window(now)
        self.nonce += 1
        if self.round is not None:
            self.last_bettors = frozenset(w.player for w in self.round.wagers.values())
        self.round = round_
        return round_

    def resume(self, events: Sequence[Event], *, server_seed: bytes | None = None) -> Round:
        """Rebuild the round in play from its stored log (after a restart)."""
        round_ = Round.replay(events, server_seed=server_seed, shoe=self._shoe_for_round())
        self.nonce = max(self.nonce, round_.nonce)
        self.round = round_
        return round_

    def _shoe_for_round(self) -> LiveShoe | None:
        if self.config.mode is not Mode.LIVE:
            return None
        if self.shoe is None:  # reshuffled before every round: a full shoe each time
            decks = getattr(self.rules, "decks", None)
            return LiveShoe(decks)
        if self.shoe.cut_card_reached:
            self.shoe = LiveShoe(self.rules.decks, self.config.penetration)
        return self.shoe

    def verify_shuffle(self) -> None:
        self.verify_open_round()
        if self.shoe is None:
            raise BaccaraError("only a live table with a continuous shoe is shuffled by hand")

    def can_shuffle(self) -> bool:
        return passes(self.verify_shuffle)

    def shuffle(self) -> None:
        """A live dealer starts a new continuous shoe between rounds."""
        self.verify_shuffle()
        self.shoe = LiveShoe(self.rules.decks, self.config.penetration)

    def shoe_report(self) -> ShoeReport:
        """Every bet's exact house edge on the cards left in a live continuous shoe."""
        if self.shoe is None:
            raise BaccaraError("this table reshuffles before every round: it has no shoe to watch")
        return shoe_report(self.spec, self.rules, self.shoe)

    def current(self) -> Round:
        if self.round is None:
            raise RoundError("no round has been opened at this table")
        return self.round

    def tick(self, now: float) -> list[Event]:
        """The round's timers at ``now`` (:meth:`Round.tick`); a betting window that ran out
        with no bet on the round and nobody seated stops its countdown instead of opening
        another (:meth:`Round.wait_for_players`)."""
        round_ = self.current()
        due = round_.deadline()
        if not self.seats and due is not None and now >= due and round_.can_wait_for_players():
            return round_.wait_for_players(now)
        return round_.tick(now)

    def verify_place_bet(
        self, bet_id: str, player: str, spot: str, amount: int, client_seed: str | None = None
    ) -> int | None:
        """The seat the bet is placed from (``None``: behind the table) — or why not."""
        seat = self.seat_of(player)
        if seat is None and self.spec.table.seat_required:
            raise InvalidBet(f"take a seat to bet at {self.spec.name}")
        self.current().verify_place_bet(bet_id, player, seat, spot, amount, client_seed)
        return seat

    def can_place_bet(
        self, bet_id: str, player: str, spot: str, amount: int, client_seed: str | None = None
    ) -> bool:
        return passes(self.verify_place_bet, bet_id, player, spot, amount, client_seed)

    def place_bet(
        self, bet_id: str, player: str, spot: str, amount: int, now: float,
        client_seed: str | None = None,
    ) -> list[Event]:  # fmt: skip
        """A bet from ``player`` at their seat (or behind, where the game allows it)."""
        seat = self.verify_place_bet(bet_id, player, spot, amount, client_seed)
        return self.current().place_bet(bet_id, player, seat, spot, amount, now, client_seed)

    def request_deal(self, player: str, now: float) -> list[Event]:
        """``player`` is ready (:meth:`Round.request_deal`). Everyone at the table — who
        sits at it, who bet on its last round — must be ready too for betting to close
        before the round's minimum window has run."""
        present = {*self.seats.values(), *self.last_bettors}
        return self.current().request_deal(player, now, present)
