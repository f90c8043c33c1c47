"""Punto Banco as dealt at "Baccarat Diamond Casino" (seed 003).

Eight decks, reshuffled before every hand. Cards go Player, Banker, Player, Banker;
a natural 8 or 9 in either hand ends the coup; otherwise the Player draws on 0–5,
and the Banker draws on 0–5 if the Player stood, or by the tableau on the Player's
third card if he drew. Banker pays 19:20, Player 1:1, Tie 8:1, and Banker and Player
bets push on a tie. The Player Pair and Banker Pair side bets (first two cards of
the hand of the same rank, 11:1) are not in the seed but every operator deals them.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from baccara.cards import Card, Rank, Shoe, Suit
from baccara.errors import InvalidCards
from baccara.games.bets import parse_bet
from baccara.games.coup_bets import (
    SHIPPED,
    MainRules,
    PayLine,
    SideBet,
    first_line,
    shipped_sidebets,
    shipped_variant,
)
from baccara.games.coup_terms import CoupFacts, coup_facts
from baccara.money import BetResult, Settlement, settle
from baccara.options import (
    Parser,
    check_fields,
    field_of,
    number,
    rules_from_options,
    whole_number,
)
from baccara.randomness import RandomSource

GAME_ID = "punto-banco"

BANKER_DRAWS_UP_TO: Mapping[int, int] = {8: 2, 9: 3, 0: 3, 1: 3, 2: 4, 3: 4, 4: 5, 5: 5, 6: 6, 7: 6}
"""The tableau after the Player drew: Player's third-card value → highest Banker score that draws.

Read straight off the seed: a third card of 8 → the Banker hits on 2 or less; 9, 10, Ace
or face → 3 or less; 2 or 3 → 4 or less; 4 or 5 → 5 or less; 6 or 7 → 6 or less.
"""


CLASSIC = SHIPPED.variants["classic"]
"""The seed's game: Banker wins pay 19 to 20, no other rule changes a win's pay."""


class Winner(enum.Enum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


class Bet(enum.Enum):
    """The wagers on a Punto Banco layout; values are the bet ids used everywhere."""

    BANKER = "banker"
    PLAYER = "player"
    TIE = "tie"
    PLAYER_PAIR = "player-pair"
    BANKER_PAIR = "banker-pair"

    @classmethod
    def parse(cls, text: str) -> Bet:
        return parse_bet(cls, text, GAME_ID)


@dataclass(frozen=True)
class PuntoBancoRules:
    """The house's choices. Defaults are the seed's: 8 decks, 5 % commission, Tie 8:1.

    Built directly, every field is what it is given: ``PuntoBancoRules(variant=ez)`` is
    EZ Baccarat's pay lines at the default 5 % commission and no side bets.
    :meth:`from_options` is how a table or a command reads rules, and there a rule set
    brings its commission, Tie pay and side bets.

    ``commission`` is a percentage of a winning Banker bet; the pays are "to 1".

    >>> PuntoBancoRules.from_options(commission="4").banker_pays
    Fraction(24, 25)
    """

    decks: int = 8
    commission: Fraction = Fraction(5)
    tie_pays: Fraction = Fraction(8)
    pair_pays: Fraction = Fraction(11)
    variant: MainRules = CLASSIC
    sidebets: tuple[SideBet, ...] = ()

    OPTIONS: ClassVar[Mapping[str, Parser]] = {
        "decks": whole_number(1, 100),
        "commission": number(0, 100, high_inclusive=False),
        "tie_pays": number(0, 1000),
        "pair_pays": number(0, 1000),
        "variant": shipped_variant,
        "sidebets": shipped_sidebets,
    }

    def __post_init__(self) -> None:
        check_fields(self, self.OPTIONS)

    @classmethod
    def from_options(cls, **options: Any) -> PuntoBancoRules:
        """Rules from options. A ``variant`` (a rule set: ``ez``, ``no-commission`` …)
        brings its commission, Tie pay and side bets, each of which an option given
        beside it overrides: ``variant=ez`` alone is EZ Baccarat with Dragon 7 and
        Panda 8, ``variant=ez, sidebets=none`` the same game without them.

        >>> ez = PuntoBancoRules.from_options(variant="ez")
        >>> ez.commission, [bet.id for bet in ez.sidebets]
        (Fraction(0, 1), ['dragon-7', 'panda-8'])
        """
        rules = rules_from_options(cls, GAME_ID, options, cls.OPTIONS)
        given = {field_of(GAME_ID, str(key), cls.OPTIONS) for key in options}
        if "variant" not in given:
            return rules
        variant = rules.variant
        defaults: dict[str, Any] = {"commission": variant.commission}
        if variant.tie_pays is not None:
            defaults["tie_pays"] = variant.tie_pays
        defaults["sidebets"] = shipped_sidebets("sidebets", list(variant.sidebets))
        return dataclasses.replace(
            rules, **{key: value for key, value in defaults.items() if key not in given}
        )

    @property
    def bet_ids(self) -> tuple[str, ...]:
        """Every bet a table with these rules takes: the main bets, then its side bets."""
        return (*(bet.value for bet in Bet), *(side.id for side in self.sidebets))

    def sidebet(self, bet_id: str) -> SideBet | None:
        return next((side for side in self.sidebets if side.id == bet_id), None)

    @property
    def banker_pays(self) -> Fraction:
        return 1 - self.commission / 100

    def odds(self, bet: Bet) -> Fraction:
        """What a winning ``bet`` pays, to 1."""
        return {
            Bet.BANKER: self.banker_pays,
            Bet.PLAYER: Fraction(1),
            Bet.TIE: self.tie_pays,
            Bet.PLAYER_PAIR: self.pair_pays,
            Bet.BANKER_PAIR: self.pair_pays,
        }[bet]


def score(cards: Iterable[Card]) -> int:
    """The right digit of the hand's total: 8 and 7 make 15, which scores 5."""
    return sum(card.rank.baccarat_value for card in cards) % 10


def player_draws(player_score: int) -> bool:
    """The Player hits on 5 or less and stands on 6 or 7 (8 and 9 are naturals)."""
    return player_score <= 5


def banker_draws(banker_score: int, player_third: Card | None) -> bool:
    """Whether the Banker hits, given the Player's third card (``None`` if he stood)."""
    if player_third is None:
        return banker_score <= 5
    return banker_score <= BANKER_DRAWS_UP_TO[player_third.rank.baccarat_value]


@dataclass(frozen=True)
class Coup:
    """One hand of Punto Banco, with every card in the order it left the shoe."""

    cards: tuple[Card, ...]
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    player_score: int = field(init=False)
    banker_score: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "player_score", score(self.player))
        object.__setattr__(self, "banker_score", score(self.banker))

    @property
    def natural(self) -> bool:
        """An 8 or 9 on either side's first two cards."""
        return score(self.player[:2]) >= 8 or score(self.banker[:2]) >= 8

    @property
    def winner(self) -> Winner:
        if self.player_score > self.banker_score:
            return Winner.PLAYER
        if self.banker_score > self.player_score:
            return Winner.BANKER
        return Winner.TIE

    @property
    def player_pair(self) -> bool:
        return self.player[0].rank == self.player[1].rank

    @property
    def banker_pair(self) -> bool:
        return self.banker[0].rank == self.banker[1].rank

    @property
    def facts(self) -> CoupFacts:
        """What a side bet's or a rule set's conditions read of this coup."""
        return coup_facts(self.player, self.banker, score)

    def describe(self) -> str:
        player = " ".join(str(c) for c in self.player)
        banker = " ".join(str(c) for c in self.banker)
        return (
            f"Player {player} ({self.player_score}) · Banker {banker} ({self.banker_score})"
            f" · {self.winner.value}{' · natural' if self.natural else ''}"
        )


def deal_coup(cards: Iterable[Card]) -> Coup:
    """Play one coup, taking cards from ``cards`` only as the rules call for them.

    ``cards`` may be a shoe, an iterator, or the cards a live dealer entered; the
    coup consumes four to six of them and leaves the rest unread.
    """
    source: Iterator[Card] = iter(cards)

    def draw() -> Card:
        try:
            return next(source)
        except StopIteration:
            raise InvalidCards("not enough cards to finish the coup") from None

    p1, b1, p2, b2 = draw(), draw(), draw(), draw()
    player = [p1, p2]
    banker = [b1, b2]
    dealt = [p1, b1, p2, b2]
    if score(player) >= 8 or score(banker) >= 8:
        return Coup(tuple(dealt), tuple(player), tuple(banker))
    player_third: Card | None = None
    if player_draws(score(player)):
        player_third = draw()
        player.append(player_third)
        dealt.append(player_third)
    if banker_draws(score(banker), player_third):
        card = draw()
        banker.append(card)
        dealt.append(card)
    return Coup(tuple(dealt), tuple(player), tuple(banker))


def coup_from_cards(cards: Sequence[Card]) -> Coup:
    """Call a coup a live dealer dealt: exactly the cards the rules draw, in order.

    Too few cards, or more than the rules would have drawn, is refused: the software
    must notice a misdeal rather than silently ignore a card.
    """
    coup = deal_coup(cards)
    if len(coup.cards) != len(cards):
        raise InvalidCards(
            f"the rules draw {len(coup.cards)} cards for this coup but {len(cards)} were entered"
        )
    return coup


def deal_from_fresh_shoe(rules: PuntoBancoRules, rng: RandomSource) -> Coup:
    """Reshuffle a full shoe and deal one coup: the seed's procedure for every hand."""
    return deal_coup(Shoe(rules.decks, rng))


def settle_bet(bet: Bet, stake: int, coup: Coup, rules: PuntoBancoRules) -> Settlement:
    """Settle ``stake`` cents on ``bet``; a 19:20 win is rounded down to the cent."""
    return settle_spot(bet.value, stake, coup, rules)


def spot_result(spot: str, facts: CoupFacts, rules: PuntoBancoRules) -> tuple[BetResult, Fraction]:
    """How a bet on ``spot`` ends on a coup with these facts, and what a win pays to 1.

    A side bet pays by its first line that holds. A Banker or Player win pays the rule
    set's first line for that side that holds — a pay of 0 pushes (EZ Baccarat's Banker
    three-card 7) — or else its usual odds (Banker less the commission). This is the one
    place a Punto Banco wager's result is decided: the table, the exact analysis and the
    simulation all read it.
    """
    side = rules.sidebet(spot)
    if side is not None:
        return side.result(facts)
    bet = Bet(spot)
    winner = facts.winner
    if bet is Bet.TIE:
        won = winner == "tie"
    elif bet is Bet.PLAYER_PAIR:
        won = facts.player_pair
    elif bet is Bet.BANKER_PAIR:
        won = facts.banker_pair
    elif winner == "tie":
        return BetResult.PUSH, Fraction(0)
    else:
        if winner != bet.value:
            return BetResult.LOSE, Fraction(0)
        lines = rules.variant.banker if bet is Bet.BANKER else rules.variant.player
        line = first_line(lines, facts)
        if line is None:
            return BetResult.WIN, rules.odds(bet)
        return (BetResult.WIN if line.pays > 0 else BetResult.PUSH), line.pays
    return (BetResult.WIN, rules.odds(bet)) if won else (BetResult.LOSE, Fraction(0))


@functools.cache
def possible_facts() -> frozenset[CoupFacts]:
    """Every set of facts a coup from a full shoe can have (1,417 of them).

    The draws read only the two two-card scores and the fifth and sixth cards' values,
    so 10⁴ coups give every total, card count and natural; a hand can open with a pair,
    suited or not, exactly when its two-card score is even (a pair of fives scores 0, of
    aces 2, … of nines 8). What a file's pay line can ever pay is read against these.
    """
    found: set[CoupFacts] = set()
    for player, banker, fifth, sixth in itertools.product(range(10), repeat=4):
        cards = [_of_value(v) for v in (player, banker, 0, 0, fifth, sixth)]
        facts = deal_coup(cards).facts
        for pp, bp in itertools.product((False, True), repeat=2):
            if (pp and player % 2) or (bp and banker % 2):
                continue
            for ps, bs in itertools.product((False, pp), (False, bp)):
                found.add(dataclasses.replace(facts, player_pair=pp, banker_pair=bp,
                                              player_suited_pair=ps, banker_suited_pair=bs))  # fmt: skip
    return frozenset(found)


def _of_value(value: int) -> Card:
    return Card(Rank(value) if value else Rank.KING, Suit.SPADES)


def unreachable_line(lines: tuple[PayLine, ...], side: str | None = None) -> int | None:
    """The index of the first line no coup can reach — its condition never holds (of a
    win of ``side``, for a rule set's Banker or Player line), or only where an earlier
    line already pays — or ``None`` if every line can pay."""
    facts = [f for f in possible_facts() if side is None or f.winner == side]
    for index, line in enumerate(lines):
        if not any(line.when.holds(f) and first_line(lines[:index], f) is None for f in facts):
            return index
    return None


OUTCOME_ORDER_TAIL = ("win", "push", "lose")
"""The outcomes no pay line names, after the lines' own, in the order analyses list them."""


def lines_of(spot: str, rules: PuntoBancoRules) -> tuple[PayLine, ...]:
    """The pay lines a bet on ``spot`` is settled by (none for a bet no file shapes)."""
    side = rules.sidebet(spot)
    if side is not None:
        return side.lines
    if spot == Bet.BANKER.value:
        return rules.variant.banker
    if spot == Bet.PLAYER.value:
        return rules.variant.player
    return ()


def outcome_name(spot: str, facts: CoupFacts, rules: PuntoBancoRules) -> str:
    """How a bet on ``spot`` ends on a coup with these facts, by name: the condition of
    the pay line that settled it, else ``win``, ``push`` or ``lose`` by what
    :func:`spot_net` pays. The exact analysis and the simulator both name outcomes so.

    A Banker or Player line names only a win of its side: on a tie the bet pushes
    whatever line holds.
    """
    net = spot_net(spot, facts, rules)
    line = first_line(lines_of(spot, rules), facts) if net >= 0 else None
    if line is not None and (spot not in (Bet.BANKER.value, Bet.PLAYER.value)
                             or facts.winner == spot):  # fmt: skip
        return line.when.describe()
    return "win" if net > 0 else "push" if net == 0 else "lose"


def outcome_order(spot: str, rules: PuntoBancoRules) -> tuple[str, ...]:
    """Every name :func:`outcome_name` can give ``spot``, in the order analyses list them."""
    return (*(line.when.describe() for line in lines_of(spot, rules)), *OUTCOME_ORDER_TAIL)


def spot_net(spot: str, facts: CoupFacts, rules: PuntoBancoRules) -> Fraction:
    """What one unit on ``spot`` wins on the coup: the odds, 0 for a push, -1 for a loss."""
    result, odds = spot_result(spot, facts, rules)
    return odds if result is BetResult.WIN else Fraction(-1 if result is BetResult.LOSE else 0)


def settle_spot(spot: str, stake: int, coup: Coup, rules: PuntoBancoRules) -> Settlement:
    """Settle ``stake`` cents on any bet the table takes; a win is rounded down to the cent."""
    result, odds = spot_result(spot, coup.facts, rules)
    return settle(stake, result, odds)


def commission_charged(spot: str, coup: Coup, rules: PuntoBancoRules) -> Fraction:
    """The commission a win on ``spot`` is charged: the Banker's, unless a rule set's line
    paid the win at its own odds (No-Commission's 1 to 2 on a six is a pay, not a cut)."""
    if spot != Bet.BANKER.value or first_line(rules.variant.banker, coup.facts) is not None:
        return Fraction(0)
    return rules.commission
