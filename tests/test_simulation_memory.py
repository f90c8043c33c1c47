"""Memory stays flat in the number of rounds: a run holds one block at a time."""

from __future__ import annotations

import tracemalloc

import pytest

from baccara.sim.dealer import BLOCK_ROUNDS
from baccara.sim.kernels.coup_outcomes import FACT_IDS
from baccara.sim.runs import DealerSpec, count_blocks


def _peak(spec: DealerSpec, rounds: int) -> int:
    tracemalloc.start()
    try:
        for _ in count_blocks(spec, rounds, seed=1):
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    ("game", "held"),
    [
        ("punto-banco", FACT_IDS * 8),  # a block's tally of the coups' facts
        ("redgreen", BLOCK_ROUNDS * 3),  # a block's outcome codes, three bets a round
    ],
)
def test_eight_blocks_need_no_more_memory_than_one(game: str, held: int) -> None:
    spec = DealerSpec.of(game)
    _peak(spec, BLOCK_ROUNDS)  # compile and load the kernel first
    one, eight = _peak(spec, BLOCK_ROUNDS), _peak(spec, 8 * BLOCK_ROUNDS)
    assert one > held  # what a block holds is really being traced
    assert eight < one + 64 * 1024
