"""Exact distribution of the Bonus hand (best five of six cards) from any shoe.

The sample space is every six-card subset of the physical cards in the shoe —
C(52·D, 6) for a standard D-deck shoe — each equally likely. The count runs over the
18,564 multisets of six *ranks* instead of the subsets themselves:

* a hand whose six ranks make a multiset R is drawn in ∏ C(cards of rank r, k_r) ways;
* only a hand with five or six cards of one suit can be a flush, and those are
  counted directly: all six in suit s (∏ C(copies of (r, s), k_r)), or five in suit s
  and the sixth card, of rank r₀, in another suit;
* the rest of R's hands are decided by ranks alone.

The category of each piece follows from R (and the suited five) without looking at a
card, so the per-shoe work is a few array products. :mod:`baccara.exact.bonus_enumeration`
counts the same distribution independently, card multiset by card multiset, and tests
prove the two equal and equal to :func:`~baccara.games.bonus.best_category` over every
hand of small shoes.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from baccara.cards import ShoeComposition
from baccara.errors import InvalidOption
from baccara.exact.model import BetAnalysis, Outcome
from baccara.games.bonus import CATEGORIES, ROYAL, STRAIGHTS, Category, rank_category
from baccara.games.paytable import DEFAULT_PAYTABLE, Paytable

MAX_CARDS = 4_000
"""Shoes up to this many cards keep every count inside int64 (C(4000, 6) < 2⁶³)."""

_CODE = {category: index for index, category in enumerate(CATEGORIES)}


@dataclass(frozen=True)
class _RankTables:
    """Everything about the 18,564 rank multisets that does not depend on the shoe."""

    counts: npt.NDArray[np.int64]  # (M, 13) how many of each rank (index rank − 1)
    by_ranks: npt.NDArray[np.int64]  # (M,) category code from ranks alone, best of six
    six_suited: npt.NDArray[np.int64]  # (M,) category code when all six share a suit
    five_owner: npt.NDArray[np.intp]  # (F,) which multiset a suited-five row belongs to
    five_counts: npt.NDArray[np.int64]  # (F, 13) ranks of the suited five
    five_odd: npt.NDArray[np.intp]  # (F,) rank index of the sixth, off-suit card
    five_suited: npt.NDArray[np.int64]  # (F,) category code of that hand


def _with_flush(by_ranks: Category, straight_flush: Category | None) -> Category:
    """A hand holding a suited five: a straight flush if the five are a straight,
    otherwise a flush unless the ranks already make a full house or better."""
    if straight_flush is not None:
        return straight_flush
    return by_ranks if by_ranks.strength > Category.FLUSH.strength else Category.FLUSH


def _straight_flush(distinct_ranks: frozenset[int]) -> Category | None:
    if distinct_ranks >= ROYAL:
        return Category.ROYAL_FLUSH
    if any(straight <= distinct_ranks for straight in STRAIGHTS):
        return Category.STRAIGHT_FLUSH
    return None


@functools.cache
def _rank_tables() -> _RankTables:
    counts, by_ranks, six_suited = [], [], []
    five_owner, five_counts, five_odd, five_suited = [], [], [], []
    for index, ranks in enumerate(itertools.combinations_with_replacement(range(1, 14), 6)):
        row = [0] * 13
        for r in ranks:
            row[r - 1] += 1
        best = max(
            (rank_category(five) for five in itertools.combinations(ranks, 5)),
            key=lambda c: c.strength,
        )
        counts.append(row)
        by_ranks.append(_CODE[best])
        six_suited.append(_CODE[_with_flush(best, _straight_flush(frozenset(ranks)))])
        for odd in sorted(set(ranks)):
            suited = list(ranks)
            suited.remove(odd)
            suited_row = row.copy()
            suited_row[odd - 1] -= 1
            five_owner.append(index)
            five_counts.append(suited_row)
            five_odd.append(odd - 1)
            straight = _straight_flush(frozenset(suited)) if len(set(suited)) == 5 else None
            five_suited.append(_CODE[_with_flush(best, straight)])
    return _RankTables(
        counts=np.array(counts, dtype=np.int64),
        by_ranks=np.array(by_ranks, dtype=np.int64),
        six_suited=np.array(six_suited, dtype=np.int64),
        five_owner=np.array(five_owner, dtype=np.intp),
        five_counts=np.array(five_counts, dtype=np.int64),
        five_odd=np.array(five_odd, dtype=np.intp),
        five_suited=np.array(five_suited, dtype=np.int64),
    )


def _ways(available: npt.NDArray[np.int64], wanted: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """∏ over ranks of C(available[r], wanted[:, r]): ways to pick each row's cards."""
    table = np.array(
        [[math.comb(int(n), k) for k in range(7)] for n in available], dtype=np.int64
    )  # (13, 7)
    ways: npt.NDArray[np.int64] = np.prod(table[np.arange(13), wanted], axis=1)
    return ways


def category_counts(shoe: ShoeComposition) -> dict[Category, int]:
    """How many six-card subsets of ``shoe`` make each category, exactly."""
    return dict(_category_counts(shoe))


@functools.lru_cache(maxsize=128)
def _category_counts(shoe: ShoeComposition) -> tuple[tuple[Category, int], ...]:
    per_multiset = counts_by_rank_multiset(shoe)
    totals = [int(n) for n in per_multiset.sum(axis=0, dtype=object)]
    return tuple(zip(CATEGORIES, totals, strict=True))


def rank_multisets() -> npt.NDArray[np.int64]:
    """The 18,564 multisets of six ranks, as cards held of each rank (shape (M, 13), Ace first).

    Rows are in ``combinations_with_replacement`` order of the ranks, the order of
    :func:`counts_by_rank_multiset`'s rows.
    """
    counts: npt.NDArray[np.int64] = _rank_tables().counts
    return counts


def counts_by_rank_multiset(shoe: ShoeComposition) -> npt.NDArray[np.int64]:
    """Six-card subsets of ``shoe`` per (rank multiset, category), shape (18,564, 11).

    Row ``m`` splits the subsets whose ranks are :func:`rank_multisets` row ``m`` by
    category (columns in :data:`~baccara.games.bonus.CATEGORIES` order): the plain
    ones by ranks alone, the six-suited and five-suited ones by their flush. The
    column sums are :func:`category_counts`; RedGreen's joint distribution
    (:mod:`baccara.exact.joint_redgreen`) needs the rows.
    """
    if shoe.total > MAX_CARDS:
        raise InvalidOption(
            "decks", f"the Bonus is counted exactly for shoes of up to {MAX_CARDS} cards"
        )
    tables = _rank_tables()
    copies = np.array(shoe.copies, dtype=np.int64)  # (13, 4)
    per_rank = copies.sum(axis=1)
    all_ways = _ways(per_rank, tables.counts)
    six = np.zeros_like(all_ways)
    five = np.zeros(len(tables.five_owner), dtype=np.int64)
    for suit in range(4):
        six += _ways(copies[:, suit], tables.counts)
        off_suit = per_rank[tables.five_odd] - copies[tables.five_odd, suit]
        five += _ways(copies[:, suit], tables.five_counts) * off_suit
    five_per_owner = np.zeros_like(all_ways)
    np.add.at(five_per_owner, tables.five_owner, five)
    plain = all_ways - six - five_per_owner
    per_multiset = np.zeros((len(all_ways), len(CATEGORIES)), dtype=np.int64)
    rows = np.arange(len(all_ways))
    np.add.at(per_multiset, (rows, tables.by_ranks), plain)
    np.add.at(per_multiset, (rows, tables.six_suited), six)
    np.add.at(per_multiset, (tables.five_owner, tables.five_suited), five)
    return per_multiset


def bonus_bet(counts: dict[Category, int], paytable: Paytable) -> BetAnalysis:
    """The Bonus bet under ``paytable``: one outcome per paying category, then ``lose``."""
    total = sum(counts.values())
    outcomes = [Outcome(c.value, counts[c], total, paytable.pays[c]) for c in paytable.paying]
    losing = sum(n for c, n in counts.items() if c not in paytable.pays)
    outcomes.append(Outcome("lose", losing, total, Fraction(-1)))
    return BetAnalysis("bonus", tuple(outcomes))


def analyze_bonus_bet(decks: int = 7, paytable: Paytable | None = None) -> BetAnalysis:
    """The Bonus bet dealt from a standard ``decks``-deck shoe (the seed's seven by default)."""
    table = paytable if paytable is not None else DEFAULT_PAYTABLE
    return bonus_bet(category_counts(ShoeComposition.standard(decks)), table)
