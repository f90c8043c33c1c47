"""Casino Lo-Ball Baccarat (seed 001), read with the project's rule notes.

One set of 28 tiles, every pair ``a-b`` with ``1 <= a <= b <= 7``, reshuffled before
every round. The dealer and each of one to seven players get three tiles. A hand
scores the sum of the numbers that appear exactly once among its six numbers, so
points run 0–27 and *fewer* is better:

* ``main``: the player wins with fewer points than the dealer, paid 1:1, or 3:2 with
  zero points (the Win-bonus). Equal or more points lose. A hand of exactly 27 loses
  the wager but is also paid the Play-bonus of 2:1 on it — net +1 unit.
* ``lo-card`` / ``hi-card``: win 7:1 when the player holds 1-1 (7-7). If no player
  holds it, three unused tiles are exposed: the tile among them pushes the bet;
  anywhere else (the dealer's hand, another player's, still unused) it loses.
* ``dice-lo`` / ``dice-hi``: three dice; a total of 4–10 (11–17) wins 1:1 and any
  triple loses both.

Every payout is a rule option, so a designer can see what each one does to the edge.
The same functions deal electronic rounds (:func:`deal_round`, from a secure
shuffle), call rounds a live dealer entered (:func:`round_from_tiles`, which refuses
duplicates, wrong counts and unknown tiles) and are enumerated by the exact analysis.

>>> points([Tile(1, 2), Tile(2, 3), Tile(4, 5)])
13
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from baccara.errors import InvalidBet, InvalidCards, InvalidOption, shown
from baccara.games.bets import parse_bet
from baccara.money import BetResult, Settlement, settle
from baccara.options import Parser, check_fields, number, rules_from_options
from baccara.randomness import RandomSource
from baccara.tiles import TILE_SET, Tile, roll_dice, shuffled_tiles

GAME_ID = "lo-ball"

HAND_SIZE = 3
"""Tiles in the dealer's and in each player's hand."""

EXPOSED = 3
"""Unused tiles exposed for Lo-Card and Hi-Card when no player holds the tile."""

MAX_PLAYERS = 7
"""The dealer's 3 tiles, 7 × 3 players' tiles and 3 exposed make 27 of the 28."""

MAX_POINTS = 27
"""2 + 3 + 4 + 5 + 6 + 7: six different numbers with the 1 left out."""

LO_TILE = Tile(1, 1)
HI_TILE = Tile(7, 7)

DICE = 3
DICE_LO_TOTALS = range(4, 11)
DICE_HI_TOTALS = range(11, 18)


class Bet(enum.Enum):
    """The wagers on a Lo-Ball layout; values are the bet ids used everywhere."""

    MAIN = "main"
    LO_CARD = "lo-card"
    HI_CARD = "hi-card"
    DICE_LO = "dice-lo"
    DICE_HI = "dice-hi"

    @classmethod
    def parse(cls, text: str) -> Bet:
        return parse_bet(cls, text, GAME_ID)


class MainOutcome(enum.Enum):
    """How a main wager ends; the values are the outcome names the analysis prints."""

    WIN_BONUS = "win-bonus"
    WIN = "win"
    PLAY_BONUS = "play-bonus"
    LOSE = "lose"


@dataclass(frozen=True)
class LoBallRules:
    """The payouts, each "to 1". Defaults are the seed's (Lo/Hi 7:1 per the rule notes).

    >>> LoBallRules.from_options(win_bonus_pays="2").win_bonus_pays
    Fraction(2, 1)
    """

    win_pays: Fraction = Fraction(1)
    win_bonus_pays: Fraction = Fraction(3, 2)
    play_bonus_pays: Fraction = Fraction(2)
    lo_hi_pays: Fraction = Fraction(7)
    dice_pays: Fraction = Fraction(1)

    OPTIONS: ClassVar[Mapping[str, Parser]] = {
        name: number(0, 1000)
        for name in ("win_pays", "win_bonus_pays", "play_bonus_pays", "lo_hi_pays", "dice_pays")
    }

    def __post_init__(self) -> None:
        check_fields(self, self.OPTIONS)

    @classmethod
    def from_options(cls, **options: Any) -> LoBallRules:
        return rules_from_options(cls, GAME_ID, options, cls.OPTIONS)

    def main_pays(self, outcome: MainOutcome) -> Fraction:
        """Net result per unit staked: the Play-bonus is paid on a lost wager."""
        return {
            MainOutcome.WIN_BONUS: self.win_bonus_pays,
            MainOutcome.WIN: self.win_pays,
            MainOutcome.PLAY_BONUS: self.play_bonus_pays - 1,
            MainOutcome.LOSE: Fraction(-1),
        }[outcome]


def points(hand: Iterable[Tile]) -> int:
    """The sum of the numbers that appear exactly once among the hand's tiles.

    >>> points([Tile(1, 1), Tile(2, 2), Tile(3, 3)]), points([Tile(2, 3), Tile(4, 5), Tile(6, 7)])
    (0, 27)
    """
    counts = Counter(number for tile in hand for number in tile.numbers)
    return sum(number for number, times in counts.items() if times == 1)


def main_outcome(dealer_points: int, player_points: int) -> MainOutcome:
    """Fewer points than the dealer win; 27 points lose but earn the Play-bonus."""
    if player_points == MAX_POINTS:
        return MainOutcome.PLAY_BONUS
    if player_points < dealer_points:
        return MainOutcome.WIN_BONUS if player_points == 0 else MainOutcome.WIN
    return MainOutcome.LOSE


def dice_result(bet: Bet, dice: Sequence[int]) -> BetResult:
    """Dice-Lo wins on 4–10, Dice-Hi on 11–17; any triple loses both."""
    totals = {Bet.DICE_LO: DICE_LO_TOTALS, Bet.DICE_HI: DICE_HI_TOTALS}[bet]
    if len(set(dice)) == 1:
        return BetResult.LOSE
    return BetResult.WIN if sum(dice) in totals else BetResult.LOSE


@dataclass(frozen=True)
class Hand:
    """Three tiles and their points."""

    tiles: tuple[Tile, ...]

    def __post_init__(self) -> None:
        if len(self.tiles) != HAND_SIZE:
            raise InvalidCards(f"a hand is {HAND_SIZE} tiles, got {len(self.tiles)}")

    @property
    def points(self) -> int:
        return points(self.tiles)

    def __contains__(self, tile: object) -> bool:
        return tile in self.tiles

    def __str__(self) -> str:
        return " ".join(str(t) for t in self.tiles)


@dataclass(frozen=True)
class Round:
    """One round: the dealer's hand, each seat's hand, the exposed tiles and the dice.

    ``exposed`` is empty when every player-held tile makes exposure unnecessary
    (some player holds both 1-1 and 7-7), else the three unused tiles turned up.
    """

    dealer: Hand
    players: tuple[Hand, ...]
    exposed: tuple[Tile, ...]
    dice: tuple[int, ...]
    _seat_of: dict[Tile, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        seat_of = {tile: seat for seat, hand in enumerate(self.players, 1) for tile in hand.tiles}
        object.__setattr__(self, "_seat_of", seat_of)

    @property
    def seats(self) -> int:
        return len(self.players)

    def seat_holding(self, tile: Tile) -> int | None:
        """The seat (from 1) whose hand holds ``tile``, or ``None`` if no player has it."""
        return self._seat_of.get(tile)

    def held_by_a_player(self, tile: Tile) -> bool:
        return tile in self._seat_of

    def describe(self) -> str:
        seats = " · ".join(
            f"seat {i} {hand} ({hand.points})" for i, hand in enumerate(self.players, 1)
        )
        exposed = " ".join(str(t) for t in self.exposed) or "none"
        dice = "-".join(str(d) for d in self.dice)
        return (
            f"Dealer {self.dealer} ({self.dealer.points}) · {seats}"
            f" · exposed {exposed} · dice {dice}"
        )


def check_players(players: int) -> int:
    """One to seven seats; an eighth player would leave too few tiles to expose three."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidOption("players", f"must be a whole number, got {shown(players)}")
    if not 1 <= players <= MAX_PLAYERS:
        raise InvalidOption(
            "players",
            f"Lo-Ball seats 1 to {MAX_PLAYERS} players (the dealer's 3 tiles, 3 per player"
            f" and 3 exposed must come from 28), got {players}",
        )
    return players


def exposure_needed(players: Iterable[Hand]) -> bool:
    """Tiles are exposed unless the players between them hold both 1-1 and 7-7."""
    held = {tile for hand in players for tile in hand.tiles}
    return LO_TILE not in held or HI_TILE not in held


def _check_dice(dice: Sequence[int]) -> tuple[int, ...]:
    if len(dice) != DICE:
        raise InvalidCards(f"Lo-Ball rolls {DICE} dice, got {len(dice)}")
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise InvalidCards(f"a die shows 1 to 6, got {shown(die)}")
    return tuple(dice)


def round_from_stack(stack: Sequence[Tile], players: int, dice: Sequence[int]) -> Round:
    """Deal a round from a shuffled stack: dealer, then seats 1…n, three tiles at a time.

    The exposed tiles, when needed, are the next three of the stack. This is the one
    place that says which position of the shuffle goes where, so the exact analysis
    can ask it (see ``analysis.loball.seat_invariance``).
    """
    check_players(players)
    if len(stack) != len(TILE_SET) or set(stack) != set(TILE_SET):
        raise InvalidCards(f"a stack is the full set of {len(TILE_SET)} different tiles")
    hands = [Hand(tuple(stack[i * HAND_SIZE : (i + 1) * HAND_SIZE])) for i in range(players + 1)]
    dealt = (players + 1) * HAND_SIZE
    exposed = tuple(stack[dealt : dealt + EXPOSED]) if exposure_needed(hands[1:]) else ()
    return Round(hands[0], tuple(hands[1:]), exposed, _check_dice(dice))


def deal_round(rng: RandomSource, players: int) -> Round:
    """An electronic round: a freshly shuffled set and three dice, both from ``rng``."""
    check_players(players)
    return round_from_stack(shuffled_tiles(rng), players, roll_dice(rng, DICE))


def _tile(value: Tile | str) -> Tile:
    return value if isinstance(value, Tile) else Tile.parse(value)


def round_from_tiles(
    dealer: Sequence[Tile | str],
    players: Sequence[Sequence[Tile | str]],
    exposed: Sequence[Tile | str],
    dice: Sequence[int],
) -> Round:
    """Call a round a live dealer entered, refusing anything that cannot have been dealt.

    Each hand must be three known tiles, no tile may appear twice, there must be one
    to seven players, and exactly three exposed tiles must be entered when no player
    holds 1-1 or no player holds 7-7 — and none otherwise.

    >>> round_from_tiles(["1-2", "2-3", "4-5"], [["1-1", "7-7", "3-6"]], [], [2, 3, 5]).dealer.points
    13
    """
    check_players(len(players))
    hands: list[Hand] = []
    for who, entered in [("dealer", dealer), *((f"seat {i}", h) for i, h in enumerate(players, 1))]:
        if len(entered) != HAND_SIZE:
            raise InvalidCards(f"{who}: a hand is {HAND_SIZE} tiles, got {len(entered)}")
        hands.append(Hand(tuple(_tile(t) for t in entered)))
    shown = tuple(_tile(t) for t in exposed)
    every = [tile for hand in hands for tile in hand.tiles] + list(shown)
    repeated = sorted(t for t, n in Counter(every).items() if n > 1)
    if repeated:
        raise InvalidCards(f"tile {repeated[0]} entered twice; the set has one of each")
    if exposure_needed(hands[1:]):
        if len(shown) != EXPOSED:
            raise InvalidCards(
                f"no player holds both 1-1 and 7-7, so {EXPOSED} tiles are exposed;"
                f" got {len(shown)}"
            )
    elif shown:
        raise InvalidCards("players hold both 1-1 and 7-7, so no tiles are exposed")
    return Round(hands[0], tuple(hands[1:]), shown, _check_dice(dice))


def tile_bet_result(round_: Round, seat: int, tile: Tile) -> BetResult:
    """Lo-Card (``tile`` 1-1) or Hi-Card (7-7) for the player in ``seat`` (from 1).

    Win when this seat holds the tile; lose when another player holds it; otherwise
    push if it is among the exposed tiles and lose if not (the dealer holds it, or it
    stayed unused).
    """
    _seat(round_, seat)
    holder = round_.seat_holding(tile)
    if holder is not None:
        return BetResult.WIN if holder == seat else BetResult.LOSE
    return BetResult.PUSH if tile in round_.exposed else BetResult.LOSE


def _seat(round_: Round, seat: int) -> Hand:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= round_.seats:
        raise InvalidBet(f"no seat {shown(seat)}: this round has seats 1 to {round_.seats}")
    return round_.players[seat - 1]


def seat_main_outcome(round_: Round, seat: int) -> MainOutcome:
    return main_outcome(round_.dealer.points, _seat(round_, seat).points)


def settle_bet(bet: Bet, stake: int, round_: Round, seat: int, rules: LoBallRules) -> Settlement:
    """Settle ``stake`` cents on ``bet`` for ``seat``; fractions of a cent round down.

    The Play-bonus is settled as a lost wager with a bonus of ``play_bonus_pays`` on it.
    """
    if bet is Bet.MAIN:
        outcome = seat_main_outcome(round_, seat)
        if outcome is MainOutcome.WIN_BONUS:
            return settle(stake, BetResult.WIN, rules.win_bonus_pays)
        if outcome is MainOutcome.WIN:
            return settle(stake, BetResult.WIN, rules.win_pays)
        if outcome is MainOutcome.PLAY_BONUS:
            return settle(stake, BetResult.LOSE, rules.win_pays, bonus=rules.play_bonus_pays)
        return settle(stake, BetResult.LOSE, rules.win_pays)
    if bet in (Bet.LO_CARD, Bet.HI_CARD):
        tile = LO_TILE if bet is Bet.LO_CARD else HI_TILE
        return settle(stake, tile_bet_result(round_, seat, tile), rules.lo_hi_pays)
    _seat(round_, seat)
    return settle(stake, dice_result(bet, round_.dice), rules.dice_pays)
