"""The one registry of games: every game id baccara deals, and where each part of it lives.

Every consumer — the exact analysis, the simulator, effect of removal, the deal
command, the live table and the server — looks a game up here and nowhere else.
Adding a game is one entry below (and the modules it names).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from baccara.errors import UnknownGame
from baccara.games import loball, punto_banco, redgreen
from baccara.games.spec import Equipment, GameSpec, TableFacts

PUNTO_BANCO = GameSpec(
    id=punto_banco.GAME_ID,
    name="Punto Banco",
    seed="003_4b8f832d65a052b4.txt",
    doc="docs/punto-banco.md",
    rules=punto_banco.PuntoBancoRules,
    bets=punto_banco.Bet,
    outcome=punto_banco.Winner,
    table=TableFacts(seats=7, dealers=1, equipment=Equipment.CARDS, seat_required=False),
    analyzer="baccara.exact.punto_banco:analyze",
    removal="baccara.exact.punto_banco:effect_of_removal",
    kernel="baccara.sim.kernels.punto_banco:dealer",
    plain_kernel="baccara.sim.kernels.plain:punto_banco_rounds",
    playthrough="baccara.render.playthrough:punto_banco_round",
)
"""Eight decks reshuffled before every hand; seven seats, and anyone may bet behind."""

REDGREEN = GameSpec(
    id=redgreen.GAME_ID,
    name="RedGreen",
    seed="000_864575d53969f986.txt",
    doc="docs/redgreen.md",
    rules=redgreen.RedGreenRules,
    bets=redgreen.Bet,
    outcome=redgreen.Winner,
    table=TableFacts(
        seats=12,
        dealers=3,
        equipment=Equipment.CARDS,
        seat_required=True,
        seats_per_side=6,
        highest_bettor_may_peek=True,
        players_touch_cards=True,
    ),
    analyzer="baccara.exact.redgreen:analyze",
    removal="baccara.exact.redgreen:effect_of_removal",
    kernel="baccara.sim.kernels.redgreen:dealer",
    plain_kernel="baccara.sim.kernels.plain:redgreen_rounds",
    playthrough="baccara.render.playthrough:redgreen_round",
)
"""Baccarat RedGreen, first version: three dealers, six players a side, the highest bettor may peek."""

MINI_REDGREEN = dataclasses.replace(
    REDGREEN,
    id=redgreen.MINI_GAME_ID,
    name="Mini RedGreen",
    table=TableFacts(
        seats=7,
        dealers=1,
        equipment=Equipment.CARDS,
        seat_required=True,
        highest_bettor_chooses_first_hand=True,
        second_hand_exposed_card_by_card=True,
    ),
)
"""Baccarat Mini RedGreen: one dealer, nobody touches the cards, the highest bettor picks the first hand.

Everything but the table is the first version's: the same cards are dealt and set the
same way, so the rules, the analysis and the kernel are shared.
"""

LO_BALL = GameSpec(
    id=loball.GAME_ID,
    name="Lo-Ball",
    seed="001_1ad528cf80dbde07.txt",
    doc="docs/lo-ball.md",
    rules=loball.LoBallRules,
    bets=loball.Bet,
    outcome=loball.MainOutcome,
    table=TableFacts(
        seats=loball.MAX_PLAYERS,
        dealers=1,
        equipment=Equipment.TILES_AND_DICE,
        seat_required=True,
    ),
    analyzer="baccara.exact.loball:analyze",
    removal="baccara.exact.loball:effect_of_removal",
    kernel="baccara.sim.kernels.loball:dealer",
    plain_kernel="baccara.sim.kernels.plain:loball_rounds",
    playthrough="baccara.render.playthrough:loball_round",
)
"""Casino Lo-Ball Baccarat: 28 tiles, up to seven players each against the dealer, three dice."""

GAMES: Mapping[str, GameSpec] = {
    spec.id: spec for spec in (PUNTO_BANCO, REDGREEN, MINI_REDGREEN, LO_BALL)
}
"""Every game, by id, in the order they are listed to users."""


def game(game_id: str) -> GameSpec:
    """The spec of ``game_id``; an unknown id raises :class:`~baccara.errors.UnknownGame`."""
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):  # TypeError: an unhashable id, a list or a dict
        raise UnknownGame(game_id, tuple(GAMES)) from None


def game_ids() -> tuple[str, ...]:
    return tuple(GAMES)
