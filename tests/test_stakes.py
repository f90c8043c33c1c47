"""Edges at the stake that is paid: every payout rounded down to the cent, outcome by outcome.

Known answers, each worked out here again by hand from the 8-deck Punto Banco counts the
Wizard of Odds publishes for baccarat (Banker wins 2,292,252,566,437,888 of
4,998,398,275,503,360 six-card sequences, Player 2,230,518,282,592,256, ties
475,627,426,473,216 — the counts ``baccara analyze punto-banco`` prints):

* 0.01 on Banker: a win pays 19/20 of a cent, rounded down to nothing; the edge is the
  chance of losing, 44.62 %;
* 0.25: a win pays 0.23 (23.75 cents rounded down); the edge is 2.43 %;
* 1.01: a win pays 0.95 (95.95 cents); the edge is 1.49 %;
* at any multiple of 0.20 every payout is whole cents and the edge is the exact 1.0579 %.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

import baccara
from baccara.errors import BaccaraError, InvalidBet
from baccara.exact import analyze, analyze_at_stake, bet_step_cents
from baccara.exact.stakes import (
    analysis_at_stake,
    bet_at_stake,
    bet_step,
    rounding_bites,
    whole_cents,
    won_at_stake,
)
from baccara.games import GAMES, punto_banco
from baccara.games.loball import Bet as LoBallBet
from baccara.games.loball import LoBallRules, round_from_tiles
from baccara.games.loball import settle_bet as settle_lo_ball
from baccara.money import BetResult, settle
from tests.helpers import assert_refused, cards, run

WIN, LOSE, TIE = 2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216
TOTAL = 4_998_398_275_503_360
"""Banker wins, Player wins, ties: eight decks, every ordered six-card sequence."""


def banker_edge_by_hand(stake: int) -> Fraction:
    """The house's gain per unit on ``stake`` cents: a win pays ⌊19·stake/20⌋ cents, a tie
    pushes, a loss takes the stake — integers only, none of baccara's code."""
    won = (19 * stake) // 20
    return Fraction(LOSE * stake - WIN * won, TOTAL * stake)


def test_the_counts_are_the_analysis() -> None:
    banker = analyze("punto-banco").bet("banker")
    assert [o.count for o in banker.outcomes] == [WIN, TIE, LOSE]
    assert WIN + LOSE + TIE == TOTAL


@pytest.mark.parametrize(
    ("stake", "won", "percent"),
    [(1, 0, "44.62"), (25, 23, "2.43"), (101, 95, "1.49"), (20, 19, "1.06"), (1000, 950, "1.06")],
)  # fmt: skip
def test_the_banker_edge_at_a_stake_is_the_hand_computed_one(
    stake: int, won: int, percent: str
) -> None:
    at = analyze_at_stake("punto-banco", stake).bet("banker")
    assert at.house_edge == banker_edge_by_hand(stake)
    assert f"{100 * float(at.house_edge):.2f}" == percent
    assert at.outcome("win").won_cents == won
    assert at.outcome("push").won_cents == 0 and at.outcome("lose").won_cents == -stake


def test_the_three_figures_of_the_brief() -> None:
    edges = {s: analyze_at_stake("punto-banco", s).bet("banker").house_edge for s in (1, 25, 101)}
    assert f"{100 * float(edges[1]):.1f}" == "44.6"
    assert f"{100 * float(edges[25]):.2f}" == "2.43"
    assert f"{100 * float(edges[101]):.2f}" == "1.49"
    assert edges[1] == Fraction(LOSE, TOTAL)  # nothing is ever paid: the edge is P(lose)


def test_each_outcome_is_paid_as_the_table_settles_it() -> None:
    """A real Banker win, tie and loss, settled by Punto Banco's own ``settle_bet``, win
    what the stakes module says at every stake from 1 cent to 3.00."""
    rules = punto_banco.PuntoBancoRules()
    coups = {
        "win": punto_banco.coup_from_cards(cards("2 9 3 K")),  # Player 5, Banker 9: natural
        "push": punto_banco.coup_from_cards(cards("4 9 5 K")),  # 9 against 9
        "lose": punto_banco.coup_from_cards(cards("9 2 K 3")),  # Player 9 natural
    }
    banker = analyze("punto-banco").bet("banker")
    for stake in range(1, 301):
        at = bet_at_stake(banker, stake)
        for name, coup in coups.items():
            settled = punto_banco.settle_bet(punto_banco.Bet.BANKER, stake, coup, rules)
            assert settled.won == at.outcome(name).won_cents, (stake, name)


@pytest.mark.parametrize("play_bonus", ["0.5", "1.5", "2", "2.25"])
def test_the_play_bonus_is_paid_on_a_loss_as_lo_ball_settles_it(play_bonus: str) -> None:
    """A 27-point hand loses the wager and is paid the Play-bonus on it. Its outcome's net
    pay is the bonus less 1 (negative under 1:1): settled by Lo-Ball's own rules, at odd
    stakes where the bonus rounds, every one wins what the stakes module says."""
    rules = LoBallRules.from_options(play_bonus_pays=play_bonus)
    round_ = round_from_tiles(["1-1", "2-2", "3-3"], [["2-3", "4-5", "6-7"]],
                              ["1-3", "1-4", "1-5"], [1, 2, 3])  # fmt: skip
    assert round_.players[0].points == 27
    main = analyze("lo-ball", play_bonus_pays=play_bonus).bet("main")
    for stake in (1, 3, 7, 25, 99, 101):
        settled = settle_lo_ball(LoBallBet.MAIN, stake, round_, 1, rules)
        assert settled.result is BetResult.LOSE
        assert settled.won == bet_at_stake(main, stake).outcome("play-bonus (27 points)").won_cents


def test_the_win_bonus_of_three_to_two_rounds_on_odd_stakes() -> None:
    main = analyze("lo-ball").bet("main")
    assert bet_at_stake(main, 101).outcome("win-bonus (0 points)").won_cents == 151
    assert bet_at_stake(main, 100).outcome("win-bonus (0 points)").won_cents == 150
    assert not bet_at_stake(main, 100).rounding_matters and bet_at_stake(main, 101).rounding_matters


def test_every_way_settle_pays_comes_to_the_floor_of_stake_times_pays() -> None:
    """A win, a push, a loss, a loss with a bonus: each is ⌊stake × pays⌋ cents."""
    for pays in (Fraction(n, d) for n in range(-8, 30) for d in (1, 2, 3, 20)):
        if pays < -1:
            with pytest.raises(BaccaraError, match="cannot lose more than the stake"):
                won_at_stake(10, pays)
            continue
        for stake in range(1, 60):
            assert won_at_stake(stake, pays) == math.floor(stake * pays), (stake, pays)


def test_a_loss_with_a_bonus_is_settle_itself() -> None:
    for stake in range(1, 40):
        bonus = Fraction(1, 2)
        assert (
            won_at_stake(stake, bonus - 1) == settle(stake, BetResult.LOSE, Fraction(1), bonus).won
        )


@pytest.mark.parametrize("game", list(GAMES))
def test_at_every_multiple_of_the_step_the_edges_are_the_exact_ones(game: str) -> None:
    analysis = analyze(game)
    step = bet_step(analysis.bets)
    assert step == math.lcm(*(o.pays.denominator for b in analysis.bets for o in b.outcomes))
    for k in (1, 2, 3, 7, 50):
        at = baccara.analyze_at_stake(game, k * step)
        for bet, exact in zip(at.bets, analysis.bets, strict=True):
            assert bet.house_edge == exact.house_edge and not bet.rounding_matters
            assert bet.variance == exact.variance
            assert bet.expected_cents == -k * step * exact.house_edge


@pytest.mark.parametrize("game", list(GAMES))
def test_rounding_only_ever_raises_the_edge(game: str) -> None:
    analysis = analyze(game)
    step = bet_step(analysis.bets)
    for stake in range(1, 3 * step + 2):
        at = baccara.analyze_at_stake(game, stake)
        for bet, exact in zip(at.bets, analysis.bets, strict=True):
            assert bet.house_edge >= exact.house_edge
            assert bet.rounding_matters == rounding_bites(exact, stake)
        assert at.rounding_matters == (stake % step != 0)
        every_pay = [o.pays for b in analysis.bets for o in b.outcomes]
        assert whole_cents(stake, every_pay) == (stake % step == 0)  # the step rule


def test_the_steps_of_the_shipped_games() -> None:
    """19:20 needs 0.20, 3:2 needs 0.02, a 4 % commission (24:25) 0.25; RedGreen's Bonus
    pays whole units, so its step is its commission's."""
    assert bet_step_cents("punto-banco") == 20 == baccara.bet_step_cents("punto-banco")
    assert bet_step_cents("punto-banco", commission=4) == 25
    assert bet_step_cents("lo-ball") == 2
    assert bet_step_cents("lo-ball", win_bonus_pays=2) == 1
    for game in ("redgreen", "redgreen-mini"):
        analysis = analyze(game)
        bonus = {o.pays.denominator for o in analysis.bet("bonus").outcomes}
        assert bonus == {1}
        assert bet_step_cents(game) == analysis.bet("red").outcome("win").pays.denominator == 20


def test_variance_at_a_stake_is_the_second_moment_of_what_is_paid() -> None:
    """0.01 on Banker is paid nothing or loses a cent: a coin of P(lose), var p(1 − p)."""
    at = analyze_at_stake("punto-banco", 1).bet("banker")
    p = Fraction(LOSE, TOTAL)
    assert at.variance_cents == p * (1 - p) == at.variance
    assert at.hit_frequency == 0
    twenty_five = analyze_at_stake("punto-banco", 25).bet("banker")
    mean = Fraction(WIN * 23 - LOSE * 25, TOTAL)
    assert twenty_five.expected_cents == mean
    assert twenty_five.variance_cents == Fraction(WIN * 23**2 + LOSE * 25**2, TOTAL) - mean**2


def test_per_unit_is_the_analysis() -> None:
    for bet in analyze("lo-ball").bets:
        unit = bet_at_stake(bet, None)
        assert unit.house_edge == bet.house_edge and unit.variance == bet.variance
        assert unit.stake_cents is None and not unit.rounding_matters


@pytest.mark.parametrize(
    "stake", [0, -25, 1.5, float("nan"), float("inf"), True, "25", None, 10**20, 100_000_001]
)
def test_a_stake_that_is_not_whole_positive_cents_is_refused(stake: object) -> None:
    with pytest.raises(InvalidBet, match="stake"):
        baccara.analyze_at_stake("punto-banco", stake)  # type: ignore[arg-type]


def test_the_game_and_options_are_refused_as_analyze_refuses_them() -> None:
    with pytest.raises(baccara.UnknownGame):
        baccara.analyze_at_stake("faro", 25)
    with pytest.raises(baccara.InvalidOption, match="decks"):
        baccara.analyze_at_stake("punto-banco", 25, decks=0)
    with pytest.raises(baccara.InvalidOption, match="decks"):
        baccara.bet_step_cents("punto-banco", decks=0)


# --- the command ---------------------------------------------------------------------------


def test_analyze_at_a_stake_prints_each_outcome_as_paid() -> None:
    result = run("analyze", "punto-banco", "--stake", "0.25")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "banker at 0.25" in out
    assert "house edge 2.4337% at 0.25" in out and "1.0579% at the exact odds" in out
    assert "│ win     │ 0.95 to 1 │  0.45859742 │ +0.23 │      0.0075 │" in out
    assert "At 0.25 each payout rounds down to the cent" in out and "multiples of 0.20" in out


def test_analyze_at_a_stake_as_json_is_the_python_api() -> None:
    result = run("analyze", "lo-ball", "--stake", "1.01", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data == json.loads(json.dumps(baccara.analyze_at_stake("lo-ball", 101).to_dict()))
    assert data["stake_cents"] == 101 and data["bet_step_cents"] == 2
    main = data["bets"][0]
    assert main["bet"] == "main" and main["outcomes"][0]["won_cents"] == 151
    assert main["house_edge_exact"] == "4904791/190253700"


def test_without_a_stake_analyze_says_the_figures_are_per_unit_and_where() -> None:
    """Off the step only the bets whose odds leave a fraction of a cent are rounded:
    19:20 at Punto Banco and RedGreen, 3:2 at Lo-Ball; Player 1:1, Tie 8:1, the pairs
    11:1 and the Bonus's whole odds pay whole cents on every stake."""
    result = run("analyze", "punto-banco")
    assert " ".join(result.stdout.split()).endswith(
        "Per unit staked, as paid on multiples of 0.20; at other stakes only banker's payouts"
        " can round down to the cent (player, tie, player-pair and banker-pair always pay"
        " whole cents): see --stake."
    )
    notes = [
        analysis_at_stake(baccara.analyze(game_id, **options), None).note()
        for game_id, options in [
            ("redgreen", {}),
            ("lo-ball", {}),
            ("lo-ball", {"win_bonus_pays": 2}),
        ]
    ]
    assert notes == [
        "Per unit staked, as paid on multiples of 0.20; at other stakes only red's and green's"
        " payouts can round down to the cent (bonus always pays whole cents): see --stake.",
        "Per unit staked, as paid on multiples of 0.02; at other stakes only main's payouts can"
        " round down to the cent (lo-card, hi-card, dice-lo and dice-hi always pay whole cents):"
        " see --stake.",
        "Per unit staked, and as paid at every stake: every payout is whole cents.",
    ]
    data = json.loads(run("analyze", "lo-ball", "--stake", "1", "--json").stdout)
    assert data["bet_step_cents"] == 2  # the step, in the JSON: at a stake


@pytest.mark.parametrize(
    ("stake", "message"),
    [
        ("-1", "--stake: must be between 0.01 and 1000000.00, got -1"),
        ("0", "--stake: must be between 0.01"),
        ("nan", "--stake: must be an amount, got 'nan'"),
        ("inf", "--stake: must be an amount"),
        ("0.001", "--stake: must be an amount with at most 2 decimal places"),
        ("1e9", "--stake: must be between 0.01 and 1000000.00, got 1e9"),
        ("ten", "--stake: must be an amount, got 'ten'"),
    ],
)
def test_a_bad_stake_is_one_line_and_exit_2(stake: str, message: str) -> None:
    assert_refused(run("analyze", "punto-banco", "--stake", stake), message)


def test_a_stake_with_the_effect_of_removal_is_refused() -> None:
    assert_refused(
        run("analyze", "punto-banco", "--stake", "1", "--effect-of-removal"),
        "--effect-of-removal is per unit staked",
    )
