"""A picture of a session run: where the nights ended, and how a few of them went."""

from __future__ import annotations

import pathlib
from typing import TYPE_CHECKING

from baccara.errors import InvalidOption
from baccara.options import percent_text, plural

if TYPE_CHECKING:
    from baccara.sim.sessions import SessionReport

FORMATS = (".png", ".svg")
"""The plot files baccara writes; checked before any work is done."""


def plot_sessions(report: SessionReport, path: pathlib.Path, title: str) -> pathlib.Path:
    """Write a two-panel figure (PNG or SVG, by the file's suffix) and return its path."""
    if path.suffix.lower() not in FORMATS:
        raise InvalidOption("plot", f"write a .png or .svg file, got {path.name!r}")
    import matplotlib
    import numpy as np

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = report.results / 100
    summary = report.summary()
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8), layout="constrained")
    # Results move in steps of about one stake; bins a whole number of stakes wide
    # keep that lattice from drawing a comb.
    stake = report.plan.stake / 100
    span = float(results.max() - results.min()) if len(results) else 0.0
    width = stake * max(1, int(np.ceil(span / stake / 60)))
    bins = np.arange(results.min() - width / 2, results.max() + width, width)
    left.hist(results, bins=bins, color="#3a7d44")
    left.axvline(0, color="black", linewidth=1)
    left.axvline(summary["mean_result"] / 100, color="#c0392b", linestyle="--", label="mean")
    left.set_xlabel("session result")
    left.set_ylabel("sessions")
    left.set_title(
        f"{plural(summary['sessions'], 'session')} · ruin {percent_text(summary['risk_of_ruin'], 2)}"
        f" · ahead {percent_text(summary['ahead'], 1)}"
    )
    # Legends in fixed corners: "best" searches the data, which takes over a second
    # for long runs (and matplotlib warns), and the picture should not move anyway.
    # The histogram's tails are low at the upper right; early hands stay near the
    # bankroll, below the best paths, at the upper left.
    left.legend(loc="upper right")
    for path_cents in report.paths:
        right.plot(path_cents / 100, linewidth=0.8, alpha=0.8)
    right.axhline(report.plan.bankroll / 100, color="black", linewidth=1)
    right.axhline(report.plan.stake / 100, color="#c0392b", linestyle=":", label="one stake")
    right.set_xlabel("hand")
    right.set_ylabel("bankroll")
    right.set_title(f"{plural(len(report.paths), 'session')} hand by hand")
    right.legend(loc="upper left")
    figure.suptitle(title)
    try:
        figure.savefig(path)
    except OSError as error:
        raise InvalidOption("plot", f"cannot write {str(path)!r}: {error.strerror}") from None
    finally:
        plt.close(figure)
    return path
