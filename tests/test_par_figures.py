"""The PAR sheet's operating figures: the floor plan, the edge at real stakes, one round's
liability, the correlation of the bets on a round, and the rules hash."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest

import baccara
from baccara.errors import InvalidOption
from baccara.exact.floor import FloorPlan, on_the_floor, worst_stake
from baccara.exact.loball_worst import worst_tiles_probability
from baccara.exact.round_risk import correlations, liability
from baccara.exact.stakes import bet_at_stake
from baccara.games import GAMES, game
from baccara.games.fingerprint import rules_hash
from baccara.games.paytable import DEFAULT_PAYTABLE

RULE_SETS = (
    ("punto-banco", {}),
    ("punto-banco", {"variant": "ez", "sidebets": "dragon-7,panda-8"}),
    ("punto-banco", {"variant": "no-commission", "sidebets": "super-6,lucky-6"}),
    ("redgreen", {}),
    ("redgreen-mini", {}),
    ("lo-ball", {}),
)


@pytest.mark.parametrize(("game_id", "options"), RULE_SETS)
def test_the_worst_stake_is_the_worst_of_every_stake_the_table_takes(
    game_id: str, options: dict[str, str]
) -> None:
    """worst_stake tries one period of stakes; here every stake from 1.00 to 30.00 is tried."""
    for bet in baccara.analyze(game_id, **options).bets:
        edges = {s: bet_at_stake(bet, s).house_edge for s in range(100, 3_001)}
        worst = max(edges.values())
        stake, found = worst_stake(bet, 100, 3_000)
        assert found == worst == edges[stake]
        assert stake == min(s for s, e in edges.items() if e == worst)


def test_a_bet_paying_whole_cents_on_every_stake_has_no_worse_stake() -> None:
    tie = baccara.analyze("punto-banco").bet("tie")
    figures = on_the_floor(tie, FloorPlan.for_game(game("punto-banco")))
    assert figures.step == 1
    assert figures.worst_edge == figures.edge_at_min == tie.house_edge


def test_win_per_hour_and_hold_follow_the_plan() -> None:
    spec = game("punto-banco")
    banker = baccara.analyze("punto-banco").bet("banker")
    plan = FloorPlan.for_game(spec, hands_per_hour=60, average_bet_cents=10_000, seats=5,
                              drop_to_handle=Fraction(1, 4))  # fmt: skip
    figures = on_the_floor(banker, plan)
    assert figures.win_per_hour_seat == 60 * 10_000 * banker.house_edge  # 100.00: whole cents
    assert figures.win_per_hour_table == 5 * figures.win_per_hour_seat
    assert figures.hold == 4 * banker.house_edge
    odd = on_the_floor(banker, FloorPlan.for_game(spec, average_bet_cents=101))
    paid = bet_at_stake(banker, 101).house_edge  # 0.95 on 1.01, not 0.9595
    assert paid > banker.house_edge and odd.win_per_hour_seat == 72 * 101 * paid
    sources = dict(plan.sources)
    assert sources["seats"] == "given with --seats"
    assert sources["week_hours"].startswith("assumption")


def test_the_plan_refuses_what_no_table_has_and_moves_defaults_onto_given_limits() -> None:
    spec = game("lo-ball")
    with pytest.raises(InvalidOption, match="--seats"):
        FloorPlan.for_game(spec, seats=8)
    with pytest.raises(InvalidOption, match=r"--max-bet: must be from 10\.00"):
        FloorPlan.for_game(spec, min_bet_cents=1_000, max_bet_cents=500)
    with pytest.raises(InvalidOption, match="--drop-to-handle"):
        FloorPlan.for_game(spec, drop_to_handle=Fraction(0))
    with pytest.raises(InvalidOption, match="--hands-per-hour"):
        FloorPlan.for_game(spec, hands_per_hour=0)
    high = FloorPlan.for_game(spec, min_bet_cents=100_000)
    assert high.max_bet_cents == high.average_bet_cents == 100_000
    assert "moved onto the limits given" in dict(high.sources)["average_bet_cents"]


def test_every_game_has_a_pace_and_a_mix_of_its_own_bets() -> None:
    for spec in GAMES.values():
        assert spec.floor is not None
        assert spec.floor.source.startswith("assumption")
        assert set(spec.floor.mix) <= set(spec.bet_ids)


def test_punto_banco_worst_round_is_tie_and_both_pairs_at_every_seat() -> None:
    """7 seats × 500.00 on Tie (8:1) and both pairs (11:1): 7 × 15,000.00. Its probability is
    the joint cells' (tie, Player pair, Banker pair), counted here from the cells."""
    from baccara.exact.joint_punto_banco import joint_counts

    spec, rules = game("punto-banco"), game("punto-banco").rules()
    found = liability(spec, rules, baccara.analyze("punto-banco"), 50_000, 7)
    assert found.total_cents == 7 * (8 + 11 + 11) * 50_000 and found.exact
    assert found.winners == (("tie", "player-pair", "banker-pair"),)
    counts = joint_counts(8)
    both = sum(n for (winner, pp, bp), n in counts.items() if winner.value == "tie" and pp and bp)
    assert found.probability == Fraction(both, sum(counts.values()))
    tie = next(b for b in found.bets if b.bet == "tie")
    assert tie.total_cents == 7 * 400_000 and tie.seats_paid == 7


def test_redgreen_bonus_at_a_thousand_to_one_on_twelve_seats() -> None:
    """The issue's example: the Bonus at 1000:1 on twelve seats at 500.00 is 6,000,000.00;
    the worst round adds the winning side's 19:20 on every seat — Red's or Green's, each
    named, the probability the two's together."""
    spec = game("redgreen")
    analysis = baccara.analyze("redgreen")
    found = liability(spec, spec.rules(), analysis, 50_000, 12)
    bonus = next(b for b in found.bets if b.bet == "bonus")
    top = max(DEFAULT_PAYTABLE.pays.values())
    assert bonus.top_pays == top == 1000
    assert bonus.total_cents == 12 * 1000 * 50_000
    assert found.total_cents == 12 * (1000 * 50_000 + 47_500)
    assert set(found.winners) == {("red", "bonus"), ("green", "bonus")}
    assert found.probability is not None and 0 < found.probability < bonus.probability


@pytest.mark.parametrize("seats", range(1, 8))
def test_lo_balls_worst_round_is_dealt_through_the_rules(seats: int) -> None:
    """Every seat's Win-bonus, the one Lo-Card and Hi-Card and one side of the dice: a deal
    that reaches it, settled by the game's own rules, pays exactly the sheet's worst."""
    from baccara.games.loball import Bet, round_from_tiles, settle_bet

    spec, rules = game("lo-ball"), game("lo-ball").rules()
    found = liability(spec, rules, baccara.analyze("lo-ball"), 50_000, seats)
    if seats == 1:
        players = [["1-1", "7-7", "3-3"]]
    else:

        def triangle(a: int, b: int, c: int) -> list[str]:
            return [f"{min(x, y)}-{max(x, y)}" for x, y in ((a, b), (b, c), (a, c))]

        lines = [(1, 2, 4), (2, 3, 5), (3, 4, 6), (4, 5, 7), (5, 6, 1)]
        players = [
            ["1-1", "2-2", "3-3"],
            ["5-5", "6-6", "7-7"],
            *(triangle(*line) for line in lines),
        ]
        players = players[:seats]
    dealt = round_from_tiles(["4-4", "6-7", "1-3"], players, [], [1, 2, 3])
    paid = sum(
        max(0, settle_bet(bet, 50_000, dealt, seat, rules).won)
        for seat in range(1, seats + 1)
        for bet in Bet
    )
    assert paid == found.total_cents and found.exact
    assert set(found.winners) == {("main", "lo-card", "hi-card", "dice-lo"),
                                  ("main", "lo-card", "hi-card", "dice-hi")}  # fmt: skip
    by_bet = {b.bet: b for b in found.bets}
    assert by_bet["lo-card"].seats_paid == 1 and by_bet["lo-card"].probability == Fraction(3, 28)
    tiles = worst_tiles_probability(rules, 50_000, seats)  # tests/test_loball_worst.py
    assert tiles is not None and found.probability == tiles * Fraction(210, 216) > 0


def test_lo_balls_worst_round_is_a_bound_where_a_plain_win_pays_as_much_as_the_bonus() -> None:
    """With a plain win at 3 to 2 every hand below the dealer's pays the most: too many
    deals to list, so the probability is one seat's best outcome and the dice's, a bound."""
    options = {"win_pays": "3/2"}
    spec, analysis = game("lo-ball"), baccara.analyze("lo-ball", **options)
    found = liability(spec, spec.rules_from_options(**options), analysis, 50_000, 7)
    main = analysis.bet("main")
    best = sum((o.probability for o in main.outcomes if o.pays == Fraction(3, 2)), Fraction(0))
    assert not found.exact and found.probability == best * Fraction(210, 216)


def test_lo_ball_payouts_no_deal_makes_together_are_counted_as_never() -> None:
    """A Play-bonus above the Win-bonus is 27 points, which no hand holding 1-1 makes:
    the sum of every spot's most is never paid, and the sheet's figure says so."""
    options = {"play_bonus_pays": "5"}
    spec, analysis = game("lo-ball"), baccara.analyze("lo-ball", **options)
    found = liability(spec, spec.rules_from_options(**options), analysis, 50_000, 3)
    assert found.exact and found.probability == 0


def test_banker_and_player_correlation_from_the_outcomes() -> None:
    """Cov(B, P) = E[BP] − E[B]E[P], with BP = −19/20 on a Banker win, −1 on a Player win
    and 0 on a tie: read from the analysis, not from the joint model."""
    analysis = baccara.analyze("punto-banco")
    banker, player = analysis.bet("banker"), analysis.bet("player")
    p_banker, p_player = banker.outcome("win").probability, player.outcome("win").probability
    covariance = (
        -Fraction(19, 20) * p_banker - p_player - banker.expected_return * player.expected_return
    )
    found = correlations(game("punto-banco"), game("punto-banco").rules())
    b, p = found.labels.index("banker"), found.labels.index("player")
    assert found.covariance[b][p] == covariance
    assert found.covariance[b][b] == banker.variance
    assert found.correlation(b, p) == pytest.approx(
        float(covariance) / (banker.std_dev * player.std_dev), rel=1e-12
    )
    assert found.correlation(b, p) < -0.95


def test_lo_ball_seats_move_together_and_the_dice_apart() -> None:
    found = correlations(game("lo-ball"), game("lo-ball").rules())
    labels = found.labels
    assert labels[:2] == ("seat 1 main", "seat 1 lo-card")
    one, two = labels.index("seat 1 main"), labels.index("seat 2 main")
    assert found.correlation(one, two) > 0.1  # one dealer hand for both
    dice = labels.index("dice-lo")
    assert found.correlation(one, dice) == 0  # the dice are independent of the tiles
    lo1, lo2 = labels.index("seat 1 lo-card"), labels.index("seat 2 lo-card")
    assert found.correlation(lo1, lo2) < 0  # one 1-1 for the table


def test_the_rules_hash_changes_with_any_pay_and_only_then() -> None:
    spec = game("redgreen")
    base = spec.rules()
    assert rules_hash(base) == rules_hash(spec.rules())
    changed_pays = dict(DEFAULT_PAYTABLE.pays)
    first = next(iter(changed_pays))
    changed_pays[first] += 1
    other = dataclasses.replace(
        base, paytable=dataclasses.replace(base.paytable, pays=changed_pays)
    )
    assert rules_hash(other) != rules_hash(base)
    assert rules_hash(base, "redgreen") != rules_hash(base, "redgreen-mini")
    pb = game("punto-banco")
    assert rules_hash(pb.rules_from_options(sidebets="dragon-7")) != rules_hash(
        pb.rules_from_options(sidebets="panda-8")
    )
    assert rules_hash(pb.rules_from_options(commission="5")) == rules_hash(pb.rules())
    renamed = dataclasses.replace(base.paytable, name="mine", description="the same pays")
    assert rules_hash(dataclasses.replace(base, paytable=renamed)) == rules_hash(base)


def test_lo_balls_best_outcomes_are_those_paying_the_most_cents() -> None:
    """A Play-bonus of 2.00001 to 1 nets 1.00001, a win 1 to 1: at 500.00 both pay 500.00,
    so both are the best and the bound counts both. Checked against every one-seat deal
    holding 1-1 and 7-7, settled by the rules, that pays the worst round's tiles."""
    from baccara.games.loball import Bet, round_from_tiles, settle_bet
    from baccara.tiles import TILE_SET, Tile

    options = {"play_bonus_pays": "200001/100000", "win_bonus_pays": "1/2"}
    spec, analysis = game("lo-ball"), baccara.analyze("lo-ball", **options)
    rules = spec.rules_from_options(**options)
    found = liability(spec, rules, analysis, 50_000, 1)
    main = next(b for b in found.bets if b.bet == "main")
    assert main.best == ("win", "play-bonus (27 points)") and not found.exact
    target = main.per_seat_cents + 2 * 7 * 50_000
    hits = 0
    held = (Tile.parse("1-1"), Tile.parse("7-7"))
    for third in (t for t in TILE_SET if t not in held):
        hand = [*held, third]
        rest = [t for t in TILE_SET if t not in hand]
        for dealer in itertools.combinations(rest, 3):
            dealt = round_from_tiles(list(dealer), [hand], [], [1, 2, 3])
            paid = sum(max(0, settle_bet(b, 50_000, dealt, 1, rules).won) for b in Bet
                       if b in (Bet.MAIN, Bet.LO_CARD, Bet.HI_CARD))  # fmt: skip
            hits += paid == target
    true = Fraction(hits, 3276 * 2300) * Fraction(210, 216)
    assert 0 < true <= found.probability
