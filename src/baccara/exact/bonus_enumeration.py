"""A second, independent exact count of the Bonus hand: card multiset by card multiset.

Where :mod:`baccara.exact.bonus` reasons about rank multisets and suited fives,
this module simply lists every multiset of six of the 52 card faces — for one deck
the 20,358,520 hands themselves, for more decks all C(57, 6) = 36,288,252 multisets —
calls each with a vectorised evaluator that looks at the actual cards, and weighs
it by the number of physical hands behind it, ∏ C(copies of the face, times it occurs).

It takes seconds, not milliseconds; it exists to be compared with the fast count.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from baccara.cards import ShoeComposition
from baccara.games.bonus import CATEGORIES, Category

_CODE = {category: index for index, category in enumerate(CATEGORIES)}
_WINDOWS = [sum(1 << ((low + i) % 13) for i in range(5)) for low in range(10)]
"""Straights as 13-bit rank masks (bit 0 = Ace … bit 12 = King): A-2-3-4-5 … 10-J-Q-K-A (last)."""


def categories_of(faces: npt.NDArray[np.integer]) -> npt.NDArray[np.int64]:
    """Category codes (indexing :data:`~baccara.games.bonus.CATEGORIES`) of six-card hands.

    ``faces`` has shape ``(n, 6)``, each row sorted; a face is ``rank_index * 4 +
    suit_index`` with rank index 0 for the Ace. Ranks are tracked as bit masks per
    suit, and repeated ranks as run lengths along the sorted row.
    """
    n = len(faces)
    rows = np.arange(n)
    rank = (faces // 4).astype(np.int32)
    suit = (faces % 4).astype(np.intp)
    by_suit = np.zeros((n, 4), dtype=np.int32)  # rank mask held in each suit
    in_suit = np.zeros((n, 4), dtype=np.int8)  # cards held in each suit
    run = np.ones(n, dtype=np.int8)
    most = np.ones(n, dtype=np.int8)
    pairs = np.zeros(n, dtype=np.int8)  # ranks held at least twice
    trips = np.zeros(n, dtype=np.int8)  # ranks held at least three times
    for j in range(faces.shape[1]):
        by_suit[rows, suit[:, j]] |= np.left_shift(1, rank[:, j])
        in_suit[rows, suit[:, j]] += 1
        if j:
            run = np.where(rank[:, j] == rank[:, j - 1], run + 1, 1).astype(np.int8)
            most = np.maximum(most, run)
            pairs += run == 2
            trips += run == 3
    present = by_suit[:, 0] | by_suit[:, 1] | by_suit[:, 2] | by_suit[:, 3]
    straight = np.zeros(n, dtype=bool)
    straight_flush = np.zeros(n, dtype=bool)
    royal = np.zeros(n, dtype=bool)
    for index, window in enumerate(_WINDOWS):
        straight |= (present & window) == window
        suited_run = ((by_suit & window) == window).any(axis=1)
        straight_flush |= suited_run
        if index == 9:
            royal = suited_run
    flush = in_suit.max(axis=1) >= 5
    full_house = (trips >= 1) & (pairs >= 2)
    code = np.select(
        [
            royal,
            straight_flush,
            most >= 5,
            most == 4,
            full_house,
            flush,
            straight,
            most == 3,
            pairs >= 2,
            pairs == 1,
        ],
        [
            _CODE[Category.ROYAL_FLUSH],
            _CODE[Category.STRAIGHT_FLUSH],
            _CODE[Category.FIVE_OF_A_KIND],
            _CODE[Category.FOUR_OF_A_KIND],
            _CODE[Category.FULL_HOUSE],
            _CODE[Category.FLUSH],
            _CODE[Category.STRAIGHT],
            _CODE[Category.THREE_OF_A_KIND],
            _CODE[Category.TWO_PAIR],
            _CODE[Category.PAIR],
        ],
        default=_CODE[Category.HIGH_CARD],
    )
    return code.astype(np.int64)


@functools.cache
def _tails(length: int, repeats: bool) -> npt.NDArray[np.int16]:
    """All non-decreasing (or increasing) sequences of ``length`` faces, as offsets ≥ 0."""
    make = itertools.combinations_with_replacement if repeats else itertools.combinations
    return np.array(list(make(range(52), length)), dtype=np.int16).reshape(-1, length)


def _multisets(repeats: bool) -> Iterator[npt.NDArray[np.int16]]:
    """Chunks of six-face multisets (or sets), sorted within each row, by first two faces."""
    tail = _tails(4, repeats)
    pairs = (
        itertools.combinations_with_replacement(range(52), 2)
        if repeats
        else itertools.combinations(range(52), 2)
    )
    for first, second in pairs:
        low = second if repeats else second + 1
        rest = tail[tail[:, 0] >= low]
        if len(rest) == 0:
            continue
        head = np.broadcast_to(np.array([first, second], dtype=np.int16), (len(rest), 2))
        yield np.hstack([head, rest])


def _weights(
    faces: npt.NDArray[np.integer], copies: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """∏ C(copies of face, times it occurs) for sorted rows, as exact int64."""
    numerator = np.ones(len(faces), dtype=np.int64)
    denominator = np.ones(len(faces), dtype=np.int64)
    earlier = np.zeros(len(faces), dtype=np.int64)  # equal faces just before this one
    for j in range(faces.shape[1]):
        if j:
            earlier = np.where(faces[:, j] == faces[:, j - 1], earlier + 1, 0)
        numerator *= copies[faces[:, j]] - earlier
        denominator *= earlier + 1
    return numerator // denominator


def category_counts_by_enumeration(shoe: ShoeComposition) -> dict[Category, int]:
    """The Bonus distribution of ``shoe``, by listing every multiset of six card faces."""
    # Face index rank_index * 4 + suit_index, matching categories_of.
    copies = np.array([n for row in shoe.copies for n in row], dtype=np.int64)
    single = int(copies.max()) <= 1
    totals = [0] * len(CATEGORIES)
    for chunk in _multisets(repeats=not single):
        weights = _weights(chunk, copies)
        keep = weights > 0
        if not keep.any():
            continue
        codes = categories_of(chunk[keep])
        kept = weights[keep]
        for code in range(len(CATEGORIES)):
            totals[code] += int(kept[codes == code].sum())
    assert sum(totals) == math.comb(shoe.total, 6)
    return dict(zip(CATEGORIES, totals, strict=True))
