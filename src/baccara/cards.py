"""Playing cards and multi-deck shoes.

Ranks carry both their baccarat point value and their poker order, because the
same seven-deck shoe feeds Punto Banco scoring and RedGreen/Bonus ranking.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from baccara.errors import InvalidCards, InvalidOption, shown
from baccara.options import as_fraction
from baccara.randomness import RandomSource, shuffle


class Rank(enum.IntEnum):
    """Card ranks, numbered 1 (Ace) to 13 (King) as printed on the card."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def baccarat_value(self) -> int:
        """Ace counts 1, two to nine their pips, ten and faces 0."""
        return self.value if self.value < 10 else 0

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank as a dealer writes it: ``A``, ``2``…``10`` (or ``T``), ``J``, ``Q``, ``K``.

        >>> Rank.parse("10"), Rank.parse("q")
        (<Rank.TEN: 10>, <Rank.QUEEN: 12>)
        """
        key = text.strip().upper()
        if key == "T":
            key = "10"
        for rank, symbol in _RANK_SYMBOLS.items():
            if symbol == key:
                return rank
        raise InvalidCards(f"unknown rank {text!r}; use A, 2-10 (or T), J, Q, K")


_RANK_SYMBOLS: dict[Rank, str] = {
    Rank.ACE: "A",
    **{Rank(v): str(v) for v in range(2, 11)},
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}


class Suit(enum.Enum):
    """The four suits; only flushes in the Bonus bet care which is which."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[self.value]


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card. Two cards from different decks of a shoe compare equal.

    >>> Card.parse("10h"), str(Card.parse("AS"))
    (Card(rank=<Rank.TEN: 10>, suit=<Suit.HEARTS: 'H'>), 'A♠')
    """

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``AS``, ``10h``, ``Td``, ``kc``: a rank followed by a suit letter."""
        text = text.strip()
        if len(text) < 2:
            raise InvalidCards(f"cannot read card {text!r}; write a rank then a suit, e.g. 10H")
        suit_letter = text[-1].upper()
        try:
            suit = Suit(suit_letter)
        except ValueError:
            raise InvalidCards(f"unknown suit in {text!r}; use S, H, D or C") from None
        return cls(Rank.parse(text[:-1]), suit)

    @property
    def code(self) -> str:
        """ASCII form that :meth:`parse` reads back (``10H``)."""
        return f"{self.rank.symbol}{self.suit.value}"

    def __str__(self) -> str:
        return f"{self.rank.symbol}{self.suit.symbol}"


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Parse several cards, e.g. from a dealer's entry."""
    return [Card.parse(t) for t in texts]


def standard_deck() -> list[Card]:
    """The 52 cards of one deck, in a fixed new-deck order."""
    return [Card(rank, suit) for suit in Suit for rank in Rank]


class ShoeMode(enum.Enum):
    """How the shoe is handled between rounds."""

    RESHUFFLE = "reshuffle"
    """A full, freshly shuffled shoe every round: the seeds' procedure for all three games."""
    CONTINUOUS = "continuous"
    """One shoe dealt round after round until the cut card, then reshuffled."""

    @classmethod
    def parse(cls, value: object, name: str = "shoe") -> ShoeMode:
        if isinstance(value, ShoeMode):
            return value
        if isinstance(value, str):
            for mode in cls:
                if mode.value == value.strip().lower():
                    return mode
        known = ", ".join(m.value for m in cls)
        raise InvalidOption(name, f"must be one of {known}, got {shown(value)}")


def check_penetration(penetration: object, name: str = "penetration") -> float:
    """The fraction of the shoe dealt before the cut card comes out, in (0, 1].

    A share of a shoe is a measure, not an exact rule: a float (401/416 of eight decks)
    is taken as it is; text and other numbers are read as every number is.
    """
    if isinstance(penetration, float) and 0 < penetration <= 1:
        return penetration
    return float(as_fraction(name, penetration, 0, 1, low_inclusive=False))


class Shoe:
    """A shoe of ``decks`` full decks, shuffled once, dealt from the top.

    ``penetration`` is the fraction of the shoe dealt before the cut card comes out;
    :attr:`cut_card_reached` tells the table it is time to reshuffle. Games that
    reshuffle before every hand simply build a new shoe each time.
    """

    def __init__(self, decks: int, rng: RandomSource, penetration: float = 1.0) -> None:
        if not isinstance(decks, int) or isinstance(decks, bool) or decks < 1:
            raise InvalidOption(
                "decks", f"must be a whole number of at least 1, got {shown(decks)}"
            )
        if not 0.0 < penetration <= 1.0:
            raise InvalidOption("penetration", f"must be in (0, 1], got {shown(penetration)}")
        self.decks = decks
        self._cards = standard_deck() * decks
        shuffle(self._cards, rng)
        self._cut = round(len(self._cards) * penetration)
        self._next = 0

    def __len__(self) -> int:
        """Cards still in the shoe."""
        return len(self._cards) - self._next

    def __iter__(self) -> Iterator[Card]:
        while self._next < len(self._cards):
            yield self.draw()

    @property
    def dealt(self) -> int:
        return self._next

    @property
    def cut_card_reached(self) -> bool:
        return self._next >= self._cut

    def draw(self) -> Card:
        if self._next >= len(self._cards):
            raise InvalidCards("the shoe is empty")
        card = self._cards[self._next]
        self._next += 1
        return card


@dataclass(frozen=True)
class ShoeComposition:
    """How many copies of each of the 52 cards a shoe holds, for exact analysis.

    ``copies[rank - 1][suit index]`` in :class:`Suit` order. A standard shoe holds
    ``decks`` of each; a depleted shoe (cards already dealt, or removed to measure
    their effect) holds fewer.

    >>> ShoeComposition.standard(7).total
    364
    """

    copies: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if len(self.copies) != 13 or any(len(row) != 4 for row in self.copies):
            raise InvalidCards("a shoe composition is 13 ranks × 4 suits")
        if any(n < 0 for row in self.copies for n in row):
            raise InvalidCards("a shoe cannot hold a negative number of a card")

    @classmethod
    def standard(cls, decks: int) -> ShoeComposition:
        if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
            raise InvalidOption(
                "decks", f"must be a whole number of at least 1, got {shown(decks)}"
            )
        return cls(tuple((decks,) * 4 for _ in Rank))

    @classmethod
    def of(cls, cards: Iterable[Card]) -> ShoeComposition:
        """The composition of an explicit pile of cards."""
        suits = list(Suit)
        grid = [[0] * 4 for _ in Rank]
        for card in cards:
            grid[card.rank - 1][suits.index(card.suit)] += 1
        return cls(tuple(tuple(row) for row in grid))

    def count(self, card: Card) -> int:
        return self.copies[card.rank - 1][list(Suit).index(card.suit)]

    @property
    def total(self) -> int:
        return sum(sum(row) for row in self.copies)

    @property
    def per_rank(self) -> tuple[int, ...]:
        """Cards of each rank, Ace first: all a game that ignores suits needs to know."""
        return tuple(sum(row) for row in self.copies)

    def without(self, card: Card) -> ShoeComposition:
        """The shoe after one copy of ``card`` has left it (dealt, burnt, or removed to study).

        >>> shoe = ShoeComposition.standard(8).without(Card.parse("QH"))
        >>> shoe.total, shoe.per_rank[Rank.QUEEN - 1], shoe.count(Card.parse("QS"))
        (415, 31, 8)
        """
        rank, suit = card.rank - 1, list(Suit).index(card.suit)
        if self.copies[rank][suit] == 0:
            raise InvalidCards(f"the shoe holds no {card} to remove")
        grid = [list(row) for row in self.copies]
        grid[rank][suit] -= 1
        return ShoeComposition(tuple(tuple(row) for row in grid))

    def cards(self) -> list[Card]:
        """Every physical card, copies repeated, in new-deck order."""
        return [
            Card(rank, suit)
            for suit_index, suit in enumerate(Suit)
            for rank in Rank
            for _ in range(self.copies[rank - 1][suit_index])
        ]


ShoeSpec = int | ShoeComposition
"""A shoe for the exact counters: a number of full decks, or an exact (depleted) composition."""


def composition(shoe: ShoeSpec) -> ShoeComposition:
    """The composition of ``shoe``; a number means that many full decks."""
    return shoe if isinstance(shoe, ShoeComposition) else ShoeComposition.standard(shoe)
