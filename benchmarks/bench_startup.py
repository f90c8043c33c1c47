"""Start-up: the whole-process time of ``baccara games`` and ``baccara --help``.

Measured as a user's shell sees it — a new Python process each time — against an
empty interpreter (``python -c pass``) and against a process that only imports numpy
and numba, which is what start-up would cost if the CLI loaded the simulator eagerly.
"""

from __future__ import annotations

import subprocess
import sys

from benchmarks.timing import Row, best_of


def _process(*args: str) -> None:
    subprocess.run([sys.executable, *args], check=True, capture_output=True)


def run() -> list[Row]:
    empty = best_of(lambda: _process("-c", "pass"), repeat=10)
    numerics = best_of(lambda: _process("-c", "import numpy, numba"), repeat=5)
    games = best_of(lambda: _process("-m", "baccara", "games"), repeat=10)
    helps = best_of(lambda: _process("-m", "baccara", "--help"), repeat=10)
    return [
        Row("baccara games, whole process", games, "python -c pass", empty),
        Row("baccara games, whole process", games, "python importing numpy + numba", numerics),
        Row("baccara --help, whole process", helps, "python -c pass", empty),
    ]
