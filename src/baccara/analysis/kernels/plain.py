"""The kernels' deals in plain Python, through the rules code the live tables use.

Each function deals one block of rounds from the same shoe procedure as its kernel —
:class:`~baccara.analysis.kernels.pile.Pile` with :class:`~baccara.analysis.kernels.rng.XoshiroRandom`
seeded for (seed, block) — but calls every round with the games' own functions
(``deal_coup``, ``deal_round``, ``best_category``, ``round_from_stack``…) and names each
bet's outcome as the analysis does. Slow and obvious on purpose: the tests require
the kernels to give the same names round by round, and the benchmark times it.

>>> next(plain_rounds("lo-ball", seed=1, block=0, rounds=1))[0] in ("win", "lose", "win-bonus (0 points)", "play-bonus (27 points)")
True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from baccara.analysis.kernels.pile import Pile
from baccara.analysis.kernels.rng import XoshiroRandom, block_state
from baccara.analysis.loball import MAIN_NAMES
from baccara.analysis.redgreen import redgreen_rules
from baccara.cards import Card, standard_deck
from baccara.errors import UnknownGame
from baccara.games import loball, punto_banco, redgreen
from baccara.games.bonus import best_category
from baccara.money import BetResult
from baccara.tiles import TILE_SET, Tile, roll_dice

ROUND_CARDS = 6


def _reshuffle_if_due(pile: Pile[Card], continuous: bool, cut: int) -> None:
    """Every round, or in a continuous shoe at the cut card or when six cards are not left."""
    if not continuous or pile.position >= cut or pile.left < ROUND_CARDS:
        pile.reshuffle()


def punto_banco_rounds(
    rng: XoshiroRandom, rounds: int, continuous: bool, penetration: float, **options: Any
) -> Iterator[tuple[str, ...]]:
    rules = punto_banco.PuntoBancoRules.from_options(**options)
    pile = Pile(standard_deck() * rules.decks, rng)
    cut = round(len(pile.items) * penetration)
    for _ in range(rounds):
        _reshuffle_if_due(pile, continuous, cut)
        coup = punto_banco.deal_coup(pile)
        yield tuple(punto_banco.bet_result(bet, coup).value for bet in punto_banco.Bet)


def redgreen_rounds(
    rng: XoshiroRandom, rounds: int, continuous: bool, penetration: float, **options: Any
) -> Iterator[tuple[str, ...]]:
    rules = redgreen_rules(**options)
    pile = Pile(standard_deck() * rules.decks, rng)
    cut = round(len(pile.items) * penetration)
    for _ in range(rounds):
        _reshuffle_if_due(pile, continuous, cut)
        round_ = redgreen.deal_round(pile, rules)
        category = best_category((*round_.red_cards, *round_.green_cards))
        yield (
            redgreen.bet_result(redgreen.Bet.RED, round_).value,
            redgreen.bet_result(redgreen.Bet.GREEN, round_).value,
            category.value if category in rules.paytable.pays else "lose",
        )


def _tile_outcome(round_: loball.Round, tile: Tile) -> str:
    result = loball.tile_bet_result(round_, 1, tile)
    if result is BetResult.WIN:
        return "win"
    if result is BetResult.PUSH:
        return "push (exposed)"
    return "lose (dealer holds it)" if tile in round_.dealer else "lose (not dealt)"


def _dice_outcome(bet: loball.Bet, dice: tuple[int, ...]) -> str:
    if len(set(dice)) == 1:
        return "lose (triple)"
    return loball.dice_result(bet, dice).value


def loball_rounds(
    rng: XoshiroRandom, rounds: int, continuous: bool, penetration: float, **options: Any
) -> Iterator[tuple[str, ...]]:
    """A fresh shuffle each round: nine tiles off the top (all one seat can see), then the dice."""
    loball.LoBallRules.from_options(**options)
    pile = Pile(TILE_SET, rng)
    for _ in range(rounds):
        pile.reshuffle()
        for _ in range(2 * loball.HAND_SIZE + loball.EXPOSED):
            pile.draw()
        round_ = loball.round_from_stack(pile.items, 1, roll_dice(rng))
        yield (
            MAIN_NAMES[loball.seat_main_outcome(round_, 1)],
            _tile_outcome(round_, loball.LO_TILE),
            _tile_outcome(round_, loball.HI_TILE),
            _dice_outcome(loball.Bet.DICE_LO, round_.dice),
            _dice_outcome(loball.Bet.DICE_HI, round_.dice),
        )


_GAMES = {
    "punto-banco": punto_banco_rounds,
    "redgreen": redgreen_rounds,
    "redgreen-mini": redgreen_rounds,
    "lo-ball": loball_rounds,
}


def plain_rounds(
    game: str,
    seed: int,
    block: int,
    rounds: int,
    *,
    continuous: bool = False,
    penetration: float = 0.8,
    **options: Any,
) -> Iterator[tuple[str, ...]]:
    """Block ``block`` of the run seeded ``seed``, round by round: each bet's outcome name."""
    try:
        deal = _GAMES[game]
    except KeyError:
        raise UnknownGame(game, tuple(_GAMES)) from None
    return deal(XoshiroRandom(block_state(seed, block)), rounds, continuous, penetration, **options)
