"""Memory stays flat in the number of rounds: a run holds one block at a time."""

from __future__ import annotations

import tracemalloc

from baccara.sim.dealer import BLOCK_ROUNDS
from baccara.sim.runs import DealerSpec, count_blocks


def _peak(spec: DealerSpec, rounds: int) -> int:
    tracemalloc.start()
    try:
        for _ in count_blocks(spec, rounds, seed=1):
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_eight_blocks_need_no_more_memory_than_one() -> None:
    spec = DealerSpec.of("punto-banco")
    _peak(spec, BLOCK_ROUNDS)  # compile and load the kernel first
    one, eight = _peak(spec, BLOCK_ROUNDS), _peak(spec, 8 * BLOCK_ROUNDS)
    assert one > BLOCK_ROUNDS * 5  # the block's outcome codes are really being traced
    assert eight < one + 64 * 1024
