"""Counting Punto Banco's side bets: exact depleted shoes, the best count, the play.

The fast exact edge of a depleted shoe is proven equal to the facts analysis, the coup
lengths the play deals by to the rules on every input; the best level-2 Dragon 7 count
is Eliot Jacobson's published one ("Co-Card Counting the Dragon and Panda Side Bets in
EZ Baccarat"), and the play's gain per shoe agrees with his 0.597 units a shoe for a cut
card 14 cards from the end.
"""

from __future__ import annotations

import random

import pytest

from baccara.cards import Card, Rank, ShoeComposition, Suit
from baccara.errors import InvalidOption
from baccara.exact.counting import (
    PUBLISHED_TAGS,
    DepletedBet,
    _coup_cards,
    best_tags,
    effects_by_value,
    play_shoes,
    study,
)
from baccara.exact.coup_bets import spot_analysis
from baccara.exact.punto_banco import cards_of_value
from baccara.games.punto_banco import PuntoBancoRules, deal_coup
from tests.helpers import assert_refused, run

EZ = PuntoBancoRules.from_options(variant="ez")
PER_VALUE = cards_of_value(8)


def _depleted(seed: int, cards: int) -> ShoeComposition:
    rng = random.Random(seed)
    pile = [Card(rank, suit) for rank in Rank for suit in Suit for _ in range(8)]
    rng.shuffle(pile)
    return ShoeComposition.of(pile[cards:])


@pytest.mark.parametrize("bet", ["dragon-7", "panda-8", "banker"])
@pytest.mark.parametrize(("seed", "dealt"), [(1, 0), (2, 60), (3, 250), (4, 390)])
def test_the_fast_depleted_edge_is_the_facts_analysis(bet: str, seed: int, dealt: int) -> None:
    shoe = _depleted(seed, dealt)
    fast = DepletedBet(EZ, bet).expectation(cards_of_value(shoe))
    assert fast == -spot_analysis(bet, EZ, shoe).house_edge


@pytest.mark.parametrize("seed", range(12))
def test_the_fast_depleted_edge_holds_when_values_run_out(seed: int) -> None:
    """Shoes of six to nine cards, where openings ask for cards the shoe lacks."""
    shoe = _depleted(seed, 416 - 6 - seed % 4)
    for bet in ("dragon-7", "panda-8", "banker", "player"):
        fast = DepletedBet(EZ, bet).expectation(cards_of_value(shoe))
        assert fast == -spot_analysis(bet, EZ, shoe).house_edge


def test_a_pay_of_ten_thousand_to_one_does_not_overflow() -> None:
    """Pays multiply exact counts: a file may pay 10,000 to 1 on every Banker win."""
    from baccara.games.coup_bets import MainRules

    generous = MainRules.from_toml('id = "generous"\nname = "Generous"\ncommission = 0\n'
                                   "[[banker]]\nwhen = {}\npays = 10000\n")  # fmt: skip
    rules = PuntoBancoRules.from_options(variant=generous)
    fast = DepletedBet(rules, "banker").expectation(PER_VALUE)
    assert fast == -spot_analysis("banker", rules, 8).house_edge > 4000


def test_the_coup_lengths_are_the_rules_on_every_input() -> None:
    """What the tableau reads: both two-card scores and the fifth card (all 10³ · 10)."""
    for p in range(10):
        for b in range(10):
            for fifth in range(10):
                values = [p, b, 0, 0, fifth, 0]
                cards = [Card(Rank(v) if v else Rank.KING, Suit.SPADES) for v in values]
                assert _coup_cards(values, 0) == len(deal_coup(cards).cards)


def test_effects_of_a_card_nobody_saw_balance_to_zero() -> None:
    effects = effects_by_value(DepletedBet(EZ, "dragon-7"), PER_VALUE)
    assert sum(n * e for n, e in zip(PER_VALUE, effects, strict=True)) == 0


def test_the_best_dragon_count_is_the_published_one() -> None:
    effects = effects_by_value(DepletedBet(EZ, "dragon-7"), PER_VALUE)
    assert best_tags(effects, PER_VALUE, 2) == PUBLISHED_TAGS["dragon-7"][1]


def test_counting_dragon_7_pays_about_what_is_published() -> None:
    """250 shoes at a true count of 4 and a cut card 14 cards from the end: the gain the
    exact edges of the shoes bet into promise is near Jacobson's 0.597 units a shoe, and
    what the bets paid agrees with it within the play's own noise."""
    play = play_shoes(EZ, "dragon-7", PUBLISHED_TAGS["dragon-7"][1], 4.0, 250, 14, seed=5)
    assert 6 < play.bets_per_shoe < 8
    assert abs(play.expected_gain - 0.597) < 4 * play.expected_se
    assert abs(play.won - play.expected_gain) < 4 * play.won_se
    # the count sorts the shoes: the higher the true count, the better the bet
    edges = [edge for count, coups, edge in play.edge_by_count if 4 <= count <= 8 and coups > 50]
    assert edges == sorted(edges) and edges[0] > 0


def test_a_bet_spread_bets_more_where_the_count_is_higher() -> None:
    """A spread of one step is the flat bet; 1 unit from 4 and 3 from 6 stakes more and
    gains more on the same shoes, since every shoe bet into past 6 favours the player more."""
    tags = PUBLISHED_TAGS["dragon-7"][1]
    flat = play_shoes(EZ, "dragon-7", tags, 4.0, 40, 14, seed=9)
    one_step = play_shoes(EZ, "dragon-7", tags, 0.0, 40, 14, seed=9, spread=((4.0, 1),))
    assert one_step.expected_gain == flat.expected_gain and one_step.won == flat.won
    spread = play_shoes(EZ, "dragon-7", tags, 0.0, 40, 14, seed=9, spread=((4.0, 1), (6.0, 3)))
    assert spread.bets_per_shoe == flat.bets_per_shoe < spread.units_per_shoe
    assert spread.expected_gain > flat.expected_gain


def test_a_study_brings_the_published_count_beside_its_own() -> None:
    result = study(EZ, "panda-8", shoes=5, seed=2)
    assert round(float(result.expectation), 6) == -0.101876  # Wizard of Odds, EZ Baccarat
    assert result.published is not None and result.published[2] > result.correlation
    assert result.play.trigger == 9.0  # the linear estimate, 8.5, rounded up
    assert result.to_dict()["count"]["tags"]["9"] == 2


def test_bets_that_read_pairs_cannot_be_counted_by_value() -> None:
    rules = PuntoBancoRules.from_options(sidebets="perfect-pair")
    with pytest.raises(InvalidOption, match="reads pairs"):
        DepletedBet(rules, "perfect-pair")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["redgreen", "red"], "counting is for punto-banco"),
        (["punto-banco", "dragon-7"], "unknown bet 'dragon-7'"),
        (["punto-banco", "dragon-7", "-o", "variant=ez", "--tags", "1,2"], "ten whole numbers"),
        (["punto-banco", "dragon-7", "-o", "variant=ez", "--shoes", "0"], "deal 1 to"),
        (["punto-banco", "dragon-7", "-o", "variant=ez", "--cut-card", "1"], "cut card lies"),
        (["punto-banco", "dragon-7", "-o", "variant=ez", "--level", "5"], "tags run from"),
        (
            ["punto-banco", "dragon-7", "-o", "variant=ez", "--tags", "0,0,0,0,0,0,0,0,0,0"],
            "never moves",
        ),
        (
            ["punto-banco", "dragon-7", "-o", "variant=ez", "--tags", "1,1,1,1,1,1,1,1,1,1"],
            "unbalanced: a full shoe counts to +416",
        ),
        (["punto-banco", "dragon-7", "-o", "variant=ez", "--seed", "-1"], "0 or more"),
        (["punto-banco", "dragon-7", "-o", "variant=ez", "--trigger", "nan"], "finite number"),
        (["punto-banco", "dragon-7", "-o", "variant=ez", "--trigger", "inf"], "finite number"),
        (["punto-banco", "dragon-7", "-o", "variant=ez", "--spread", "4:1,3:2"], "rise from step"),
        (["punto-banco", "dragon-7", "-o", "variant=ez", "--spread", "4:0"], "units are whole"),
        (["punto-banco", "dragon-7", "-o", "variant=ez", "--spread", "four"], "TRUE_COUNT:UNITS"),
        (
            ["punto-banco", "dragon-7", "-o", "variant=ez", "--spread", "4:1", "--trigger", "3"],
            "a spread's first step is its trigger",
        ),
    ],
)
def test_bad_input_at_the_command_line_gets_one_line(args: list[str], words: str) -> None:
    assert_refused(run("count", *args), words)


def test_the_command_prints_the_count_and_the_play() -> None:
    result = run("count", "punto-banco", "dragon-7", "-o", "variant=ez", "--shoes", "20")
    assert result.returncode == 0, result.stderr
    assert "Eliot Jacobson's Dragon count" in result.stdout
    assert "gain per shoe" in result.stdout and "3.52" in result.stdout


def test_the_surveillance_of_a_continuous_shoe_sees_dragon_7_turn() -> None:
    """A live EZ table's shoe after most of the eights and nines are out: the operator's
    shoe report gives Dragon 7 a negative house edge — the player's edge, which the
    dealer's page flags — equal to the count's exact figure for the same cards left."""
    from baccara.games import game
    from baccara.table.shoe import LiveShoe, shoe_report

    gone = [f"{rank}{suit}" for rank in ("8", "9") for suit in "SHDC" for _ in range(7)]
    gone += [f"{rank}{suit}" for rank in ("10", "J", "Q", "K") for suit in "SHDC"]
    shoe = LiveShoe(8, penetration=0.9, dealt=gone)
    edges = dict(shoe_report(game("punto-banco"), EZ, shoe).edges)
    assert edges["dragon-7"] < 0 < edges["panda-8"]
    left = cards_of_value(shoe.composition())
    assert -edges["dragon-7"] == DepletedBet(EZ, "dragon-7").expectation(left)
