"""Effect of removal: depleted-shoe counters proven against the plain rules, and the effects
checked against published figures and against exact identities.

Published figures: "Concepts 16: Baccarat – Effects of Card Removal", excelpunks.com
(https://excelpunks.com/concepts-16-baccarat-effects-of-card-removal/), table "Player":
the change of the Player's win probability in an eight-deck shoe when one, two or three
cards of one value are removed, printed to ten decimals.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from baccara import analyze
from baccara.cards import Card, Rank, ShoeComposition, Suit
from baccara.errors import InvalidCards, InvalidOption, UnknownGame
from baccara.exact import punto_banco, redgreen
from baccara.exact.bonus import category_counts
from baccara.exact.loball import (
    bet_analyses,
    count_main_by_rules,
    count_tile_bets_by_rules,
    main_counts,
    points_grid,
    tile_counts,
)
from baccara.exact.removal import effect_of_removal
from baccara.games.loball import Bet as LoBallBet
from baccara.games.loball import LoBallRules
from baccara.games.punto_banco import PuntoBancoRules, Winner
from baccara.games.redgreen import RedGreenRules
from baccara.tiles import TILE_SET, Tile


def short(shoe: ShoeComposition, *codes: str) -> ShoeComposition:
    for code in codes:
        shoe = shoe.without(Card.parse(code))
    return shoe


DEPLETED_SMALL_SHOES = [
    short(ShoeComposition.standard(1), "5H"),
    short(ShoeComposition.standard(1), "KS", "QS", "JD", "10C", "9H"),
    short(ShoeComposition.standard(2), *[f"{r}S" for r in "A23456789"] * 2),  # no 1–9 spades
]
"""Small shoes the plain enumerations finish quickly on: one card short, five tens short,
and two decks with every spade from Ace to Nine gone (values 1–9 thin, tens untouched)."""


# --- ShoeComposition ---------------------------------------------------------------------


def test_without_removes_exactly_one_copy() -> None:
    shoe = ShoeComposition.standard(8).without(Card.parse("7D"))
    assert shoe.total == 415
    assert shoe.count(Card.parse("7D")) == 7 and shoe.count(Card.parse("7H")) == 8
    assert shoe.per_rank == (32,) * 6 + (31,) + (32,) * 6


def test_without_refuses_a_card_the_shoe_does_not_hold() -> None:
    shoe = ShoeComposition.standard(1).without(Card.parse("AS"))
    with pytest.raises(InvalidCards, match="no A♠"):
        shoe.without(Card.parse("AS"))


# --- Punto Banco on depleted shoes ----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("shoe", DEPLETED_SMALL_SHOES[1:], ids=["1d-five-tens", "2d-spades"])
def test_punto_banco_fast_count_equals_plain_enumeration_on_depleted_shoes(
    shoe: ShoeComposition,
) -> None:
    assert punto_banco.count_winners(shoe) == punto_banco.count_by_rules(shoe)


@pytest.mark.slow
def test_punto_banco_fast_count_equals_plain_enumeration_eight_decks_one_card_short() -> None:
    shoe = short(ShoeComposition.standard(8), "6C")
    assert punto_banco.count_winners(shoe) == punto_banco.count_by_rules(shoe)


@pytest.mark.parametrize(
    "shoe",
    [*DEPLETED_SMALL_SHOES, short(ShoeComposition.standard(8), "QH"), ShoeComposition.standard(8)],
    ids=["1d-5H", "1d-five-tens", "2d-spades", "8d-QH", "8d"],
)
def test_pair_formula_equals_every_opening_through_the_rules(shoe: ShoeComposition) -> None:
    player, banker = punto_banco.count_pairs_by_rules(shoe)
    assert player == banker == punto_banco.pair_sequences(shoe)


def test_a_number_of_decks_and_its_standard_composition_agree() -> None:
    full = ShoeComposition.standard(8)
    assert punto_banco.count_winners(8) == punto_banco.count_winners(full)
    assert punto_banco.pair_sequences(8) == punto_banco.pair_sequences(full)
    assert punto_banco.sequences(8) == punto_banco.sequences(full) == math.perm(416, 6)


PUBLISHED_PLAYER_WIN_CHANGE = {
    "4": ("-0.0000435175", "-0.0000870460", "-0.0001305855"),
    "K": ("-0.0000373810", "-0.0000749287", "-0.0001126377"),
    "J": ("-0.0000373810", "-0.0000749287", "-0.0001126377"),
    "Q": ("-0.0000373810", "-0.0000749287", "-0.0001126377"),
    "A": ("-0.0000295798", "-0.0000594307", "-0.0000895596"),
    "3": ("-0.0000217068",),
}
"""excelpunks.com, Concepts 16, table "Player" (eight decks), to ten decimals: the change of
P(Player wins) with 1, 2 and 3 cards of the value removed ("0" and J, Q, K alike)."""


@pytest.mark.parametrize("rank", list(PUBLISHED_PLAYER_WIN_CHANGE))
def test_player_win_probability_with_cards_removed_matches_the_published_table(
    rank: str,
) -> None:
    full = ShoeComposition.standard(8)
    before = Fraction(punto_banco.count_winners(full)[Winner.PLAYER], punto_banco.sequences(full))
    shoe = full
    for removed, published in enumerate(PUBLISHED_PLAYER_WIN_CHANGE[rank], 1):
        shoe = shoe.without(Card(Rank.parse(rank), list(Suit)[removed % 4]))
        won = punto_banco.count_winners(shoe)[Winner.PLAYER]
        change = Fraction(won, punto_banco.sequences(shoe)) - before
        assert f"{float(change):.10f}" == published


def test_punto_banco_effects_follow_from_the_depleted_analysis() -> None:
    """An effect is exactly the depleted shoe's edge minus the full shoe's."""
    eor = effect_of_removal("punto-banco")
    full = analyze("punto-banco")
    assert eor.full_edges == tuple(b.house_edge for b in full.bets)
    depleted = punto_banco.bet_analyses(PuntoBancoRules(), short(ShoeComposition.standard(8), "6D"))
    assert eor.effect("6", "banker") == depleted[0].house_edge - full.bet("banker").house_edge


def test_punto_banco_effect_table_shape() -> None:
    """All 13 ranks, each 1/13 of the shoe; 10, J, Q and K are all worth 0, so they must
    act alike on every bet (the main bets read values, the pair bets see equal counts)."""
    eor = effect_of_removal("punto-banco")
    assert [r.label for r in eor.removals] == [r.symbol for r in Rank]
    assert all(r.share == Fraction(1, 13) for r in eor.removals)
    tens = {tuple(eor.effects(r)) for r in eor.removals if r.label in ("10", "J", "Q", "K")}
    assert len(tens) == 1


def test_one_card_never_moves_the_pair_bets() -> None:
    """P(pair) = Σ n(n−1)/N(N−1) = (n−1)/(N−1) for 13 equal ranks, and one card less of any
    rank gives (n−1)(13n−2)/((N−1)(N−2)) = (n−1)/(N−1) again."""
    eor = effect_of_removal("punto-banco", decks=6)
    for bet in ("player-pair", "banker-pair"):
        assert all(eor.effect(r.symbol, bet) == 0 for r in Rank)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("punto-banco", {}),
        ("punto-banco", {"decks": 1, "commission": 4, "tie_pays": 9}),
        ("redgreen", {}),
        ("redgreen-mini", {"decks": 2}),
        ("lo-ball", {}),
    ],
)
def test_effects_weighted_by_share_sum_to_exactly_zero(game: str, options: dict[str, int]) -> None:
    """Removing a card nobody saw changes nothing: the next round is dealt from a uniformly
    shuffled rest either way, so Σ share × effect = 0 exactly, for every bet."""
    eor = effect_of_removal(game, **options)
    assert sum(r.share for r in eor.removals) == 1
    assert eor.weighted_sums == (Fraction(0),) * len(eor.bets)
    assert any(e != 0 for r in eor.removals for e in eor.effects(r))


# --- RedGreen and the Bonus -------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("removed", ["AH", "7C", "KD"])
def test_redgreen_fast_count_equals_plain_enumeration_seven_decks_one_card_short(
    removed: str,
) -> None:
    rules = RedGreenRules()
    shoe = short(ShoeComposition.standard(7), removed)
    assert redgreen.count_outcomes(rules, shoe.per_rank) == redgreen.count_by_rules(
        rules, shoe.per_rank
    )


def test_redgreen_depleted_deals_add_up() -> None:
    shoe = short(ShoeComposition.standard(7), "9S")
    red, green = redgreen.red_green_bets(RedGreenRules(), shoe)
    assert red.total == redgreen.deals(shoe) == math.comb(363, 3) * math.comb(360, 3)
    assert red.published is None and green.house_edge == red.house_edge


def test_bonus_edge_is_the_same_whichever_suit_is_removed() -> None:
    """The convention "one card of the rank, a spade" equals the four-suit average: every
    one of the 52 cards gives the same distribution as its rank's spade."""
    full = ShoeComposition.standard(7)
    for rank in Rank:
        by_suit = [category_counts(full.without(Card(rank, suit))) for suit in Suit]
        assert all(counts == by_suit[0] for counts in by_suit), rank


def test_redgreen_effects_use_the_game_rules() -> None:
    eor = effect_of_removal("redgreen")
    assert eor.bets == ("red", "green", "bonus")
    assert eor.full_edges == tuple(b.house_edge for b in analyze("redgreen").bets)
    assert all(eor.effect(r.symbol, "red") == eor.effect(r.symbol, "green") for r in Rank)


# --- Lo-Ball ----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("tile", [Tile(3, 5)], ids=str)
def test_loball_main_count_without_a_tile_equals_every_pair_through_the_rules(tile: Tile) -> None:
    counts, grid = count_main_by_rules(tile)
    assert counts == main_counts(tile)
    assert [tuple(row) for row in grid] == list(points_grid(tile))
    assert sum(counts.values()) == math.comb(27, 3) * math.comb(24, 3)


@pytest.mark.parametrize("tile", TILE_SET, ids=str)
def test_loball_tile_bets_without_a_tile_equal_rounds_dealt_through_the_rules(tile: Tile) -> None:
    plain = count_tile_bets_by_rules(tile)
    assert plain[LoBallBet.LO_CARD] == tile_counts(27, present=tile != Tile(1, 1))
    assert plain[LoBallBet.HI_CARD] == tile_counts(27, present=tile != Tile(7, 7))


def test_loball_effects_from_first_principles() -> None:
    """Without 1-1 the Lo-Card bet always loses (edge 100 %); with 27 tiles the other tile's
    bet is fair: P(win) = 3/27 at 7:1 and P(lose) = 24/27 less the pushes, edge exactly 0."""
    eor = effect_of_removal("lo-ball")
    full = analyze("lo-ball").bet("lo-card").house_edge
    assert full == Fraction(1, 28)
    assert eor.effect("1-1", "lo-card") == 1 - full
    assert eor.effect("1-1", "hi-card") == -full
    assert eor.effect("4-4", "lo-card") == -full
    for tile in TILE_SET:
        assert eor.effect(str(tile), "dice-lo") == eor.effect(str(tile), "dice-hi") == 0
    without = bet_analyses(LoBallRules(), Tile(2, 6))
    assert without[0].total == math.comb(27, 3) * math.comb(24, 3)


# --- refusals and output ----------------------------------------------------------------------


def test_unknown_game_and_bad_options_are_refused() -> None:
    with pytest.raises(UnknownGame, match="blackjack"):
        effect_of_removal("blackjack")
    with pytest.raises(InvalidOption, match="decks"):
        effect_of_removal("punto-banco", decks=0)
    with pytest.raises(InvalidOption):
        effect_of_removal("lo-ball", decks=8)


def test_json_shape() -> None:
    data = effect_of_removal("punto-banco").to_dict()
    assert data["removed"] == "rank" and data["bets"][0] == "banker"
    first = data["effects"][0]
    assert first["removed"] == "A" and first["share"] == "1/13"
    banker = first["bets"]["banker"]
    assert set(banker) == {"points", "exact", "house_edge", "house_edge_exact"}
    assert banker["points"] == pytest.approx(float(Fraction(banker["exact"])) * 100)
    assert data["weighted_sum"]["tie"] == {"points": 0.0, "exact": "0/1"}


def test_every_removal_label_is_distinct() -> None:
    for game in ("punto-banco", "lo-ball"):
        labels = [r.label for r in effect_of_removal(game).removals]
        assert len(labels) == len(set(labels))
