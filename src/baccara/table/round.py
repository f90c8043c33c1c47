"""One round at a table, as a pure state machine over its event log.

Every action comes in pokerkit's three shapes: ``verify_x(...)`` raises a precise
:class:`~baccara.errors.BaccaraError`, ``can_x(...)`` answers yes or no, ``x(...)``
verifies, acts and returns the events it appended. State changes only by applying
events (:meth:`Round._apply`), so :meth:`Round.replay` rebuilds a round from its log.

The round has no clock: every action takes ``now`` (seconds), and :meth:`tick`
moves the round on when a timer has run out — betting closes, the peek window
ends, the choice falls to Red, the next card is turned. :meth:`deadline` says
when the next of those is due. Nor does it draw randomness of its own: an
electronic round deals from the provably-fair stream of its server seed (or from
a :class:`~baccara.randomness.RandomSource` handed in, to replay a seeded deal).

Phases: ``betting`` → ``dealing`` → ``peek`` (RedGreen first version) or
``choosing`` (Mini RedGreen) → ``revealing`` → ``settled``; or ``voided`` from any
phase before ``settled``, every bet refunded. A round that squeezes (``round-opened``'s
``squeeze``) leaves ``revealing`` for a ``squeeze`` each time the reveal reaches a card
the rules let a player squeeze, and comes back to it once every card of it is turned.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from baccara.errors import BaccaraError, InvalidBet, InvalidCards
from baccara.fair import FairRandom, check_client_seed, check_server_seed, seed_hash
from baccara.games import GameSpec, TableFacts, game
from baccara.money import BetResult, money_text, validate_stake
from baccara.randomness import RandomSource
from baccara.table.events import (
    TABLE,
    BetPlaced,
    BetRemoved,
    BettingClosed,
    BettingWindow,
    CardDealt,
    CardExposed,
    ChoiceOffered,
    DealRequested,
    Event,
    HandChosen,
    HandSet,
    Payout,
    Peeked,
    PeekEnded,
    PeekOffered,
    RoundOpened,
    RoundSettled,
    RoundVoided,
    SqueezeEnded,
    SqueezeOffered,
    StoodUp,
)
from baccara.table.procedures.base import Item, Procedure, Step, Wager
from baccara.table.roles import procedure_of
from baccara.table.shoe import LiveShoe

E = TypeVar("E", bound=Event)


class Phase(enum.Enum):
    BETTING = "betting"
    DEALING = "dealing"
    PEEK = "peek"
    CHOOSING = "choosing"
    SQUEEZE = "squeeze"
    REVEALING = "revealing"
    SETTLED = "settled"
    VOIDED = "voided"

    @property
    def over(self) -> bool:
        return self in (Phase.SETTLED, Phase.VOIDED)


class RoundError(BaccaraError):
    """An action the round refuses now: the wrong phase, the wrong player, a bad card."""


class OffStep(InvalidBet):
    """A stake that is not a multiple of the table's bet step; ``lower`` and ``higher``
    are the nearest stakes that are, within the table's limits (``None`` where none is)."""

    def __init__(self, amount: int, step: int, lower: int | None, higher: int | None) -> None:
        self.amount, self.step, self.lower, self.higher = amount, step, lower, higher
        self.params = {"amount_cents": amount, "step_cents": step, "lower_cents": lower,
                       "higher_cents": higher}  # fmt: skip
        nearest = " or ".join(money_text(c) for c in (lower, higher) if c is not None)
        super().__init__(
            f"a stake of {money_text(amount)} is not a multiple of this table's bet step,"
            f" {money_text(step)}" + (f": bet {nearest}" if nearest else "")
        )


class OutsideLimits(InvalidBet):
    """A spot's total that the table's limits refuse: over its maximum (:class:`OverLimit`)
    or under its minimum (:class:`UnderLimit`). ``spot`` is the bet, ``name`` its name on
    the layout; ``params`` carries the amounts in cents."""

    def __init__(self, spot: str, name: str, total: int, low: int, high: int) -> None:
        self.params = {"spot": spot, "total_cents": total, "min_cents": low, "max_cents": high}
        super().__init__(
            f"the total on {name} would be {money_text(total)}; this table takes"
            f" {money_text(low)} to {money_text(high)} a spot"
        )


class OverLimit(OutsideLimits):
    """A spot's total over the table's maximum."""


class UnderLimit(OutsideLimits):
    """A spot's total under the table's minimum."""


class LeavesTooLittle(InvalidBet):
    """Taking a bet back would leave less than the table's minimum on its spot."""

    def __init__(self, spot: str, name: str, left: int, low: int) -> None:
        self.params = {"spot": spot, "left_cents": left, "min_cents": low}
        super().__init__(
            f"that would leave {money_text(left)} on {name}, under the table minimum of"
            f" {money_text(low)}"
        )


class NoMoreBets(RoundError):
    """A bet, or a bet taken back, after the betting timer ran out, before the table's
    tick has closed the round."""

    def __init__(self) -> None:
        super().__init__("no more bets: the betting timer ran out")


class TooManyBets(InvalidBet):
    """A player's bets in one round past the table's cap: add to a bet already placed."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.params = {"cap": cap}
        super().__init__(
            f"at most {cap} bets a player in one round (a bet taken back counts): add to"
            " a spot with a larger stake instead"
        )


CHOOSABLE = ("red", "green")


class Round:
    """One round's state, built from its log. Create it with :meth:`open`."""

    def __init__(self, opened: RoundOpened) -> None:
        self.spec: GameSpec = game(opened.game)
        self.rules: Any = self.spec.rules_from_options(**dict(opened.options))
        self.procedure: Procedure = procedure_of(self.spec)
        self.events: list[Event] = []
        self.opened = opened
        self.wagers: dict[str, Wager] = {}
        self._stakes: dict[str, dict[str, int]] = {}  # player → spot → total, kept by _apply
        self._seat_of: dict[str, int | None] = {}  # a bettor's seat (None: betting behind)
        self._at_seat: dict[int, str] = {}  # a seat's bettor
        self.ready: set[str] = set()
        self.placed: dict[str, int] = {}  # player → bets placed this round, taken back or not
        self.first_bet_at: float | None = None
        self.window_until: float | None = None
        """When the betting timer runs out (:class:`~baccara.table.events.BettingWindow`);
        ``None`` while the round waits for a player."""
        self.closed: BettingClosed | None = None
        self.seats_dealt: tuple[int, ...] = ()
        self.dealt: dict[str, str] = {}
        self.face_up: set[str] = set()
        self.peek: PeekOffered | None = None
        self.peeked: Peeked | None = None
        self.peek_ended = False
        self.choice: ChoiceOffered | None = None
        self.first_hand: str | None = None
        self.hands_set: dict[str, HandSet] = {}
        self.squeeze: SqueezeOffered | None = None
        """The squeeze in play: until its ``squeeze-ended``, the round waits on its squeezer."""
        self.reveal_clock = 0.0
        self.settled: RoundSettled | None = None
        self.voided: RoundVoided | None = None
        self._source: RandomSource | None = None
        self._server_seed: bytes | None = None
        self._deck: dict[str, str] | None = None  # an electronic deal, drawn once, shown bit by bit
        self._shoe: LiveShoe | None = None
        self._apply(opened)

    # --- construction ---------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        opened: RoundOpened,
        *,
        server_seed: bytes | None = None,
        source: RandomSource | None = None,
        shoe: LiveShoe | None = None,
    ) -> Round:
        """A new round. Electronic: deal by ``server_seed`` (provably fair) or ``source``;
        live: ``shoe`` is what the dealer's cards are checked against."""
        round_ = cls(opened)
        if opened.mode == "electronic":
            if (server_seed is None) == (source is None):
                raise BaccaraError("an electronic round deals by a server seed or a source")
            if server_seed is not None:
                check_server_seed(server_seed)
                if opened.server_seed_hash != seed_hash(server_seed):
                    raise BaccaraError("the server seed does not match the round's commitment")
            round_._server_seed, round_._source = server_seed, source
        elif shoe is None:
            raise BaccaraError("a live round checks the dealer's cards against a shoe")
        round_._shoe = shoe
        return round_

    @classmethod
    def replay(
        cls,
        events: Sequence[Event],
        *,
        server_seed: bytes | None = None,
        source: RandomSource | None = None,
        shoe: LiveShoe | None = None,
    ) -> Round:
        """The round its log describes, ready to go on where the log ends.

        A log ends after an action — every event one action appended, or none of them,
        as the server stores them in one transaction."""
        if not events or not isinstance(events[0], RoundOpened):
            raise BaccaraError("a round's log starts with round-opened")
        round_ = cls.open(events[0], server_seed=server_seed, source=source, shoe=shoe)
        for event in events[1:]:
            if event.seq != len(round_.events):
                raise BaccaraError(f"event {event.seq} out of order in the log")
            round_._apply(event)
        return round_

    @classmethod
    def read(cls, events: Sequence[Event]) -> Round:
        """A stored round rebuilt to be looked at (a record, a history): it deals no card."""
        if not events or not isinstance(events[0], RoundOpened):
            raise BaccaraError("a round's log starts with round-opened")
        opened = events[0]
        if opened.mode == "electronic":
            return cls.replay(events, source=_NoDraw())
        decks = getattr(game(opened.game).rules_from_options(**dict(opened.options)), "decks", None)
        return cls.replay(events, shoe=LiveShoe(decks))

    def follow(self, events: Sequence[Event]) -> int:
        """Bring a read copy up to date with its log, written elsewhere (another server
        process deals the round): events it already holds are skipped, the rest must
        continue the log. Returns how many events it held before."""
        held = len(self.events)
        for event in events:
            if event.seq < len(self.events):
                continue
            if event.seq != len(self.events):
                raise BaccaraError(f"event {event.seq} out of order in the log")
            self._apply(event)
        return held

    # --- derived state --------------------------------------------------------------------

    @property
    def nonce(self) -> int:
        return self.opened.nonce

    @property
    def live(self) -> bool:
        return self.opened.mode == "live"

    @property
    def phase(self) -> Phase:
        if self.voided is not None:
            return Phase.VOIDED
        if self.settled is not None:
            return Phase.SETTLED
        if self.closed is None:
            return Phase.BETTING
        if self.needs():
            return Phase.DEALING
        if self.peek is not None and not self.peek_ended:
            return Phase.PEEK
        if self.choice is not None and self.first_hand is None:
            return Phase.CHOOSING
        if self.squeeze is not None:
            return Phase.SQUEEZE
        return Phase.REVEALING

    def needs(self) -> tuple[str, ...]:
        """The positions to deal now, as far as the rules know yet: a live dealer's next
        cards. An electronic round deals its face-down opening as betting closes and the
        cards the rules ask for later face up, as the reveal reaches them — it never
        says in advance which those will be."""
        if self.closed is None:
            return ()
        if self.live:
            return self.procedure.needs(self.dealt, self.seats_dealt)
        return tuple(p for p in self.procedure.opening(self.seats_dealt) if p not in self.dealt)

    def spot_name(self, spot: str) -> str:
        """The bet's name as the layout prints it ("Banker Pair"); the bet itself if none."""
        return next((s.name for s in self.spec.spots_at(self.rules) if s.bet == spot), spot)

    def exposed(self, position: str) -> bool:
        return position in self.face_up

    def totals(self, player: str) -> dict[str, int]:
        """What ``player`` has on each spot."""
        return dict(self._stakes.get(player, {}))

    def highest_bettor(self, spots: Iterable[str] | None = None) -> Wager | None:
        """The largest wager — a player's total on one spot — on ``spots`` (all by default);
        on a tie, whoever placed first. Returns that player's first bet on the spot."""
        counted = None if spots is None else set(spots)
        best: tuple[int, int] | None = None
        chosen: Wager | None = None
        firsts: dict[tuple[str, str], tuple[int, Wager]] = {}
        for order, wager in enumerate(self.wagers.values()):
            if counted is None or wager.spot in counted:
                firsts.setdefault((wager.player, wager.spot), (order, wager))
        for (player, spot), (order, wager) in firsts.items():
            key = (self.totals(player)[spot], -order)
            if best is None or key > best:
                best, chosen = key, wager
        return chosen

    def _decider(self) -> Wager | None:
        """Who peeks or chooses: the highest bettor on Red or Green (the Bonus does not count)."""
        return self.highest_bettor(CHOOSABLE)

    def deadline(self) -> float | None:
        """When :meth:`tick` next has something to do; ``None`` while waiting on people."""
        phase = self.phase
        if phase is Phase.BETTING:
            if self.window_until is None:
                return None
            timer = self.window_until
            if self._seated_bettors_ready():
                return min(timer, self._window_ends())
            return timer
        if phase is Phase.DEALING:  # an electronic deal is never waited for
            return None if self.live else self.events[-1].at
        if phase is Phase.PEEK:
            assert self.peek is not None
            return self.peek.until
        if phase is Phase.CHOOSING:
            assert self.choice is not None
            return self.choice.until
        if phase is Phase.SQUEEZE:
            assert self.squeeze is not None
            return self.squeeze.until
        if phase is Phase.REVEALING:
            return self.reveal_clock + (self.opened.reveal_delay if self._steps_done() else 0)
        return None

    # --- betting -------------------------------------------------------------------------

    def verify_place_bet(
        self, bet_id: str, player: str, seat: int | None, spot: str, amount: int,
        client_seed: str | None = None,
    ) -> None:  # fmt: skip
        if self.phase is not Phase.BETTING:
            raise RoundError(f"betting is closed: the round is {self.phase.value}")
        if not isinstance(player, str) or not player or player == TABLE:
            raise InvalidBet(f"not a player: {player!r}")
        if not isinstance(bet_id, str) or not bet_id or bet_id in self.wagers:
            raise InvalidBet(f"bet id {bet_id!r} is missing or already used in this round")
        self.spec.check_bet(spot, self.rules)
        validate_stake(amount)
        if seat is None and self.spec.table.seat_required:
            raise InvalidBet(f"take a seat to bet at {self.spec.name}")
        if seat is not None:
            self.spec.table.verify_seat(seat)
            if seat > self.opened.seats:
                raise InvalidBet(f"this table has seats 1 to {self.opened.seats}")
        if player in self._seat_of and self._seat_of[player] != seat:
            raise InvalidBet("all of a player's bets in a round are from one seat")
        if seat is not None and self._at_seat.get(seat, player) != player:
            raise InvalidBet(f"seat {seat} is another player's")
        cap = self.opened.max_bets_per_player
        if cap is not None and self.placed.get(player, 0) >= cap:
            raise TooManyBets(cap)
        total = self._stakes.get(player, {}).get(spot, 0) + amount
        low, high = self.opened.min_bet_cents, self.opened.max_bet_cents
        if not low <= total <= high:
            refusal = OverLimit if total > high else UnderLimit
            raise refusal(spot, self.spot_name(spot), total, low, high)
        self.verify_on_step(player, spot, amount)
        if self._server_seed is not None:
            check_client_seed(client_seed)

    def verify_in_time(self, now: float) -> None:
        """No bet is placed or taken back once the countdown players see has run out.

        The table closes betting on its next tick, but a server's tick can queue behind the
        requests already waiting for the table, and each of those would otherwise still
        find the round in betting: a bet sent after "no more bets" would be taken and the
        round stretched for as long as bets keep coming. The server calls this with the
        time each request is served at; the engine's own ``place_bet`` keeps to the phase,
        so a round is replayed the same from its log whatever the times recorded in it.
        """
        if self.phase is not Phase.BETTING:
            raise RoundError(f"betting is closed: the round is {self.phase.value}")
        due = self.deadline()
        if due is not None and now >= due:
            raise NoMoreBets

    def verify_on_step(self, player: str, spot: str, amount: int) -> None:
        """Every stake, and so every spot's total, is a multiple of the table's bet step;
        a refusal names the nearest stakes that are, and that keep the total in the limits."""
        step = self.opened.bet_step_cents
        if amount % step == 0:
            return
        before = self._stakes.get(player, {}).get(spot, 0)
        lower = amount - amount % step
        higher = lower + step

        def fits(stake: int) -> bool:
            total = before + stake
            return stake > 0 and self.opened.min_bet_cents <= total <= self.opened.max_bet_cents

        raise OffStep(
            amount, step, lower if fits(lower) else None, higher if fits(higher) else None
        )

    def can_place_bet(self, *args: Any, **kwargs: Any) -> bool:
        return passes(self.verify_place_bet, *args, **kwargs)

    def place_bet(
        self, bet_id: str, player: str, seat: int | None, spot: str, amount: int, now: float,
        client_seed: str | None = None,
    ) -> list[Event]:  # fmt: skip
        """Take a bet; on a round still waiting for a player, the first bet starts the
        betting timer (:meth:`open_window`)."""
        self.verify_place_bet(bet_id, player, seat, spot, amount, client_seed)
        return [self._emit(BetPlaced, now, player, bet_id=bet_id, player=player, seat=seat,
                           spot=spot, amount_cents=amount, client_seed=client_seed)]  # fmt: skip

    def verify_open_window(self) -> None:
        """The betting timer starts only while the round waits for a player."""
        if self.phase is not Phase.BETTING:
            raise RoundError(f"betting is closed: the round is {self.phase.value}")
        if self.window_until is not None:
            raise RoundError("the betting window is open already")

    def can_open_window(self) -> bool:
        return passes(self.verify_open_window)

    def open_window(self, now: float) -> list[Event]:
        """Start the betting timer, the countdown every player sees: ``betting_seconds``
        from ``now`` (the table calls it as the round opens with players seated, or as the
        first player sits)."""
        self.verify_open_window()
        return [self._emit(BettingWindow, now, TABLE, until=now + self.opened.betting_seconds)]

    def verify_wait_for_players(self) -> None:
        """A round waits without a countdown only with no bet on it, once its window ran out."""
        if self.phase is not Phase.BETTING:
            raise RoundError(f"betting is closed: the round is {self.phase.value}")
        if self.wagers:
            raise RoundError("the round has bets: its timer closes it")
        if self.window_until is None:
            raise RoundError("the round waits for a player already")

    def can_wait_for_players(self) -> bool:
        return passes(self.verify_wait_for_players)

    def wait_for_players(self, now: float) -> list[Event]:
        """Stop the countdown of a round nobody is seated at or bet on: it waits for the
        first player to sit or bet (the table calls it as a window runs out unplayed)."""
        self.verify_wait_for_players()
        return [self._emit(BettingWindow, now, TABLE, until=None)]

    def verify_remove_bet(self, bet_id: str, player: str) -> None:
        if self.phase is not Phase.BETTING:
            raise RoundError(f"betting is closed: the round is {self.phase.value}")
        wager = self.wagers.get(bet_id)
        if wager is None or wager.player != player:
            raise InvalidBet(f"no bet {bet_id!r} of yours on this round")
        left = self.totals(player)[wager.spot] - wager.amount
        if 0 < left < self.opened.min_bet_cents:
            raise LeavesTooLittle(
                wager.spot, self.spot_name(wager.spot), left, self.opened.min_bet_cents
            )

    def can_remove_bet(self, bet_id: str, player: str) -> bool:
        return passes(self.verify_remove_bet, bet_id, player)

    def remove_bet(self, bet_id: str, player: str, now: float) -> list[Event]:
        self.verify_remove_bet(bet_id, player)
        return [self._emit(BetRemoved, now, player, bet_id=bet_id, player=player)]

    def verify_request_deal(self, player: str) -> None:
        if self.phase is not Phase.BETTING:
            raise RoundError(f"betting is closed: the round is {self.phase.value}")
        if player not in self._stakes:
            raise RoundError("only a player with a bet on the round can ask to deal")

    def can_request_deal(self, player: str) -> bool:
        return passes(self.verify_request_deal, player)

    def request_deal(self, player: str, now: float, present: Iterable[str] = ()) -> list[Event]:
        """This bettor is ready. When every seated bettor is, betting closes: at once if
        everyone at the table is ready too — each bettor of the round and each of
        ``present`` (the table's seated players, and who bet on its last round) —
        otherwise when the minimum betting window has run since the first bet
        (:meth:`deadline`). So one player's "deal" as a round opens cannot shut out
        the others about to bet, and a player alone at the table is dealt at once.

        Asked again in the round, it changes nothing and adds nothing to the log."""
        self.verify_request_deal(player)
        if player in self.ready:
            return []
        events: list[Event] = [self._emit(DealRequested, now, player, player=player)]
        everyone = {*present, *self._stakes}
        if self._seated_bettors_ready() and (everyone <= self.ready or now >= self._window_ends()):
            events += self._close(now, TABLE, "all-ready")
        return events

    def _seated_bettors_ready(self) -> bool:
        seated = {w.player for w in self.wagers.values() if w.seat is not None}
        return bool(seated) and seated <= self.ready

    def _window_ends(self) -> float:
        """When the minimum betting window ends: that long after the round's first bet."""
        assert self.first_bet_at is not None
        return self.first_bet_at + self.opened.min_betting_seconds

    def _verify_closable(self) -> None:
        if self.phase is not Phase.BETTING:
            raise RoundError(f"betting is already closed: the round is {self.phase.value}")
        if not self.wagers:
            raise RoundError("no bets on the round yet")

    def verify_close_betting(self) -> None:
        """Whether a live dealer may call "no more bets" now."""
        self._verify_closable()
        if not self.live:
            raise RoundError("an electronic table closes betting by its timer")

    def can_close_betting(self) -> bool:
        return passes(self.verify_close_betting)

    def close_betting(self, dealer: str, now: float) -> list[Event]:
        """A live dealer calls "no more bets" before the timer runs out."""
        self.verify_close_betting()
        return self._close(now, dealer, "dealer")

    def _close(self, now: float, by: str, reason: str) -> list[Event]:
        """No more bets. The highest bettor (on Red or Green at RedGreen) cuts the shoe:
        their bet's client seed is the round's."""
        self._verify_closable()
        cutter = self._decider() or self.highest_bettor()
        assert cutter is not None
        events: list[Event] = [self._emit(BettingClosed, now, by, reason=reason,
                               highest_bettor=cutter.player, client_seed=cutter.client_seed)]  # fmt: skip
        if not self.live:
            events += self._deal_electronic(now)
        return events

    # --- dealing -------------------------------------------------------------------------

    def _electronic_deal(self) -> dict[str, str]:
        """Every card (tile, die) this electronic round deals, drawn once from its seeds.

        Only the engine holds it: the log gets each card as the procedure deals it."""
        if self._deck is None:
            assert self.closed is not None
            source = self._source
            if self._server_seed is not None:
                assert self.closed.client_seed is not None
                source = FairRandom(self._server_seed, self.closed.client_seed, self.nonce)
            assert source is not None
            self._deck = dict(self.procedure.deal(source, self.seats_dealt, self.rules))
            for position, item in self.dealt.items():  # a log replayed: the seeds fix it all
                if self._deck.get(position) != item:
                    raise BaccaraError(f"the log's {position} is not what the seeds deal")
        return self._deck

    def _deal_electronic(self, now: float) -> list[Event]:
        """The opening, face down (the rest is dealt during the reveal)."""
        deck = self._electronic_deal()
        events: list[Event] = [
            self._emit(CardDealt, now, TABLE, position=position, item=deck[position],
                       face_up=False)
            for position in self.needs()
        ]  # fmt: skip
        return events + self._after_dealing(now)

    def verify_enter_card(self, item: object) -> str:
        """The canonical code of the dealer's next card, tile or die — or why it is refused."""
        if not self.live:
            raise RoundError("cards are entered at a live table only")
        if self.phase is not Phase.DEALING:
            raise RoundError(f"no card is wanted now: the round is {self.phase.value}")
        position = self.needs()[0]
        kind = self.procedure.item(position)
        code = kind.parse(item)
        if kind is not Item.DIE:
            assert self._shoe is not None
            self._shoe.verify(code)
        return code

    def can_enter_card(self, item: object) -> bool:
        return passes(self.verify_enter_card, item)

    def enter_card(self, dealer: str, item: object, now: float) -> list[Event]:
        """A live dealer's next card, in dealing order; settles when the rules are satisfied."""
        code = self.verify_enter_card(item)
        position = self.needs()[0]
        events: list[Event] = [self._emit(CardDealt, now, dealer, position=position, item=code,
                                          face_up=self.procedure.live_face_up)]  # fmt: skip
        if not self.needs():
            events += self._after_dealing(now)
        return events

    def _after_dealing(self, now: float) -> list[Event]:
        facts = self.spec.table
        decider = self._decider()
        if facts.highest_bettor_may_peek and decider is not None:
            return [self._emit(PeekOffered, now, TABLE, player=decider.player, hand=decider.spot,
                               until=now + self.opened.peek_seconds)]  # fmt: skip
        if facts.highest_bettor_chooses_first_hand:
            if decider is None:
                return [self._emit(HandChosen, now, TABLE, hand="red", reason="no-bettor"),
                        *self._reveal(now)]  # fmt: skip
            return [self._emit(ChoiceOffered, now, TABLE, player=decider.player,
                               until=now + self.opened.choose_seconds)]  # fmt: skip
        return self._reveal(now)

    # --- the peek and the choice ---------------------------------------------------------

    def verify_peek(self, player: str) -> None:
        if self.phase is not Phase.PEEK:
            raise RoundError("there is no peek now")
        assert self.peek is not None
        if player != self.peek.player:
            raise RoundError("only the highest bettor may peek")

    def can_peek(self, player: str) -> bool:
        return passes(self.verify_peek, player)

    def peek_cards(self, player: str, now: float) -> list[Event]:
        """The highest bettor looks at the hand they backed (theirs alone to see). A second
        look in the round adds nothing: the cards are in :attr:`peeked` already."""
        self.verify_peek(player)
        assert self.peek is not None
        if self.peeked is not None:
            return []
        hand = self.peek.hand
        cards = tuple(self.dealt[p] for p in self.dealt if p.startswith(f"{hand}."))
        return [self._emit(Peeked, now, player, player=player, hand=hand, cards=cards)]

    def bending(self) -> tuple[str, tuple[str, ...]] | None:
        """Who may bend which face-down cards now, for the table to watch: the squeezer in
        a squeeze, and RedGreen's peeker once they have looked (they squeeze the hand
        backed before handing it back); ``None`` while nobody holds cards to bend."""
        if self.phase is Phase.SQUEEZE and self.squeeze is not None:
            held = self.squeeze.positions
            return self.squeeze.player, tuple(p for p in held if not self.exposed(p))
        if self.phase is Phase.PEEK and self.peek is not None and self.peeked is not None:
            hand = self.peek.hand
            held = tuple(p for p in self.dealt if p.startswith(f"{hand}."))
            return self.peek.player, tuple(p for p in held if not self.exposed(p))
        return None

    def verify_end_peek(self, player: str) -> None:
        """Only the peeker hands the cards back, and only during the peek."""
        self.verify_peek(player)

    def can_end_peek(self, player: str) -> bool:
        return passes(self.verify_end_peek, player)

    def end_peek(self, player: str, now: float) -> list[Event]:
        """The peeker hands the cards back before the window closes."""
        self.verify_end_peek(player)
        return [self._emit(PeekEnded, now, player, reason="done"), *self._reveal(now)]

    def verify_choose(self, player: str, hand: str) -> None:
        if self.phase is not Phase.CHOOSING:
            raise RoundError("there is no choice to make now")
        assert self.choice is not None
        if player != self.choice.player:
            raise RoundError("only the highest bettor chooses which hand is set first")
        if hand not in CHOOSABLE:
            raise RoundError(f"choose red or green, not {hand!r}")

    def can_choose(self, player: str, hand: str) -> bool:
        return passes(self.verify_choose, player, hand)

    def choose(self, player: str, hand: str, now: float) -> list[Event]:
        """Mini RedGreen: the highest bettor names the hand set first."""
        self.verify_choose(player, hand)
        return [self._emit(HandChosen, now, player, hand=hand, reason="chosen"), *self._reveal(now)]

    # --- the squeeze ---------------------------------------------------------------------

    def verify_end_squeeze(self, player: str) -> None:
        """Only the squeezer turns the cards, and only during their squeeze."""
        if self.phase is not Phase.SQUEEZE:
            raise RoundError("there is no squeeze now")
        assert self.squeeze is not None
        if player != self.squeeze.player:
            raise RoundError("only the squeezer turns the cards of the squeeze")

    def can_end_squeeze(self, player: str) -> bool:
        return passes(self.verify_end_squeeze, player)

    def end_squeeze(self, player: str, now: float) -> list[Event]:
        """The squeezer turns every card of the squeeze still face down."""
        self.verify_end_squeeze(player)
        return [*self._end_squeeze(now, player, "done"), *self._reveal(now)]

    def verify_turn_card(self, player: str, position: object) -> str:
        """The position the squeezer turns, a card of their squeeze still face down."""
        self.verify_end_squeeze(player)
        assert self.squeeze is not None
        if not isinstance(position, str) or position not in self.squeeze.positions:
            shown_ = repr(position)[:40]
            raise RoundError(
                f"{shown_} is not a card of this squeeze: {', '.join(self.squeeze.positions)}"
            )
        if position in self.face_up:
            raise RoundError(f"{position} is turned already")
        return position

    def can_turn_card(self, player: str, position: object) -> bool:
        return passes(self.verify_turn_card, player, position)

    def turn_card(self, player: str, position: object, now: float) -> list[Event]:
        """The squeezer turns one card over: everyone sees it from now on. The last one
        ends the squeeze."""
        turned = self.verify_turn_card(player, position)
        assert self.squeeze is not None
        events: list[Event] = [self._emit(CardExposed, now, player, position=turned,
                                          item=self.dealt[turned])]  # fmt: skip
        if all(p in self.face_up for p in self.squeeze.positions):
            events += [self._emit(SqueezeEnded, now, player, reason="done"), *self._reveal(now)]
        return events

    def _end_squeeze(self, now: float, by: str, reason: str) -> list[Event]:
        assert self.squeeze is not None
        events: list[Event] = [
            self._emit(CardExposed, now, by, position=p, item=self.dealt[p])
            for p in self.squeeze.positions
            if p not in self.face_up
        ]
        return [*events, self._emit(SqueezeEnded, now, by, reason=reason)]

    def _squeezes(self, position: str) -> tuple[str, tuple[str, ...]] | None:
        """The hand and positions of the squeeze ``position`` is in, at a round that squeezes."""
        if not self.opened.squeeze or self.live:
            return None
        return self.procedure.squeeze_of(position, self.first_hand)

    def _start_squeeze(self, step: Step, now: float) -> list[Event]:
        """The squeeze of ``step``'s cards, when they are squeezed: offered to the highest
        bettor on the hand (at Mini RedGreen, the round's highest bettor) with their faces;
        a Punto Banco hand nobody bet on is turned by the table at once, and Mini's second
        hand with nobody to squeeze it is turned card by card as the seed's dealer does."""
        position = next((p for p in step.expose if p not in self.face_up), None)
        found = None if position is None else self._squeezes(position)
        if found is None:
            return []
        hand, group = found
        positions = tuple(p for p in group if p in self.dealt and p not in self.face_up)
        mini = self.spec.table.highest_bettor_chooses_first_hand
        squeezer = self._decider() if mini else self.highest_bettor((hand,))
        if squeezer is None:
            if mini:
                return []
            exposed = [self._emit(CardExposed, now, TABLE, position=p, item=self.dealt[p])
                       for p in positions]  # fmt: skip
            return [*exposed, self._emit(SqueezeEnded, now, TABLE, reason="no-bettor")]
        until = now + self.opened.squeeze_seconds
        return [
            self._emit(SqueezeOffered, now, TABLE, player=squeezer.player, hand=hand,
                       positions=positions, until=until),
            self._emit(Peeked, now, TABLE, player=squeezer.player, hand=hand,
                       cards=tuple(self.dealt[p] for p in positions)),
        ]  # fmt: skip

    # --- revealing and settling ----------------------------------------------------------

    def _steps(self) -> list[Step]:
        return self.procedure.steps(self.dealt, self.first_hand)

    def _wanted_next(self) -> tuple[str, ...]:
        """Electronic: the cards the rules ask for once the dealt ones are all turned —
        one Punto Banco third card, or Lo-Ball's exposed tiles, or its dice."""
        if self.live:
            return ()
        wanted = self.procedure.needs(self.dealt, self.seats_dealt)
        if not wanted:
            return ()
        group = wanted[0].split(".")[0]
        return tuple(p for p in wanted if p.split(".")[0] == group)

    def _steps_done(self) -> int:
        done = 0
        for step in self._steps():
            if all(p in self.face_up for p in step.expose) and all(
                h in self.hands_set for h in step.set_hands
            ):
                done += 1
            else:
                break
        return done

    def _reveal(self, now: float) -> list[Event]:
        """Take every reveal step that is due at ``now``, then settle when none is left."""
        events: list[Event] = []
        steps = self._steps()
        while self.phase is Phase.REVEALING:
            done = self._steps_done()
            wanted = self._wanted_next() if done == len(steps) else ()
            if done == len(steps) and not wanted:
                return events + self._settle(now)
            if done and now < self.reveal_clock + self.opened.reveal_delay:
                return events
            if wanted:  # dealt face up, now that the cards that call for it are seen
                deck = self._electronic_deal()
                events += [self._emit(CardDealt, now, TABLE, position=p, item=deck[p],
                                      face_up=self._squeezes(p) is None)
                           for p in wanted]  # fmt: skip
                steps = self._steps()
                continue
            squeezed = self._start_squeeze(steps[done], now)
            if squeezed:
                events += squeezed
                continue
            for position in steps[done].expose:
                if position not in self.face_up:
                    events.append(self._emit(CardExposed, now, TABLE, position=position,
                                             item=self.dealt[position]))  # fmt: skip
            for hand in steps[done].set_hands:
                front, back, rule = self.procedure.set_hand(hand, self.dealt, self.rules)
                events.append(self._emit(HandSet, now, TABLE, hand=hand, front=front, back=back,
                                         rule=rule))  # fmt: skip
        return events

    def _settle(self, now: float) -> list[Event]:
        result, payouts = self.procedure.settle(
            self.dealt, list(self.wagers.values()), self.seats_dealt, self.rules
        )
        if self.first_hand is not None:
            result["first_hand"] = self.first_hand
        if self.spec.table.seats_per_side is not None:
            result["sides"] = side_totals(self.spec.table, payouts)
        house = sum(w.amount for w in self.wagers.values()) - sum(p.returned for p in payouts)
        return [self._emit(RoundSettled, now, TABLE, result=result, payouts=tuple(payouts),
                           house_net=house)]  # fmt: skip

    def tick(self, now: float) -> list[Event]:
        """Whatever the timers say is due at ``now``: close betting (or, with no bet in the
        window that ran out, open another), end the peek, choose Red for a silent chooser,
        turn the next card, turn what a squeezer left when their squeeze runs out."""
        phase = self.phase
        due = self.deadline()
        if due is None or now < due:
            return []
        if phase is Phase.BETTING:
            if not self.wagers:  # nobody bet in the window: another one opens
                return [self._emit(BettingWindow, now, TABLE,
                                   until=now + self.opened.betting_seconds)]  # fmt: skip
            return self._close(now, TABLE, "all-ready" if self._seated_bettors_ready() else "timer")
        if phase is Phase.DEALING:
            return self._deal_electronic(now)
        if phase is Phase.PEEK:
            return [self._emit(PeekEnded, now, TABLE, reason="timer"), *self._reveal(now)]
        if phase is Phase.CHOOSING:
            return [self._emit(HandChosen, now, TABLE, hand="red", reason="timer"),
                    *self._reveal(now)]  # fmt: skip
        if phase is Phase.SQUEEZE:
            return [*self._end_squeeze(now, TABLE, "timer"), *self._reveal(now)]
        return self._reveal(now)

    def verify_void(self, reason: object) -> str:
        """The reason as it will be logged (at most 500 characters) — or why the round
        cannot be voided now."""
        if self.phase.over:
            raise RoundError(f"the round is already {self.phase.value}")
        text = reason.strip() if isinstance(reason, str) else ""
        if not text:
            raise RoundError("say why the round is voided")
        return text[:500]

    def can_void(self, reason: object) -> bool:
        return passes(self.verify_void, reason)

    def void(self, by: str, reason: str, now: float) -> list[Event]:
        """A misdeal, or the table closing: every bet goes back to its player."""
        reason = self.verify_void(reason)
        refunds = tuple(
            Payout(w.bet_id, w.player, w.seat, w.spot, w.amount, BetResult.PUSH.value, 0,
                   w.amount, 0)
            for w in self.wagers.values()
        )  # fmt: skip
        return [self._emit(RoundVoided, now, by, reason=reason, payouts=refunds)]

    # --- the seats around the round --------------------------------------------------------

    def verify_stand_up(self, player: str, seat: int, reason: str) -> None:
        """The table stands up only a player with no bet on the round while it is in play
        (their stakes stay on it until it is over), from a real seat, for a said reason."""
        if not isinstance(player, str) or not player or player == TABLE:
            raise RoundError(f"not a player: {player!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
            raise RoundError(f"not a seat: {seat!r}")
        if not isinstance(reason, str) or not reason:
            raise RoundError("say why the player is stood up")
        if not self.phase.over and self.totals(player):
            raise RoundError(f"{player} has bets on this round: stand them up when it is over")

    def can_stand_up(self, player: str, seat: int, reason: str) -> bool:
        return passes(self.verify_stand_up, player, seat, reason)

    def stand_up(self, player: str, seat: int, reason: str, now: float) -> list[Event]:
        """The table stood ``player`` up from ``seat``: a ``stood-up`` event in this round's
        log (the round in play or the one just over), which changes nothing of the round."""
        self.verify_stand_up(player, seat, reason)
        return [self._emit(StoodUp, now, TABLE, player=player, seat=seat, reason=reason)]

    # --- the log -------------------------------------------------------------------------

    def _emit(self, cls: type[E], now: float, by: str, **fields: Any) -> E:
        if not isinstance(now, int | float) or isinstance(now, bool):
            raise BaccaraError(f"the time is a number of seconds, got {now!r}")
        last = self.events[-1].at if self.events else now
        event = cls(seq=len(self.events), at=max(float(now), last), by=by, **fields)
        self._apply(event)
        return event

    def _apply(self, event: Event) -> None:
        """The one place state changes: every event, live or replayed, comes through here."""
        if isinstance(event, RoundOpened):
            pass
        elif isinstance(event, BettingWindow):
            self.window_until = event.until
        elif isinstance(event, BetPlaced):
            self.wagers[event.bet_id] = Wager(
                event.bet_id, event.player, event.seat, event.spot, event.amount_cents,
                event.client_seed,
            )  # fmt: skip
            spots = self._stakes.setdefault(event.player, {})
            spots[event.spot] = spots.get(event.spot, 0) + event.amount_cents
            self.placed[event.player] = self.placed.get(event.player, 0) + 1
            self._seat_of[event.player] = event.seat
            if event.seat is not None:
                self._at_seat[event.seat] = event.player
            if self.first_bet_at is None:
                self.first_bet_at = event.at
            if self.window_until is None:  # the first bet on a round waiting for a player
                self.window_until = event.at + self.opened.betting_seconds
        elif isinstance(event, BetRemoved):
            gone = self.wagers.pop(event.bet_id)
            spots = self._stakes[gone.player]
            spots[gone.spot] -= gone.amount
            if not spots[gone.spot]:
                del spots[gone.spot]
            if not spots:  # the player's last bet: their seat is free again, and no deal asked
                del self._stakes[gone.player], self._seat_of[gone.player]
                self.ready.discard(gone.player)
                if gone.seat is not None:
                    del self._at_seat[gone.seat]
            if not self.wagers:
                self.first_bet_at = None
        elif isinstance(event, DealRequested):
            self.ready.add(event.player)
        elif isinstance(event, BettingClosed):
            self.closed = event
            self.seats_dealt = tuple(sorted({w.seat for w in self.wagers.values() if w.seat}))
        elif isinstance(event, CardDealt):
            self.dealt[event.position] = event.item
            if event.face_up:
                self.face_up.add(event.position)
            if self._shoe is not None and self.procedure.item(event.position) is not Item.DIE:
                self._shoe.take(event.item)
            self.reveal_clock = event.at
        elif isinstance(event, PeekOffered):
            self.peek = event
        elif isinstance(event, Peeked):
            self.peeked = event
        elif isinstance(event, PeekEnded):
            self.peek_ended = True
            self.reveal_clock = event.at
        elif isinstance(event, ChoiceOffered):
            self.choice = event
        elif isinstance(event, HandChosen):
            self.first_hand = event.hand
            self.reveal_clock = event.at
        elif isinstance(event, CardExposed):
            self.face_up.add(event.position)
            self.reveal_clock = event.at
        elif isinstance(event, SqueezeOffered):
            self.squeeze = event
        elif isinstance(event, SqueezeEnded):
            self.squeeze = None
            self.reveal_clock = event.at
        elif isinstance(event, HandSet):
            self.hands_set[event.hand] = event
        elif isinstance(event, RoundSettled):
            self.settled = event
        elif isinstance(event, RoundVoided):
            self.voided = event
        self.events.append(event)

    @property
    def server_seed(self) -> bytes | None:
        """The seed, for the server to store; shown to players only once the round is over."""
        return self._server_seed


def side_totals(facts: TableFacts, payouts: Sequence[Payout]) -> dict[str, dict[str, Any]]:
    """RedGreen's first version: what each protecting dealer pays, collects and keeps as
    commission, over the seats of their side (:meth:`TableFacts.side_of`)."""
    out: dict[str, dict[str, Any]] = {}
    for side in ("left", "right"):
        numbers = [seat for seat in range(1, facts.seats + 1) if facts.side_of(seat) == side]
        mine = [p for p in payouts if p.seat in numbers]
        out[side] = {
            "seats": numbers,
            "paid": sum(p.won for p in mine if p.won > 0),
            "collected": -sum(p.won for p in mine if p.won < 0),
            "commission": sum(p.commission for p in mine),
        }
    return out


class _NoDraw:
    """The source of a round rebuilt for reading: every card is already in its log."""

    def randbelow(self, n: int) -> int:
        raise BaccaraError("a stored round is read from its log, never dealt")


def passes(verify: Any, *args: Any, **kwargs: Any) -> bool:
    """What every ``can_x`` answers: whether ``verify_x`` would let the action through."""
    try:
        verify(*args, **kwargs)
    except (BaccaraError, InvalidCards):
        return False
    return True
