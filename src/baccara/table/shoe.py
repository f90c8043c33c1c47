"""What a live dealer's shoe can still hold, and the exact edge of every bet on it.

An electronic round draws from its own freshly shuffled shoe. A live dealer deals
real cards, so the engine keeps count of what has left the shoe and refuses a card
it cannot hold — a ninth Ace of spades from eight decks, a card already dealt out of
a continuous shoe, a Lo-Ball tile dealt twice. For a continuous shoe it also gives
what a casino's surveillance room watches: every bet's exact house edge on the cards
left, from the same depleted-shoe counters as ``baccara analyze``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from baccara.cards import Card, ShoeComposition, standard_deck
from baccara.errors import InvalidCards, shown
from baccara.exact.roles import bets_dealt_from
from baccara.games import GameSpec
from baccara.tiles import TILE_SET, Tile


class LiveShoe:
    """The cards (or tiles) a live table can still deal from, with the cut card's place.

    ``decks`` is ``None`` for Lo-Ball's one set of 28 tiles.
    """

    def __init__(self, decks: int | None, penetration: float = 1.0, dealt: Iterable[str] = ()):
        self.decks = decks
        full = [c.code for c in standard_deck()] * decks if decks else [str(t) for t in TILE_SET]
        self.size = len(full)
        self.cut = round(self.size * penetration)
        self._codes = frozenset(full)
        self._left = Counter(full)
        self.dealt: list[str] = []
        for code in dealt:
            self.take(code)

    def holds(self, code: str) -> bool:
        return self._left[code] > 0

    def verify(self, code: str) -> None:
        """Refuse a card (tile) the shoe cannot hold any more, saying why.

        A code that names no card (tile) at all is refused as such, not as one dealt out:
        ``TS`` is written ``10S`` here.
        """
        if code not in self._codes:
            what = "card" if self.decks else "tile"
            canonical = self._canonical(code)
            example = "10S, AS or KD" if self.decks else "1-1, 2-5 or 7-7"
            raise InvalidCards(
                f"{shown(code)} is not a {what} code; write it as {canonical or example}"
            )
        if not self.holds(code):
            what = "card" if self.decks else "tile"
            where = f"{self.decks} decks" if self.decks else "the set of 28"
            raise InvalidCards(
                f"the shoe cannot hold another {code}: every {code} of {where} has been dealt"
                if self.decks
                else f"{what} {code} has already been dealt; the set has one of each"
            )

    def _canonical(self, code: str) -> str | None:
        """The code the shoe writes for what ``code`` names (``TS`` → ``10S``), if any."""
        try:
            parsed = Card.parse(code).code if self.decks else str(Tile.parse(code))
        except InvalidCards:
            return None
        return parsed if parsed in self._codes else None

    def take(self, code: str) -> None:
        self.verify(code)
        self._left[code] -= 1
        self.dealt.append(code)

    @property
    def left(self) -> int:
        return self.size - len(self.dealt)

    @property
    def cut_card_reached(self) -> bool:
        return len(self.dealt) >= self.cut

    def composition(self) -> ShoeComposition:
        """The cards left, for the exact counters."""
        return ShoeComposition.of(
            Card.parse(code) for code, n in self._left.items() for _ in range(n)
        )


@dataclass(frozen=True)
class ShoeReport:
    """Every bet's exact house edge on the cards left (off the top of what remains)."""

    cards_left: int
    cards_dealt: int
    cut_card_reached: bool
    edges: tuple[tuple[str, Fraction], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards_left": self.cards_left,
            "cards_dealt": self.cards_dealt,
            "cut_card_reached": self.cut_card_reached,
            "bets": [
                {
                    "bet": bet,
                    "house_edge": float(edge),
                    "house_edge_exact": f"{edge.numerator}/{edge.denominator}",
                }
                for bet, edge in self.edges
            ],
        }


def shoe_report(spec: GameSpec, rules: Any, shoe: LiveShoe) -> ShoeReport:
    """The exact edge of every bet dealt from what is left in ``shoe``."""
    bets = bets_dealt_from(spec, rules, shoe.composition())
    return ShoeReport(
        cards_left=shoe.left,
        cards_dealt=len(shoe.dealt),
        cut_card_reached=shoe.cut_card_reached,
        edges=tuple((b.bet, b.house_edge) for b in bets),
    )
