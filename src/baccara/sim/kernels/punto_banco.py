"""Punto Banco dealt round after round in compiled code, by the drawing rules of seed 003.

Codes per round, in :data:`BETS` order, index each bet's outcomes as the exact
analysis names them (:data:`OUTCOMES`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from baccara.cards import ShoeMode, standard_deck
from baccara.games.punto_banco import BANKER_DRAWS_UP_TO, Bet, PuntoBancoRules
from baccara.sim.compiled import compiled
from baccara.sim.dealer import Dealer
from baccara.sim.kernels.pile import draw, new_shoe, tally

BETS: tuple[str, ...] = tuple(b.value for b in Bet)
OUTCOMES: tuple[tuple[str, ...], ...] = (
    ("win", "push", "lose"),
    ("win", "push", "lose"),
    ("win", "lose"),
    ("win", "lose"),
    ("win", "lose"),
)
ROUND_CARDS = 6
"""The most cards a coup can take; a continuous shoe is reshuffled before it runs short."""

_DECK = standard_deck()
VALUES = np.array([c.rank.baccarat_value for c in _DECK], dtype=np.int8)
"""Baccarat value of each card index (the position in :func:`~baccara.cards.standard_deck`)."""
RANKS = np.array([int(c.rank) for c in _DECK], dtype=np.int8)
TABLEAU = np.array([BANKER_DRAWS_UP_TO[v] for v in range(10)], dtype=np.int8)


@compiled
def deal(
    state: npt.NDArray[np.uint64],
    shoe: npt.NDArray[np.int8],
    codes: npt.NDArray[np.int8],
    cut: int,
    continuous: bool,
    tags: npt.NDArray[np.int16],
    shown: npt.NDArray[np.int32],
) -> None:
    """Deal ``len(codes)`` coups into ``codes`` (rounds × 5).

    Reshuffled every round unless ``continuous``; a continuous shoe is reshuffled
    before a coup once ``cut`` cards are out or fewer than six are left. The shoe
    starts full. When ``shown`` has rows, a card counter's view before each coup is
    written there: (running count of ``tags`` since the shuffle, cards left).
    """
    n = len(shoe)
    position = 0
    running = 0  # the count of the cards dealt since the shuffle, when a count is kept
    counting = shown.shape[0] > 0
    for i in range(codes.shape[0]):
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
        if player < 8 and banker < 8:
            if player <= 5:
                third = VALUES[draw(state, shoe, position)]
                position += 1
                player = (player + third) % 10
                banker_hits = banker <= TABLEAU[third]
            else:
                banker_hits = banker <= 5
            if banker_hits:
                banker = (banker + VALUES[draw(state, shoe, position)]) % 10
                position += 1
        if banker > player:
            codes[i, 0], codes[i, 1], codes[i, 2] = 0, 2, 1
        elif player > banker:
            codes[i, 0], codes[i, 1], codes[i, 2] = 2, 0, 1
        else:
            codes[i, 0], codes[i, 1], codes[i, 2] = 1, 1, 0
        codes[i, 3] = 0 if RANKS[p1] == RANKS[p2] else 1
        codes[i, 4] = 0 if RANKS[b1] == RANKS[b2] else 1
        if counting:
            running += tally(shoe, start, position, tags)


def dealer(game_id: str, rules: PuntoBancoRules, shoe: ShoeMode, penetration: float) -> Dealer:
    """This kernel dealing ``rules.decks`` decks, reshuffled every round or to the cut card."""
    cut = round(52 * rules.decks * penetration)
    continuous = shoe is ShoeMode.CONTINUOUS

    def deal_block(
        state: npt.NDArray[np.uint64],
        codes: npt.NDArray[np.int8],
        tags: npt.NDArray[np.int16],
        shown: npt.NDArray[np.int32],
    ) -> None:
        deal(state, new_shoe(rules.decks), codes, cut, continuous, tags, shown)

    return Dealer(game_id, BETS, OUTCOMES, deal_block)
