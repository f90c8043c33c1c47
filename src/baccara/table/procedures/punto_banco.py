"""Punto Banco at the table: the tableau, card by card.

Cards go Player, Banker, Player, Banker; after the fourth, the third-card rule says
whether the Player draws a fifth and whether the Banker draws after him — so a live
dealer is asked for exactly the cards the rules want, and an electronic deal takes
exactly those off the top of the shuffled shoe (the order ``deal_coup`` deals in).
An electronic round deals the first four face down and turns them one at a time,
then deals any third card face up, as a real table does; a live dealer's cards are
turned as they are entered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from baccara.cards import Card, Shoe
from baccara.errors import InvalidCards
from baccara.games import punto_banco as rules_of
from baccara.games.punto_banco import PuntoBancoRules
from baccara.randomness import RandomSource
from baccara.table.events import Payout
from baccara.table.procedures.base import Dealt, Item, Step, Wager, cards, ordered, to_payout

OPENING = ("player.0", "banker.0", "player.1", "banker.1")


class PuntoBancoProcedure:
    live_face_up = True

    def item(self, position: str) -> Item:
        return Item.CARD

    def needs(self, dealt: Dealt, seats: Sequence[int]) -> tuple[str, ...]:
        missing = tuple(p for p in OPENING if p not in dealt)
        if missing:
            return missing
        player, banker = cards(ordered(dealt, "player")), cards(ordered(dealt, "banker"))
        player_score, banker_score = rules_of.score(player[:2]), rules_of.score(banker[:2])
        if player_score >= 8 or banker_score >= 8:
            return ()
        third: Card | None = None
        if rules_of.player_draws(player_score):
            if len(player) < 3:
                return ("player.2",)
            third = player[2]
        if rules_of.banker_draws(banker_score, third) and len(banker) < 3:
            return ("banker.2",)
        return ()

    def deal(
        self, rng: RandomSource, seats: Sequence[int], rules: PuntoBancoRules
    ) -> list[tuple[str, str]]:
        shoe = Shoe(rules.decks, rng)
        dealt: dict[str, str] = {}
        while needed := self.needs(dealt, seats):
            dealt[needed[0]] = shoe.draw().code
        return list(dealt.items())

    def opening(self, seats: Sequence[int]) -> tuple[str, ...]:
        return OPENING

    def steps(self, dealt: Dealt, first_hand: str | None) -> list[Step]:
        return [Step((position,)) for position in dealt]

    def set_hand(self, hand: str, dealt: Dealt, rules: Any) -> tuple[str, tuple[str, str], str]:
        raise InvalidCards("Punto Banco hands are not set")

    def squeeze_of(
        self, position: str, first_hand: str | None
    ) -> tuple[str, tuple[str, ...]] | None:
        hand, _, index = position.partition(".")
        if index == "2":  # a third card is dealt after both hands are seen: squeezed alone
            return hand, (position,)
        return hand, (f"{hand}.0", f"{hand}.1")

    def settle(
        self, dealt: Dealt, wagers: Sequence[Wager], seats: Sequence[int], rules: PuntoBancoRules
    ) -> tuple[dict[str, Any], list[Payout]]:
        coup = rules_of.coup_from_cards(cards(list(dealt.values())))
        result = {
            "call": coup.describe(),
            "winner": coup.winner.value,
            "player": [c.code for c in coup.player],
            "banker": [c.code for c in coup.banker],
            "player_score": coup.player_score,
            "banker_score": coup.banker_score,
            "natural": coup.natural,
            "player_pair": coup.player_pair,
            "banker_pair": coup.banker_pair,
        }
        payouts = []
        for wager in wagers:
            settled = rules_of.settle_spot(wager.spot, wager.amount, coup, rules)
            commission = rules_of.commission_charged(wager.spot, coup, rules)
            payouts.append(to_payout(wager, settled, commission))
        return result, payouts


PROCEDURE = PuntoBancoProcedure()
