"""A round's win as it is paid: every wager's payout rounded down to the cent on its own.

Known answers, by hand:

* 0.01 on Banker and 0.01 on Player, one coup: a Banker win pays the Banker bet nothing
  and takes the Player cent (the house wins 1); a Player win takes the Banker cent and
  pays the Player one (0); a tie pushes both. So the house wins 1 cent exactly when Banker
  wins: mean p, variance p(1 − p), p the Banker's win probability.
* 0.25 on Red and 0.25 on Green: the winner is paid 0.23, the loser's 0.25 is taken, so
  the house wins 2 cents on every deal that is not a push.
* two 0.25 Banker bets are paid 0.46 on a win, one 0.50 bet 0.47: the house expects the
  Banker's win probability in cents more from the two.

Lo-Ball is proven on small tile sets: every deal of them, each wager settled by the live
rules (``settle_bet``), gives exactly the model's mean and variance.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from baccara.errors import InvalidBet
from baccara.exact import analyze, analyze_at_stake, house_win_mean, house_win_variance
from baccara.exact import joint_loball as joint
from baccara.exact import joint_loball_paid as paid
from baccara.exact.joint import round_model
from baccara.exact.joint_model import SpotModel, Wager, cell_moments, paid_by_cell
from baccara.exact.stakes import bet_step
from baccara.games import GAMES, game
from baccara.games.loball import Bet, Hand, LoBallRules, Round, exposure_needed, settle_bet
from baccara.tiles import TILE_SET, Tile

RULES = {
    "seed": LoBallRules(),
    "variant": LoBallRules(win_bonus_pays=Fraction(5, 2), lo_hi_pays=Fraction(13, 2),
                           play_bonus_pays=Fraction(1, 2)),
}  # fmt: skip
"""The seed's payouts (only 3:2 rounds), and one where Lo-Card and Hi-Card pay 6.5 to 1 and
the Play-bonus 1:2 — a loss of half the stake, rounded against the bettor."""

SMALL_SET = tuple(
    TILE_SET.index(Tile.parse(t))
    for t in ("1-1", "7-7", "1-2", "2-2", "2-3", "4-5", "6-7", "3-3", "1-7", "3-5")
)
LARGER_SET = tuple(sorted((*SMALL_SET, TILE_SET.index(Tile(4, 4)), TILE_SET.index(Tile(2, 6)))))


def _seat(game_id: str) -> int | None:
    return 1 if game_id == "lo-ball" else None


@pytest.mark.parametrize("game_id", list(GAMES))
def test_one_wager_as_paid_is_the_bet_at_that_stake(game_id: str) -> None:
    rules = game(game_id).rules()
    for stake in (1, 3, 25, 101):
        at = analyze_at_stake(game_id, stake)
        for bet in at.bets:
            wager = [(_seat(game_id), bet.bet, stake)]
            assert house_win_mean(game_id, rules, wager, as_paid=True) == -bet.expected_cents
            assert house_win_variance(game_id, rules, wager, as_paid=True) == bet.variance_cents


ROUNDS = {
    "punto-banco": [(None, "banker", 2000), (None, "banker", 40), (None, "player", 100),
                    (None, "tie", 300), (None, "banker-pair", 20)],
    "redgreen": [(None, "red", 2000), (None, "green", 60), (None, "bonus", 100)],
    "redgreen-mini": [(None, "red", 20), (None, "bonus", 7)],
    "lo-ball": [(1, "main", 200), (1, "lo-card", 3), (2, "main", 50), (2, "hi-card", 11),
                (3, "main", 2), (1, "dice-lo", 5), (3, "dice-hi", 7), (2, "dice-lo", 1)],
}  # fmt: skip
"""Rounds of several wagers whose every payout is whole cents: multiples of each game's step."""


def _paid_cell_by_cell(
    game_id: str, rules: object, wagers: list[Wager]
) -> tuple[Fraction, Fraction]:
    """The house's mean win and variance with every wager settled on its own, in every
    cell of the round's joint distribution — never the per-unit form, whatever rounds."""
    model = round_model(game_id, rules)
    if isinstance(model, SpotModel):
        stakes: list[list[int]] = [[] for _ in model.spots]
        for _, spot, stake in wagers:
            stakes[model.spots.index(spot)].append(stake)
        mean, variance = cell_moments(model.counts, paid_by_cell(model.pays, stakes))
        return -mean, variance
    assert isinstance(rules, LoBallRules)
    seats: dict[int, list[list[int]]] = {}
    dice: list[list[int]] = [[] for _ in paid.DICE_SPOTS]
    for seat, spot, stake in wagers:
        assert seat is not None
        if spot in paid.DICE_SPOTS:
            dice[paid.DICE_SPOTS.index(spot)].append(stake)
        else:
            own = seats.setdefault(seat, [[] for _ in paid.SEAT_SPOTS])
            own[paid.SEAT_SPOTS.index(spot)].append(stake)
    return paid.paid_moments(rules, seats, dice)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_where_nothing_rounds_as_paid_is_the_exact_odds(game_id: str) -> None:
    """Stakes on each game's step: the round's figures, as paid and at the exact odds, are
    what settling every wager in every cell gives, and the mean is Σ stake × edge."""
    rules = game(game_id).rules()
    wagers = ROUNDS[game_id]
    step = bet_step(analyze(game_id).bets)
    assert all(stake % step == 0 or spot not in ("banker", "red", "green", "main")
               for _, spot, stake in wagers)  # fmt: skip
    mean, variance = _paid_cell_by_cell(game_id, rules, wagers)
    edges = {bet.bet: bet.house_edge for bet in analyze(game_id).bets}
    assert mean == sum(stake * edges[spot] for _, spot, stake in wagers)
    for as_paid in (True, False):
        assert house_win_mean(game_id, rules, wagers, as_paid=as_paid) == mean
        assert house_win_variance(game_id, rules, wagers, as_paid=as_paid) == variance


def test_a_lo_ball_wager_without_a_seat_is_refused_as_paid_too() -> None:
    rules = LoBallRules()
    for stake in (2, 3):  # whole cents at 3:2, and not
        for as_paid in (True, False):
            with pytest.raises(InvalidBet, match="belongs to a seat 1 to 7, not None"):
                house_win_mean("lo-ball", rules, [(None, "main", stake)], as_paid=as_paid)


def test_a_cent_on_banker_and_a_cent_on_player() -> None:
    rules = game("punto-banco").rules()
    p = analyze("punto-banco").bet("banker").outcome("win").probability
    wagers = [(1, "banker", 1), (2, "player", 1)]
    assert house_win_mean("punto-banco", rules, wagers, as_paid=True) == p
    assert house_win_variance("punto-banco", rules, wagers, as_paid=True) == p * (1 - p)
    # At the exact odds the Banker's cent would win 0.95 of a cent: the two nearly cancel.
    assert house_win_variance("punto-banco", rules, wagers) < Fraction(1, 100)


@pytest.mark.parametrize("game_id", ["redgreen", "redgreen-mini"])
def test_a_quarter_on_red_and_on_green(game_id: str) -> None:
    rules = game(game_id).rules()
    push = analyze(game_id).bet("red").outcome("push").probability
    wagers = [(None, "red", 25), (None, "green", 25)]
    assert house_win_mean(game_id, rules, wagers, as_paid=True) == 2 * (1 - push)
    assert house_win_variance(game_id, rules, wagers, as_paid=True) == 4 * push * (1 - push)


def test_each_wager_is_rounded_on_its_own() -> None:
    rules = game("punto-banco").rules()
    p = analyze("punto-banco").bet("banker").outcome("win").probability
    two = house_win_mean("punto-banco", rules, [(1, "banker", 25), (2, "banker", 25)], as_paid=True)
    one = house_win_mean("punto-banco", rules, [(1, "banker", 50)], as_paid=True)
    assert two - one == p  # 0.46 against 0.47 on every Banker win


# --- Lo-Ball: the indicators' moments ---------------------------------------------------------


def _pays_vectors(rules: LoBallRules) -> list[list[Fraction]]:
    """(main, lo-card, hi-card) per unit as combinations of the ten outcome indicators."""
    main = [rules.main_pays(o) for o in joint.OUTCOMES] + [Fraction(0)] * 6
    tile = [rules.lo_hi_pays, Fraction(0), Fraction(-1)]
    return [main, [Fraction(0)] * 4 + tile + [Fraction(0)] * 3, [Fraction(0)] * 7 + tile]


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_the_indicators_weighted_by_the_pays_are_the_per_unit_moments(rules: LoBallRules) -> None:
    """The per-unit model is the indicators' with ``c = pays``: its mean, and its second
    moments within a seat and between two, entry by entry."""
    features = paid.feature_moments()
    seat = joint.seat_moments(rules)
    vectors = _pays_vectors(rules)

    def weighted(matrix: tuple[tuple[Fraction, ...], ...], k: int, j: int) -> Fraction:
        return sum(
            (vectors[k][a] * matrix[a][b] * vectors[j][b]
             for a in range(paid.FEATURES) for b in range(paid.FEATURES)),
            Fraction(0),
        )  # fmt: skip

    for k in range(3):
        assert sum(v * m for v, m in zip(vectors[k], features.mean, strict=True)) == seat.mean[k]
        for j in range(3):
            assert weighted(features.within, k, j) == seat.within[k][j]
            assert weighted(features.across, k, j) == seat.across[k][j]


def test_the_indicators_are_probabilities() -> None:
    features = paid.feature_moments()
    assert sum(features.mean[:4]) == 1 and sum(features.mean[4:7]) == 1
    for block in (range(4), range(4, 7), range(7, 10)):
        for other in (range(4), range(4, 7), range(7, 10)):
            total = sum(features.across[a][b] for a in block for b in other)
            assert total == 1  # every pair of outcomes of two seats, once


def _dealt(in_play: tuple[int, ...], players: int, rules: LoBallRules,
           wagers: list[tuple[int, Bet, int]]) -> tuple[Fraction, Fraction]:  # fmt: skip
    """The house's exact mean and variance over every deal of ``in_play``, each wager
    settled in cents by the live rules."""
    tiles = [TILE_SET[i] for i in in_play]
    wins: dict[int, int] = {}

    def deal(rest: list[Tile], hands: list[Hand]) -> None:
        if len(hands) == players + 1:
            for exposed in itertools.combinations(rest, 3):
                seats = tuple(hands[1:])
                round_ = Round(
                    hands[0], seats, exposed if exposure_needed(seats) else (), (1, 2, 3)
                )
                won = sum(stake - settle_bet(bet, stake, round_, seat, rules).returned
                          for seat, bet, stake in wagers)  # fmt: skip
                wins[won] = wins.get(won, 0) + 1
            return
        for hand in itertools.combinations(rest, 3):
            deal([t for t in rest if t not in hand], [*hands, Hand(hand)])

    deal(tiles, [])
    total = sum(wins.values())
    mean = Fraction(sum(w * n for w, n in wins.items()), total)
    return mean, Fraction(sum(w * w * n for w, n in wins.items()), total) - mean**2


def _model(in_play: tuple[int, ...], rules: LoBallRules,
           wagers: list[tuple[int, Bet, int]]) -> tuple[Fraction, Fraction]:  # fmt: skip
    seats: dict[int, list[list[int]]] = {}
    for seat, bet, stake in wagers:
        seats.setdefault(seat, [[], [], []])[paid.SEAT_SPOTS.index(bet.value)].append(stake)
    return paid.paid_moments(rules, seats, [[], []], paid.paid_forms(in_play))


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_one_seat_on_ten_tiles_settled_by_the_rules(rules: LoBallRules) -> None:
    wagers = [(1, Bet.MAIN, 101), (1, Bet.MAIN, 3), (1, Bet.LO_CARD, 5), (1, Bet.HI_CARD, 7)]
    dealt = _dealt(SMALL_SET, 1, rules, wagers)
    assert dealt == _model(SMALL_SET, rules, wagers)
    per_unit = joint.seat_moments(rules, SMALL_SET).mean
    at_the_odds = -sum((s * per_unit[paid.SEAT_SPOTS.index(b.value)] for _, b, s in wagers),
                       Fraction(0))  # fmt: skip
    assert dealt[0] > at_the_odds  # the rounding is the house's


@pytest.mark.slow
def test_two_seats_on_twelve_tiles_settled_by_the_rules() -> None:
    rules = RULES["variant"]
    wagers = [(1, Bet.MAIN, 101), (2, Bet.MAIN, 3), (1, Bet.LO_CARD, 5), (2, Bet.HI_CARD, 7),
              (2, Bet.LO_CARD, 1)]  # fmt: skip
    assert _dealt(LARGER_SET, 2, rules, wagers) == _model(LARGER_SET, rules, wagers)


def test_the_dice_are_paid_on_their_own() -> None:
    """Dice at 19:20 (an option): 0.01 on each pays nothing, so the house wins the cent of
    the side that loses, and both on a triple: 1 cent, or 2 on 6 rolls of 216."""
    rules = LoBallRules(dice_pays=Fraction(19, 20))
    model = paid.round_model(rules)
    wagers = [(1, "dice-lo", 1), (2, "dice-hi", 1)]
    p = Fraction(6, 216)
    assert model.paid_mean(wagers) == 1 + p
    assert model.paid_variance(wagers) == p * (1 - p)
