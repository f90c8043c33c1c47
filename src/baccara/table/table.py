"""A table: its seats, its round counter, its live shoe, and the round in play.

The table is what the server keeps per table and what ``baccara deal`` drives: it
seats players, opens each round with the next nonce, hands a live dealer's shoe
from round to round, and passes every action on to the round. Like the round it is
pure: the caller passes the time in, and the server seed or random source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from baccara.cards import ShoeMode
from baccara.errors import BaccaraError, InvalidBet
from baccara.fair import seed_hash
from baccara.games import GameSpec
from baccara.randomness import RandomSource
from baccara.table.config import Mode, TableConfig
from baccara.table.events import TABLE, Event, RoundOpened
from baccara.table.round import Round, RoundError, passes
from baccara.table.shoe import LiveShoe, ShoeReport, shoe_report


class SeatError(BaccaraError):
    """A seat that is taken, missing, or a table that is full."""


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
        self.round: Round | None = None
        self.shoe: LiveShoe | None = None
        if config.mode is Mode.LIVE and config.shoe is ShoeMode.CONTINUOUS:
            self.shoe = LiveShoe(self.rules.decks, config.penetration, shoe_dealt)

    # --- seats ---------------------------------------------------------------------------

    def seat_of(self, player: str) -> int | None:
        return next((seat for seat, who in self.seats.items() if who == player), None)

    def verify_sit(self, player: str, seat: int | None = None) -> int:
        """The seat ``player`` would take (the first free one when ``seat`` is None)."""
        if not isinstance(player, str) or not player or player == TABLE:
            raise SeatError(f"not a player: {player!r}")
        if self.seat_of(player) is not None:
            raise SeatError(f"{player} already sits at seat {self.seat_of(player)}")
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

    def can_sit(self, player: str, seat: int | None = None) -> bool:
        return passes(self.verify_sit, player, seat)

    def sit(self, player: str, seat: int | None = None) -> int:
        chosen = self.verify_sit(player, seat)
        self.seats[chosen] = player
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
        return seat

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
        (its SHA-256 goes in the log now) or, to replay a seeded deal, a ``source``."""
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
        )
        round_ = Round.open(
            opened, server_seed=server_seed, source=source, shoe=self._shoe_for_round()
        )
        self.nonce += 1
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
