"""Casino Lo-Ball at the table: tiles to the dealer and each seat, the exposure rule, dice.

The dealer takes three tiles, then each seat with a bet, in seat order; when the
players between them do not hold both 1-1 and 7-7, three unused tiles are exposed
for the Lo-Card and Hi-Card bets; then three dice are rolled. That is the order
``games.loball.deal_round`` deals a shuffled set in, so an electronic round and its
provably-fair re-deal agree tile for tile. An electronic round deals the hands face
down and turns them hand by hand; only then are the exposed tiles (if the rule wants
them) and the dice shown, as at a real table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from baccara.errors import InvalidCards
from baccara.games import loball as rules_of
from baccara.games.loball import Bet, LoBallRules
from baccara.randomness import RandomSource
from baccara.table.events import Payout
from baccara.table.procedures.base import Dealt, Item, Step, Wager, ordered, to_payout
from baccara.tiles import Tile, roll_dice, shuffled_tiles


def _positions(prefix: str, count: int) -> tuple[str, ...]:
    return tuple(f"{prefix}.{i}" for i in range(count))


def _hands(seats: Sequence[int]) -> tuple[str, ...]:
    return ("dealer", *(f"seat{seat}" for seat in seats))


class LoBallProcedure:
    live_face_up = True

    def item(self, position: str) -> Item:
        return Item.DIE if position.startswith("dice.") else Item.TILE

    def needs(self, dealt: Dealt, seats: Sequence[int]) -> tuple[str, ...]:
        missing = tuple(p for p in self.opening(seats) if p not in dealt)
        if missing:
            return missing
        held = [
            rules_of.Hand(tuple(Tile.parse(t) for t in ordered(dealt, f"seat{seat}")))
            for seat in seats
        ]
        exposed = _positions("exposed", rules_of.EXPOSED) if rules_of.exposure_needed(held) else ()
        dice = _positions("dice", rules_of.DICE)
        return tuple(p for p in (*exposed, *dice) if p not in dealt)

    def deal(
        self, rng: RandomSource, seats: Sequence[int], rules: LoBallRules
    ) -> list[tuple[str, str]]:
        stack = iter(shuffled_tiles(rng))
        dealt: dict[str, str] = {}
        while needed := self.needs(dealt, seats):
            if needed[0].startswith("dice."):
                break
            dealt[needed[0]] = str(next(stack))
        for position, die in zip(_positions("dice", rules_of.DICE), roll_dice(rng), strict=True):
            dealt[position] = str(die)
        return list(dealt.items())

    def opening(self, seats: Sequence[int]) -> tuple[str, ...]:
        return tuple(p for hand in _hands(seats) for p in _positions(hand, rules_of.HAND_SIZE))

    def steps(self, dealt: Dealt, first_hand: str | None) -> list[Step]:
        groups: dict[str, list[str]] = {}
        for position in dealt:
            groups.setdefault(position.split(".")[0], []).append(position)
        return [Step(tuple(group)) for group in groups.values()]

    def set_hand(self, hand: str, dealt: Dealt, rules: Any) -> tuple[str, tuple[str, str], str]:
        raise InvalidCards("Lo-Ball hands are not set")

    def squeeze_of(
        self, position: str, first_hand: str | None
    ) -> tuple[str, tuple[str, ...]] | None:
        return None  # tiles are turned by the table

    def settle(
        self, dealt: Dealt, wagers: Sequence[Wager], seats: Sequence[int], rules: LoBallRules
    ) -> tuple[dict[str, Any], list[Payout]]:
        round_ = rules_of.round_from_tiles(
            ordered(dealt, "dealer"),
            [ordered(dealt, f"seat{seat}") for seat in seats],
            ordered(dealt, "exposed"),
            [int(d) for d in ordered(dealt, "dice")],
        )
        index = {seat: i for i, seat in enumerate(seats, start=1)}
        hands = " · ".join(
            f"seat {seat} {round_.players[i - 1]} ({round_.players[i - 1].points})"
            for seat, i in index.items()
        )
        exposed = " ".join(str(t) for t in round_.exposed) or "none"
        result: dict[str, Any] = {
            "call": f"Dealer {round_.dealer} ({round_.dealer.points}) · {hands}"
            f" · exposed {exposed} · dice {'-'.join(str(d) for d in round_.dice)}",
            "dealer_points": round_.dealer.points,
            "seats": {
                str(seat): {
                    "points": round_.players[i - 1].points,
                    "main": rules_of.seat_main_outcome(round_, i).value,
                }
                for seat, i in index.items()
            },
            "exposed": [str(t) for t in round_.exposed],
            "dice": list(round_.dice),
            "dice_total": sum(round_.dice),
        }
        payouts = []
        for wager in wagers:
            assert wager.seat is not None, "every Lo-Ball bet has a seat"
            settled = rules_of.settle_bet(
                Bet(wager.spot), wager.amount, round_, index[wager.seat], rules
            )
            payouts.append(to_payout(wager, settled))
        return result, payouts


PROCEDURE = LoBallProcedure()
