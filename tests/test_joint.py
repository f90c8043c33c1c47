"""The house's win on one round (``exact/joint.py``): the contract and the identities every
game's joint distribution must satisfy, whatever the game.

* one wager alone: variance = stake² × the analysis's variance, mean = stake × edge;
* stakes scale the variance as s² and add the means;
* players who all follow the shoe make one bet: (Σ stake)² × var;
* a Banker and a Player bet together vary far less than either alone;
* no wagers give 0; a bad wager raises the project's refusals.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from baccara import analyze
from baccara.errors import InvalidBet, InvalidOption, UnknownGame
from baccara.exact import house_win_mean, house_win_variance
from baccara.exact.joint import round_model
from baccara.exact.joint_model import ExactForm, form_from_cells
from baccara.games import GAMES, game, game_ids
from baccara.games.loball import LoBallRules
from baccara.games.punto_banco import PuntoBancoRules
from baccara.games.redgreen import RedGreenRules

VARIANTS: dict[str, tuple[dict[str, object], ...]] = {
    "punto-banco": ({}, {"decks": 6, "commission": "4", "tie_pays": "9"}, {"decks": 1}),
    "redgreen": ({}, {"decks": 6, "split_kings": "off"}),
    "redgreen-mini": ({},),
    "lo-ball": ({}, {"win_bonus_pays": "2", "lo_hi_pays": "6", "dice_pays": "0.95"}),
}


def _seat(game_id: str) -> int | None:
    return 1 if game(game_id).table.seat_required else None


CASES = [(g, options) for g in game_ids() for options in VARIANTS[g]]


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_one_wager_is_the_analysis_bet(game_id: str, options: dict[str, object]) -> None:
    """A single wager's variance is stake² × ``BetAnalysis.variance`` and its mean
    stake × ``house_edge``: the joint distribution's marginals are the analysis's."""
    rules = game(game_id).rules_from_options(**options)
    analysis = analyze(game_id, **options)
    for bet in analysis.bets:
        for stake in (1, 2500):
            wager = [(_seat(game_id), bet.bet, stake)]
            assert house_win_variance(game_id, rules, wager) == stake**2 * bet.variance
            assert house_win_mean(game_id, rules, wager) == stake * bet.house_edge


@pytest.mark.parametrize("game_id", game_ids())
def test_the_mean_is_the_sum_of_stake_times_edge(game_id: str) -> None:
    rules = game(game_id).rules()
    edges = {b.bet: b.house_edge for b in analyze(game_id).bets}
    seats = (1, 2, 3) if game(game_id).table.seat_required else (None, None, 4)
    wagers = [
        (seat, bet, 100 * (i + 1))
        for i, (seat, bet) in enumerate(itertools.product(seats, game(game_id).bet_ids))
    ]
    assert house_win_mean(game_id, rules, wagers) == sum(
        (stake * edges[bet] for _, bet, stake in wagers), Fraction(0)
    )


@pytest.mark.parametrize("game_id", game_ids())
def test_stakes_scale_the_variance_as_their_square(game_id: str) -> None:
    rules = game(game_id).rules()
    seat = _seat(game_id)
    wagers = [(seat, bet, 100 + 37 * i) for i, bet in enumerate(game(game_id).bet_ids)]
    tripled = [(s, bet, 3 * stake) for s, bet, stake in wagers]
    assert house_win_variance(game_id, rules, tripled) == 9 * house_win_variance(
        game_id, rules, wagers
    )


@pytest.mark.parametrize("game_id", game_ids())
def test_no_wagers_no_variance(game_id: str) -> None:
    """An empty round — or a voided one, whose stakes all went back — has no wagers."""
    rules = game(game_id).rules()
    assert house_win_variance(game_id, rules, []) == 0
    assert house_win_mean(game_id, rules, []) == 0


@pytest.mark.parametrize("game_id", ["punto-banco", "redgreen", "redgreen-mini"])
def test_players_following_the_shoe_make_one_bet(game_id: str) -> None:
    """Every wager is on the same coup: ten players on one spot are one bet of the sum,
    (Σ stake)² × var, not Σ stake² × var — whoever sits where."""
    rules = game(game_id).rules()
    spot = game(game_id).bet_ids[0]
    stakes = [100 * k for k in range(1, 11)]
    wagers = [(seat, spot, stake) for seat, stake in enumerate(stakes, 1)]
    variance = analyze(game_id).bet(spot).variance
    assert house_win_variance(game_id, rules, wagers) == sum(stakes) ** 2 * variance
    assert house_win_variance(game_id, rules, [(None, spot, sum(stakes))]) == (
        sum(stakes) ** 2 * variance
    )


def test_banker_and_player_together_vary_far_less_than_either() -> None:
    """Banker and Player push together on a tie and otherwise one wins what the other
    loses (less the commission): together their variance is under 1/100 of either's."""
    rules = PuntoBancoRules()
    both = house_win_variance("punto-banco", rules, [(1, "banker", 100), (2, "player", 100)])
    banker = house_win_variance("punto-banco", rules, [(1, "banker", 100)])
    player = house_win_variance("punto-banco", rules, [(2, "player", 100)])
    assert 0 < both < min(banker, player) / 100
    # The commission is all that is left: a winning Banker nets 95, a winning Player 100.
    analysis = analyze("punto-banco")
    p_banker = analysis.bet("banker").outcome("win").probability
    p_player = analysis.bet("player").outcome("win").probability
    net = {"banker": Fraction(-95 + 100), "player": Fraction(0)}  # the house's win per coup
    mean = p_banker * net["banker"] + p_player * net["player"]
    assert both == p_banker * net["banker"] ** 2 - mean**2


def test_red_and_green_together_are_almost_riskless() -> None:
    rules = RedGreenRules()
    both = house_win_variance("redgreen", rules, [(1, "red", 100), (2, "green", 100)])
    red = house_win_variance("redgreen", rules, [(1, "red", 100)])
    assert 0 < both < red / 1000


def test_the_seat_does_not_matter_where_every_bet_is_on_one_coup() -> None:
    rules = PuntoBancoRules()
    a = [(1, "banker", 500), (1, "tie", 100), (None, "player-pair", 50)]
    b = [(None, "banker", 300), (7, "banker", 200), (3, "tie", 100), (2, "player-pair", 50)]
    assert house_win_variance("punto-banco", rules, a) == house_win_variance(
        "punto-banco", rules, b
    )


def test_lo_ball_seats_are_exchangeable_and_n_matters_only_through_the_stakes() -> None:
    """Which seat numbers the players sit in changes nothing; splitting a stake over two
    seats is not the same as one seat's (two hands against one dealer)."""
    rules = LoBallRules()
    a = [(1, "main", 200), (2, "lo-card", 100), (2, "main", 50), (5, "dice-hi", 100)]
    b = [(7, "main", 200), (3, "lo-card", 100), (3, "main", 50), (1, "dice-hi", 100)]
    assert house_win_variance("lo-ball", rules, a) == house_win_variance("lo-ball", rules, b)
    one = house_win_variance("lo-ball", rules, [(1, "main", 200)])
    two = house_win_variance("lo-ball", rules, [(1, "main", 100), (2, "main", 100)])
    assert one / 4 < two < one  # positively correlated through the dealer's hand


def test_dice_bets_are_one_roll_for_the_table() -> None:
    rules = LoBallRules()
    spread = [(seat, "dice-lo", 100) for seat in range(1, 8)]
    variance = analyze("lo-ball").bet("dice-lo").variance
    assert house_win_variance("lo-ball", rules, spread) == 700**2 * variance


def test_an_unknown_spot_is_refused() -> None:
    with pytest.raises(InvalidBet, match="unknown bet 'dragon' for punto-banco"):
        house_win_variance("punto-banco", PuntoBancoRules(), [(1, "dragon", 100)])
    with pytest.raises(InvalidBet, match="unknown bet 'banker' for lo-ball"):
        house_win_mean("lo-ball", LoBallRules(), [(1, "banker", 100)])


@pytest.mark.parametrize("stake", [0, -5, 2.5, True, "100"])
def test_a_stake_that_is_not_whole_positive_cents_is_refused(stake: object) -> None:
    with pytest.raises(InvalidBet):
        house_win_variance("punto-banco", PuntoBancoRules(), [(1, "banker", stake)])  # type: ignore[list-item]


@pytest.mark.parametrize("seat", [None, 0, 8, "1", True])
def test_every_lo_ball_wager_names_a_seat(seat: object) -> None:
    with pytest.raises(InvalidBet, match="seat 1 to 7"):
        house_win_variance("lo-ball", LoBallRules(), [(seat, "main", 100)])  # type: ignore[list-item]


def test_a_malformed_wager_is_refused() -> None:
    with pytest.raises(InvalidBet, match="a wager is"):
        house_win_variance("punto-banco", PuntoBancoRules(), [("banker", 100)])  # type: ignore[list-item]


def test_rules_of_another_game_and_unknown_games_are_refused() -> None:
    with pytest.raises(InvalidOption, match="dealt under PuntoBancoRules"):
        house_win_variance("punto-banco", RedGreenRules(), [])
    with pytest.raises(UnknownGame):
        house_win_variance("baccarat-royale", PuntoBancoRules(), [])


def test_every_game_names_its_round_model_in_the_registry() -> None:
    for game_id, spec in GAMES.items():
        model = round_model(game_id, spec.rules())
        assert model is round_model(game_id, spec.rules()), "kept per rules"
    assert round_model("redgreen", RedGreenRules()) is round_model("redgreen-mini", RedGreenRules())


def test_a_coin_toss_by_hand() -> None:
    """Heads pays 1, tails loses: mean 0, variance 1; a bet on each side is riskless."""
    form = form_from_cells([1, 1], [(Fraction(1), Fraction(-1)), (Fraction(-1), Fraction(1))])
    assert form.mean_fractions() == (0, 0)
    assert form.covariance_fractions() == ((1, -1), (-1, 1))
    assert form.variance([3, 3]) == 0 and form.variance([3, 0]) == 9
    assert ExactForm.of([Fraction(1, 2)], [[Fraction(1, 3)]]).variance([6]) == 12
