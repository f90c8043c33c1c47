"""Dealing from a shuffled pile one item at a time: the shoe (or tile set) of the kernels.

The pile holds every physical card (or tile). To deal the next one, the dealer picks
uniformly among those not yet dealt and swaps it to the dealing position: after ``k``
deals the first ``k`` items are the top of a uniformly shuffled pile, exactly as if
the whole pile had been shuffled by Fisher–Yates first, but a round costs only the
cards it uses. A reshuffle gathers the dealt items back — since every deal picks
uniformly from what is left, the order they come back in does not matter — which is
just starting again at position 0.

:class:`Pile` is the same procedure in plain Python with :class:`~baccara.sim.kernels.rng.XoshiroRandom`;
fed the same generator state it deals the same items as the compiled :func:`draw`.

>>> from baccara.sim.kernels.rng import XoshiroRandom, block_state
>>> pile = Pile(["a", "b", "c"], XoshiroRandom(block_state(1, 0)))
>>> sorted(pile.draw() for _ in range(3))
['a', 'b', 'c']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Generic, TypeVar

import numpy as np
import numpy.typing as npt

from baccara.errors import InvalidCards
from baccara.sim.compiled import compiled_inline
from baccara.sim.kernels.rng import XoshiroRandom, below

T = TypeVar("T")


@compiled_inline
def draw(state: npt.NDArray[np.uint64], pile: npt.NDArray[np.int8], position: int) -> int:
    """Deal ``pile[position]`` after swapping in a uniform pick from ``pile[position:]``."""
    pick = position + below(state, len(pile) - position)
    item = pile[pick]
    pile[pick] = pile[position]
    pile[position] = item
    return int(item)


def new_shoe(decks: int) -> npt.NDArray[np.int8]:
    """The physical cards of ``decks`` decks as card indices (52 a deck), in new-deck order."""
    return np.tile(np.arange(52, dtype=np.int8), decks)


@compiled_inline
def tally(pile: npt.NDArray[np.int8], start: int, end: int, tags: npt.NDArray[np.int16]) -> int:
    """The count of the items dealt at ``pile[start:end]``: the sum of their tags."""
    total = 0
    for k in range(start, end):
        total += tags[pile[k]]
    return total


class Pile(Generic[T]):
    """The plain twin of :func:`draw`: deal items one by one, uniformly from what is left."""

    def __init__(self, items: Sequence[T], rng: XoshiroRandom) -> None:
        self.items = list(items)
        self.position = 0
        self._rng = rng

    @property
    def left(self) -> int:
        return len(self.items) - self.position

    def draw(self) -> T:
        if self.position >= len(self.items):
            raise InvalidCards("the pile is empty")
        pick = self.position + self._rng.randbelow(len(self.items) - self.position)
        items, position = self.items, self.position
        items[pick], items[position] = items[position], items[pick]
        self.position += 1
        return items[position]

    def __iter__(self) -> Iterator[T]:
        """Deal on demand, for rules code that takes cards from an iterable."""
        while True:
            yield self.draw()

    def reshuffle(self) -> None:
        self.position = 0
