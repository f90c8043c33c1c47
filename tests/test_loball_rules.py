"""Casino Lo-Ball Baccarat rules, checked against the seed's text (seed 001) and RULES-NOTES.

Every expected value here is worked out by hand from the rule text: the points of a
hand, what each wager pays, and when the Lo-Card and Hi-Card bets push.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from baccara.errors import InvalidBet, InvalidCards, InvalidOption
from baccara.games.loball import (
    Bet,
    LoBallRules,
    MainOutcome,
    Round,
    deal_round,
    dice_result,
    main_outcome,
    points,
    round_from_stack,
    round_from_tiles,
    settle_bet,
)
from baccara.money import BetResult
from baccara.randomness import SeededRandom
from baccara.tiles import TILE_SET, Tile

RULES = LoBallRules()


def hand(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


@pytest.mark.parametrize(
    ("tiles", "expected"),
    [
        ("1-2 2-3 4-5", 13),  # the seed's own example: 1 + 3 + 4 + 5
        ("1-1 2-2 3-3", 0),  # every number twice
        ("1-2 1-2", 0),  # (two tiles only to show repeats cancel whole numbers)
        ("2-3 4-5 6-7", 27),  # 2 + 3 + 4 + 5 + 6 + 7, the highest
        ("1-1 1-2 1-3", 5),  # 1 appears four times: 2 + 3
        ("1-7 2-7 3-7", 6),  # 7 three times: 1 + 2 + 3
        ("7-7 6-6 5-5", 0),
        ("1-1 2-3 4-5", 14),
    ],
)
def test_points_are_the_sum_of_numbers_that_appear_once(tiles: str, expected: int) -> None:
    assert points(hand(tiles)) == expected


def test_main_outcomes_follow_the_seed() -> None:
    """Fewer points win; equal or more lose; 0 earns the Win-bonus; 27 the Play-bonus."""
    assert main_outcome(10, 9) is MainOutcome.WIN
    assert main_outcome(10, 10) is MainOutcome.LOSE
    assert main_outcome(9, 10) is MainOutcome.LOSE
    assert main_outcome(1, 0) is MainOutcome.WIN_BONUS
    assert main_outcome(0, 0) is MainOutcome.LOSE
    assert main_outcome(27, 27) is MainOutcome.PLAY_BONUS
    assert main_outcome(3, 27) is MainOutcome.PLAY_BONUS


def one_seat(
    player: str, dealer: str, exposed: str = "", dice: tuple[int, ...] = (1, 2, 4)
) -> Round:
    return round_from_tiles(hand(dealer), [hand(player)], hand(exposed), dice)


def test_main_win_pays_even_money() -> None:
    round_ = one_seat("1-1 2-2 3-4", "1-2 3-5 6-7", "4-4 5-5 6-6")  # 7 against 16
    settled = settle_bet(Bet.MAIN, 1000, round_, 1, RULES)
    assert (settled.result, settled.won, settled.returned) == (BetResult.WIN, 1000, 2000)


def test_main_win_bonus_pays_three_to_two_rounded_down() -> None:
    """0 points against 13: 3:2 on 1000 is 1500; on 5 cents it is 7.5, paid 7."""
    round_ = one_seat("1-1 2-2 3-3", "1-2 2-3 4-5", "4-4 5-5 6-6")
    assert settle_bet(Bet.MAIN, 1000, round_, 1, RULES).won == 1500
    assert settle_bet(Bet.MAIN, 5, round_, 1, RULES).won == 7


def test_main_loses_on_equal_points_and_on_more() -> None:
    equal = one_seat("1-2 2-3 4-5", "1-4 2-2 3-5", "4-4 5-5 6-6")  # 13 against 1+4+3+5 = 13
    assert settle_bet(Bet.MAIN, 1000, equal, 1, RULES).won == -1000
    more = one_seat("1-2 2-3 4-5", "1-4 2-2 3-4", "5-5 6-6 7-7")  # 13 against 1+3 = 4
    assert settle_bet(Bet.MAIN, 1000, more, 1, RULES).won == -1000
    zeros = one_seat("4-4 5-5 6-6", "1-1 2-2 3-3", "7-7 1-2 1-3")  # 0 against 0 loses
    assert settle_bet(Bet.MAIN, 1000, zeros, 1, RULES).won == -1000


def test_play_bonus_loses_the_wager_but_pays_two_to_one_net_plus_one() -> None:
    """RULES-NOTES: 27 points lose the wager and are paid 2:1 on it — net +1 unit."""
    round_ = one_seat("2-3 4-5 6-7", "1-1 2-2 3-3", "4-4 5-5 6-6")
    settled = settle_bet(Bet.MAIN, 1000, round_, 1, RULES)
    assert (settled.result, settled.won, settled.returned) == (BetResult.LOSE, 1000, 2000)
    richer = settle_bet(Bet.MAIN, 1000, round_, 1, LoBallRules.from_options(play_bonus_pays=3))
    assert richer.won == 2000


def test_payouts_are_options() -> None:
    round_ = one_seat("1-1 2-2 3-3", "1-2 2-3 4-5", "4-4 5-5 6-6")
    rules = LoBallRules.from_options(**{"win-bonus-pays": "2"})
    assert settle_bet(Bet.MAIN, 1000, round_, 1, rules).won == 2000
    assert LoBallRules.from_options(lo_hi_pays="8").lo_hi_pays == 8


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"lo_hi_pays": "-1"}, "lo-hi-pays: must be in [0, 1000]"),
        ({"dice_pays": "many"}, "dice-pays: must be a number"),
        ({"decks": 8}, "decks: not an option of lo-ball"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOption, match=message.replace("[", r"\[").replace("]", r"\]")):
        LoBallRules.from_options(**options)


def test_lo_card_wins_seven_to_one_for_the_holder() -> None:
    round_ = one_seat("1-1 2-5 3-6", "1-2 2-3 4-5", "4-4 5-5 6-6")
    settled = settle_bet(Bet.LO_CARD, 1000, round_, 1, RULES)
    assert (settled.result, settled.won) == (BetResult.WIN, 7000)


def test_lo_card_loses_when_the_dealer_holds_1_1() -> None:
    round_ = one_seat("1-2 2-5 3-6", "1-1 2-3 4-5", "4-4 5-5 6-6")
    assert settle_bet(Bet.LO_CARD, 1000, round_, 1, RULES).won == -1000


def test_lo_card_pushes_when_1_1_is_exposed() -> None:
    round_ = one_seat("1-2 2-5 3-6", "1-3 2-3 4-5", "4-4 1-1 6-6")
    settled = settle_bet(Bet.LO_CARD, 1000, round_, 1, RULES)
    assert (settled.result, settled.won, settled.returned) == (BetResult.PUSH, 0, 1000)


def test_lo_card_loses_when_1_1_stays_unused() -> None:
    round_ = one_seat("1-2 2-5 3-6", "1-3 2-3 4-5", "4-4 5-5 6-6")
    assert settle_bet(Bet.LO_CARD, 1000, round_, 1, RULES).result is BetResult.LOSE


def test_lo_card_loses_when_a_second_player_holds_1_1() -> None:
    """Seed: tiles are exposed only if *no player* holds 1-1; another seat's 1-1 beats the push."""
    round_ = round_from_tiles(
        hand("1-2 2-3 4-5"),
        [hand("1-3 2-5 3-6"), hand("1-1 2-6 3-7")],
        hand("4-4 5-5 6-6"),
        (1, 2, 4),
    )
    assert settle_bet(Bet.LO_CARD, 1000, round_, 1, RULES).result is BetResult.LOSE
    assert settle_bet(Bet.LO_CARD, 1000, round_, 2, RULES).won == 7000


def test_hi_card_is_the_same_with_7_7() -> None:
    holds = one_seat("7-7 2-5 3-6", "1-2 2-3 4-5", "4-4 5-5 6-6")
    exposed = one_seat("1-2 2-5 3-6", "1-3 2-3 4-5", "4-4 7-7 6-6")
    dealer = one_seat("1-2 2-5 3-6", "7-7 2-3 4-5", "4-4 5-5 6-6")
    assert settle_bet(Bet.HI_CARD, 100, holds, 1, RULES).won == 700
    assert settle_bet(Bet.HI_CARD, 100, exposed, 1, RULES).result is BetResult.PUSH
    assert settle_bet(Bet.HI_CARD, 100, dealer, 1, RULES).won == -100


def test_no_tiles_are_exposed_when_players_hold_both_1_1_and_7_7() -> None:
    round_ = round_from_tiles(
        hand("1-2 2-3 4-5"), [hand("1-1 2-5 3-6"), hand("7-7 2-6 3-7")], [], (1, 2, 4)
    )
    assert round_.exposed == ()
    with pytest.raises(InvalidCards, match="no tiles are exposed"):
        round_from_tiles(
            hand("1-2 2-3 4-5"),
            [hand("1-1 2-5 3-6"), hand("7-7 2-6 3-7")],
            hand("4-4 5-5 6-6"),
            (1, 2, 4),
        )


@pytest.mark.parametrize(
    ("dice", "lo", "hi"),
    [
        ((1, 2, 3), BetResult.WIN, BetResult.LOSE),  # 6
        ((1, 1, 2), BetResult.WIN, BetResult.LOSE),  # 4, the lowest non-triple
        ((4, 4, 2), BetResult.WIN, BetResult.LOSE),  # 10
        ((4, 4, 3), BetResult.LOSE, BetResult.WIN),  # 11
        ((6, 6, 5), BetResult.LOSE, BetResult.WIN),  # 17
        ((2, 2, 2), BetResult.LOSE, BetResult.LOSE),  # a triple totalling 6
        ((5, 5, 5), BetResult.LOSE, BetResult.LOSE),  # a triple totalling 15
        ((1, 1, 1), BetResult.LOSE, BetResult.LOSE),
    ],
)
def test_dice_bets(dice: tuple[int, int, int], lo: BetResult, hi: BetResult) -> None:
    assert dice_result(Bet.DICE_LO, dice) is lo
    assert dice_result(Bet.DICE_HI, dice) is hi
    round_ = one_seat("1-2 2-5 3-6", "1-3 2-3 4-5", "4-4 5-5 6-6", dice)
    expected = 1000 if lo is BetResult.WIN else -1000
    assert settle_bet(Bet.DICE_LO, 1000, round_, 1, RULES).won == expected


def test_a_full_table_of_seven() -> None:
    """Seven players: 3 + 21 tiles dealt and 3 exposed when needed, all different."""
    for seed in range(40):
        round_ = deal_round(SeededRandom(seed), 7)
        assert round_.seats == 7
        tiles = [*round_.dealer.tiles, *(t for h in round_.players for t in h.tiles)]
        tiles += round_.exposed
        assert len(tiles) == len(set(tiles)) == 24 + len(round_.exposed)
        assert len(round_.exposed) in (0, 3)
        for seat in range(1, 8):
            for bet in Bet:
                settled = settle_bet(bet, 500, round_, seat, RULES)
                assert settled.returned - settled.stake == settled.won
        # Exactly one seat can win Lo-Card, and only if a player holds 1-1.
        lo_winners = [
            s for s in range(1, 8) if settle_bet(Bet.LO_CARD, 100, round_, s, RULES).won > 0
        ]
        assert len(lo_winners) == (1 if round_.held_by_a_player(Tile(1, 1)) else 0)


def test_seven_players_entered_live() -> None:
    stack = list(TILE_SET)
    dealt = round_from_stack(stack, 7, (3, 3, 4))
    entered = round_from_tiles(
        [str(t) for t in dealt.dealer.tiles],
        [[str(t) for t in h.tiles] for h in dealt.players],
        [str(t) for t in dealt.exposed],
        (3, 3, 4),
    )
    assert entered == dealt


def test_an_eighth_player_is_refused() -> None:
    with pytest.raises(InvalidOption, match=r"Lo-Ball seats 1 to 7 players.*got 8"):
        deal_round(SeededRandom(1), 8)
    with pytest.raises(InvalidOption, match="got 0"):
        deal_round(SeededRandom(1), 0)
    tiles = list(TILE_SET)
    hands = [[str(t) for t in tiles[i : i + 3]] for i in range(3, 27, 3)]
    with pytest.raises(InvalidOption, match="got 8"):
        round_from_tiles([str(t) for t in tiles[:3]], hands, [], (1, 2, 4))


@pytest.mark.parametrize(
    ("dealer", "players", "exposed", "dice", "message"),
    [
        ("1-2 2-3 4-5", ["1-2 2-5 3-6"], "4-4 5-5 6-6", (1, 2, 4), "tile 1-2 entered twice"),
        ("1-2 2-3", ["1-3 2-5 3-6"], "4-4 5-5 6-6", (1, 2, 4), "dealer: a hand is 3 tiles, got 2"),
        ("1-2 2-3 4-5", ["1-3 2-5 3-6 6-7"], "4-4 5-5 6-6", (1, 2, 4), "seat 1: a hand is 3"),
        ("1-2 2-3 4-5", ["1-3 2-5 3-6"], "4-4 5-5", (1, 2, 4), "3 tiles are exposed; got 2"),
        ("1-2 2-3 4-5", ["1-3 2-5 3-6"], "4-4 5-5 6-6", (1, 2), "rolls 3 dice, got 2"),
        ("1-2 2-3 4-5", ["1-3 2-5 3-6"], "4-4 5-5 6-6", (1, 2, 7), "a die shows 1 to 6, got 7"),
    ],
)
def test_live_entry_refuses_what_cannot_have_been_dealt(
    dealer: str, players: list[str], exposed: str, dice: tuple[int, ...], message: str
) -> None:
    with pytest.raises(InvalidCards, match=message):
        round_from_tiles(hand(dealer), [hand(p) for p in players], hand(exposed), dice)


@pytest.mark.parametrize(("text", "message"), [("8-8", "no tile 8-8"), ("x", "cannot read")])
def test_live_entry_refuses_unknown_tiles(text: str, message: str) -> None:
    with pytest.raises(InvalidCards, match=message):
        round_from_tiles([text, "2-3", "4-5"], [["1-3", "2-5", "3-6"]], [], (1, 2, 4))


def test_bad_bets_seats_and_stakes_are_refused() -> None:
    round_ = one_seat("1-2 2-5 3-6", "1-3 2-3 4-5", "4-4 5-5 6-6")
    with pytest.raises(InvalidBet, match="unknown bet 'tie' for lo-ball"):
        Bet.parse("tie")
    assert Bet.parse("hi-card") is Bet.HI_CARD
    with pytest.raises(InvalidBet, match="no seat 2"):
        settle_bet(Bet.MAIN, 100, round_, 2, RULES)
    with pytest.raises(InvalidBet, match="no seat 0"):
        settle_bet(Bet.DICE_HI, 100, round_, 0, RULES)
    with pytest.raises(InvalidBet, match="stake must be positive"):
        settle_bet(Bet.MAIN, 0, round_, 1, RULES)


def test_a_stack_must_be_the_whole_set() -> None:
    with pytest.raises(InvalidCards, match="full set of 28"):
        round_from_stack([*TILE_SET[:-1], TILE_SET[0]], 1, (1, 2, 4))


def test_electronic_rounds_come_from_the_random_source() -> None:
    assert deal_round(SeededRandom(9), 3) == deal_round(SeededRandom(9), 3)
    assert Fraction(RULES.main_pays(MainOutcome.PLAY_BONUS)) == 1
