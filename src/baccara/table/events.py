"""Everything that happens at a table, as frozen records in the order it happened.

A round *is* its log: :class:`~baccara.table.round.Round` changes state only by
applying these events, so replaying a stored log rebuilds the round exactly, the
server's WebSocket sends them (each viewer's own view), and crash recovery, the
round record and the golden playthroughs all read the same list.

Every event carries ``seq`` (its place in the round's log, from 0), ``at`` (the time
the caller passed in, seconds since the epoch; the engine has no clock) and ``by``
(the username that acted, or ``"table"`` for the procedure itself: a timer, a deal).

Cards travel as codes: ``"KS"``, ``"10H"``; Lo-Ball tiles as ``"3-5"``; dice as
``"4"``. A face-down card's code is in the log but is cut from every view until the
rules expose it (:mod:`baccara.table.view`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from baccara.errors import BaccaraError

TABLE = "table"
"""``by`` of what the procedure does by itself: timers, electronic deals, settlement."""
DEALER = "dealer"
"""``by`` of the cards ``baccara deal`` enters itself when it plays a live table's dealer
(:mod:`baccara.table.autoplay`)."""


@dataclass(frozen=True)
class Event:
    """One change to a round: its place in the log, when, and who did it."""

    seq: int
    at: float
    by: str

    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values, with ``kind`` naming the event."""
        data = {"kind": self.kind}
        for name in _field_names(type(self)):
            data[name] = _plain(getattr(self, name))
        return data


_SCALARS = frozenset({str, int, float, bool, type(None)})
"""Values that are plain already: most of an event, so tried first (a settlement's event
holds every bet's payout, and every event is encoded as it is stored)."""


_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(field.name for field in dataclasses.fields(cls))
    return names


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: _plain(getattr(value, name)) for name in _field_names(kind)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class RoundOpened(Event):
    """A round opens for bets: everything needed to replay it, and the seed's commitment."""

    nonce: int
    game: str
    mode: str
    options: Mapping[str, Any]
    min_bet_cents: int
    max_bet_cents: int
    seats: int
    betting_seconds: float
    peek_seconds: float
    choose_seconds: float
    reveal_delay: float
    server_seed_hash: str | None
    bet_step_cents: int = 1
    """Every stake is a multiple of it; a log written before tables had a step has none: 1."""
    min_betting_seconds: float = 0.0
    """Betting stays open this long after the first bet unless everyone at the table is
    ready; a log written before the window has none: 0."""
    max_bets_per_player: int | None = None
    """Bets one player may place in the round; a log written before the cap has none."""
    squeeze: bool = False
    """Whether the highest bettor squeezes the cards the rules give them (Mini RedGreen's
    second hand, a Punto Banco table's with its ``squeeze`` option); a log written before
    the squeeze has none: the table turns every card."""
    squeeze_seconds: float = 20.0
    """How long a squeeze lasts before the table turns what is left."""
    kind: ClassVar[str] = "round-opened"

    def to_dict(self) -> dict[str, Any]:
        """A round that squeezes nothing is written as every log before the squeeze was."""
        data = super().to_dict()
        if not self.squeeze:
            del data["squeeze"], data["squeeze_seconds"]
        return data


@dataclass(frozen=True)
class BettingWindow(Event):
    """The betting timer: betting is open until ``until`` (the round's ``betting_seconds``
    from ``at``), the countdown every player sees. The table opens it with the round when
    anyone sits at it, or when the first player sits; a window that runs out with no bet
    on the round opens again; with nobody seated then, ``until`` is ``None``: the round
    waits for a player without a countdown. A log without one (written before the
    window opened with the round) starts its timer at the first bet, as a first bet on a
    round without a window still does."""

    until: float | None
    kind: ClassVar[str] = "betting-window"


@dataclass(frozen=True)
class BetPlaced(Event):
    """A wager on a spot; ``client_seed`` is the seed this bet would cut the shoe with."""

    bet_id: str
    player: str
    seat: int | None
    spot: str
    amount_cents: int
    client_seed: str | None = None
    kind: ClassVar[str] = "bet-placed"


@dataclass(frozen=True)
class BetRemoved(Event):
    bet_id: str
    player: str
    kind: ClassVar[str] = "bet-removed"


@dataclass(frozen=True)
class DealRequested(Event):
    """A bettor is ready: when every seated one is, betting closes — at once if everyone at
    the table is, otherwise once the round's minimum betting window has run."""

    player: str
    kind: ClassVar[str] = "deal-requested"


@dataclass(frozen=True)
class BettingClosed(Event):
    """No more bets. ``reason``: ``timer``, ``all-ready`` or ``dealer``."""

    reason: str
    highest_bettor: str | None
    client_seed: str | None
    kind: ClassVar[str] = "betting-closed"


@dataclass(frozen=True)
class CardDealt(Event):
    """A card, tile or die leaves the shoe for ``position`` (``"player.0"``, ``"seat3.1"``…)."""

    position: str
    item: str
    face_up: bool
    kind: ClassVar[str] = "card-dealt"


@dataclass(frozen=True)
class PeekOffered(Event):
    """RedGreen first version: the highest bettor may look at the hand they backed."""

    player: str
    hand: str
    until: float
    kind: ClassVar[str] = "peek-offered"


@dataclass(frozen=True)
class Peeked(Event):
    """The highest bettor looked: the cards are theirs alone to see until exposed."""

    player: str
    hand: str
    cards: tuple[str, ...]
    kind: ClassVar[str] = "peeked"


@dataclass(frozen=True)
class PeekEnded(Event):
    """``reason``: ``done`` (the peeker returned the cards) or ``timer``."""

    reason: str
    kind: ClassVar[str] = "peek-ended"


@dataclass(frozen=True)
class SqueezeOffered(Event):
    """The squeeze: ``player`` bends up the cards at ``positions`` (of ``hand``) one by one,
    the table watching, until ``until``. A ``peeked`` event gives the squeezer their faces
    right after it; every card of the squeeze stays hidden from everyone else until its
    ``card-exposed``."""

    player: str
    hand: str
    positions: tuple[str, ...]
    until: float
    kind: ClassVar[str] = "squeeze-offered"


@dataclass(frozen=True)
class SqueezeEnded(Event):
    """``reason``: ``done`` (the squeezer turned the last card, or all that were left),
    ``timer``, or ``no-bettor`` (nobody bet on the hand: the table turned it at once).
    Every card of the squeeze is exposed by then (``card-exposed`` events before it)."""

    reason: str
    kind: ClassVar[str] = "squeeze-ended"


@dataclass(frozen=True)
class ChoiceOffered(Event):
    """Mini RedGreen: the highest bettor chooses which hand is set first."""

    player: str | None
    until: float
    kind: ClassVar[str] = "choice-offered"


@dataclass(frozen=True)
class HandChosen(Event):
    """``reason``: ``chosen``, ``timer`` (Red by default) or ``no-bettor``."""

    hand: str
    reason: str
    kind: ClassVar[str] = "hand-chosen"


@dataclass(frozen=True)
class CardExposed(Event):
    """A face-down card is turned up: from now on everyone sees it."""

    position: str
    item: str
    kind: ClassVar[str] = "card-exposed"


@dataclass(frozen=True)
class HandSet(Event):
    """RedGreen: a hand set by the house way — front | back, and the rule that applied."""

    hand: str
    front: str
    back: tuple[str, str]
    rule: str
    kind: ClassVar[str] = "hand-set"


@dataclass(frozen=True)
class Payout:
    """What one bet returned, in cents: ``returned = stake + won``; ``commission`` taken."""

    bet_id: str
    player: str
    seat: int | None
    spot: str
    stake: int
    result: str
    won: int
    returned: int
    commission: int


@dataclass(frozen=True)
class RoundSettled(Event):
    """The call, and every bet paid or collected. ``house_net`` = stakes − returned."""

    result: Mapping[str, Any]
    payouts: tuple[Payout, ...]
    house_net: int
    kind: ClassVar[str] = "round-settled"


@dataclass(frozen=True)
class RoundVoided(Event):
    """A misdeal or a closed table: every bet is refunded."""

    reason: str
    payouts: tuple[Payout, ...]
    kind: ClassVar[str] = "round-voided"


@dataclass(frozen=True)
class StoodUp(Event):
    """The table stood a seated player up, as a real table does with a seat nobody plays:
    ``reason`` is ``away`` (their table page was closed and a round passed without a bet
    from them) or ``sat-out`` (two rounds in a row without a bet). It is kept in the log
    of the round it came at, and changes nothing of that round."""

    player: str
    seat: int
    reason: str
    kind: ClassVar[str] = "stood-up"


EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        RoundOpened,
        BettingWindow,
        BetPlaced,
        BetRemoved,
        DealRequested,
        BettingClosed,
        CardDealt,
        PeekOffered,
        Peeked,
        PeekEnded,
        SqueezeOffered,
        SqueezeEnded,
        ChoiceOffered,
        HandChosen,
        CardExposed,
        HandSet,
        RoundSettled,
        RoundVoided,
        StoodUp,
    )
}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Read back what :meth:`Event.to_dict` wrote (a stored log, a round record)."""
    try:
        cls = EVENT_TYPES[str(data["kind"])]
        values = {
            f.name: data[f.name]
            for f in dataclasses.fields(cls)
            if f.name in data or f.default is dataclasses.MISSING  # a newer field: its default
        }
    except (KeyError, TypeError) as error:
        raise BaccaraError(f"not an event record: missing {error}") from None
    if cls is RoundSettled or cls is RoundVoided:
        values["payouts"] = tuple(Payout(**p) for p in values["payouts"])
    for name in ("cards", "back", "positions"):
        if name in values:
            values[name] = tuple(values[name])
    return cls(**values)
