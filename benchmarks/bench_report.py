"""The whole report of one game, HTML and PDF, in a fresh process: the 30-second budget.

Each report is timed as a user runs it — ``baccara report GAME --pdf …`` in a new
Python process, imports, exact analysis, effect of removal, deck sweep, variants,
10,000 bankroll sessions and every chart drawn twice (SVG and PNG) included — against
``baccara analyze GAME`` in a new process, the exact analysis alone, in the same run.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
import tempfile

from benchmarks.timing import Row, best_of

GAMES = ("punto-banco", "redgreen", "lo-ball")


def _baccara(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "baccara", *args], check=True, capture_output=True)


def run() -> list[Row]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        out = pathlib.Path(folder)
        for game in GAMES:
            analysis = best_of(lambda game=game: _baccara("analyze", game), repeat=3)
            report = best_of(
                lambda game=game: _baccara(
                    "report", game, "--out", str(out / f"{game}.html"),
                    "--pdf", str(out / f"{game}.pdf"),
                ),
                repeat=2,
            )  # fmt: skip
            rows.append(
                Row(f"baccara report {game} --pdf, whole process", report,
                    f"baccara analyze {game}, whole process", analysis)
            )  # fmt: skip
    return rows
