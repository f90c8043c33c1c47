"""Start-up: the whole-process time of ``baccara games`` and ``baccara --help``.

Measured as a user's shell sees it — the installed ``baccara`` console script (the one
beside this Python, as ``pip install`` puts it), a new process each time — against an
empty interpreter (``python -c pass``) and against a process that only imports numpy
and numba, which is what start-up would cost if the CLI loaded the simulator eagerly.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

from benchmarks.timing import Row, best_of

BACCARA = pathlib.Path(sys.executable).with_name("baccara")
"""The console script installed with this interpreter's environment."""


def _process(*command: str | pathlib.Path) -> None:
    subprocess.run(command, check=True, capture_output=True)


def run() -> list[Row]:
    if not BACCARA.is_file():
        raise SystemExit(f"no baccara console script at {BACCARA}: install the package first")
    empty = best_of(lambda: _process(sys.executable, "-c", "pass"), repeat=10)
    numerics = best_of(lambda: _process(sys.executable, "-c", "import numpy, numba"), repeat=5)
    games = best_of(lambda: _process(BACCARA, "games"), repeat=10)
    helps = best_of(lambda: _process(BACCARA, "--help"), repeat=10)
    return [
        Row("baccara games, whole process", games, "python -c pass", empty),
        Row("baccara games, whole process", games, "python importing numpy + numba", numerics),
        Row("baccara --help, whole process", helps, "python -c pass", empty),
    ]
