"""Lo-Ball tiles and dice.

Casino Lo-Ball Baccarat deals from one set of 28 tiles, each a pair of numbers
``1 <= low <= high <= 7`` (the seed's 1-1 … 7-7), and rolls three six-sided dice
for its Dice-Lo and Dice-Hi side bets.
"""

from __future__ import annotations

from dataclasses import dataclass

from baccara.errors import InvalidCards
from baccara.randomness import RandomSource, shuffle


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One tile; ``low <= high`` always, so 3-5 and 5-3 are the same tile.

    >>> Tile.parse("5-3")
    Tile(low=3, high=5)
    """

    low: int
    high: int

    def __post_init__(self) -> None:
        if not (1 <= self.low <= self.high <= 7):
            raise InvalidCards(f"no tile {self.low}-{self.high}: tiles run 1-1 to 7-7")

    @classmethod
    def parse(cls, text: str) -> Tile:
        parts = text.strip().replace(":", "-").split("-")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise InvalidCards(f"cannot read tile {text!r}; write it as 3-5")
        a, b = (int(p) for p in parts)
        return cls(min(a, b), max(a, b))

    @property
    def numbers(self) -> tuple[int, int]:
        return (self.low, self.high)

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"


TILE_SET: tuple[Tile, ...] = tuple(Tile(a, b) for a in range(1, 8) for b in range(a, 8))
"""The 28 tiles in the seed's order: 1-1, 1-2, …, 7-7."""


def shuffled_tiles(rng: RandomSource) -> list[Tile]:
    """A freshly shuffled set (Lo-Ball reshuffles before every round)."""
    tiles = list(TILE_SET)
    shuffle(tiles, rng)
    return tiles


def roll_dice(rng: RandomSource, count: int = 3) -> tuple[int, ...]:
    """Roll ``count`` fair six-sided dice."""
    return tuple(rng.randbelow(6) + 1 for _ in range(count))
