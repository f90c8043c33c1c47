"""The kernels' deals in plain Python, through the rules code the live tables use.

Each function deals one block of rounds from the same shoe procedure as its kernel —
:class:`~baccara.sim.kernels.pile.Pile` with :class:`~baccara.sim.kernels.rng.XoshiroRandom`
seeded for (seed, block) — but calls every round with the games' own functions
(``deal_coup``, ``deal_round``, ``best_category``, ``round_from_stack``…) and names each
bet's outcome as the analysis does (a Punto Banco bet by ``spot_result`` on the coup's
facts, whatever the rule set and side bets). Slow and obvious on purpose: the tests require
the kernels to give the same names round by round, and the benchmark times it.

>>> next(plain_rounds("lo-ball", seed=1, block=0, rounds=1))[0] in ("win", "lose", "win-bonus (0 points)", "play-bonus (27 points)")
True
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from baccara import games
from baccara.cards import Card, standard_deck
from baccara.exact.loball import MAIN_NAMES
from baccara.games import loball, punto_banco, redgreen
from baccara.games.bonus import best_category
from baccara.money import BetResult
from baccara.sim.kernels.pile import Pile
from baccara.sim.kernels.rng import XoshiroRandom, block_state
from baccara.sim.roles import plain_rounds_of
from baccara.tiles import TILE_SET, Tile, roll_dice

ROUND_CARDS = 6


def _reshuffle_if_due(pile: Pile[Card], continuous: bool, cut: int) -> None:
    """Every round, or in a continuous shoe at the cut card or when six cards are not left."""
    if not continuous or pile.position >= cut or pile.left < ROUND_CARDS:
        pile.reshuffle()


def punto_banco_rounds(
    rng: XoshiroRandom,
    rounds: int,
    continuous: bool,
    penetration: float,
    rules: punto_banco.PuntoBancoRules,
) -> Iterator[tuple[str, ...]]:
    pile = Pile(standard_deck() * rules.decks, rng)
    cut = round(len(pile.items) * penetration)
    for _ in range(rounds):
        _reshuffle_if_due(pile, continuous, cut)
        facts = punto_banco.deal_coup(pile).facts
        yield tuple(punto_banco.outcome_name(spot, facts, rules) for spot in rules.bet_ids)


def redgreen_rounds(
    rng: XoshiroRandom,
    rounds: int,
    continuous: bool,
    penetration: float,
    rules: redgreen.RedGreenRules,
) -> Iterator[tuple[str, ...]]:
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
    rng: XoshiroRandom,
    rounds: int,
    continuous: bool,
    penetration: float,
    rules: loball.LoBallRules,
) -> Iterator[tuple[str, ...]]:
    """A fresh shuffle each round: nine tiles off the top (all one seat can see), then the dice."""
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
    spec = games.game(game)
    rng = XoshiroRandom(block_state(seed, block))
    return plain_rounds_of(
        spec, rng, rounds, continuous, penetration, spec.rules_from_options(**options)
    )
