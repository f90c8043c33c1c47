"""Every Punto Banco bet's outcome as a table over the coup's facts, for the kernel.

Whatever bets a table offers — the main bets under any rule set, any side bets a file
defines — each settles on the coup's :class:`~baccara.games.coup_terms.CoupFacts`
alone (:func:`~baccara.games.punto_banco.spot_result`). So the compiled kernel knows
no bet: it deals each coup and finds one number, the coup's *fact id*, and a
:class:`CoupTable` built here in Python — by calling ``spot_result`` on every set of
facts a coup can have — holds each bet's outcome code for each id. One compiled
function then serves every bet file, and adding side bets adds no work per coup when
a run only counts (the ids are tallied, the tally spread over the bets once a block).

A fact id packs the facts as :mod:`baccara.exact.coup_facts` does: the value facts
``((pt·10 + bt)·2 + p3)·2 + b3``, times 4, plus ``pn + 2·bn`` (the final totals,
whether each hand drew, whether each has a natural), then times 16 plus the pair flags
``pp + 2·bp + 4·ps + 8·bs`` (pair and suited pair, Player then Banker).

Outcomes are named as the exact analysis names them
(:func:`baccara.exact.coup_bets.spot_analysis`): a pay line by its condition, else
``win``, ``push`` or ``lose``; so a code reads as the analysis's outcome of that
name, and a bet's outcomes are exactly those its facts can give from the shoe.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from baccara.errors import BaccaraError
from baccara.exact.coup_facts import Level, fact_counts
from baccara.games.coup_terms import CoupFacts
from baccara.games.punto_banco import PuntoBancoRules, outcome_name, outcome_order

FACT_IDS = 1600 * 16
"""Fact ids run from 0 to this, exclusive: 1,600 value codes times 16 pair-flag states."""


def fact_id(facts: CoupFacts) -> int:
    """The id the kernel writes for a coup with these facts."""
    value = (facts.player_total * 10 + facts.banker_total) * 2 + (facts.player_cards - 2)
    value = (value * 2 + (facts.banker_cards - 2)) * 4
    value += facts.player_natural + 2 * facts.banker_natural
    flags = facts.player_pair + 2 * facts.banker_pair
    flags += 4 * facts.player_suited_pair + 8 * facts.banker_suited_pair
    return value * 16 + flags


@functools.cache
def possible_facts(decks: int) -> tuple[CoupFacts, ...]:
    """Every set of facts a coup dealt from ``decks`` full decks can have, in id order.

    From the exact count by rank (:func:`~baccara.exact.coup_facts.fact_counts`, a
    hundredth of a second), each pair split into suited or not: two of the same card
    need two decks, and any pair of a rank can be of one card twice when there are.
    A test proves this equal to the exact count card by card, for one deck and two.
    """
    suited = (False, True) if decks >= 2 else (False,)
    found = set()
    for facts in fact_counts(decks, Level.RANKS):
        for player in suited if facts.player_pair else (False,):
            for banker in suited if facts.banker_pair else (False,):
                found.add(
                    dataclasses.replace(facts, player_suited_pair=player, banker_suited_pair=banker)
                )
    return tuple(sorted(found, key=fact_id))


@dataclass(frozen=True, eq=False)
class CoupTable:
    """Each bet's outcome code for every fact id a coup from the shoe can have.

    ``codes[f, j]`` is bet ``bets[j]``'s outcome, an index into ``outcomes[j]``, on a
    coup of fact id ``f``; the row of an id no coup can have is all -1, which the
    kernel refuses rather than read as an outcome. ``spread`` sends a tally of fact
    ids to every bet's outcomes at once: column ``offsets[j] + k`` is outcome ``k`` of
    bet ``j``.
    """

    bets: tuple[str, ...]
    outcomes: tuple[tuple[str, ...], ...]
    codes: npt.NDArray[np.int8]
    spread: npt.NDArray[np.int64]
    offsets: tuple[int, ...]

    @property
    def possible(self) -> npt.NDArray[np.bool_]:
        """Whether a coup can have each fact id."""
        possible: npt.NDArray[np.bool_] = self.codes[:, 0] >= 0
        return possible

    def count(self, tally: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """How often each outcome of each bet came (bets × most outcomes), from how often
        each fact id came: the tally spread over every bet at once, in exact integers."""
        possible = self.possible
        wrong = np.flatnonzero(tally * ~possible)
        if len(wrong):
            raise _impossible(int(wrong[0]))
        flat = tally[possible] @ self.spread
        counts = np.zeros((len(self.bets), max(map(len, self.outcomes))), dtype=np.int64)
        for j, names in enumerate(self.outcomes):
            counts[j, : len(names)] = flat[self.offsets[j] : self.offsets[j] + len(names)]
        return counts


def _impossible(fact: int) -> BaccaraError:
    """An id no coup can have: the kernel is wrong, and its row would read as some
    outcome rather than fail."""
    return BaccaraError(f"the kernel dealt a coup no shoe deals (fact id {fact})")


def coup_table(decks: int, columns: Sequence[tuple[str, PuntoBancoRules]]) -> CoupTable:
    """The table of the bets ``columns`` names, each a spot and the rules that settle it,
    over every coup ``decks`` decks can deal.

    A table's bets are usually one set of rules' :attr:`~PuntoBancoRules.bet_ids`
    (:func:`table_for`); naming each column's rules lets a benchmark put more side bets
    side by side than one table offers.
    """
    facts = possible_facts(decks)
    ids = np.array([fact_id(f) for f in facts], dtype=np.intp)
    codes = np.full((FACT_IDS, len(columns)), -1, dtype=np.int8)
    outcomes = []
    for j, (spot, rules) in enumerate(columns):
        names = [outcome_name(spot, f, rules) for f in facts]
        order = tuple(name for name in dict.fromkeys(outcome_order(spot, rules)) if name in names)
        codes[ids, j] = [order.index(name) for name in names]
        outcomes.append(order)
    offsets = tuple(int(n) for n in np.cumsum([0, *map(len, outcomes)])[:-1])
    spread = np.zeros((len(ids), sum(map(len, outcomes))), dtype=np.int64)
    for j, offset in enumerate(offsets):
        spread[np.arange(len(ids)), offset + codes[ids, j]] = 1
    return CoupTable(tuple(spot for spot, _ in columns), tuple(outcomes), codes, spread, offsets)


@functools.lru_cache(maxsize=16)
def table_for(rules: PuntoBancoRules) -> CoupTable:
    """The table of every bet a table with ``rules`` takes, main bets first."""
    return coup_table(rules.decks, [(spot, rules) for spot in rules.bet_ids])
