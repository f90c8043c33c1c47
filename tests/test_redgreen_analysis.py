"""Exact RedGreen analysis: the fast count against the plain enumeration, and the plain
enumeration against dealing every card of small shoes one by one.

Sample space from seed 000's analysis: "C364,3 x C361,3 = 7,971,964 x 7,775,940 =
61,989,513,746,160 ways to deal three cards to one hand from 7 decks of cards and then
3 cards to the other hand". Its published figures (win 35.2472 %, tie 29.5057 %, edge
1.7624 %) follow exactly from its rules, the cyclic ranking of Note 1 and Note 2
included (RULES-NOTES.md), and are asserted to the digits it prints; the exact counts
are checked against an enumeration through ``tests/seed_redgreen.py``, the seed's
comparison written out independently of the code.
"""

from __future__ import annotations

import hashlib
import math
from fractions import Fraction
from itertools import combinations, combinations_with_replacement

import pytest

from baccara import analyze
from baccara.cards import Card, Rank, ShoeComposition, Suit
from baccara.errors import InvalidOption
from baccara.exact.redgreen import (
    bet_analyses,
    count_by_rules,
    count_outcomes,
    deals,
    outcome_matrix,
    outcome_matrix_by_rules,
)
from baccara.games.paytable import Paytable
from baccara.games.redgreen import RedGreenRules, Winner, compare, house_way
from tests.helpers import shoe_of
from tests.seed_redgreen import seed_call

MATRIX_SHA256 = "98571f52d031cb2a4bda2de9c8a4a6955d560a835b80cf95b4e4ba8dbb33ad72"
"""SHA-256 of the int8 calls (+1 Red, 0 push, −1 Green) of every pair of rank hands."""


def test_sample_space_is_the_seeds() -> None:
    assert deals(7) == 7_971_964 * 7_775_940 == 61_989_513_746_160
    red = analyze("redgreen").bet("red")
    assert red.total == 61_989_513_746_160


def test_red_and_green_are_mirror_images() -> None:
    """Red and Green are dealt the same way, so each wins as often as the other."""
    analysis = analyze("redgreen")
    red, green = analysis.bet("red"), analysis.bet("green")
    assert red.outcome("win").count == red.outcome("lose").count == green.outcome("win").count
    assert red.outcome("push").count == green.outcome("push").count


def test_house_edge_is_commission_times_win_rate() -> None:
    """The seed's own reasoning: with wins equal to losses the edge is 5 % of the win rate."""
    for commission in (5, 4):
        red = analyze("redgreen", commission=commission).bet("red")
        assert red.house_edge == red.outcome("win").probability * Fraction(commission, 100)
        assert red.element_of_risk == Fraction(commission, 200)


def test_published_figures_are_the_computed_ones() -> None:
    """Seed 000: "either hand wins 35.2472 % … a tie 29.5057 % … house edge 1.7624 %".
    The exact figures, rounded to the seed's four decimals of a percent, are those."""
    red = analyze("redgreen").bet("red")
    assert red.published is not None
    for name, published in red.published.outcomes:
        assert round(red.outcome(name).probability * 100, 4) == published * 100
    assert round(red.house_edge * 100, 4) == red.published.house_edge * 100
    # The seed's own arithmetic: its edge is its win rate times the 5 % commission.
    published_win = dict(red.published.outcomes)["win"]
    assert abs(published_win * Fraction(5, 100) - red.published.house_edge) < Fraction(1, 10**6)
    # Other shoes and commissions are not what the seed analysed.
    assert analyze("redgreen", decks=6).bet("red").published is None
    assert analyze("redgreen", commission=4).bet("red").published is None


def test_the_seeds_push_and_edge_exactly() -> None:
    """The figures of the seed's rules as RULES-NOTES.md gives them: a push in
    18,290,427,641,136 of the 61,989,513,746,160 deals, and a house edge of
    32514200971/1844926004350 (1.76236 %)."""
    red = analyze("redgreen").bet("red")
    assert red.outcome("push").count == 18_290_427_641_136
    assert red.outcome("win").count == red.outcome("lose").count == 21_849_543_052_512
    assert red.house_edge == Fraction(32514200971, 1844926004350)


def test_the_ladder_reading_is_what_was_misread() -> None:
    """``deuces=top`` (2-2 above every pair) pushes 29.4807 %: the figure the earlier
    reading gave, off the seed's by 0.025 %, which is how the cycle was found."""
    ladder = analyze("redgreen", deuces="top").bet("red")
    assert round(ladder.outcome("push").probability * 100, 4) == Fraction("29.4807")
    assert ladder.published is None


def _seed_enumeration(decks: int) -> dict[Winner, int]:
    """Every (Red hand, Green hand) of rank multisets, weighted by binomials and called
    by the seed's text (``seed_call``), not by the code's comparison."""
    cards = [4 * decks] * 13
    hands = list(combinations_with_replacement(list(Rank), 3))
    set_hand = {
        h: house_way([Card(r, s) for r, s in zip(h, Suit, strict=False)], RedGreenRules())
        for h in hands
    }
    result = dict.fromkeys(Winner, 0)
    for red in hands:
        red_ways = math.prod(math.comb(cards[r.value - 1], red.count(r)) for r in set(red))
        left = list(cards)
        for r in red:
            left[r.value - 1] -= 1
        for green in hands:
            ways = math.prod(math.comb(left[r.value - 1], green.count(r)) for r in set(green))
            if ways:
                result[seed_call(set_hand[red], set_hand[green])] += red_ways * ways
    return result


@pytest.mark.parametrize("decks", [1, 6, 7])
def test_exact_counts_equal_an_enumeration_of_the_seeds_ranking(decks: int) -> None:
    rules = RedGreenRules(decks=decks)
    assert count_outcomes(rules) == _seed_enumeration(decks)


@pytest.mark.parametrize(
    "options",
    [
        {"split_aces": "no"},
        {"split_kings": "no"},
        {"split_aces_unless": "Q"},
        {"split_kings_unless": "8"},
        {"split-kings-unless": "A"},
        {"split_aces": False, "split_aces_unless": "Q"},
    ],
)
def test_the_seeds_figures_are_for_its_house_way_only(options: dict[str, object]) -> None:
    """Seed 000's win, push and edge were computed for its house way. With the Aces
    never split the exact edge is 1.7398 %, and the analysis used to print the seed's
    1.7624 % beside it as if they were the same game (a gap of −196 standard errors in
    the report); any other exception is another game too."""
    analysis = analyze("redgreen", **options)
    assert all(bet.published is None for bet in analysis.bets)
    assert all("published" not in bet for bet in analysis.to_dict()["bets"])


def test_the_seeds_figures_stay_with_another_bonus_paytable() -> None:
    """The paytable pays the Bonus only: Red and Green are the seed's game still."""
    richer = Paytable.from_toml('name = "rich"\n[pays]\nfull_house = 10\n')
    analysis = analyze("redgreen", paytable=richer)
    assert analysis.bet("red").published == analyze("redgreen").bet("red").published
    assert analysis.bet("bonus").published is None


def test_analyze_prints_no_published_figure_for_another_house_way() -> None:
    from tests.helpers import run

    for option in ("split-aces=no", "split-kings-unless=8"):
        result = run("analyze", "redgreen", "--option", option)
        assert result.returncode == 0, result.stderr
        assert "published" not in result.stdout and "seed 000" not in result.stdout
    assert "published 1.7624% (seed 000, 7 decks)" in run("analyze", "redgreen").stdout


def test_seven_deck_counts_are_pinned() -> None:
    """The exact counts of the rules as written, pinned after the enumeration above was
    proven equal to dealing every card (a change here is a change of rules), with the
    full 455 × 455 matrix of calls pinned by its SHA-256."""
    red = analyze("redgreen").bet("red")
    assert (red.outcome("win").count, red.outcome("push").count) == (
        21_849_543_052_512,
        18_290_427_641_136,
    )
    digest = hashlib.sha256(outcome_matrix(RedGreenRules()).tobytes()).hexdigest()
    assert digest == MATRIX_SHA256


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"deuces": "top"},
        {"split_aces": "no"},
        {"split_kings": "no", "deuces": "top"},
        {"split_aces_unless": "10", "split_kings_unless": "8"},
    ],
)
def test_the_table_of_calls_is_compare_on_every_pair(options: dict[str, object]) -> None:
    """The fast table is assembled from the parts of ``compare``; the plain one calls
    ``compare`` itself on all 455² pairs of set hands. Equal for every pair."""
    rules = RedGreenRules.from_options(**options)
    assert (outcome_matrix(rules) == outcome_matrix_by_rules(rules)).all()


@pytest.mark.slow
@pytest.mark.parametrize("decks", [1, 2, 7])
def test_fast_count_equals_the_plain_enumeration(decks: int) -> None:
    rules = RedGreenRules(decks=decks)
    assert count_outcomes(rules) == count_by_rules(rules)


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"split_aces": False},
        {"split_kings": False},
        {"split_aces": False, "split_kings": False},
        {"split_aces_unless": "10", "split_kings_unless": "8"},
        {"split_kings_unless": "A"},
    ],
)
def test_fast_count_equals_the_plain_enumeration_for_house_way_variants(
    options: dict[str, object],
) -> None:
    rules = RedGreenRules.from_options(**options)
    assert count_outcomes(rules) == count_by_rules(rules)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("copies", "ranks"),
    [(4, "A K 10 2"), (6, "A K 2")],
)
def test_plain_enumeration_equals_dealing_every_card(copies: int, ranks: str) -> None:
    """Every ordered deal of physical cards from a small shoe (16 and 18 cards), set by the
    house way and called, counted one by one — no rank multisets, no binomials."""
    shoe = shoe_of(ranks, copies)
    hands = list(combinations(range(len(shoe)), 3))
    set_hand = {h: house_way([shoe[i] for i in h], RedGreenRules()) for h in hands}
    counted = dict.fromkeys(Winner, 0)
    for red in hands:
        for green in hands:
            if not set(red) & set(green):
                counted[compare(set_hand[red], set_hand[green], RedGreenRules())] += 1
    per_rank = [0] * 13
    for card in shoe:
        per_rank[card.rank.value - 1] += 1
    rules = RedGreenRules()
    assert count_by_rules(rules, per_rank) == counted
    assert count_outcomes(rules, per_rank) == counted


def test_both_game_ids_share_the_mathematics() -> None:
    first, mini = analyze("redgreen").to_dict(), analyze("redgreen-mini").to_dict()
    assert (first["game"], mini["game"]) == ("redgreen", "redgreen-mini")
    assert first["bets"] == mini["bets"]


def test_json_shape() -> None:
    data = analyze("redgreen", split_kings_unless="Q").to_dict()
    assert data["options"] == {
        "decks": 7,
        "commission": 5,
        "split_aces": True,
        "split_aces_unless": "K",
        "split_kings": True,
        "split_kings_unless": "Q",
        "deuces": "beat-aces-only",
        "paytable": "default",
    }
    assert [b["bet"] for b in data["bets"]] == ["red", "green", "bonus"]
    assert [o["name"] for o in data["bets"][0]["outcomes"]] == ["win", "push", "lose"]
    assert data["bets"][0]["outcomes"][0]["pays"] == 0.95
    assert "published" not in data["bets"][0]  # the seed analysed its own house way only
    seeds = analyze("redgreen").to_dict()
    assert seeds["bets"][0]["published"]["outcomes"] == {
        "win": 0.352472,
        "push": 0.295057,
        "lose": 0.352472,
    }


def test_bets_are_red_green_then_the_bonus_from_any_shoe() -> None:
    """The same builders serve the full shoe and a depleted one (a live shoe's edges)."""
    rules = RedGreenRules()
    assert analyze("redgreen").bet_ids == ["red", "green", "bonus"]
    short = ShoeComposition.standard(7).without(Card(Rank.ACE, Suit.SPADES))
    depleted = bet_analyses(rules, short)
    assert [b.bet for b in depleted] == ["red", "green", "bonus"]
    assert all(b.total < a.total for a, b in zip(analyze("redgreen").bets, depleted, strict=True))


@pytest.mark.parametrize(
    "options",
    [{"decks": 0}, {"decks": 101}, {"commission": 100}, {"split_aces": "x"}, {"colour": "red"}],
)
def test_analysis_refuses_bad_options(options: dict[str, object]) -> None:
    with pytest.raises(InvalidOption):
        analyze("redgreen", **options)
