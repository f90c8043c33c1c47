"""Punto Banco dealt round after round in compiled code, by the drawing rules of seed 003.

The kernel knows no bet. It deals each coup and finds its *fact id* — the totals, the
cards each hand took, the naturals, the pairs and suited pairs, packed as
:mod:`baccara.sim.kernels.coup_outcomes` packs them — then copies that id's row of a
:class:`~baccara.sim.kernels.coup_outcomes.CoupTable` built from the rules: every
bet's outcome code. So the one compiled function deals the classic game, EZ Baccarat,
No-Commission and any side bet a file defines, and a run that only counts tallies the
ids, once a coup however many bets the table has.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from baccara.cards import ShoeMode, standard_deck
from baccara.errors import BaccaraError
from baccara.games.punto_banco import BANKER_DRAWS_UP_TO, PuntoBancoRules
from baccara.sim.compiled import compiled
from baccara.sim.dealer import NO_TAGS, NOT_SHOWN, Dealer
from baccara.sim.kernels.coup_outcomes import FACT_IDS, CoupTable, table_for
from baccara.sim.kernels.pile import draw, new_shoe, tally

ROUND_CARDS = 6
"""The most cards a coup can take; a continuous shoe is reshuffled before it runs short."""

_DECK = standard_deck()
VALUES = np.array([c.rank.baccarat_value for c in _DECK], dtype=np.int8)
"""Baccarat value of each card index (the position in :func:`~baccara.cards.standard_deck`)."""
RANKS = np.array([int(c.rank) for c in _DECK], dtype=np.int8)
TABLEAU = np.array([BANKER_DRAWS_UP_TO[v] for v in range(10)], dtype=np.int8)
NO_CODES = np.zeros((0, 0), dtype=np.int8)
"""No rows: the kernel writes no bet's code."""
NO_FACTS = np.zeros(0, dtype=np.int16)
"""No rows: the kernel writes no coup's fact id."""
NO_TALLY = np.zeros(0, dtype=np.int64)
"""No entries: the kernel tallies nothing."""


@compiled
def deal(
    state: npt.NDArray[np.uint64],
    shoe: npt.NDArray[np.int8],
    rounds: int,
    cut: int,
    continuous: bool,
    tags: npt.NDArray[np.int16],
    shown: npt.NDArray[np.int32],
    outcomes: npt.NDArray[np.int8],
    codes: npt.NDArray[np.int8],
    seen: npt.NDArray[np.int64],
    facts: npt.NDArray[np.int16],
) -> int:
    """Deal ``rounds`` coups and record each by its fact id, in whichever of three ways
    is asked for by giving it rows: every bet's code into ``codes`` (the row of the
    ``outcomes`` table for that id), the id counted in ``seen``, the id into ``facts``.

    Returns -1, or the first coup whose id has no row in ``outcomes`` (a coup no shoe
    deals: written codes stop there, as the kernel would be wrong).

    Reshuffled every round unless ``continuous``; a continuous shoe is reshuffled
    before a coup once ``cut`` cards are out or fewer than six are left. The shoe
    starts full. When ``shown`` has rows, a card counter's view before each coup is
    written there: (running count of ``tags`` since the shuffle, cards left).
    """
    n = len(shoe)
    position = 0
    running = 0  # the count of the cards dealt since the shuffle, when a count is kept
    counting = shown.shape[0] > 0
    reading = codes.shape[0] > 0
    tallying = seen.shape[0] > 0
    writing = facts.shape[0] > 0
    for i in range(rounds):
        if not continuous or position >= cut or n - position < ROUND_CARDS:
            position = 0
            running = 0
        start = position
        if counting:
            shown[i, 0] = running
            shown[i, 1] = n - position
        p1 = draw(state, shoe, position)
        b1 = draw(state, shoe, position + 1)
        p2 = draw(state, shoe, position + 2)
        b2 = draw(state, shoe, position + 3)
        position += 4
        player = (VALUES[p1] + VALUES[p2]) % 10
        banker = (VALUES[b1] + VALUES[b2]) % 10
        naturals = (player >= 8) + 2 * (banker >= 8)
        player_drew = 0
        banker_drew = 0
        if naturals == 0:
            if player <= 5:
                third = VALUES[draw(state, shoe, position)]
                position += 1
                player = (player + third) % 10
                player_drew = 1
                banker_hits = banker <= TABLEAU[third]
            else:
                banker_hits = banker <= 5
            if banker_hits:
                banker = (banker + VALUES[draw(state, shoe, position)]) % 10
                position += 1
                banker_drew = 1
        flags = (RANKS[p1] == RANKS[p2]) + 2 * (RANKS[b1] == RANKS[b2])
        flags += 4 * (p1 == p2) + 8 * (b1 == b2)
        value = (((player * 10 + banker) * 2 + player_drew) * 2 + banker_drew) * 4 + naturals
        fact = value * 16 + flags
        if reading:
            if outcomes[fact, 0] < 0:
                return i
            for j in range(codes.shape[1]):
                codes[i, j] = outcomes[fact, j]
        if tallying:
            seen[fact] += 1
        if writing:
            facts[i] = fact
        if counting:
            running += tally(shoe, start, position, tags)
    return -1


def dealer(game_id: str, rules: PuntoBancoRules, shoe: ShoeMode, penetration: float) -> Dealer:
    """This kernel dealing ``rules.decks`` decks, reshuffled every round or to the cut card,
    its coups read by every bet ``rules`` offers."""
    return table_dealer(game_id, rules.decks, table_for(rules), shoe, penetration)


def table_dealer(
    game_id: str, decks: int, table: CoupTable, shoe: ShoeMode, penetration: float
) -> Dealer:
    """The kernel dealing ``decks`` decks, its coups read by the bets of ``table``."""
    cut = round(52 * decks * penetration)
    continuous = shoe is ShoeMode.CONTINUOUS

    def deal_block(
        state: npt.NDArray[np.uint64],
        codes: npt.NDArray[np.int8],
        tags: npt.NDArray[np.int16],
        shown: npt.NDArray[np.int32],
    ) -> None:
        wrong = deal(state, new_shoe(decks), len(codes), cut, continuous, tags, shown,
                     table.codes, codes, NO_TALLY, NO_FACTS)  # fmt: skip
        if wrong >= 0:
            raise BaccaraError(f"the kernel dealt a coup no shoe deals, in round {wrong}")

    def count_block(state: npt.NDArray[np.uint64], rounds: int) -> npt.NDArray[np.int64]:
        seen = np.zeros(FACT_IDS, dtype=np.int64)
        deal(state, new_shoe(decks), rounds, cut, continuous, NO_TAGS, NOT_SHOWN,
             table.codes, NO_CODES, seen, NO_FACTS)  # fmt: skip
        return table.count(seen)

    return Dealer(game_id, table.bets, table.outcomes, deal_block, count_block)
