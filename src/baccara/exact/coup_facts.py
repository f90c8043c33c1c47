"""Exact counts of what a Punto Banco coup is to its bets: :class:`CoupFacts` over a shoe.

Every side bet and rule set baccara reads from a file is a condition on a coup's facts
(:mod:`baccara.games.coup_terms`) — totals, cards, winner, margin, naturals, pairs —
so one table of how many ordered six-card sequences give each set of facts settles
every such bet exactly, for any shoe. The sample space is the main bets' (every
ordered sequence of six cards, used by the coup or not), so every bet's figures are
over the same total.

The count goes as :mod:`baccara.exact.punto_banco`'s does, in two parts:

* the ordered four-card openings, over the card *kinds* the bets need to tell apart
  — the ten values, or the 13 ranks if a bet reads pairs, or the 52 cards if one reads
  suited pairs (:class:`Level`) — grouped by the values they hold, the two hands'
  scores and their pairs, each group weighted exactly by falling factorials of the
  shoe's counts;
* the fifth and sixth cards by value, weighted by what each group leaves in the shoe,
  through a 10⁴-entry table of what the rules make of (Player score, Banker score,
  fifth card, sixth card) (:func:`value_facts_table`), which a test proves against
  :func:`~baccara.games.punto_banco.deal_coup` on every one of its inputs.

:func:`fact_counts_by_rules` is the plain enumeration, card by card through
``deal_coup``; tests prove both give the same counts on small shoes at every level.
"""

from __future__ import annotations

import enum
import functools
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from baccara.cards import Card, Rank, ShoeComposition, ShoeSpec, Suit, composition
from baccara.errors import InvalidCards
from baccara.games.coup_terms import RANK_TERMS, SUITED_TERMS, CoupFacts
from baccara.games.punto_banco import BANKER_DRAWS_UP_TO, Coup, deal_coup

MAX_CARDS = 5_200
"""The largest shoe counted, a hundred decks: an opening's weight, at most the fourth
power of the cards of one kind, then fits in 64 bits."""


class Level(enum.Enum):
    """How finely the count tells cards apart: no finer than the bets read."""

    VALUES = 10
    """Baccarat values 0–9: totals, cards, winners, margins and naturals."""
    RANKS = 13
    """Ranks: pairs too (a ten and a king score alike but do not pair)."""
    CARDS = 52
    """Rank and suit: suited pairs too."""

    @classmethod
    def for_terms(cls, terms: Iterable[str]) -> Level:
        """The coarsest level that tells apart everything ``terms`` read."""
        read = set(terms)
        if read & SUITED_TERMS:
            return cls.CARDS
        if read & RANK_TERMS:
            return cls.RANKS
        return cls.VALUES


def _kinds(shoe: ShoeComposition, level: Level) -> tuple[list[int], list[int], list[int]]:
    """Per kind at ``level``: how many the shoe holds, its value, and its rank (for pairs)."""
    if level is Level.CARDS:
        counts = [n for row in shoe.copies for n in row]
        ranks = [r for r in range(13) for _ in range(4)]
    elif level is Level.RANKS:
        counts = [sum(row) for row in shoe.copies]
        ranks = list(range(13))
    else:
        counts = [0] * 10
        for rank, row in zip(Rank, shoe.copies, strict=True):
            counts[rank.baccarat_value] += sum(row)
        return counts, list(range(10)), list(range(10))
    values = [Rank(r + 1).baccarat_value for r in ranks]
    return counts, values, ranks


@functools.cache
def value_facts_table() -> npt.NDArray[np.int16]:
    """What the rules make of (Player score, Banker score, fifth card, sixth card).

    Entry ``[p, b, c5, c6]`` packs the Player's and Banker's final totals, whether each
    drew a third card, and whether each has a natural: ``((pt·10 + bt)·2 + p3)·2 + b3``,
    times 4, plus ``pn + 2·bn``. The same rules as :func:`~baccara.exact.punto_banco.winners`.
    """
    tableau = np.array([BANKER_DRAWS_UP_TO[v] for v in range(10)], dtype=np.int16)
    p, b, c5, c6 = np.indices((10,) * 4, dtype=np.int16)
    pn, bn = p >= 8, b >= 8
    natural = pn | bn
    p3 = ~natural & (p <= 5)
    b3 = ~natural & np.where(p3, b <= tableau[c5], b <= 5)
    pt = np.where(p3, (p + c5) % 10, p)
    bt = np.where(b3, (b + np.where(p3, c6, c5)) % 10, b)
    packed = (((pt * 10 + bt) * 2 + p3) * 2 + b3) * 4 + pn + 2 * bn
    table: npt.NDArray[np.int16] = packed.astype(np.int16)
    return table


def falling(n: int, k: int) -> int:
    """``n·(n−1)·…·(n−k+1)``: ordered ways to take ``k`` of ``n`` distinct cards."""
    return math.perm(n, k) if 0 <= k <= n else 0


def plain_coups(cards: Sequence[Card], counts: Sequence[int]) -> Iterator[tuple[Coup, int]]:
    """Every coup a shoe deals, card by card through :func:`deal_coup`, with how many
    ordered six-card sequences deal it (the fifth and sixth cards counted whether the
    coup draws them or not). The shoe holds ``counts[k]`` cards dealt alike, each shown
    by ``cards[k]``. The plain enumeration the fast counts are proven against."""
    remaining = list(counts)
    total_cards = sum(remaining)

    def extend(prefix: list[Card], weight: int) -> Iterator[tuple[Coup, int]]:
        if len(prefix) >= 4:
            try:
                coup = deal_coup(prefix)
            except InvalidCards:
                pass  # the rules want another card
            else:
                if len(coup.cards) == len(prefix):
                    yield coup, weight * falling(total_cards - len(prefix), 6 - len(prefix))
                    return
        for kind, card in enumerate(cards):
            if remaining[kind]:
                ways = remaining[kind]
                remaining[kind] -= 1
                prefix.append(card)
                yield from extend(prefix, weight * ways)
                prefix.pop()
                remaining[kind] += 1

    yield from extend([], 1)


def _facts_of(code: int, flags: int) -> CoupFacts:
    """The facts packed as :func:`value_facts_table` and :func:`_openings` pack them."""
    naturals, code = code % 4, code // 4
    b3, code = code % 2, code // 2
    p3, code = code % 2, code // 2
    return CoupFacts(
        player_total=code // 10,
        banker_total=code % 10,
        player_cards=2 + p3,
        banker_cards=2 + b3,
        player_natural=bool(naturals & 1),
        banker_natural=bool(naturals & 2),
        player_pair=bool(flags & 1),
        banker_pair=bool(flags & 2),
        player_suited_pair=bool(flags & 4),
        banker_suited_pair=bool(flags & 8),
    )


def _openings(
    counts: list[int], values: list[int], ranks: list[int], level: Level
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[Any]]:
    """The ordered four-card openings grouped by (values held, scores, pairs).

    Returns per group the values it holds (``(g, 10)``), a key packing the two scores
    and the pair flags (``ps·10 + bs``, times 16, plus the flags), and its weight: the
    ordered ways to deal its openings from the shoe, exactly.
    """
    k = len(counts)
    n = np.array(counts, dtype=np.int64)
    value = np.array(values, dtype=np.int64)
    rank = np.array(ranks, dtype=np.int64)
    second, third, fourth = (axis.ravel() for axis in np.indices((k,) * 3, dtype=np.int64))
    keys, sums = [], []
    for first in range(k):  # one first card at a time: 52³ rows, not 52⁴, in memory at once
        if not n[first]:
            continue
        f2 = n[second] - (second == first)
        f3 = n[third] - (third == first) - (third == second)
        f4 = n[fourth] - (fourth == first) - (fourth == second) - (fourth == third)
        possible = (f2 > 0) & (f3 > 0) & (f4 > 0)
        b, c, d = second[possible], third[possible], fourth[possible]
        # At most MAX_CARDS of a kind: their fourth power fits in 64 bits.
        weight = n[first] * f2[possible] * f3[possible] * f4[possible]
        v1, v2, v3, v4 = value[first], value[b], value[c], value[d]
        player, banker = (v1 + v3) % 10, (v2 + v4) % 10
        flags = np.zeros(len(b), dtype=np.int64)
        if level is not Level.VALUES:
            flags += (rank[first] == rank[c]) + 2 * (rank[b] == rank[d])
        if level is Level.CARDS:
            flags += 4 * (c == first) + 8 * (b == d)
        held = 5**v1 + 5**v2 + 5**v3 + 5**v4  # each value at most four times: base 5
        key_chunk = (held * 100 + player * 10 + banker) * 16 + flags
        found, total = _grouped(key_chunk, weight)
        keys.append(found)
        sums.append(total)
    group_keys, weights = _grouped(np.concatenate(keys), np.concatenate(sums))
    packed_held = group_keys // 1600
    held_counts = (packed_held[:, None] // 5 ** np.arange(10, dtype=np.int64)) % 5
    return held_counts, group_keys % 1600, weights


def _grouped(
    key: npt.NDArray[np.int64], weight: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each distinct key once, with the weights of its rows summed (sorted by key)."""
    order = np.argsort(key, kind="stable")
    key, weight = key[order], weight[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]) if len(key) else key[:0]
    return key[starts], (np.add.reduceat(weight, starts) if len(starts) else weight[:0])


def fact_counts(shoe: ShoeSpec, level: Level = Level.CARDS) -> dict[CoupFacts, int]:
    """Ordered six-card sequences of ``shoe`` by the facts of the coup they deal, exactly.

    Facts the ``level`` cannot tell apart are counted as absent: at
    :attr:`Level.VALUES` no coup has a pair, at :attr:`Level.RANKS` none a suited one.
    """
    shoe = composition(shoe)
    if shoe.total > MAX_CARDS:
        raise InvalidCards(f"at most {MAX_CARDS:,} cards (a hundred decks); the shoe holds"
                           f" {shoe.total:,}")  # fmt: skip
    if shoe.total < 6:
        raise InvalidCards(
            f"a coup needs six cards in the shoe to count over; it holds {shoe.total}"
        )
    counts, values, ranks = _kinds(shoe, level)
    held, keys, weights = _openings(counts, values, ranks, level)
    per_value = np.zeros(10, dtype=np.int64)
    for n, v in zip(counts, values, strict=True):
        per_value[v] += n
    left = per_value[None, :] - held  # (g, 10)
    later = left[:, :, None] * (left[:, None, :] - np.eye(10, dtype=np.int64))  # (g, 10, 10)
    scores, flags = keys // 16, keys % 16
    table = value_facts_table().astype(np.int64)
    codes = table[scores // 10, scores % 10]  # (g, 10, 10)
    fact_ids = (codes * 16 + flags[:, None, None]).ravel()
    big = falling(shoe.total, 6) >= 2**62
    if big:
        amounts = (weights.astype(object)[:, None, None] * later.astype(object)).ravel()
        totals: Counter[int] = Counter()
        for fact_id, amount in zip(fact_ids.tolist(), amounts.tolist(), strict=True):
            if amount:
                totals[fact_id] += amount
        found = dict(totals)
    else:
        amounts = (weights.astype(np.int64)[:, None, None] * later).ravel()
        size = int(table.max() + 1) * 16
        acc = np.zeros(size, dtype=np.int64)
        np.add.at(acc, fact_ids, amounts)
        found = {int(i): int(acc[i]) for i in np.flatnonzero(acc)}
    return {_facts_of(fact_id // 16, fact_id % 16): n for fact_id, n in found.items()}


def fact_counts_by_rules(shoe: ShoeSpec, level: Level = Level.CARDS) -> dict[CoupFacts, int]:
    """The plain way: every ordered sequence of card kinds, dealt through ``deal_coup``.

    Slow and obvious on purpose (a small shoe only) — what :func:`fact_counts` is
    proven against. Kinds the ``level`` does not tell apart are one representative card.
    """
    shoe = composition(shoe)
    counts, values, ranks = _kinds(shoe, level)
    suits = list(Suit)
    cards = [
        Card(Rank(ranks[k] + 1) if level is not Level.VALUES else _rank_of_value(values[k]),
             suits[k % 4] if level is Level.CARDS else Suit.SPADES)
        for k in range(len(counts))
    ]  # fmt: skip
    result: Counter[CoupFacts] = Counter()
    for coup, ways in plain_coups(cards, counts):
        result[_at_level(coup.facts, level)] += ways
    return dict(result)


def _rank_of_value(value: int) -> Rank:
    return Rank(value) if value else Rank.TEN


def _at_level(facts: CoupFacts, level: Level) -> CoupFacts:
    """``facts`` as ``level`` sees them (pairs it cannot tell are absent)."""
    if level is Level.CARDS:
        return facts
    pairs = level is Level.RANKS
    return CoupFacts(
        facts.player_total, facts.banker_total, facts.player_cards, facts.banker_cards,
        facts.player_natural, facts.banker_natural,
        facts.player_pair and pairs, facts.banker_pair and pairs, False, False,
    )  # fmt: skip


def total_of(counts: Mapping[CoupFacts, int]) -> int:
    return sum(counts.values())


__all__ = ["Level", "fact_counts", "fact_counts_by_rules", "total_of", "value_facts_table"]
