"""Searching a Punto Banco side bet's pays for a target house edge.

A designer has a side bet's lines — Dragon 7's "Banker wins with a three-card 7", the
margins of a Dragon Bonus — and wants the pays that give the house, say, 5 %. The
conditions stay as they are; only what each line pays moves. A unit's return is
linear in the pays (each line's probability times its pay, less the chance no line
holds), so the exact count of coups each line decides, taken once from
:func:`~baccara.exact.coup_bets.spot_analysis`, prices every table in the search.

Each line's menu runs from 1 to five times its pay now, in whole units — in halves for
a line paying under 10 to 1, where 3 to 2 is a pay a felt prints and 37½ to 1 is not.
A push line (0) stays a push: it is a rule, not a price. Lines are not held in order
of rarity, since a side bet's lines need not be ranked (a Dragon Bonus pays a natural
less than a win by 4). As the Bonus designer does (:mod:`baccara.exact.paytable_design`),
the search splits the lines in two groups, enumerates each group's pays and joins them
by sorted search on the return; when a group would hold more than :data:`GROUP_LIMIT`
tables, the largest menu is thinned to about half (its ends and its pay now always
kept) until none does. The nearest tables are then re-evaluated exactly with Fractions, by
the same analysis ``baccara analyze`` prints.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from baccara.cards import ShoeSpec
from baccara.errors import InvalidOption
from baccara.exact.coup_bets import spot_analysis
from baccara.exact.model import BetAnalysis
from baccara.games.coup_bets import SHIPPED, PayLine, SideBet
from baccara.games.paytable import MAX_NAME, MAX_PAY
from baccara.games.punto_banco import PuntoBancoRules

MENU_TIMES = 5
"""A line's menu reaches this many times its pay now."""

HALVES_BELOW = 10
"""A line paying less than this, to 1, is searched in halves; from it up, in whole units."""

GROUP_LIMIT = 1 << 18
"""The most tables one group of lines enumerates: a few MiB each, a second's search."""

CHUNK = 1 << 14
"""Tables of the first group joined with the second at a time, to bound the memory."""


@dataclass(frozen=True)
class LineCounts:
    """How many of ``total`` coups each of a side bet's lines decides (the first line
    that holds pays); the coups no line takes are ``lost``."""

    counts: tuple[int, ...]
    total: int

    @property
    def lost(self) -> int:
        return self.total - sum(self.counts)

    def house_edge(self, pays: Sequence[Fraction]) -> Fraction:
        """The exact edge of the bet paying ``pays``, line by line, to 1."""
        won = sum((count * pay for count, pay in zip(self.counts, pays, strict=True)), Fraction(0))
        return (self.lost - won) / self.total


def line_counts(bet: SideBet, shoe: ShoeSpec) -> LineCounts:
    """Each line's exact count of coups, read off the bet's analysis.

    The analysis names an outcome by its line's condition (no two lines of a side bet
    have the same one); a line that never holds (it asks the impossible, or only what
    earlier lines take) has no outcome and counts 0.
    """
    analysis = spot_analysis(bet.id, PuntoBancoRules(sidebets=(bet,)), shoe)
    by_name = {outcome.name: outcome.count for outcome in analysis.outcomes}
    counts = tuple(by_name.get(line.when.describe(), 0) for line in bet.lines)
    return LineCounts(counts, analysis.total)


def menu(pays: Fraction) -> tuple[Fraction, ...]:
    """The pays a line now paying ``pays`` is searched over, lowest first."""
    if pays == 0:
        return (Fraction(0),)
    step = Fraction(1, 2) if pays < HALVES_BELOW else Fraction(1)
    top = min(MENU_TIMES * pays, Fraction(MAX_PAY))
    steps = math.floor(top / step)
    return tuple(sorted({step * k for k in range(1, steps + 1)} | {pays}))


def thinned(values: tuple[Fraction, ...], keep: Fraction) -> tuple[Fraction, ...]:
    """About half of ``values``, evenly spread, always with both ends (the reach of the
    search: the least and the most the line may pay) and ``keep`` (the pay now)."""
    if len(values) <= 2:
        return (keep,)
    if len(values) == 3:
        return tuple(sorted({values[0] if keep != values[0] else values[-1], keep}))
    size = (len(values) + 1) // 2
    step = Fraction(len(values) - 1, size - 1)
    chosen = {values[round(step * k)] for k in range(size)} | {keep}
    return tuple(sorted(chosen))


@dataclass(frozen=True)
class SideBetDesign:
    """One candidate table: the side bet with its new pays, and its exact figures."""

    bet: SideBet
    analysis: BetAnalysis

    @property
    def house_edge(self) -> Fraction:
        return self.analysis.house_edge

    @property
    def pays(self) -> tuple[Fraction, ...]:
        return tuple(line.pays for line in self.bet.lines)


def _groups(menus: list[tuple[Fraction, ...]]) -> tuple[list[int], list[int]]:
    """The lines with a choice split in two groups of about equal numbers of tables,
    largest menus first (a line with one pay is no choice and in neither)."""
    first: list[int] = []
    second: list[int] = []
    sizes = [1, 1]
    chosen = [i for i in range(len(menus)) if len(menus[i]) > 1]
    for index in sorted(chosen, key=lambda i: -len(menus[i])):
        group = 0 if sizes[0] <= sizes[1] else 1
        (first, second)[group].append(index)
        sizes[group] *= len(menus[index])
    return first, second


def _tables(menus: list[tuple[Fraction, ...]], lines: list[int]) -> npt.NDArray[np.int16]:
    """Every choice of menu positions for ``lines``, one row each (menus are under 2¹⁵)."""
    if not lines:
        return np.zeros((1, 0), dtype=np.int16)
    grids = np.meshgrid(*(np.arange(len(menus[i]), dtype=np.int16) for i in lines), indexing="ij")
    return np.stack([grid.ravel() for grid in grids], axis=1)


def _searched_menus(bet: SideBet) -> list[tuple[Fraction, ...]]:
    """Each line's menu, thinned until neither group of lines exceeds :data:`GROUP_LIMIT`."""
    menus = [menu(line.pays) for line in bet.lines]
    while True:
        first, second = _groups(menus)
        if all(math.prod(len(menus[i]) for i in g) <= GROUP_LIMIT for g in (first, second)):
            return menus
        widest = max(range(len(menus)), key=lambda i: len(menus[i]))
        menus[widest] = thinned(menus[widest], bet.lines[widest].pays)


ON_TARGET = Fraction(1, 1_000_000)
"""By default, tables within 0.0001 % of the target edge (the precision it is printed to)
are all on target: of them, the one whose pays moved least from the bet's pays now comes
first."""

PAIRS = 1 << 22
"""The most pairs of tables on target scored at a time, to bound the memory (32 MiB)."""


@dataclass(frozen=True)
class _Group:
    """One group of lines: every choice of their pays, and what each returns and moves."""

    lines: list[int]
    tables: npt.NDArray[np.int16]
    won: npt.NDArray[np.float64]
    moved: npt.NDArray[np.float64]

    @classmethod
    def of(cls, lines: list[int], menus: list[tuple[Fraction, ...]], share: list[float],
           now: tuple[Fraction, ...]) -> _Group:  # fmt: skip
        tables = _tables(menus, lines)
        won = np.zeros(len(tables))
        moved = np.zeros(len(tables))
        for column, line in enumerate(lines):
            pays = np.array([float(pay) for pay in menus[line]])
            won += share[line] * pays[tables[:, column]]
            moved += np.abs(pays[tables[:, column]] - float(now[line])) / float(now[line])
        return cls(lines, tables, won, moved)


class _Nearest:
    """The ``keep`` best (row, column) pairs seen, by a score (lowest best), as a heap."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.heap: list[tuple[float, int, int]] = []  # (-score, i, j): the worst on top

    def offer(self, scores: npt.NDArray[np.float64], i: npt.NDArray[np.intp],
              j: npt.NDArray[np.intp]) -> None:  # fmt: skip
        take = min(self.keep, scores.size)
        if take == 0:
            return
        for k in np.argpartition(scores, take - 1)[:take]:
            item = (-float(scores[k]), int(i[k]), int(j[k]))
            if len(self.heap) < self.keep:
                heapq.heappush(self.heap, item)
            elif item > self.heap[0]:
                heapq.heapreplace(self.heap, item)


def design_sidebet(
    bet: SideBet,
    shoe: ShoeSpec,
    target_edge: Fraction,
    *,
    top: int = 5,
    within: Fraction = ON_TARGET,
) -> list[SideBetDesign]:
    """The ``top`` tables of ``bet``'s lines whose exact house edge is nearest ``target_edge``.

    Nearest first — but every table within ``within`` of the target is on target, and
    of those the one whose pays moved least from the pays now (in proportion, line by
    line) comes first: a designer wants the target with the smallest change to the
    felt, not whichever of thousands of tables is a billionth nearer.
    """
    if not Fraction(-1) < target_edge < Fraction(1):
        raise InvalidOption("target-edge", f"must be between -100% and 100%, got {target_edge}")
    if top < 1:
        raise InvalidOption("top", f"must be at least 1, got {top}")
    if not 0 <= within < 1:
        raise InvalidOption("within", f"must be in [0, 100%), got {within}")
    counts = line_counts(bet, shoe)
    menus = _searched_menus(bet)
    now = tuple(line.pays for line in bet.lines)
    share = [count / counts.total for count in counts.counts]
    first, second = (_Group.of(g, menus, share, now) for g in _groups(menus))
    order = np.argsort(second.won, kind="stable")
    right_won, right_moved = second.won[order], second.moved[order]
    fixed = sum(share[i] * float(menus[i][0]) for i in range(len(menus)) if len(menus[i]) == 1)
    # What the lines with a choice must return for the target: each left table needs
    # ``wanted - first.won`` from the right group.
    need = counts.lost / counts.total - float(target_edge) - fixed - first.won
    nearest, least_moved = _Nearest(20 * top), _Nearest(20 * top)
    offsets = np.arange(-2 * top, 2 * top)
    for start in range(0, len(need), CHUNK):
        rows = np.arange(start, min(start + CHUNK, len(need)))
        middle = np.searchsorted(right_won, need[rows])
        near = np.clip(middle[:, None] + offsets[None, :], 0, len(right_won) - 1)
        distance = np.abs(right_won[near] - need[rows, None])
        nearest.offer(distance.ravel(), np.repeat(rows, near.shape[1]), near.ravel())
    slack = float(within) + 1e-12  # in floats; the exact test comes after
    low = np.searchsorted(right_won, need - slack, side="left")
    lengths = np.searchsorted(right_won, need + slack, side="right") - low
    ends = np.cumsum(lengths)
    start = 0
    while start < len(need):  # rows whose pairs on target number at most PAIRS at a time
        base = ends[start] - lengths[start]
        stop = max(start + 1, int(np.searchsorted(ends, base + PAIRS, side="right")))
        rows = np.arange(start, stop)
        row_of = np.repeat(rows, lengths[rows])
        begins = np.repeat(ends[rows] - lengths[rows] - base, lengths[rows])
        columns = np.arange(len(row_of)) - begins + np.repeat(low[rows], lengths[rows])
        least_moved.offer(first.moved[row_of] + right_moved[columns], row_of, columns)
        start = stop
    chosen: dict[tuple[Fraction, ...], Fraction] = {}
    for _, i, j in nearest.heap + least_moved.heap:
        pays = [options[0] for options in menus]
        for group, row in ((first, i), (second, int(order[j]))):
            for column, line in enumerate(group.lines):
                pays[line] = menus[line][group.tables[row, column]]
        chosen[tuple(pays)] = counts.house_edge(pays)

    def moved(pays: tuple[Fraction, ...]) -> Fraction:
        return sum((abs(p - q) / q for p, q in zip(pays, now, strict=True) if q), Fraction(0))

    def rank(pays: tuple[Fraction, ...]) -> tuple[Fraction, Fraction, tuple[Fraction, ...]]:
        off = abs(chosen[pays] - target_edge)
        return (Fraction(0) if off <= within else off, moved(pays), pays)

    return [_evaluated(bet, pays, shoe) for pays in sorted(chosen, key=rank)[:top]]


def with_pays(bet: SideBet, pays: Sequence[Fraction]) -> SideBet:
    """``bet`` with its lines paying ``pays``: the same conditions and no published figure
    (one printed for the pays now says nothing of these). A shipped bet's design takes an
    id and a name of its own, so that it is never mistaken for the bet it came from."""
    lines = tuple(PayLine(line.when, pay) for line, pay in zip(bet.lines, pays, strict=True))
    if bet.id in SHIPPED.sidebets:
        return replace(bet, id=f"{bet.id}-designed", name=f"{bet.name} (designed)"[:MAX_NAME],
                       lines=lines, published=None)  # fmt: skip
    return replace(bet, lines=lines, published=None)


def _evaluated(bet: SideBet, pays: tuple[Fraction, ...], shoe: ShoeSpec) -> SideBetDesign:
    designed = with_pays(bet, pays)
    rules = PuntoBancoRules(sidebets=(designed,))
    return SideBetDesign(designed, spot_analysis(designed.id, rules, shoe))
