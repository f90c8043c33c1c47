"""Casino Lo-Ball dealt round after round in compiled code, for one seated player.

The set of 28 tiles is reshuffled before every round (seed 001), so there is no
continuous mode. Nine tiles come off the top — the dealer's three, the player's
three, then the three that are exposed when the player does not hold both 1-1 and
7-7 — then three dice are rolled, in the order
:func:`~baccara.games.loball.deal_round` uses. The exact analysis proved that the
number of seated players changes no bet, so one seat stands for all.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from baccara.cards import ShoeMode
from baccara.errors import InvalidOption
from baccara.exact.loball import DICE_OUTCOMES, MAIN_NAMES, TILE_OUTCOMES
from baccara.games.loball import (
    DICE_HI_TOTALS,
    DICE_LO_TOTALS,
    EXPOSED,
    HAND_SIZE,
    HI_TILE,
    LO_TILE,
    MAX_POINTS,
    Bet,
    LoBallRules,
    MainOutcome,
)
from baccara.sim.compiled import compiled, compiled_inline
from baccara.sim.dealer import Dealer
from baccara.sim.kernels.pile import draw
from baccara.sim.kernels.rng import below
from baccara.tiles import TILE_SET

BETS: tuple[str, ...] = tuple(b.value for b in Bet)
OUTCOMES: tuple[tuple[str, ...], ...] = (
    tuple(MAIN_NAMES[o] for o in MainOutcome),
    TILE_OUTCOMES,
    TILE_OUTCOMES,
    DICE_OUTCOMES,
    DICE_OUTCOMES,
)
DEALT = 2 * HAND_SIZE + EXPOSED
"""Tiles taken off the top each round: dealer, player, and the three that may be exposed."""

LOW = np.array([t.low for t in TILE_SET], dtype=np.int8)
HIGH = np.array([t.high for t in TILE_SET], dtype=np.int8)
LO = TILE_SET.index(LO_TILE)
HI = TILE_SET.index(HI_TILE)
_MAIN = list(MainOutcome)
WIN_BONUS, WIN = _MAIN.index(MainOutcome.WIN_BONUS), _MAIN.index(MainOutcome.WIN)
PLAY_BONUS, LOSE = _MAIN.index(MainOutcome.PLAY_BONUS), _MAIN.index(MainOutcome.LOSE)
LO_DICE = (DICE_LO_TOTALS.start, DICE_LO_TOTALS.stop - 1)
HI_DICE = (DICE_HI_TOTALS.start, DICE_HI_TOTALS.stop - 1)


def new_set() -> npt.NDArray[np.int8]:
    """The 28 tiles as indices into ``TILE_SET``."""
    return np.arange(len(TILE_SET), dtype=np.int8)


@compiled_inline
def _points(tiles: npt.NDArray[np.int8], first: int, numbers: npt.NDArray[np.int8]) -> int:
    """Sum of the numbers that appear exactly once on tiles ``first .. first + 2``."""
    for k in range(first, first + HAND_SIZE):
        numbers[LOW[tiles[k]]] += 1
        numbers[HIGH[tiles[k]]] += 1
    total = 0
    for number in range(1, 8):
        if numbers[number] == 1:
            total += number
        numbers[number] = 0
    return total


@compiled_inline
def _tile_code(tiles: npt.NDArray[np.int8], tile: int) -> int:
    """win / push (exposed) / lose (dealer holds it) / lose (not dealt), for seat 1."""
    for k in range(HAND_SIZE, 2 * HAND_SIZE):
        if tiles[k] == tile:
            return 0
    for k in range(2 * HAND_SIZE, DEALT):
        if tiles[k] == tile:
            return 1
    for k in range(HAND_SIZE):
        if tiles[k] == tile:
            return 2
    return 3


@compiled_inline
def _dice_code(d1: int, d2: int, d3: int, low: int, high: int) -> int:
    """win / lose (triple) / lose."""
    if d1 == d2 == d3:
        return 1
    total = d1 + d2 + d3
    return 0 if low <= total <= high else 2


@compiled_inline
def below_6(state: npt.NDArray[np.uint64]) -> int:
    """One die: 1 to 6."""
    return below(state, 6) + 1


@compiled
def deal(
    state: npt.NDArray[np.uint64], tiles: npt.NDArray[np.int8], codes: npt.NDArray[np.int8]
) -> None:
    """Deal ``len(codes)`` rounds into ``codes`` (rounds × 5: main, lo-card, hi-card, dice)."""
    numbers = np.zeros(8, dtype=np.int8)
    for i in range(codes.shape[0]):
        for k in range(DEALT):
            draw(state, tiles, k)
        dealer = _points(tiles, 0, numbers)
        player = _points(tiles, HAND_SIZE, numbers)
        if player == MAX_POINTS:
            codes[i, 0] = PLAY_BONUS
        elif player < dealer:
            codes[i, 0] = WIN_BONUS if player == 0 else WIN
        else:
            codes[i, 0] = LOSE
        codes[i, 1] = _tile_code(tiles, LO)
        codes[i, 2] = _tile_code(tiles, HI)
        d1 = below_6(state)
        d2 = below_6(state)
        d3 = below_6(state)
        codes[i, 3] = _dice_code(d1, d2, d3, LO_DICE[0], LO_DICE[1])
        codes[i, 4] = _dice_code(d1, d2, d3, HI_DICE[0], HI_DICE[1])


def dealer(game_id: str, rules: LoBallRules, shoe: ShoeMode, penetration: float) -> Dealer:
    """This kernel; the payouts in ``rules`` change no deal. There is no continuous shoe."""
    if shoe is ShoeMode.CONTINUOUS:
        raise InvalidOption(
            "shoe",
            "Lo-Ball reshuffles its 28 tiles before every round (seed 001),"
            " so there is no continuous shoe to deal",
        )

    def deal_block(
        state: npt.NDArray[np.uint64],
        codes: npt.NDArray[np.int8],
        tags: npt.NDArray[np.int16],
        shown: npt.NDArray[np.int32],
    ) -> None:
        # The tile set is reshuffled every round: there is never anything to count.
        deal(state, new_set(), codes)

    return Dealer(game_id, BETS, OUTCOMES, deal_block)
