"""Baccarat RedGreen and Baccarat Mini RedGreen (seed 000), as the rule notes settle them.

Two community hands of three cards, Red and Green, are dealt from a seven-deck shoe.
The dealer sets each hand by the **house way** into a one-card front and a two-card
back (three of a kind stays whole), and the two set hands are compared front with
front and back with back. Players bet on Red or on Green; a winning bet pays 1:1
less 5 % commission and a push returns the bet.

Ranking. Singles run A (high), K, Q … 2 (low), with no exception. Pairs run A-A
(high), K-K … 3-3, 2-2 (low), except that 2-2 beats A-A — and A-A only: the seed's
Note 2, "a 2-2 pair outranks an A-A pair only but loses to all other pairs, an A-A
pair outranks all other pairs but loses to a 2-2 pair". Three of a kind is the same
(Note 1). That order is a cycle (2-2 > A-A > K-K > … > 3-3 > 2-2), so no strength
number per hand can express it: :func:`pair_beats` compares two ranks, and
:func:`compare` — the one place two set hands are called — uses it. The rule option
``deuces=top`` deals the ladder reading instead (2s above every pair), to show what
that misreading changes; it is never the default.

>>> from baccara.cards import Card
>>> hand = [Card.parse(c) for c in ("KS", "7H", "7D")]
>>> print(house_way(hand, RedGreenRules()))
K | 7 7 (pair in the back)
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from baccara.cards import Card, Rank, Shoe, Suit
from baccara.errors import InvalidBet, InvalidCards, InvalidOption, shown
from baccara.games.bets import parse_bet
from baccara.games.paytable import DEFAULT_PAYTABLE, Paytable, shipped_paytable
from baccara.money import BetResult, Settlement, settle
from baccara.options import (
    Parser,
    check_fields,
    choice,
    number,
    rules_from_options,
    switch,
    whole_number,
)
from baccara.randomness import RandomSource

GAME_ID = "redgreen"
MINI_GAME_ID = "redgreen-mini"
HAND_SIZE = 3


def single_strength(rank: Rank) -> int:
    """Order of single cards: 2 → 0 … K → 11, A → 12 (Ace high, 2 low)."""
    return 12 if rank is Rank.ACE else rank.value - 2


class Deuces(enum.Enum):
    """Where a pair (and three) of 2s ranks: the seed's cycle, or the ladder reading."""

    BEAT_ACES_ONLY = "beat-aces-only"
    """The seed's: 2-2 beats A-A and loses to every other pair; A-A beats all but 2-2."""
    TOP = "top"
    """2-2 above every pair, 2-2-2 above every three of a kind: a misreading, for comparison."""


def pair_beats(rank: Rank, other: Rank, deuces: Deuces = Deuces.BEAT_ACES_ONLY) -> int:
    """+1 when a pair (or three of a kind) of ``rank`` beats one of ``other``, −1 when it
    loses, 0 for the same rank.

    Single-card order, Ace high, except that 2s beat Aces (``BEAT_ACES_ONLY``: and
    only Aces) or everything (``TOP``).

    >>> pair_beats(Rank.TWO, Rank.ACE), pair_beats(Rank.TWO, Rank.THREE), pair_beats(Rank.ACE, Rank.KING)
    (1, -1, 1)
    """
    if rank is other:
        return 0
    if Rank.TWO in (rank, other) and (deuces is Deuces.TOP or Rank.ACE in (rank, other)):
        return 1 if rank is Rank.TWO else -1
    return _sign((single_strength(rank),), (single_strength(other),))


def by_single_rank(ranks: Iterable[Rank]) -> list[Rank]:
    """Ranks sorted high to low as single cards (A first, 2 last)."""
    return sorted(ranks, key=single_strength, reverse=True)


def _as_rank(name: str, value: object) -> Rank:
    if isinstance(value, Rank):
        return value
    if isinstance(value, str):
        try:
            return Rank.parse(value)
        except InvalidCards:
            pass
    raise InvalidOption(name, f"must be a rank (A, 2-10, J, Q, K), got {shown(value)}")


@dataclass(frozen=True)
class RedGreenRules:
    """The house's choices. Defaults are the seed's: 7 decks, 5 % commission, its house way.

    ``split_aces``: a pair of Aces is split (Ace in front, Ace and the odd card in the
    back) unless the odd card is ``split_aces_unless`` or better — a King in the seed.
    ``split_kings``: a pair of Kings is split unless the odd card is
    ``split_kings_unless`` or better — "a Jack or better" in the seed, so Kings are
    split with 10 or lower. "Better" is the single-card order, Ace high. Turning a
    switch off plays the pair in the back like any other pair.

    >>> RedGreenRules.from_options(commission="4").winner_pays
    Fraction(24, 25)
    """

    decks: int = 7
    commission: Fraction = Fraction(5)
    split_aces: bool = True
    split_aces_unless: Rank = Rank.KING
    split_kings: bool = True
    split_kings_unless: Rank = Rank.JACK
    deuces: Deuces = Deuces.BEAT_ACES_ONLY
    paytable: Paytable = DEFAULT_PAYTABLE

    OPTIONS: ClassVar[Mapping[str, Parser]] = {
        "decks": whole_number(1, 100),
        "commission": number(0, 100, high_inclusive=False),
        "split_aces": switch(),
        "split_aces_unless": _as_rank,
        "split_kings": switch(),
        "split_kings_unless": _as_rank,
        "deuces": choice(Deuces),
        "paytable": shipped_paytable,
    }

    HOUSE_WAY: ClassVar[tuple[str, ...]] = (
        "split_aces",
        "split_aces_unless",
        "split_kings",
        "split_kings_unless",
    )
    """The options that set the house way; the others (decks, commission, paytable) do not."""

    def __post_init__(self) -> None:
        check_fields(self, self.OPTIONS)

    @classmethod
    def from_options(cls, **options: Any) -> RedGreenRules:
        """Rules from options; ``paytable`` is a :class:`Paytable` or a shipped name.

        A paytable *file* is read by the caller (``baccara.paytables.load_paytable``):
        the rules never touch the file system.
        """
        return rules_from_options(cls, GAME_ID, options, cls.OPTIONS)

    @property
    def winner_pays(self) -> Fraction:
        """A winning Red or Green bet, to 1: even money less the commission."""
        return 1 - self.commission / 100

    def splits(self, pair: Rank, odd: Rank) -> bool:
        """Whether the house way splits this pair with this odd card."""
        if pair is Rank.ACE and self.split_aces:
            return single_strength(odd) < single_strength(self.split_aces_unless)
        if pair is Rank.KING and self.split_kings:
            return single_strength(odd) < single_strength(self.split_kings_unless)
        return False

    def describe_house_way(self) -> str:
        """The exceptions in words, as the cheat sheet heads them."""
        aces = (
            f"split Aces unless the odd card is {_or_better(self.split_aces_unless)}"
            if self.split_aces
            else "never split Aces"
        )
        kings = (
            f"split Kings unless the odd card is {_or_better(self.split_kings_unless)}"
            if self.split_kings
            else "never split Kings"
        )
        return f"{aces}; {kings}"

    def describe_ranking(self) -> str:
        """The order of pairs and three of a kind in words, as the cheat sheet gives it."""
        if self.deuces is Deuces.TOP:
            return "pairs and three of a kind: 2 highest, then A, K … 3 (deuces=top)"
        return "pairs and three of a kind: A, K … 3, 2, except that 2s beat Aces (and only Aces)"


def _or_better(rank: Rank) -> str:
    return "an Ace" if rank is Rank.ACE else f"{rank.symbol} or better"


class HouseRule(enum.Enum):
    """Which line of the house way set a hand: what a dealer names when asked why."""

    THREE_OF_A_KIND = "three of a kind"
    PAIR_IN_BACK = "pair in the back"
    ACES_SPLIT = "Aces split"
    ACES_KEPT = "Aces kept together"
    KINGS_SPLIT = "Kings split"
    KINGS_KEPT = "Kings kept together"
    NO_PAIR = "no pair: middle card in front"

    def explain(self) -> str:
        """One sentence for the dealer, in the seed's terms."""
        return _EXPLANATIONS[self]


_EXPLANATIONS: Mapping[HouseRule, str] = {
    HouseRule.THREE_OF_A_KIND: "three of a kind: leave the hand whole and turn it face up",
    HouseRule.PAIR_IN_BACK: "one pair: the pair goes in the back, the odd card in front",
    HouseRule.ACES_SPLIT: "pair of Aces: split, one Ace in front, the other Ace and the odd card behind",
    HouseRule.ACES_KEPT: "pair of Aces with a high enough odd card: the exception, keep the pair behind",
    HouseRule.KINGS_SPLIT: "pair of Kings with a low odd card: split, one King in front, King and odd card behind",
    HouseRule.KINGS_KEPT: "pair of Kings with a high enough odd card: keep the pair behind",
    HouseRule.NO_PAIR: "no pair: the middle card goes in front, the highest and lowest behind",
}


@dataclass(frozen=True)
class Setting:
    """A hand as the house way set it: a one-card front, a two-card back, and why.

    Three of a kind is not split — it plays as one hand — but its cards still fill
    ``front`` and ``back`` so every setting has the same shape. The back holds its
    higher card first.
    """

    front: Card
    back: tuple[Card, Card]
    rule: HouseRule

    @property
    def cards(self) -> tuple[Card, Card, Card]:
        return (self.front, *self.back)

    @property
    def three_of_a_kind(self) -> Rank | None:
        """The rank of a three of a kind, or ``None``."""
        return self.front.rank if self.rule is HouseRule.THREE_OF_A_KIND else None

    @property
    def back_is_pair(self) -> bool:
        return self.back[0].rank == self.back[1].rank

    @property
    def front_key(self) -> int:
        return single_strength(self.front.rank)

    def ranks_text(self) -> str:
        """``K | 7 7``; three of a kind reads ``7 7 7 (face up)``."""
        front = self.front.rank.symbol
        back = " ".join(c.rank.symbol for c in self.back)
        if self.rule is HouseRule.THREE_OF_A_KIND:
            return f"{front} {back} (face up)"
        return f"{front} | {back}"

    def __str__(self) -> str:
        if self.rule is HouseRule.THREE_OF_A_KIND:
            return self.ranks_text()
        return f"{self.ranks_text()} ({self.rule.value})"


def _three_cards(cards: Sequence[Card]) -> tuple[Card, Card, Card]:
    if len(cards) != HAND_SIZE:
        raise InvalidCards(f"a RedGreen hand has {HAND_SIZE} cards, got {len(cards)}")
    return (cards[0], cards[1], cards[2])


def house_way(cards: Sequence[Card], rules: RedGreenRules) -> Setting:
    """Set three cards into front and back exactly as the dealer must.

    Three of a kind stays whole; one pair goes behind with the odd card in front,
    except the Ace and King splits of ``rules``; with no pair the middle card goes in
    front. The front never outranks the back.
    """
    a, b, c = sorted(_three_cards(cards), key=lambda card: single_strength(card.rank), reverse=True)
    counts = Counter(card.rank for card in (a, b, c))
    if len(counts) == 1:
        return Setting(a, (b, c), HouseRule.THREE_OF_A_KIND)
    if len(counts) == 3:
        return Setting(b, (a, c), HouseRule.NO_PAIR)
    pair_rank = next(rank for rank, n in counts.items() if n == 2)
    pair = [card for card in (a, b, c) if card.rank is pair_rank]
    odd = next(card for card in (a, b, c) if card.rank is not pair_rank)
    if rules.splits(pair_rank, odd.rank):
        rule = HouseRule.ACES_SPLIT if pair_rank is Rank.ACE else HouseRule.KINGS_SPLIT
        return Setting(pair[0], (pair[1], odd), rule)
    rule = HouseRule.PAIR_IN_BACK
    if pair_rank is Rank.ACE and rules.split_aces:
        rule = HouseRule.ACES_KEPT
    elif pair_rank is Rank.KING and rules.split_kings:
        rule = HouseRule.KINGS_KEPT
    return Setting(odd, (pair[0], pair[1]), rule)


def cards_of_ranks(ranks: Sequence[Rank]) -> list[Card]:
    """Cards with these ranks for when suits do not matter (a cheat sheet, the analysis).

    Suits cycle so that a pair is two different cards.
    """
    suits = list(Suit)
    return [Card(rank, suits[i % len(suits)]) for i, rank in enumerate(ranks)]


def house_way_of_ranks(ranks: Sequence[Rank], rules: RedGreenRules) -> Setting:
    """The house way for a hand given by its ranks: suits never change a setting."""
    return house_way(cards_of_ranks(ranks), rules)


def front_outranks_back(setting: Setting) -> bool:
    """The seed's constraint, checked: "the 1 Card hand can not be higher than the 2 Card hand".

    A pair behind is never beaten by one card; otherwise the back's higher card must
    be at least the front card.
    """
    if setting.back_is_pair:
        return False
    return setting.front_key > single_strength(setting.back[0].rank)


class Winner(enum.Enum):
    """The call on a round: which community hand won, or a push."""

    RED = "red"
    GREEN = "green"
    PUSH = "push"


def _sign(x: tuple[int, ...], y: tuple[int, ...]) -> int:
    return (x > y) - (x < y)


def compare_fronts(red: Setting, green: Setting) -> int:
    """Front against front, single cards, Ace high: +1 Red's is higher, −1 lower, 0 equal."""
    return _sign((red.front_key,), (green.front_key,))


def compare_backs(red: Setting, green: Setting, rules: RedGreenRules) -> int:
    """Back against back: any pair beats any non-pair; pairs by :func:`pair_beats`;
    non-pairs by the higher card, then the lower (9-5 beats 9-4)."""
    if red.back_is_pair or green.back_is_pair:
        if red.back_is_pair != green.back_is_pair:
            return 1 if red.back_is_pair else -1
        return pair_beats(red.back[0].rank, green.back[0].rank, rules.deuces)
    return _sign(
        tuple(single_strength(c.rank) for c in red.back),
        tuple(single_strength(c.rank) for c in green.back),
    )


def compare_parts(red: Setting, green: Setting, rules: RedGreenRules) -> tuple[int, int]:
    """Front against front and back against back: +1 Red wins the part, -1 loses, 0 ties."""
    return compare_fronts(red, green), compare_backs(red, green, rules)


def compare(red: Setting, green: Setting, rules: RedGreenRules) -> Winner:
    """Call two set hands: the one comparison of RedGreen hands, used everywhere.

    Three of a kind beats any hand that is not; two of them go by :func:`pair_beats`
    (equal ranks push). Otherwise win/win, win/tie and tie/win win; lose/lose,
    lose/tie and tie/lose lose; win/lose, lose/win and tie/tie push.
    """
    red_trips, green_trips = red.three_of_a_kind, green.three_of_a_kind
    if red_trips is not None and green_trips is not None:
        total = pair_beats(red_trips, green_trips, rules.deuces)
    elif red_trips is not None or green_trips is not None:
        total = 1 if red_trips is not None else -1
    else:
        front, back = compare_parts(red, green, rules)
        total = _sign((front + back,), (0,))
    return _CALLS[total]


_CALLS: Mapping[int, Winner] = {1: Winner.RED, -1: Winner.GREEN, 0: Winner.PUSH}


class Bet(enum.Enum):
    """The wagers on a RedGreen layout; values are the bet ids used everywhere."""

    RED = "red"
    GREEN = "green"
    BONUS = "bonus"

    @classmethod
    def parse(cls, text: str) -> Bet:
        return parse_bet(cls, text, GAME_ID)


@dataclass(frozen=True)
class Round:
    """One RedGreen round: the three cards of each hand as dealt, each set, and the call."""

    red_cards: tuple[Card, Card, Card]
    green_cards: tuple[Card, Card, Card]
    rules: RedGreenRules = field(repr=False)
    red: Setting = field(init=False)
    green: Setting = field(init=False)
    winner: Winner = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "red", house_way(self.red_cards, self.rules))
        object.__setattr__(self, "green", house_way(self.green_cards, self.rules))
        object.__setattr__(self, "winner", compare(self.red, self.green, self.rules))

    def describe(self) -> str:
        return f"Red {self.red} · Green {self.green} · {self.winner.value}"


def round_from_cards(red: Sequence[Card], green: Sequence[Card], rules: RedGreenRules) -> Round:
    """Call a round a live dealer dealt: exactly three cards for each hand."""
    return Round(_three_cards(red), _three_cards(green), rules)


def deal_round(cards: Iterable[Card], rules: RedGreenRules) -> Round:
    """Deal three cards to Red, then three to Green, from ``cards`` (a shoe or an entry)."""
    source: Iterator[Card] = iter(cards)
    dealt = []
    for _ in range(2 * HAND_SIZE):
        try:
            dealt.append(next(source))
        except StopIteration:
            raise InvalidCards("not enough cards to deal Red and Green") from None
    return round_from_cards(dealt[:HAND_SIZE], dealt[HAND_SIZE:], rules)


def deal_from_fresh_shoe(rules: RedGreenRules, rng: RandomSource) -> Round:
    """Shuffle a full shoe of ``rules.decks`` decks and deal one round off the top."""
    return deal_round(Shoe(rules.decks, rng), rules)


def bet_result(bet: Bet, round_: Round) -> BetResult:
    """Win, push or lose for a Red or Green bet."""
    if bet is Bet.BONUS:
        raise InvalidBet("the Bonus is not won by a hand; settle it by its paytable")
    if round_.winner is Winner.PUSH:
        return BetResult.PUSH
    return BetResult.WIN if round_.winner.value == bet.value else BetResult.LOSE


def settle_bet(bet: Bet, stake: int, round_: Round, rules: RedGreenRules) -> Settlement:
    """Settle ``stake`` cents: Red and Green 1:1 less commission, rounded down to the cent,
    a push returning the bet; the Bonus by the rules' paytable on all six cards."""
    if bet is Bet.BONUS:
        return rules.paytable.settle(stake, (*round_.red_cards, *round_.green_cards))
    return settle(stake, bet_result(bet, round_), rules.winner_pays)


def highest_bettor(wagers: Sequence[tuple[int, int]]) -> int:
    """The seat of the largest single wager, given ``(seat, cents)`` in the order placed.

    A tie goes to whoever placed the wager first (the rule notes' reading).

    >>> highest_bettor([(3, 500), (5, 2000), (1, 2000)])
    5
    """
    if not wagers:
        raise InvalidBet("no wagers on the round, so there is no highest bettor")
    best_seat, best = wagers[0]
    for seat, stake in wagers[1:]:
        if stake > best:
            best_seat, best = seat, stake
    return best_seat
