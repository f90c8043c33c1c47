"""RedGreen house way, ranking, comparison and settlement, each written from the rule text.

Sources: seed ``000_864575d53969f986.txt`` (house way, ranking, comparison, 5 %
commission) as settled by the project's RULES-NOTES.md ("RedGreen" section). Hands
are written by rank; a setting is written ``front | back``.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccara.cards import Card, Rank, Suit
from baccara.errors import BaccaraError, InvalidBet, InvalidCards, InvalidOption, UnknownGame
from baccara.games import Equipment, TableFacts, game
from baccara.games.paytable import DEFAULT_PAYTABLE
from baccara.games.redgreen import (
    Bet,
    Deuces,
    HouseRule,
    RedGreenRules,
    Setting,
    Winner,
    compare,
    deal_from_fresh_shoe,
    deal_round,
    highest_bettor,
    house_way,
    round_from_cards,
    settle_bet,
)
from baccara.money import BetResult
from baccara.randomness import SeededRandom
from tests.helpers import cards
from tests.seed_redgreen import SINGLE_ORDER, seed_call

SEED = RedGreenRules()


def setting(hand: str, rules: RedGreenRules = SEED) -> Setting:
    return house_way(cards(hand), rules)


def written(s: Setting) -> str:
    return f"{s.front.rank.symbol} | {' '.join(sorted(c.rank.symbol for c in s.back))}"


@pytest.mark.parametrize(
    ("hand", "expected", "rule"),
    [
        # "Split a pair of Aces if the 1 Card hand is not a King."
        ("A A K", "K | A A", HouseRule.ACES_KEPT),
        ("A A Q", "A | A Q", HouseRule.ACES_SPLIT),
        ("A A 2", "A | 2 A", HouseRule.ACES_SPLIT),
        # "Split a pair of Kings if the 1 Card is not a Jack or better."
        ("K K A", "A | K K", HouseRule.KINGS_KEPT),
        ("K K Q", "Q | K K", HouseRule.KINGS_KEPT),
        ("K K J", "J | K K", HouseRule.KINGS_KEPT),
        ("K K 10", "K | 10 K", HouseRule.KINGS_SPLIT),
        ("K K 2", "K | 2 K", HouseRule.KINGS_SPLIT),
        # "Always play a pair in the 2 Card hand": odd card higher, lower, an Ace, a 2.
        ("7 Q 7", "Q | 7 7", HouseRule.PAIR_IN_BACK),
        ("7 3 7", "3 | 7 7", HouseRule.PAIR_IN_BACK),
        ("2 2 A", "A | 2 2", HouseRule.PAIR_IN_BACK),
        ("Q Q 2", "2 | Q Q", HouseRule.PAIR_IN_BACK),
        # "Always play the second highest card in the front hand"; the Ace is high.
        ("9 4 J", "9 | 4 J", HouseRule.NO_PAIR),
        ("A 2 3", "3 | 2 A", HouseRule.NO_PAIR),
        ("K A Q", "K | A Q", HouseRule.NO_PAIR),
    ],
)
def test_house_way_follows_the_seed(hand: str, expected: str, rule: HouseRule) -> None:
    s = setting(hand)
    assert written(s) == expected
    assert s.rule is rule


@pytest.mark.parametrize("rank", SINGLE_ORDER)
def test_three_of_a_kind_is_left_whole(rank: str) -> None:
    s = setting(f"{rank} {rank} {rank}")
    assert s.rule is HouseRule.THREE_OF_A_KIND
    assert s.three_of_a_kind is Rank.parse(rank)


def test_split_options_turn_the_exceptions_off_or_move_them() -> None:
    no_ace_split = RedGreenRules(split_aces=False)
    assert written(setting("A A Q", no_ace_split)) == "Q | A A"
    assert setting("A A Q", no_ace_split).rule is HouseRule.PAIR_IN_BACK
    assert written(setting("K K 2", RedGreenRules.from_options(split_kings="no"))) == "2 | K K"
    kings_unless_queen = RedGreenRules.from_options(split_kings_unless="Q")
    assert written(setting("K K J", kings_unless_queen)) == "K | J K"
    assert written(setting("K K Q", kings_unless_queen)) == "Q | K K"
    aces_unless_queen = RedGreenRules(split_aces_unless=Rank.QUEEN)
    assert written(setting("A A Q", aces_unless_queen)) == "Q | A A"
    assert written(setting("A A J", aces_unless_queen)) == "A | A J"


def _single(rank: Rank) -> int:
    return SINGLE_ORDER.index(rank.symbol)


@pytest.mark.parametrize("hand", list(combinations_with_replacement(list(Rank), 3)))
def test_every_rank_combination_obeys_the_house_way(hand: tuple[Rank, Rank, Rank]) -> None:
    """All 455 rank combinations, checked against what the rule text implies for each kind."""
    s = house_way([Card(r, suit) for r, suit in zip(hand, Suit, strict=False)], SEED)
    assert Counter(c.rank for c in s.cards) == Counter(hand)
    front, back = s.front.rank, sorted((c.rank for c in s.back), key=_single)
    counts = Counter(hand)
    if len(counts) == 1:
        assert s.rule is HouseRule.THREE_OF_A_KIND
        return
    if len(counts) == 3:
        low, middle, high = sorted(hand, key=_single)
        assert (front, back) == (middle, [low, high])
        return
    pair = next(r for r, n in counts.items() if n == 2)
    odd = next(r for r, n in counts.items() if n == 1)
    split = (pair is Rank.ACE and odd is not Rank.KING) or (
        pair is Rank.KING and _single(odd) <= _single(Rank.TEN)
    )
    if split:
        assert front is pair and sorted(back, key=_single) == sorted([pair, odd], key=_single)
    else:
        assert front is odd and back == [pair, pair]


def _front_outranks_back(s: Setting) -> bool:
    high, low = (c.rank for c in s.back)
    if high == low:
        return False
    return _single(s.front.rank) > max(_single(high), _single(low))


@given(
    st.lists(st.sampled_from([Card(r, s) for r in Rank for s in Suit]), min_size=3, max_size=3),
    st.booleans(),
    st.booleans(),
    st.sampled_from(list(Rank)),
    st.sampled_from(list(Rank)),
)
def test_front_never_outranks_back(
    hand: list[Card], aces: bool, kings: bool, aces_unless: Rank, kings_unless: Rank
) -> None:
    """Seed: "the 1 Card hand can not be higher than the 2 Card hand", under every house way."""
    rules = RedGreenRules(
        split_aces=aces,
        split_kings=kings,
        split_aces_unless=aces_unless,
        split_kings_unless=kings_unless,
    )
    assert not _front_outranks_back(house_way(hand, rules))


@pytest.mark.parametrize(
    ("red", "green", "winner"),
    [
        # "three of a kind 222 outranks three of a kind AAA only"
        ("2 2 2", "A A A", Winner.RED),
        ("2 2 2", "3 3 3", Winner.GREEN),  # … and loses to every other three of a kind
        ("2 2 2", "K K K", Winner.GREEN),
        ("A A A", "K K K", Winner.RED),
        ("3 3 3", "K K K", Winner.GREEN),
        ("3 3 3", "A K Q", Winner.RED),  # three of a kind beats any hand that is not
        ("A A K", "4 4 4", Winner.GREEN),
        ("9 9 9", "9 9 9", Winner.PUSH),  # equal ranks tie
        # "A pair of 2s beat a pair of Aces": fronts tie (K), backs 2-2 against A-A.
        ("K 2 2", "A A K", Winner.RED),
        # "… but loses to all other pairs": fronts 5 against 4 (win), backs 2-2 against
        # 3-3 (lose): a push, where a ladder with 2s on top would pay Red.
        ("5 2 2", "4 3 3", Winner.PUSH),
        ("K 2 2", "K 3 3", Winner.GREEN),  # fronts tie, 3-3 beats 2-2
        # A pair of Aces beats every other pair: fronts Q against K (lose), backs win.
        ("Q A A", "K Q Q", Winner.PUSH),
        # A pair in the back beats any non-pair: fronts 3 and 3, backs 4-4 against A-2.
        ("4 4 3", "A 3 2", Winner.RED),
        # Split Aces (A | A 5) against split Kings (K | K 5): win / win.
        ("A A 5", "K K 5", Winner.RED),
        # "9-5 beats 9-4": fronts 7 and 7 tie, backs 9-5 against 9-4: tie / win.
        ("9 7 5", "9 7 4", Winner.RED),
        # Win / tie: fronts Q against J, backs A-5 both.
        ("A Q 5", "A J 5", Winner.RED),
        # Lose / lose.
        ("8 5 3", "9 6 4", Winner.GREEN),
        # Tie / lose.
        ("K 9 4", "K 9 5", Winner.GREEN),
        # Push: win / lose — split Aces (A | A Q) against kept Aces (K | A A).
        ("A A Q", "A A K", Winner.PUSH),
        # Push: lose / win — fronts 5 against 6, backs the 7-7 pair against 8-2.
        ("7 7 5", "8 6 2", Winner.PUSH),
        # Push: tie / tie — the same ranks in other suits.
        ("J 9 4", "4 J 9", Winner.PUSH),
    ],
)
def test_comparison(red: str, green: str, winner: Winner) -> None:
    assert compare(setting(red), setting(green), SEED) is winner
    mirrored = {Winner.RED: Winner.GREEN, Winner.GREEN: Winner.RED, Winner.PUSH: Winner.PUSH}
    assert compare(setting(green), setting(red), SEED) is mirrored[winner]
    assert seed_call(setting(red), setting(green)) is winner  # the test's reading agrees


def test_every_pair_of_set_hands_is_called_as_the_seed_reads() -> None:
    """All 455 × 455 pairs of rank hands, set by the house way, called by the code and by
    :func:`seed_call`, the seed's text written out independently of the code's order."""
    hands = [setting(" ".join(r.symbol for r in h)) for h in combinations_with_replacement(Rank, 3)]
    wrong = [
        (a.ranks_text(), b.ranks_text())
        for a in hands
        for b in hands
        if compare(a, b, SEED) is not seed_call(a, b)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("red", "green", "winner"),
    [
        ("5 2 2", "4 3 3", Winner.RED),  # 2-2 above 3-3 on the ladder
        ("2 2 2", "3 3 3", Winner.RED),
        ("K 2 2", "A A K", Winner.RED),  # as under the seed's cycle
        ("9 9 4", "8 8 4", Winner.RED),  # the other pairs are not moved
    ],
)
def test_the_ladder_reading_is_an_option(red: str, green: str, winner: Winner) -> None:
    """``deuces=top``: 2s above every pair and three of a kind, the earlier misreading."""
    ladder = RedGreenRules.from_options(deuces="top")
    assert compare(setting(red, ladder), setting(green, ladder), ladder) is winner


def test_the_seeds_cycle_is_the_default() -> None:
    assert RedGreenRules().deuces is Deuces.BEAT_ACES_ONLY
    assert RedGreenRules.from_options(deuces="beat-aces-only") == RedGreenRules()


def test_round_deals_three_to_red_then_three_to_green() -> None:
    dealt = cards("A A K 9 7 5")
    round_ = deal_round(iter(dealt), SEED)
    assert list(round_.red_cards) == dealt[:3] and list(round_.green_cards) == dealt[3:]
    assert written(round_.red) == "K | A A" and written(round_.green) == "7 | 5 9"
    assert round_.winner is Winner.RED  # K beats 7, A-A beats 9-5
    assert "red" in round_.describe()


def test_live_entry_refuses_wrong_card_counts() -> None:
    with pytest.raises(InvalidCards, match="3 cards, got 2"):
        round_from_cards(cards("A K"), cards("2 3 4"), SEED)
    with pytest.raises(InvalidCards, match="not enough"):
        deal_round(iter(cards("A K Q 2 3")), SEED)
    with pytest.raises(InvalidCards, match="3 cards, got 4"):
        house_way(cards("A K Q J"), SEED)


def test_fresh_shoe_rounds_are_reproducible_by_seed() -> None:
    a = [deal_from_fresh_shoe(SEED, SeededRandom(s)).red_cards for s in range(10)]
    b = [deal_from_fresh_shoe(SEED, SeededRandom(s)).red_cards for s in range(10)]
    assert a == b and len(set(a)) == 10


class TestSettlement:
    """1:1 less 5 % commission, rounded down to the cent; a push returns the bet."""

    red_wins = round_from_cards(cards("A A K"), cards("9 7 5"), SEED)
    push = round_from_cards(cards("J 9 4"), cards("4 J 9"), SEED)

    def test_winner_pays_even_money_less_commission(self) -> None:
        assert settle_bet(Bet.RED, 1000, self.red_wins, SEED).won == 950
        assert settle_bet(Bet.RED, 1000, self.red_wins, SEED).returned == 1950
        assert settle_bet(Bet.GREEN, 1000, self.red_wins, SEED).won == -1000

    def test_commission_rounds_down_to_the_cent(self) -> None:
        assert settle_bet(Bet.RED, 25, self.red_wins, SEED).won == 23  # 23.75
        assert settle_bet(Bet.RED, 10, self.red_wins, SEED).won == 9  # 9.50
        assert settle_bet(Bet.RED, 1, self.red_wins, SEED).won == 0  # 0.95

    def test_push_returns_the_bet(self) -> None:
        for bet in (Bet.RED, Bet.GREEN):
            s = settle_bet(bet, 1000, self.push, SEED)
            assert s.result is BetResult.PUSH and s.won == 0 and s.returned == 1000

    def test_commission_option(self) -> None:
        rules = RedGreenRules.from_options(commission=4)
        assert settle_bet(Bet.RED, 1000, self.red_wins, rules).won == 960
        assert (
            settle_bet(Bet.RED, 1000, self.red_wins, RedGreenRules.from_options(commission=0)).won
            == 1000
        )

    def test_bad_stake_and_bet(self) -> None:
        with pytest.raises(InvalidBet):
            settle_bet(Bet.RED, 0, self.red_wins, SEED)
        with pytest.raises(InvalidBet, match="unknown bet 'blue'"):
            Bet.parse("blue")
        assert Bet.parse("green") is Bet.GREEN


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"decks": 0}, "decks"),
        ({"decks": "seven"}, "decks"),
        ({"commission": 100}, "commission"),
        ({"commission": -1}, "commission"),
        ({"split_aces": "maybe"}, "split-aces"),
        ({"split-kings": 2}, "split-kings"),
        ({"split_aces_unless": "Z"}, "split-aces-unless"),
        ({"split_kings_unless": 11}, "split-kings-unless"),
        ({"bonus": 1}, "bonus"),
        ({"deuces": "high"}, "deuces"),
        ({"deuces": 2}, "deuces"),
    ],
)
def test_bad_rule_options_name_the_option(options: dict[str, object], name: str) -> None:
    with pytest.raises(InvalidOption) as caught:
        RedGreenRules.from_options(**options)
    assert caught.value.option == name


def test_registry_carries_the_seeds_table_facts() -> None:
    """First version: 12 players, 6 a side, 3 dealers, the highest bettor may peek.
    Mini: 7 players, 1 dealer, nobody touches the cards, the highest bettor picks the
    hand set first and the other is exposed card by card."""
    first, mini = game("redgreen").table, game("redgreen-mini").table
    assert (first.seats, first.seats_per_side, first.dealers) == (12, 6, 3)
    assert first.highest_bettor_may_peek and not first.highest_bettor_chooses_first_hand
    assert first.players_touch_cards
    assert (mini.seats, mini.dealers) == (7, 1)
    assert not mini.players_touch_cards and not mini.highest_bettor_may_peek
    assert mini.highest_bettor_chooses_first_hand and mini.second_hand_exposed_card_by_card
    assert first.verify_seat(12) == 12
    assert (first.side_of(6), first.side_of(7), mini.side_of(3)) == ("left", "right", None)
    with pytest.raises(BaccaraError, match="seats run 1 to 7"):
        mini.verify_seat(8)
    with pytest.raises(BaccaraError):
        first.verify_seat(0)
    with pytest.raises(UnknownGame):
        game("redgreen-maxi")


def test_table_facts_refuse_an_impossible_table() -> None:
    with pytest.raises(BaccaraError, match="peeks touches"):
        TableFacts(seats=7, dealers=1, equipment=Equipment.CARDS, seat_required=True,
                   hands=("red", "green"), highest_bettor_may_peek=True)  # fmt: skip
    with pytest.raises(BaccaraError, match="two sides"):
        TableFacts(seats=7, dealers=3, equipment=Equipment.CARDS, seat_required=True,
                   hands=("red", "green"), seats_per_side=6)  # fmt: skip
    with pytest.raises(BaccaraError, match="names the hands it deals"):
        TableFacts(seats=7, dealers=1, equipment=Equipment.CARDS, seat_required=True)


def test_highest_bettor_is_the_largest_wager_first_placed() -> None:
    assert highest_bettor([(1, 500), (4, 700), (2, 700)]) == 4
    assert highest_bettor([(6, 100)]) == 6
    with pytest.raises(InvalidBet):
        highest_bettor([])


class TestBonusSettlement:
    """The Bonus on a live round settles by the paytable on Red's and Green's six cards."""

    def test_five_of_a_kind_pays_100_to_1_by_default(self) -> None:
        from baccara.cards import parse_cards
        from baccara.games.redgreen import round_from_cards

        round_ = round_from_cards(
            parse_cards(["AS", "AS", "AH"]), parse_cards(["AD", "AC", "2C"]), SEED
        )
        assert settle_bet(Bet.BONUS, 500, round_, SEED).won == 50_000

    def test_a_custom_paytable_is_used(self) -> None:
        from baccara.cards import parse_cards
        from baccara.games.paytable import Paytable
        from baccara.games.redgreen import round_from_cards

        rules = RedGreenRules(paytable=Paytable.from_toml("[pays]\ntwo_pair = 2\n"))
        round_ = round_from_cards(
            parse_cards(["9S", "9H", "4D"]), parse_cards(["4C", "KH", "2C"]), rules
        )
        assert settle_bet(Bet.BONUS, 500, round_, rules).won == 1000
        assert settle_bet(Bet.BONUS, 500, round_, SEED).won == -500  # two pair loses by default

    def test_bonus_has_no_winning_hand(self) -> None:
        from baccara.games.redgreen import bet_result

        push = round_from_cards(cards("J 9 4"), cards("4 J 9"), SEED)
        with pytest.raises(InvalidBet, match="paytable"):
            bet_result(Bet.BONUS, push)

    def test_paytable_must_be_a_paytable(self) -> None:
        """The constructor takes a Paytable; a shipped name is read by from_options only."""
        with pytest.raises(InvalidOption, match="paytable"):
            RedGreenRules(paytable="default")  # type: ignore[arg-type]
        assert RedGreenRules.from_options(paytable="default").paytable is DEFAULT_PAYTABLE
        with pytest.raises(InvalidOption, match="shipped paytable"):
            RedGreenRules.from_options(paytable="/etc/passwd")
