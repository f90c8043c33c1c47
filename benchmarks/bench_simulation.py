"""Simulation: the compiled kernels against the plain rules loop, per million rounds.

Both deal the same rounds (same generator, same shoe procedure; the tests prove the
outcomes equal). The kernel deals 10⁷ rounds in one process; the plain loop
(:mod:`baccara.sim.kernels.plain`, the rules code the live tables use) deals
20,000, and both are scaled to one million rounds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from baccara.sim.kernels.plain import plain_rounds
from baccara.sim.runs import count_outcomes
from benchmarks.timing import Row, best_of

KERNEL_ROUNDS = 10**7
PLAIN_ROUNDS = 20_000
MILLION = 10**6


def _per_million(function: Callable[[], object], rounds: int, repeat: int) -> float:
    return best_of(function, repeat=repeat) * MILLION / rounds


def run() -> list[Row]:
    rows = []
    for game, shoe in (
        ("punto-banco", "reshuffle"),
        ("punto-banco", "continuous"),
        ("redgreen", "reshuffle"),
        ("lo-ball", "reshuffle"),
    ):
        continuous = shoe == "continuous"
        count_outcomes(game, 1, 0, shoe=shoe)  # load the compiled kernel before timing

        def plain(game: str = game, continuous: bool = continuous) -> None:
            for _ in plain_rounds(game, 1, 0, PLAIN_ROUNDS, continuous=continuous):
                pass

        def kernel(game: str = game, shoe: str = shoe) -> None:
            count_outcomes(game, KERNEL_ROUNDS, 1, shoe=shoe)

        seconds = _per_million(kernel, KERNEL_ROUNDS, repeat=3)
        rows.append(
            Row(
                f"simulate {game} ({shoe}), 10⁶ rounds, 1 core"
                f" — {MILLION / seconds / 1e6:.1f} M rounds/s",
                seconds,
                "plain rules loop",
                _per_million(plain, PLAIN_ROUNDS, repeat=1),
            )
        )
    return rows


if __name__ == "__main__":
    start = time.perf_counter()
    for row in run():
        print(row.markdown())
    print(f"({time.perf_counter() - start:.0f} s)")
