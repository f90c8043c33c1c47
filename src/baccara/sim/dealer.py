"""A game's simulation kernel set up for one set of rules and one shoe: a :class:`Dealer`.

Each kernel module (``sim/kernels/<game>.py``) exposes ``dealer(game_id, rules, shoe,
penetration) -> Dealer``, named in the game's registry entry. Everything else in
``sim/`` deals through a :class:`Dealer` and never names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from baccara.sim.compiled import compiled
from baccara.sim.kernels.rng import block_state

BLOCK_ROUNDS = 1 << 20
"""Rounds per block: the unit of seeding, of work for a worker, and of progress."""

DEFAULT_PENETRATION = 0.8
"""The share of a continuous shoe dealt before the cut card, unless a run says otherwise."""


DealBlock = Callable[
    [npt.NDArray[np.uint64], npt.NDArray[np.int8], npt.NDArray[np.int16], npt.NDArray[np.int32]],
    None,
]
CountBlock = Callable[[npt.NDArray[np.uint64], int], npt.NDArray[np.int64]]

NO_TAGS = np.zeros(52, dtype=np.int16)
"""Tags of a count nobody keeps (card index → tag)."""
NOT_SHOWN = np.zeros((0, 2), dtype=np.int32)
"""No rows: the kernels skip the counter's view."""


@dataclass(frozen=True)
class Dealer:
    """One game's kernel set up for one set of rules and one shoe mode.

    ``deal(state, codes, tags, shown)`` fills ``codes`` (rounds × bets) from a full
    shoe with the generator ``state``; given rows in ``shown`` it also writes, before
    each round, the running count of ``tags`` since the shuffle and the cards left.
    ``count(state, rounds)``, when a kernel has one, counts what ``deal`` would have
    dealt — the same rounds, so the same counts — without writing every bet's code of
    every round (Punto Banco tallies its coups' facts once, whatever bets it has).
    """

    game: str
    bets: tuple[str, ...]
    outcomes: tuple[tuple[str, ...], ...]
    deal: DealBlock
    count: CountBlock | None = None

    def deal_block(
        self,
        seed: int,
        block: int,
        codes: npt.NDArray[np.int8],
        tags: npt.NDArray[np.int16] = NO_TAGS,
        shown: npt.NDArray[np.int32] = NOT_SHOWN,
    ) -> None:
        """Deal block ``block`` of the run seeded ``seed`` into ``codes`` (and ``shown``)."""
        self.deal(block_state(seed, block), codes, tags, shown)

    def deal_run(self, rounds: int, seed: int) -> npt.NDArray[np.int8]:
        """Every bet's outcome code in each of ``rounds`` rounds of the run seeded ``seed``."""
        codes = np.empty((rounds, len(self.bets)), dtype=np.int8)
        for block, start, size in blocks(rounds):
            self.deal_block(seed, block, codes[start : start + size])
        return codes

    def count_block(self, seed: int, block: int, rounds: int) -> npt.NDArray[np.int64]:
        """How often each outcome of each bet came in the block: (bets × most outcomes)."""
        if self.count is not None:
            return self.count(block_state(seed, block), rounds)
        codes = np.empty((rounds, len(self.bets)), dtype=np.int8)
        self.deal_block(seed, block, codes)
        counts = np.zeros((len(self.bets), max(map(len, self.outcomes))), dtype=np.int64)
        _count(codes, counts)
        return counts


@compiled
def _count(codes: npt.NDArray[np.int8], counts: npt.NDArray[np.int64]) -> None:
    for i in range(codes.shape[0]):
        for j in range(codes.shape[1]):
            counts[j, codes[i, j]] += 1


def blocks(rounds: int) -> Iterator[tuple[int, int, int]]:
    """``(block, first round, rounds in it)`` for a run of ``rounds``, one at a time.

    Lazily: a run of 10^13 rounds has ten million blocks, and listing them first would
    take seconds and a gigabyte before the first card is dealt.
    """
    for block, start in enumerate(range(0, rounds, BLOCK_ROUNDS)):
        yield block, start, min(BLOCK_ROUNDS, rounds - start)


def block_count(rounds: int) -> int:
    """How many blocks a run of ``rounds`` is dealt in."""
    return -(-rounds // BLOCK_ROUNDS)
