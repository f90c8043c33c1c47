"""What every game's table procedure provides, and the pieces they share.

A procedure knows a game's dealing order, which card the rules want next (the
Punto Banco third-card rule, Lo-Ball's exposure rule), how the cards are revealed,
and how every bet is settled. The round (:mod:`baccara.table.round`) runs any of
them the same way, for an electronic deal from a shuffled shoe or a live dealer's
entries one card at a time.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from baccara.cards import Card
from baccara.errors import InvalidCards
from baccara.money import BetResult, Settlement, payout
from baccara.randomness import RandomSource
from baccara.table.events import Payout
from baccara.tiles import Tile


class Item(enum.Enum):
    """What a position of the layout holds."""

    CARD = "card"
    TILE = "tile"
    DIE = "die"

    def parse(self, text: object) -> str:
        """A dealer's entry as its canonical code (``"10h"`` → ``"10H"``), or refuse it."""
        if isinstance(text, int) and not isinstance(text, bool) and self is Item.DIE:
            text = str(text)
        if not isinstance(text, str) or not text.strip() or len(text) > 8:
            raise InvalidCards(f"not a {self.value}: {text!r}")
        if self is Item.CARD:
            return Card.parse(text).code
        if self is Item.TILE:
            return str(Tile.parse(text))
        if text.strip() not in ("1", "2", "3", "4", "5", "6"):
            raise InvalidCards(f"a die shows 1 to 6, not {text!r}")
        return text.strip()


@dataclass(frozen=True)
class Step:
    """One step of the reveal: turn up these positions, then set these hands (RedGreen)."""

    expose: tuple[str, ...]
    set_hands: tuple[str, ...] = ()


@dataclass(frozen=True)
class Wager:
    """A bet as settlement sees it (a player's several bets on a spot stay separate)."""

    bet_id: str
    player: str
    seat: int | None
    spot: str
    amount: int
    client_seed: str | None = None


Dealt = Mapping[str, str]
"""Position → code of what was dealt there, in dealing order."""


class Procedure(Protocol):
    """One game's dealing procedure (RedGreen's two versions share one, with flags)."""

    live_face_up: bool
    """Whether a live dealer turns each card as it is dealt (Punto Banco, Lo-Ball) or
    deals face down for the peek or the choice (RedGreen)."""

    def item(self, position: str) -> Item:
        """What ``position`` holds: a card, a tile or a die."""
        ...

    def needs(self, dealt: Dealt, seats: Sequence[int]) -> tuple[str, ...]:
        """The positions still to deal, as far as the rules know yet (empty: complete)."""
        ...

    def deal(self, rng: RandomSource, seats: Sequence[int], rules: Any) -> list[tuple[str, str]]:
        """An electronic deal: shuffle the whole shoe (or tile set) and deal what is needed."""
        ...

    def opening(self, seats: Sequence[int]) -> tuple[str, ...]:
        """What an electronic round deals face down as betting closes: the positions dealt
        whatever the cards are. The rest — Punto Banco's third cards, Lo-Ball's exposed
        tiles and its dice — are dealt face up during the reveal, once the cards that
        decide them are turned, as at a real table: a card dealt face down early would
        tell everyone, by being there, what the hidden cards must be."""
        ...

    def steps(self, dealt: Dealt, first_hand: str | None) -> list[Step]:
        """How the cards dealt so far are revealed; a step whose cards were dealt face up
        (a live dealer's, or a card dealt during the reveal) is already done."""
        ...

    def set_hand(self, hand: str, dealt: Dealt, rules: Any) -> tuple[str, tuple[str, str], str]:
        """RedGreen: (front, back, rule) of ``hand`` set by the house way."""
        ...

    def squeeze_of(
        self, position: str, first_hand: str | None
    ) -> tuple[str, tuple[str, ...]] | None:
        """The hand a squeeze of ``position`` is of and every position it takes in, when the
        rules let a player squeeze that card (at a table whose rounds squeeze): Mini
        RedGreen's hand set second, Punto Banco's two cards of a hand, then its third."""
        ...

    def settle(
        self, dealt: Dealt, wagers: Sequence[Wager], seats: Sequence[int], rules: Any
    ) -> tuple[dict[str, Any], list[Payout]]:
        """The call, and every wager paid or collected."""
        ...


def ordered(dealt: Dealt, prefix: str) -> list[str]:
    """The codes at ``prefix.0``, ``prefix.1``… in order, as far as they are dealt."""
    codes: list[str] = []
    while f"{prefix}.{len(codes)}" in dealt:
        codes.append(dealt[f"{prefix}.{len(codes)}"])
    return codes


def cards(codes: Sequence[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


def to_payout(wager: Wager, settled: Settlement, commission: Fraction | int = 0) -> Payout:
    """A settled wager as the round reports it; ``commission`` is the house's cut of a win
    paid at even money less that share (Banker, Red, Green): even money less what was
    paid, so a 1-cent win, paid nothing once rounded down, records its cent."""
    won = settled.result is BetResult.WIN
    taken = payout(wager.amount, Fraction(1)) - settled.won if commission and won else 0
    return Payout(
        bet_id=wager.bet_id,
        player=wager.player,
        seat=wager.seat,
        spot=wager.spot,
        stake=wager.amount,
        result=settled.result.value,
        won=settled.won,
        returned=settled.returned,
        commission=taken,
    )
