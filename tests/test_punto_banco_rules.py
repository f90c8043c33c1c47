"""Punto Banco drawing rules and settlement, each written from the seed's text (seed 003).

Cards are written in dealing order: Player, Banker, Player, Banker, then third cards.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from baccara.cards import Rank
from baccara.errors import InvalidBet, InvalidCards, InvalidOption
from baccara.games.punto_banco import (
    Bet,
    PuntoBancoRules,
    Winner,
    coup_from_cards,
    deal_coup,
    deal_from_fresh_shoe,
    score,
    settle_bet,
)
from baccara.money import BetResult
from baccara.randomness import SeededRandom
from tests.helpers import cards


def test_score_is_right_digit_of_total() -> None:
    """Seed: "if the two cards were 8 and 7, then the total would be 15 and the score would be 5"."""
    assert score(cards("8 7")) == 5
    assert score(cards("K Q")) == 0
    assert score(cards("A 9 J")) == 0


@pytest.mark.parametrize(
    ("dealt", "player_score", "banker_score"),
    [
        ("8 2 K 3", 8, 5),  # Player natural 8: Banker on 5 does not draw
        ("2 9 3 K", 5, 9),  # Banker natural 9: Player on 5 does not draw
        ("4 6 4 3", 8, 9),  # both natural
        ("A 4 8 4", 9, 8),
    ],
)
def test_a_natural_ends_the_coup(dealt: str, player_score: int, banker_score: int) -> None:
    coup = coup_from_cards(cards(dealt))
    assert coup.natural
    assert (coup.player_score, coup.banker_score) == (player_score, banker_score)
    assert len(coup.player) == len(coup.banker) == 2


@pytest.mark.parametrize("total", [0, 1, 2, 3, 4, 5])
def test_player_hits_on_five_or_less(total: int) -> None:
    # Player K + total; Banker 7 (stands whatever the Player drew), third card a 2.
    first = "K" if total == 0 else str(total) if total > 1 else "A"
    coup = deal_coup(cards(f"{first} 7 K K 2 9"))
    assert len(coup.player) == 3
    assert len(coup.banker) == 2


@pytest.mark.parametrize("total", ["6", "7"])
def test_player_stands_on_six_or_seven(total: str) -> None:
    coup = deal_coup(cards(f"{total} 7 K K 2"))
    assert len(coup.player) == 2


@pytest.mark.parametrize(
    ("banker", "draws"), [(0, True), (3, True), (5, True), (6, False), (7, False)]
)
def test_banker_after_player_stood_hits_on_five_or_less(banker: int, draws: bool) -> None:
    first = "K" if banker == 0 else "A" if banker == 1 else str(banker)
    coup = deal_coup(cards(f"6 {first} K K 2"))
    assert len(coup.player) == 2
    assert len(coup.banker) == (3 if draws else 2)


# The seed, sentence by sentence: "If the player's third card is an 8, then the dealer hits
# with a score of 2 or less. If ... a 9, 10, ACE or FACE ... 3 or less. If ... a 2 or 3 ...
# 4 or less. If ... a 4 or 5 ... 5 or less. If ... a 6 or 7 ... 6 or less."
SEED_TABLEAU = {
    "8": 2,
    "9": 3, "10": 3, "A": 3, "J": 3, "Q": 3, "K": 3,
    "2": 4, "3": 4,
    "4": 5, "5": 5,
    "6": 6, "7": 6,
}  # fmt: skip


@pytest.mark.parametrize("third", list(SEED_TABLEAU))
@pytest.mark.parametrize("banker", range(8))
def test_banker_after_player_drew_follows_the_seeds_table(third: str, banker: int) -> None:
    first = "K" if banker == 0 else "A" if banker == 1 else str(banker)
    coup = deal_coup(cards(f"K {first} 2 K {third} 5"))  # Player 2 draws
    assert coup.player[2].rank == Rank.parse(third)
    assert (len(coup.banker) == 3) == (banker <= SEED_TABLEAU[third])


def test_cards_come_out_in_dealing_order() -> None:
    coup = coup_from_cards(cards("2 2 A 2 4 5"))  # Player 3 draws a 4; Banker 4 draws on it
    assert [c.rank for c in coup.player] == [Rank.TWO, Rank.ACE, Rank.FOUR]
    assert [c.rank for c in coup.banker] == [Rank.TWO, Rank.TWO, Rank.FIVE]
    assert coup.cards[4].rank is Rank.FOUR  # the Player's third card comes first
    assert (coup.player_score, coup.banker_score, coup.winner) == (7, 9, Winner.BANKER)
    assert coup.banker_pair and not coup.player_pair


def test_live_entry_refuses_too_few_or_too_many_cards() -> None:
    with pytest.raises(InvalidCards, match="not enough"):
        coup_from_cards(cards("2 2 A 2 4"))
    with pytest.raises(InvalidCards, match="draw 4 cards"):
        coup_from_cards(cards("8 2 K 3 5"))


def test_fresh_shoe_coups_are_reproducible_by_seed() -> None:
    rules = PuntoBancoRules()
    a = [deal_from_fresh_shoe(rules, SeededRandom(s)).cards for s in range(20)]
    b = [deal_from_fresh_shoe(rules, SeededRandom(s)).cards for s in range(20)]
    assert a == b and len(set(a)) == 20


class TestSettlement:
    banker_wins = coup_from_cards(cards("2 9 3 K"))  # 5 v 9
    player_wins = coup_from_cards(cards("8 2 K 3"))  # 8 v 5
    tie = coup_from_cards(cards("7 9 K 8"))  # 7 v 7, both stand

    def test_banker_pays_19_to_20_rounded_down(self) -> None:
        rules = PuntoBancoRules()
        assert settle_bet(Bet.BANKER, 1000, self.banker_wins, rules).won == 950
        assert settle_bet(Bet.BANKER, 25, self.banker_wins, rules).won == 23  # 23.75
        assert settle_bet(Bet.BANKER, 1000, self.player_wins, rules).won == -1000

    def test_player_pays_even_money(self) -> None:
        rules = PuntoBancoRules()
        assert settle_bet(Bet.PLAYER, 1000, self.player_wins, rules).won == 1000
        assert settle_bet(Bet.PLAYER, 1000, self.banker_wins, rules).won == -1000

    def test_tie_pays_8_to_1_and_pushes_the_sides(self) -> None:
        rules = PuntoBancoRules()
        assert settle_bet(Bet.TIE, 1000, self.tie, rules).won == 8000
        assert settle_bet(Bet.TIE, 1000, self.player_wins, rules).won == -1000
        for side in (Bet.BANKER, Bet.PLAYER):
            s = settle_bet(side, 1000, self.tie, rules)
            assert s.result is BetResult.PUSH and s.returned == 1000

    def test_pairs_pay_11_to_1(self) -> None:
        rules = PuntoBancoRules()
        pair = coup_from_cards(cards("3 2 3 5"))  # Player 3-3 stands on 6; Banker 7 stands
        assert settle_bet(Bet.PLAYER_PAIR, 500, pair, rules).won == 5500
        assert settle_bet(Bet.BANKER_PAIR, 500, pair, rules).won == -500

    def test_options_change_the_pays(self) -> None:
        rules = PuntoBancoRules.from_options(commission=4, tie_pays=9)
        assert settle_bet(Bet.BANKER, 1000, self.banker_wins, rules).won == 960
        assert settle_bet(Bet.TIE, 1000, self.tie, rules).won == 9000


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"decks": 0}, "decks"),
        ({"decks": "eight"}, "decks"),
        ({"commission": -1}, "commission"),
        ({"commission": 100}, "commission"),
        ({"commission": "x"}, "commission"),
        ({"tie_pays": -1}, "tie-pays"),
        ({"shoe": 1}, "shoe"),
    ],
)
def test_bad_rule_options_name_the_option(options: dict[str, object], name: str) -> None:
    with pytest.raises(InvalidOption) as caught:
        PuntoBancoRules.from_options(**options)
    assert caught.value.option == name
    assert isinstance(caught.value, ValueError)


def test_unknown_bet_is_refused() -> None:
    with pytest.raises(InvalidBet, match="unknown bet"):
        Bet.parse("dragon")


@pytest.mark.parametrize(
    ("field", "value"),
    [("commission", "4"), ("commission", 4), ("decks", "8"), ("decks", True), ("tie_pays", 8.0)],
)
def test_the_constructor_takes_only_its_declared_types(field: str, value: object) -> None:
    """Text and other numbers are read by from_options; the dataclass holds honest types."""
    with pytest.raises(InvalidOption, match="from_options reads text"):
        PuntoBancoRules(**{field: value})  # type: ignore[arg-type]


def test_from_options_reads_text_and_numbers_alike() -> None:
    as_text = PuntoBancoRules.from_options(decks="6", commission="4", tie_pays="9")
    as_numbers = PuntoBancoRules.from_options(decks=6, commission=4, tie_pays=9.0)
    assert as_text == as_numbers == PuntoBancoRules(6, Fraction(4), Fraction(9))


def test_an_option_given_in_both_spellings_is_refused() -> None:
    with pytest.raises(InvalidOption, match="given twice"):
        PuntoBancoRules.from_options(**{"tie-pays": "9", "tie_pays": "8"})
