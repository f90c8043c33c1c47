"""RedGreen and Mini RedGreen at the table: two community hands, set by the house way.

Three cards to Red, then three to Green, face down. The first version then offers
the highest bettor a peek at the hand they backed, and exposes and sets both hands
together; Mini RedGreen lets the highest bettor choose which hand is set first, turns
that hand up and sets it, then turns the other one card at a time before setting it.
The round reads which version it runs from the game's table facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from baccara.cards import Shoe
from baccara.games import redgreen as rules_of
from baccara.games.bonus import best_category
from baccara.games.redgreen import Bet, RedGreenRules
from baccara.randomness import RandomSource
from baccara.table.events import Payout
from baccara.table.procedures.base import Dealt, Item, Step, Wager, cards, ordered, to_payout

HANDS = ("red", "green")
POSITIONS = tuple(f"{hand}.{i}" for hand in HANDS for i in range(rules_of.HAND_SIZE))


def other(hand: str) -> str:
    return "green" if hand == "red" else "red"


def hand_positions(hand: str) -> tuple[str, ...]:
    return tuple(f"{hand}.{i}" for i in range(rules_of.HAND_SIZE))


class RedGreenProcedure:
    live_face_up = False

    def item(self, position: str) -> Item:
        return Item.CARD

    def needs(self, dealt: Dealt, seats: Sequence[int]) -> tuple[str, ...]:
        return tuple(p for p in POSITIONS if p not in dealt)

    def deal(
        self, rng: RandomSource, seats: Sequence[int], rules: RedGreenRules
    ) -> list[tuple[str, str]]:
        shoe = Shoe(rules.decks, rng)
        return [(position, shoe.draw().code) for position in POSITIONS]

    def opening(self, seats: Sequence[int]) -> tuple[str, ...]:
        return POSITIONS

    def steps(self, dealt: Dealt, first_hand: str | None) -> list[Step]:
        if first_hand is None:  # first version: both hands turned and set together
            return [Step(POSITIONS, HANDS)]
        second = hand_positions(other(first_hand))
        return [
            Step(hand_positions(first_hand), (first_hand,)),
            *(Step((p,)) for p in second[:-1]),
            Step(second[-1:], (other(first_hand),)),
        ]

    def set_hand(
        self, hand: str, dealt: Dealt, rules: RedGreenRules
    ) -> tuple[str, tuple[str, str], str]:
        setting = rules_of.house_way(cards(ordered(dealt, hand)), rules)
        return setting.front.code, (setting.back[0].code, setting.back[1].code), setting.rule.value

    def squeeze_of(
        self, position: str, first_hand: str | None
    ) -> tuple[str, tuple[str, ...]] | None:
        if first_hand is None or not position.startswith(f"{other(first_hand)}."):
            return None  # the first version's peek, and Mini's hand set first, are not squeezed
        return other(first_hand), hand_positions(other(first_hand))

    def settle(
        self, dealt: Dealt, wagers: Sequence[Wager], seats: Sequence[int], rules: RedGreenRules
    ) -> tuple[dict[str, Any], list[Payout]]:
        round_ = rules_of.round_from_cards(
            cards(ordered(dealt, "red")), cards(ordered(dealt, "green")), rules
        )
        six = (*round_.red_cards, *round_.green_cards)
        category = best_category(six)
        result: dict[str, Any] = {
            "call": f"{round_.describe()} · Bonus hand {category.label}",
            "winner": round_.winner.value,
        }
        for name, setting in (("red", round_.red), ("green", round_.green)):
            result[name] = {
                "cards": [
                    c.code for c in (round_.red_cards if name == "red" else round_.green_cards)
                ],
                "front": setting.front.code,
                "back": [c.code for c in setting.back],
                "rule": setting.rule.value,
            }
        result["bonus_category"] = category.value
        payouts = []
        for wager in wagers:
            bet = Bet(wager.spot)
            settled = rules_of.settle_bet(bet, wager.amount, round_, rules)
            commission = rules.commission if bet is not Bet.BONUS else 0
            payouts.append(to_payout(wager, settled, commission))
        return result, payouts


PROCEDURE = RedGreenProcedure()
