"""Tiny timing helpers: best-of-N wall time, and a report row with a ratio to a baseline."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


def best_of(function: Callable[[], object], repeat: int = 5) -> float:
    """The fastest of ``repeat`` runs, in seconds (the least disturbed by other load)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


@dataclass(frozen=True)
class Row:
    benchmark: str
    seconds: float
    baseline: str
    baseline_seconds: float

    @property
    def speedup(self) -> float:
        return self.baseline_seconds / self.seconds

    def markdown(self) -> str:
        ratio = f"{self.speedup:,.0f}×" if self.speedup >= 10 else f"{self.speedup:.2f}×"
        return (
            f"| {self.benchmark} | {self.seconds * 1000:.1f} ms | {self.baseline} "
            f"| {self.baseline_seconds * 1000:.0f} ms | {ratio} |"
        )


HEADER = (
    "| benchmark | time | baseline (same run) | baseline time | speed-up |\n|---|---|---|---|---|"
)
