"""The report's charts, drawn with matplotlib from the exact analysis and the sessions.

Each function takes the figures already computed (an :class:`Analysis`, an effect of
removal, a deck sweep, a session report) and returns a :class:`~matplotlib.figure.Figure`
without going through pyplot, so no window or global state is involved; the writers
save it (SVG for HTML, PNG for PDF) and close it. Probabilities and edges are exact
Fractions until they are plotted here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter

from baccara.exact.model import Analysis, BetAnalysis, DataTable
from baccara.exact.removal import EffectOfRemoval
from baccara.exact.variants import Comparison, DeckSweep
from baccara.games.bonus import CATEGORIES, Category
from baccara.games.paytable import Paytable
from baccara.render.analysis import outcome_label

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from baccara.sim.sessions import SessionReport

WIDTH = 10.0
"""Inches: the width of every chart (the page's text width in the PDF)."""

WIN, PUSH, LOSE = "#2e7d32", "#9e9e9e", "#c62828"
"""Colours: good for the bettor, neither, bad for the bettor."""
INK, ACCENT = "#263238", "#1565c0"

NO_NAMES: Mapping[str, str] = MappingProxyType({})
"""No names given: a chart titles its panels by the bets' ids."""


def _figure(height: float, width: float = WIDTH) -> Figure:
    figure = Figure(figsize=(width, height), layout="constrained")
    figure.set_facecolor("white")
    return figure


def _panels(figure: Figure, count: int, columns: int) -> list[Axes]:
    rows = math.ceil(count / columns)
    axes = figure.subplots(rows, columns, squeeze=False).ravel().tolist()
    for extra in axes[count:]:
        extra.set_visible(False)
    return axes[:count]


def _style(ax: Axes) -> None:
    ax.spines[["top", "right"]].set_visible(False)
    ax.tick_params(labelsize=8)
    ax.grid(axis="both", color="#eceff1", linewidth=0.6)
    ax.set_axisbelow(True)


def _percent(value: float, decimals: int = 2) -> str:
    if value != 0 and abs(value) < 10 ** (-decimals - 2):
        return f"{value:.2e}"
    return f"{value:.{decimals}%}"


def _same_groups(names: Sequence[str], values: Sequence[Any]) -> list[tuple[str, Any]]:
    """Merge series that are exactly equal (red and green, the two pairs) into one panel."""
    groups: list[tuple[list[str], Any]] = []
    for name, value in zip(names, values, strict=True):
        for members, seen in groups:
            if seen == value:
                members.append(name)
                break
        else:
            groups.append(([name], value))
    return [(" = ".join(members), value) for members, value in groups]


def _titled(label: str, names: Mapping[str, str]) -> str:
    """A panel's title: its bets (ids joined by " = ") by the names the layout prints."""
    return " = ".join(names.get(bet, bet) for bet in label.split(" = "))


def _outcome_colour(pays: Fraction) -> str:
    return WIN if pays > 0 else PUSH if pays == 0 else LOSE


def outcome_probabilities(analysis: Analysis, names: Mapping[str, str] = NO_NAMES) -> Figure:
    """One panel per bet: each outcome's exact probability, coloured by what it pays.

    Bets with the same outcomes (the two pair bets) share a panel.
    """
    groups = _same_groups(
        analysis.bet_ids,
        [tuple((o.name, o.count, o.pays) for o in b.outcomes) for b in analysis.bets],
    )
    columns = 2 if len(groups) > 1 else 1
    tallest = max(len(b.outcomes) for b in analysis.bets)
    rows = math.ceil(len(groups) / columns)
    figure = _figure(height=max(2.6, rows * (0.9 + 0.28 * tallest)))
    for ax, (label, _) in zip(_panels(figure, len(groups), columns), groups, strict=True):
        _outcome_panel(ax, analysis.bet(label.split(" = ")[0]), _titled(label, names))
    return figure


def _outcome_panel(ax: Axes, bet: BetAnalysis, label: str) -> None:
    names = [outcome_label(o.name) for o in bet.outcomes][::-1]
    probabilities = [float(o.probability) for o in bet.outcomes][::-1]
    colours = [_outcome_colour(o.pays) for o in bet.outcomes][::-1]
    ax.barh(names, probabilities, color=colours, height=0.65)
    positive = [p for p in probabilities if p > 0]
    spread = max(positive) / min(positive) if positive else 1
    if spread > 500:
        ax.set_xscale("log")
        ax.set_xlim(min(positive) / 2, 3)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _percent(v, 0 if v >= 0.01 else 4)))
    else:
        ax.set_xlim(0, 1.2)  # every panel on one scale, with room for the labels
        ax.set_xticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    for y, p in enumerate(probabilities):
        ax.text(p, y, f" {_percent(p, 3 if p >= 0.001 else 5)}", va="center", fontsize=7.5)
    title = f"{label} · edge {float(bet.house_edge):.4%}"
    # Two bets sharing a panel ("Player Pair = Banker Pair") would run past a half-width one.
    ax.set_title(title, fontsize=10 if len(title) <= 32 else 8, loc="left", color=INK)
    _style(ax)
    ax.grid(axis="y", visible=False)


def edges_by_decks(sweep: DeckSweep, names: Mapping[str, str] = NO_NAMES) -> Figure:
    """The house edge of each bet against the number of decks, one panel per distinct curve."""
    groups = _same_groups(sweep.bets, [sweep.edges(b) for b in sweep.bets])
    columns = 2 if len(groups) in (2, 4) else min(3, len(groups))
    figure = _figure(height=2.6 * math.ceil(len(groups) / columns))
    for ax, (label, edges) in zip(_panels(figure, len(groups), columns), groups, strict=True):
        values = [float(e) for e in edges]
        ax.plot(sweep.decks, values, marker="o", color=ACCENT, linewidth=1.8, markersize=4)
        ends = ((0, (7, 2), "left"), (-1, (-2, 8), "right"))
        for i, offset, align in ends:
            ax.annotate(
                f"{values[i]:.4%}", (sweep.decks[i], values[i]), textcoords="offset points",
                xytext=offset, ha=align, fontsize=7.5, color=INK,
            )  # fmt: skip
        low, high = min(values), max(values)
        pad = (high - low) * 0.3 or abs(high) * 0.05 or 0.001
        ax.set_ylim(low - pad, high + pad)
        ax.set_xticks(sweep.decks)
        # Enough decimals that neighbouring ticks differ (red's edge moves in the 4th).
        digits = max(1, math.ceil(-math.log10((high - low) * 100 or 1)) + 1)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _, d=digits: f"{v:.{d}%}"))
        ax.set_xlabel("decks", fontsize=8)
        ax.set_title(_titled(label, names), fontsize=10, loc="left", color=INK)
        _style(ax)
    return figure


def effect_of_removal(eor: EffectOfRemoval, names: Mapping[str, str] = NO_NAMES) -> Figure:
    """Each rank's (tile's) effect on each bet's edge, in % points; bets it never moves left out."""
    effects = {
        bet: tuple(eor.effects(r)[i] for r in eor.removals) for i, bet in enumerate(eor.bets)
    }
    moving = [b for b in eor.bets if any(effects[b])]
    groups = _same_groups(moving, [effects[b] for b in moving])
    labels = [r.label for r in eor.removals]
    many = len(labels) > 13
    columns = 1 if many else min(2, max(1, len(groups)))
    rows = math.ceil(len(groups) / columns)
    figure = _figure(height=max(2.4, rows * (2.3 if many else 2.6)))
    for ax, (label, values) in zip(_panels(figure, len(groups), columns), groups, strict=True):
        points = [float(v) * 100 for v in values]
        ax.bar(labels, points, color=[LOSE if p > 0 else WIN for p in points], width=0.7)
        ax.axhline(0, color=INK, linewidth=0.7)
        ax.set_title(_titled(label, names), fontsize=10, loc="left", color=INK)
        ax.set_ylabel("% points", fontsize=8)
        ax.tick_params(axis="x", labelsize=7 if many else 8, rotation=90 if many else 0)
        _style(ax)
        ax.grid(axis="x", visible=False)
    return figure


def points_distribution(points: DataTable) -> Figure:
    """Lo-Ball: the probability of each point total of one hand (fewer is better)."""
    figure = _figure(height=3.0)
    ax = figure.subplots()
    totals = [int(row[0]) for row in points.rows]
    probabilities = [float(row[2]) for row in points.rows]
    colours = [WIN if p == 0 else "#f9a825" if p == 27 else ACCENT for p in totals]
    ax.bar(totals, probabilities, color=colours, width=0.8)
    for total, p in zip(totals, probabilities, strict=True):
        if total in (0, 27) or p == max(probabilities):
            ax.annotate(
                f"{p:.2%}", (total, p), textcoords="offset points", xytext=(0, 3),
                ha="center", fontsize=7.5,
            )  # fmt: skip
    ax.set_xticks(totals)
    ax.set_xlabel("points of one hand (0 is the Win-bonus, 27 the Play-bonus)", fontsize=8)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("probability", fontsize=8)
    _style(ax)
    ax.grid(axis="x", visible=False)
    return figure


def points_grid(grid: DataTable) -> Figure:
    """Lo-Ball: (dealer hand, player hand) pairs by the two point totals, on a log scale."""
    counts = np.array([[int(v) for v in row[1:]] for row in grid.rows], dtype=float)
    share = counts / counts.sum()
    figure = _figure(height=6.4, width=7.6)
    ax = figure.subplots()
    masked = np.ma.masked_equal(share, 0)
    image = ax.imshow(
        masked, origin="lower", cmap="viridis", norm=LogNorm(vmin=masked.min(), vmax=masked.max())
    )
    size = len(counts)
    ax.plot([-0.5, size - 0.5], [-0.5, size - 0.5], color="white", linewidth=1.2)
    # Above the diagonal the dealer has more points than the player: the player wins.
    ax.text(size * 0.3, size * 0.8, "player wins\n(fewer points)", color="white",
            fontsize=9, ha="center")  # fmt: skip
    ax.text(size * 0.72, size * 0.22, "dealer wins\n(ties too)", color="white",
            fontsize=9, ha="center")  # fmt: skip
    ax.set_xlabel("player's points", fontsize=9)
    ax.set_ylabel("dealer's points", fontsize=9)
    ax.set_xticks(range(0, size, 3))
    ax.set_yticks(range(0, size, 3))
    ax.tick_params(labelsize=8)
    bar = figure.colorbar(image, ax=ax, shrink=0.8)
    bar.set_label("probability of the pair of totals", fontsize=8)
    bar.ax.tick_params(labelsize=7)
    return figure


def bonus_categories(counts: Mapping[Category, int], paytable: Paytable) -> Figure:
    """The Bonus: each category's probability, and what the paytable returns on it."""
    total = sum(counts.values())
    names = [c.label for c in CATEGORIES][::-1]
    probabilities = [counts[c] / total for c in CATEGORIES][::-1]
    returns = [float(Fraction(counts[c], total) * paytable.net(c)) for c in CATEGORIES][::-1]
    paying = [c in paytable.pays for c in CATEGORIES][::-1]
    figure = _figure(height=4.2)
    left, right = figure.subplots(1, 2)
    left.barh(names, probabilities, color=[WIN if p else LOSE for p in paying], height=0.65)
    left.set_xscale("log")
    left.set_xlim(min(probabilities) / 2, 4)
    left.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _percent(v, 0 if v >= 0.01 else 4)))
    for y, p in enumerate(probabilities):
        left.text(p, y, f" {_percent(p, 4)}", va="center", fontsize=7.5)
    left.set_title("probability of the best five of six", fontsize=10, loc="left", color=INK)
    right.barh(names, returns, color=[WIN if r > 0 else LOSE for r in returns], height=0.65)
    right.axvline(0, color=INK, linewidth=0.7)
    for y, (r, pays) in enumerate(zip(returns, paying, strict=True)):
        label = f"{paytable.pays[CATEGORIES[len(CATEGORIES) - 1 - y]]}:1" if pays else "loses"
        right.text(r, y, f" {r:+.4f} ({label}) " if r > 0 else f" {r:+.4f} ",
                   va="center", ha="left" if r > 0 else "right", fontsize=7.5)  # fmt: skip
    expected = sum(returns)
    right.set_title(
        f"return per unit by category · total {expected:+.4f}", fontsize=10, loc="left", color=INK
    )
    right.set_xlim(min(returns) * 1.6, max(returns) * 2.1)
    right.set_yticks([])
    for ax in (left, right):
        _style(ax)
        ax.grid(axis="y", visible=False)
    return figure


def variants(comparison: Comparison, names: Mapping[str, str] = NO_NAMES) -> Figure:
    """Each bet's edge under the base rules and every variant that moves it."""
    moving = [
        b for b in comparison.bets if any(comparison.change(r, b) for r in comparison.variants)
    ]
    groups = _same_groups(
        moving, [tuple(comparison.edge(r, b) for r in comparison.variants) for b in moving]
    )
    columns = 1 if len(groups) < 2 else 2
    rows = math.ceil(max(1, len(groups)) / columns)
    tallest = 1 + max(
        (sum(1 for r in comparison.variants if comparison.change(r, b)) for b in moving),
        default=0,
    )
    figure = _figure(height=max(2.4, rows * (0.9 + 0.3 * tallest)))
    for ax, (label, _) in zip(_panels(figure, len(groups), columns), groups, strict=True):
        bet = label.split(" = ")[0]
        moved = [r for r in comparison.variants if comparison.change(r, bet)]
        shown = ["as given", *(r.variant.name for r in moved)][::-1]
        edges = [float(comparison.base.bet(bet).house_edge)]
        edges += [float(comparison.edge(r, bet)) for r in moved]
        colours = [INK] + [LOSE if comparison.change(r, bet) > 0 else WIN for r in moved]
        edges, colours = edges[::-1], colours[::-1]
        ax.barh(shown, edges, color=colours, height=0.6)
        ax.axvline(edges[-1], color=INK, linewidth=0.8, linestyle=":")
        for y, e in enumerate(edges):
            # A negative edge's label sits right of zero, clear of the bet names.
            ax.text(max(e, 0), y, f" {e:.4%}", va="center", ha="left", fontsize=7.5)
        low, high = min(0.0, *edges), max(0.0, *edges)
        ax.set_xlim(low * 1.45 if low < 0 else 0, high * 1.45 if high > 0 else 0.001)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))
        ax.set_title(f"{_titled(label, names)}: house edge", fontsize=10, loc="left", color=INK)
        _style(ax)
        ax.grid(axis="y", visible=False)
    return figure


def bankroll_fan(
    report: SessionReport, house_edge: Fraction, percentiles: Sequence[float], title: str
) -> Figure:
    """Percentiles of the balance hand by hand over every session, and the edge's straight line."""
    plan = report.plan
    bands = report.balance_percentiles(percentiles) / 100
    hands = np.arange(plan.hands + 1)
    figure = _figure(height=4.4)
    ax = figure.subplots()
    outer = (bands[0], bands[-1])
    inner = (bands[1], bands[-2]) if len(bands) >= 4 else outer
    ax.fill_between(hands, *outer, color=ACCENT, alpha=0.15, linewidth=0,
                    label=f"{percentiles[0]:g}th–{percentiles[-1]:g}th percentile")  # fmt: skip
    ax.fill_between(hands, *inner, color=ACCENT, alpha=0.3, linewidth=0,
                    label=f"{percentiles[1]:g}th–{percentiles[-2]:g}th percentile")  # fmt: skip
    ax.plot(hands, bands[len(bands) // 2], color=ACCENT, linewidth=1.6, label="median")
    mean = report.paths.mean(axis=0) / 100
    ax.plot(hands, mean, color=INK, linewidth=1.0, linestyle="--", label="mean of the sessions")
    line = plan.bankroll / 100 - float(house_edge) * plan.stake / 100 * hands
    ax.plot(hands, line, color=LOSE, linewidth=1.0, linestyle=":", label="bankroll − edge × staked")
    ax.axhline(plan.bankroll / 100, color="#90a4ae", linewidth=0.8)
    ax.set_xlim(0, plan.hands)
    ax.set_xlabel("hands played", fontsize=9)
    ax.set_ylabel("balance", fontsize=9)
    ax.set_title(title, fontsize=10, loc="left", color=INK)
    figure.legend(fontsize=8, loc="outside lower center", frameon=False, ncols=5)
    _style(ax)
    return figure
